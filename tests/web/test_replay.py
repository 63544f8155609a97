"""The replay of a campaign on the map (junta/games/replay_views.py): every step of a finished
campaign is a page of its own with links to the steps beside it and the slider's form; it is
drawn from the stored results (no phase is adjudicated again); a running campaign is replayed
by its members only, up to its latest published phase, each with his own lines and never
another family's secrets (docs/rules.md §secrets); the end report links each turn to its
first step."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from junta import engine
from junta.engine import Event
from junta.games import repository
from junta.games.adjudication import publish_draft
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, PhaseResult
from tests.web.browser_forms import forms_in
from tests.web.campaigns import gm_ticks, open_phase, play_days
from tests.web.endings import finish

pytestmark = pytest.mark.django_db

POCKET, BANK = 987652, 876542


def steps_of(game: Game) -> list[int]:
    return sorted(PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
                  .values_list("phase__number", flat=True))


def step(game: Game, number: int) -> str:
    return reverse("game_replay_step", args=[game.id, number])


def link(page: str, rel: str) -> str | None:
    found = re.search(rf'<a class="button" href="([^"]+)" rel="{rel}"', page)
    return found.group(1) if found else None


@pytest.fixture
def finished(campaign):
    game, users = campaign()
    finish(game, users)
    return game, users


def test_every_step_of_a_finished_campaign_renders_forwards_and_back(finished, client,
                                                                    monkeypatch):
    game, users = finished
    numbers = steps_of(game)

    def no_adjudication(*args: object, **kwargs: object) -> None:
        raise AssertionError("the replay adjudicated a phase")

    monkeypatch.setattr(engine, "resolve", no_adjudication)
    client.force_login(users[0])
    start = client.get(reverse("game_replay", args=[game.id]))
    assert start.status_code == 302 and start["Location"] == step(game, numbers[0])
    url: str | None = step(game, numbers[0])
    seen = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        seen.append(url)
        n = len(seen)
        assert f"{n} of {len(numbers)}" in page
        assert '<svg xmlns="http://www.w3.org/2000/svg" class="citymap"' in page
        assert f'id="phase-{numbers[n - 1]}"' in page  # the phase's results in words
        url = link(page, "next")
    assert seen == [step(game, n) for n in numbers]
    url = seen[-1]
    back = []
    while url:
        back.append(url)
        url = link(client.get(url).content.decode(), "prev")
    assert back == seen[::-1]
    assert client.get(step(game, numbers[-1] + 1)).status_code == 404


def test_the_slider_s_form_goes_to_its_step(finished, client):
    game, users = finished
    numbers = steps_of(game)
    client.force_login(users[3])
    page = client.get(step(game, numbers[0])).content.decode()
    form = next(f for f in forms_in(page) if "step" in f.names())
    assert form.attrs["method"] == "get" and form.control("step").type == "range"
    assert form.control("step").attrs["max"] == str(len(numbers))
    assert form.control("step").value == "1"
    response = client.get(f'{form.attrs["action"]}?{form.set("step", "3").encoded()}')
    assert response.status_code == 302 and response["Location"] == step(game, numbers[2])
    # a step out of range (typed into the address) starts from the first
    response = client.get(f'{form.attrs["action"]}?step={len(numbers) + 5}')
    assert response["Location"] == step(game, numbers[0])


def test_a_visitor_replays_a_finished_campaign_listed_publicly(finished, client):
    game, _users = finished
    numbers = steps_of(game)
    page = client.get(step(game, numbers[-1])).content.decode()
    assert f"{len(numbers)} of {len(numbers)}" in page
    # the GM keeps it out of the archive: a visitor is asked to sign in first
    gm_ticks(client, game, "archived_publicly", False)
    client.logout()
    assert client.get(step(game, numbers[0])).status_code == 302


def test_the_end_report_links_each_turn_to_the_replay(finished, client):
    game, users = finished
    client.force_login(users[0])
    page = client.get(reverse("game_report", args=[game.id])).content.decode()
    firsts: dict[int, int] = {}
    for turn, number in Phase.objects.filter(game=game, status=Phase.Status.PUBLISHED) \
            .order_by("number").values_list("turn", "number"):
        firsts.setdefault(turn, number)
    assert 1 in firsts and 2 in firsts
    for turn, number in firsts.items():
        label = f"Turn {turn}" if turn else "Before the first turn"
        assert f'<a href="{step(game, number)}">{label}</a>' in page
        assert client.get(step(game, number)).status_code == 200


@pytest.fixture
def running(campaign):
    """A campaign a few phases in, one family's pocket and bank set to numbers found nowhere
    else (then published in the states after), and a draft phase the GM has not published."""
    game, users = campaign(review=True)
    start_campaign(game.id, game.gm)
    for day in range(7):
        if day == 3:
            phase = open_phase(game)
            state = repository.state_before(phase)
            state.players[4].pocket, state.players[4].bank = POCKET, BANK
            repository.rewrite_state_before(phase, state)
        phase = open_phase(game)
        play_days(game, users, 1)
        if day < 6:  # the last result stays a draft
            publish_draft(phase.id, game.gm_id)
    return game, users


def test_a_running_campaign_is_replayed_by_its_members_up_to_the_last_published_phase(
        running, client):
    game, users = running
    numbers = steps_of(game)
    # a result not published yet (the GM reviews it) is nobody's step
    last = PhaseResult.objects.get(phase__game=game, phase__status=Phase.Status.DRAFTED)
    assert last.phase.number == numbers[-1] + 1
    told: dict[int, set[str]] = {}  # seat -> private lines told him
    for result in PhaseResult.objects.filter(phase__game=game, published_at__isnull=False):
        for data in result.events:
            event = Event.from_dict(data)
            if not isinstance(event.audience, str):
                for seat in event.audience:
                    told.setdefault(seat, set()).add(escape(event.text))
    assert told
    for user, seat in ((users[0], 0), (users[4], 4)):
        client.force_login(user)
        others = set().union(*(lines for s, lines in told.items() if s != seat)) - \
            told.get(seat, set())
        pages = [client.get(step(game, n)) for n in numbers]
        assert all(r.status_code == 200 for r in pages)
        text = "".join(r.content.decode() for r in pages)
        for secret in others:
            assert secret not in text, secret
        assert all(line in text for line in told.get(seat, set()))
        for marker in (POCKET, BANK):
            assert str(marker) not in text and f"{marker:,}" not in text
        assert client.get(step(game, last.phase.number)).status_code == 404
        assert client.get(step(game, numbers[-1] + 1)).status_code == 404
    client.force_login(game.gm)
    assert client.get(step(game, numbers[-1])).status_code == 200
    assert client.get(step(game, last.phase.number)).status_code == 404
    client.logout()
    assert client.get(step(game, numbers[0])).status_code == 302
    from django.contrib.auth import get_user_model

    stranger = get_user_model().objects.create_user(email="stranger@example.org")
    client.force_login(stranger)
    assert client.get(step(game, numbers[0])).status_code == 404
    assert client.get(reverse("game_replay", args=[game.id])).status_code == 404


def test_nothing_published_yet_says_so(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])
    page = client.get(reverse("game_replay", args=[game.id]))
    assert page.status_code == 200
    assert "nothing to replay" in html.unescape(page.content.decode())
