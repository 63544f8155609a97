"""A practice campaign against the bots (junta/games/practice.py): started from the dashboard's
form as the browser posts it, private to its player (404 to anyone else, no GM panel, the bots'
hands secret), played at once when he marks his orders final (exactly once), at most three
at a time, abandoned or restarted after a confirmation, never in the profile's results."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from junta.engine import Catalog
from junta.games import practice, repository
from junta.games.models import Game, Order, Phase, PhaseResult
from junta.games.templatetags.career import career
from tests.web.browser_forms import form_to, form_with, forms_in, submit

pytestmark = pytest.mark.django_db

START = "/games/practice/new/"
CSS = Path(settings.BASE_DIR) / "static" / "css" / "junta.css"


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    """The same deal and the same bots' orders every run, so that a failure comes back."""
    # the field's default as Django calls it (cached on the field: `default` is read once)
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: "practice-web")


@pytest.fixture
def person(client):
    user = get_user_model().objects.create_user(email="solo@example.org", display_name="Solo")
    client.force_login(user)
    return user


def start(client, family: str = "Los Papayas", bots: str = "6"):  # noqa: ANN001, ANN201
    """The dashboard's form filled in and sent as the browser sends it."""
    form = form_to(client.get("/").content.decode(), START)
    form.set("family", family).set("bots", bots)
    return submit(client, "/", form)


def the_game(user) -> Game:  # noqa: ANN001 - a user
    return Game.objects.filter(practice=True, players__user=user).latest("pk")


def open_phase(game: Game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


def mark_final(client, game: Game):  # noqa: ANN001, ANN201
    url = reverse("game_orders", args=[game.id])
    return submit(client, url, form_with(client.get(url).content.decode(), "action", "final"))


def test_two_clicks_on_the_dashboard_start_a_practice_campaign(client, person):
    response = start(client)
    game = the_game(person)
    assert response.status_code == 302
    assert response["Location"] == reverse("game_status", args=[game.id])
    assert game.status == Game.Status.NOMINATING and game.practice
    seats = list(game.players.order_by("seat"))
    assert len(seats) == 7 and seats[0].user == person
    assert all(not p.user.is_active and not p.user.has_usable_password() for p in seats[1:])
    assert not game.gm.is_active and game.gm != person
    status = client.get(response["Location"]).content.decode()
    assert "What this phase is for" in status
    assert f'{reverse("rules")}#first-election' in status
    assert 'data-clock="practice"' in status and "Restart" in status
    dashboard = client.get("/").content.decode()
    assert game.name in dashboard
    mark = re.search(r'<span class="([^"]*practice-mark[^"]*)">practice</span>', dashboard)
    assert mark and "badge" in mark.group(1).split()  # the site's badge, styled in its CSS
    assert re.search(r"^\.badge \{[^}]*background", CSS.read_text(), re.M)
    assert "No deadline" in dashboard


def test_a_bad_number_of_bots_starts_nothing(client, person):
    form = form_to(client.get("/").content.decode(), START)
    form.set("family", "Los Papayas")
    form.control("bots").options.append(("12", "12", True))  # a forged choice
    response = submit(client, "/", form)
    assert response.status_code == 302 and not Game.objects.filter(practice=True).exists()


def test_marking_final_plays_the_phase_at_once_and_only_once(client, person):
    start(client)
    game = the_game(person)
    first = open_phase(game)
    assert repository.state_before(first).players[0].name == "Los Papayas"
    mark_final(client, game)
    first.refresh_from_db()
    assert first.status == Phase.Status.PUBLISHED
    assert PhaseResult.objects.filter(phase=first).count() == 1
    # every bot that owed orders gave them, final
    bots_final = set(Order.objects.filter(phase=first, final=True)
                     .values_list("player__seat", flat=True))
    assert set(first.owing_seats) <= bots_final
    nxt = open_phase(game)
    assert nxt.number > first.number and 0 in nxt.owing_seats
    # nothing more to play until he is final again; the minute sweep leaves it alone
    assert practice.play_on(game.id) == 0
    from junta.games.adjudication import due_phase_ids
    assert nxt.id not in due_phase_ids()
    assert game.phases.count() == nxt.number


def test_bots_orders_are_the_same_every_time(client, person):
    """Seeded from the game's seed, the phase and the seat: the replay gives them again."""
    start(client)
    game = the_game(person)
    phase = open_phase(game)
    mark_final(client, game)
    given = {o.player.seat: o.payload for o in Order.objects.filter(phase=phase)}
    from junta.engine import Rng, bot_orders
    state = repository.state_before(phase)
    for seat in range(1, 7):
        again = bot_orders(state, seat, Rng(f"practice:{game.seed}:{phase.number}:{seat}"))
        assert given.get(seat, []) == [o.to_dict() for o in again]


def test_at_most_three_at_once(client, person):
    for family in ("Uno", "Dos", "Tres"):
        start(client, family)
    response = start(client, "Cuatro")
    assert Game.objects.filter(practice=True).count() == 3
    page = client.get(response["Location"]).content.decode()
    assert "You already play 3 practice campaigns" in page


def test_private_to_him_no_gm_panel_no_bots_secrets(client, person):
    start(client)
    game = the_game(person)
    mark_final(client, game)  # on to a phase with cards dealt, if any
    other = get_user_model().objects.create_user(email="nosy@example.org")
    client.force_login(other)
    for name in ("game_status", "game_orders", "game_history", "game_map"):
        assert client.get(reverse(name, args=[game.id])).status_code == 404
    assert client.get(reverse("gm_overview", args=[game.id])).status_code == 404
    assert game.name not in client.get(reverse("lobby")).content.decode()
    client.force_login(person)
    assert client.get(reverse("gm_overview", args=[game.id])).status_code == 404
    state = repository.state_before(open_phase(game))
    mine = {Catalog.card(c).name for c in state.players[0].hand}
    secret = {Catalog.card(c).name for p in state.players[1:] for c in p.hand} - mine
    for name in ("game_status", "game_orders"):
        page = client.get(reverse(name, args=[game.id])).content.decode()
        leaked = [card for card in secret if card in page]
        assert not leaked, leaked


def test_no_note_to_a_gamemaster_there_is_none(client, person):
    """A practice campaign has no GameMaster: its Orders page offers no note to one, and says
    that orders not given when he marks them final take the defaults (there is no deadline)."""
    start(client)
    page = client.get(reverse("game_orders", args=[the_game(person).id])).content.decode()
    assert "Note to the GameMaster" not in page and 'value="note"' not in page
    assert "when you mark them final take the defaults" in page


def test_abandon_and_restart_ask_first(client, person):
    start(client, "Los Papayas", "8")
    game = the_game(person)
    url = reverse("practice_restart", args=[game.id])
    page = client.get(url).content.decode()
    assert "Nothing is done until you confirm" in page
    response = submit(client, url, form_with(page, "confirm", "True"))
    game.refresh_from_db()
    new = the_game(person)
    assert game.status == Game.Status.FINISHED and new.pk != game.pk
    assert response["Location"] == reverse("game_status", args=[new.id])
    assert new.max_players == 9 and new.name == "Practice: Los Papayas"
    assert client.get(reverse("game_status", args=[game.id])).status_code == 404
    url = reverse("practice_abandon", args=[new.id])
    submit(client, url, form_with(client.get(url).content.decode(), "confirm", "True"))
    new.refresh_from_db()
    assert new.status == Game.Status.FINISHED
    dashboard = client.get("/").content.decode()  # the message names it; the list no more
    assert reverse("game_status", args=[new.id]) not in dashboard


def test_never_in_the_profile_results(client, person):
    start(client)
    game = the_game(person)
    practice.abandon_practice(game.id, person)
    assert career(person)["played"] == 0 and career(person)["finished"] == 0
    assert f"/games/{game.id}/" not in client.get(reverse("game_archive")).content.decode()


def test_every_phase_kind_is_explained_with_a_paragraph_that_exists():
    from pathlib import Path

    from junta.engine import PHASE_TITLES
    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    assert set(practice.PURPOSES) == set(PHASE_TITLES) - {"finished"}
    for kind, (_purpose, section) in practice.PURPOSES.items():
        assert f"{{#{section}}}" in rules, (kind, section)


def test_one_untouched_for_thirty_days_is_archived_by_the_sweep(person):
    from datetime import timedelta

    from django.utils import timezone

    from junta.games.tasks import queue_due_phases
    now = timezone.now()
    old = practice.start_practice(person, "Viejos", 5, now=now - timedelta(days=31))
    new = practice.start_practice(person, "Nuevos", 5, now=now - timedelta(days=29))
    assert queue_due_phases() == []  # no practice phase is ever due by the clock
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.status == Game.Status.FINISHED and new.status != Game.Status.FINISHED
    assert old.audit_entries.filter(action="archive").exists()
    assert practice.running_practice(person) == 1


@override_settings(JUNTA_API_RATES={"sustained": "10000/min", "burst": "10000/min"})
def test_the_api_final_mark_plays_the_phase_as_the_orders_page(client, person):
    import json

    from junta.api import tokens
    game = practice.start_practice(person, "Los Papayas", 5)
    first = open_phase(game)
    auth = {"Authorization": f"Bearer {tokens.create(person, 'bot').secret}"}
    response = client.post(f"/api/v1/campaigns/{game.id}/orders/final",
                           data=json.dumps({"final": True}), content_type="application/json",
                           headers=auth)
    assert response.status_code == 200, response.content
    first.refresh_from_db()
    assert first.status == Phase.Status.PUBLISHED
    assert open_phase(game).number > first.number


@pytest.mark.parametrize("style", ["random", "cautious"])
def test_bots_of_the_style_chosen_on_the_form_play_and_restart_so(client, person, style):
    form = form_to(client.get("/").content.decode(), START)
    form.set("family", "Los Papayas").set("bots", "5").set("style", style)
    submit(client, "/", form)
    game = the_game(person)
    assert game.bot_style == style
    first = open_phase(game)
    mark_final(client, game)
    first.refresh_from_db()
    assert first.status == Phase.Status.PUBLISHED
    new = practice.restart_practice(game.id, person)
    assert new.bot_style == style
    with pytest.raises(practice.CampaignError):
        practice.start_practice(person, "Otros", 5, style="reckless")


def test_no_deadline_in_the_calendar_feed(person):
    from django.utils import timezone

    from junta.notify.calendar import my_phases
    practice.start_practice(person, "Los Papayas", 5)
    assert my_phases(person, timezone.now()) == []


def test_in_exile_each_phase_waits_for_him_and_dead_the_bots_play_on(client, person):
    """An exile owes no orders, yet "may ask to return at any time" (docs/rules.md §exile):
    each phase of his practice campaign waits for his final mark, and his Status page says he
    is in exile. "A dead player cannot act until the next turn begins" (docs/rules.md §death):
    the bots play on to the phase where his family, back under its heir's name, owes orders
    again. When one final mark plays several phases he is told how many."""
    start(client)
    game = the_game(person)
    told = []
    while (phase := open_phase(game)).kind != "locations":
        response = mark_final(client, game)
        told.append(client.get(response["Location"]).content.decode())
    assert any(re.search(r"The bots gave their orders: \d+ phases were played while you owed "
                         r"no orders", page) for page in told)
    url = reverse("game_orders", args=[game.id])
    form = next(f for f in forms_in(client.get(url).content.decode())
                if "order-location-place" in f.names())
    submit(client, url, form.set("order-location-place", "exile").set("and_final", ""))
    for _ in range(2):  # in exile: one phase at a time, at his final mark
        nxt = open_phase(game)
        assert nxt.number == phase.number + 1 and 0 not in nxt.owing_seats
        assert repository.state_before(nxt).players[0].status == "exiled"
        assert "You are in exile" in client.get(reverse("game_status", args=[game.id])) \
            .content.decode()
        assert practice.play_on(game.id) == 0  # nothing played before he is final
        mark_final(client, game)
        phase = nxt
    # dead (as the phase that killed him leaves it): he owes nothing and may not act
    dead = open_phase(game)
    state = repository.state_before(dead)
    state.players[0].status = "dead"
    state.players[0].fresh = True
    repository.rewrite_state_before(dead, state)
    played = practice.play_on(game.id)
    back = open_phase(game)
    assert played >= 3 and back.number == dead.number + played and back.turn == dead.turn + 1
    assert 0 in back.owing_seats
    heir = repository.state_before(back).players[0]
    assert heir.status == "alive" and heir.name == "Los Papayas the Younger"
    assert game.phases.filter(number__gte=dead.number, number__lt=back.number,
                              status=Phase.Status.PUBLISHED).count() == played
