"""The History and the Events pages as the talk grows: the History counts each phase's speeches
and links to them (the Events page filtered to that phase, `?phase=<number>`, in pages), ten
phases a page; neither page's number of queries grows with the phases or the speeches, nor the
History's size with the speeches; a speech of another campaign never shows."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.games.models import Phase, Speech
from junta.games.play_views import HISTORY_PHASES_PER_PAGE
from junta.games.speeches import post_speech
from junta.site.events import SPEECHES_PER_PAGE
from tests.web.campaigns import open_phase, play_days, queries_for

pytestmark = pytest.mark.django_db


def talk(game, users, phases: int, speeches_each: int, marker: str) -> None:  # noqa: ANN001
    """`phases` phases played, `speeches_each` speeches made while each was open (long ones,
    with some Markdown), every speaker in turn."""
    for p in range(phases):
        number = open_phase(game).number
        for i in range(speeches_each):
            post_speech(game, users[(p + i) % len(users)],
                        f"{marker}-{number}-{i}: **Compañeros**, hear me! " + "Viva! " * 60)
        play_days(game, users, 1)


def urls(game) -> dict[str, str]:  # noqa: ANN001
    events = reverse("game_events", args=[game.id])
    history = reverse("game_history", args=[game.id])
    return {"history": history, "older history": f"{history}?page=2", "events": events,
            "events of phase 2": f"{events}?phase=2", "events, page 2": f"{events}?page=2"}


def test_queries_do_not_grow_with_ten_more_phases_and_200_more_speeches(
        campaign, client, django_assert_max_num_queries):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    talk(game, users, 12, 2, "EARLY")  # two pages of History, two of speeches
    client.force_login(users[0])
    before = {name: queries_for(client, url) for name, url in urls(game).items()}

    talk(game, users, 10, 20, "LATER")  # ten more phases, 200 more speeches
    assert Speech.objects.filter(game=game).count() == 224
    for url in urls(game).values():
        client.get(url)  # a coup's new maps are drawn on the first view (one query), then kept
    for name, url in urls(game).items():
        with django_assert_max_num_queries(before[name], info=name):
            assert client.get(url).status_code == 200
    page = client.get(urls(game)["history"]).content.decode()
    assert page.count('<article class="report"') == HISTORY_PHASES_PER_PAGE
    assert "Page 1 of 3" in page


def test_the_history_s_size_does_not_grow_with_the_speeches(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    talk(game, users, 12, 1, "FEW")
    client.force_login(users[0])
    url = reverse("game_history", args=[game.id])
    before = client.get(url).content.decode()
    shown = [int(n) for n in re.findall(r'<article class="report" id="phase-(\d+)"', before)]
    assert len(shown) == HISTORY_PHASES_PER_PAGE

    phases = Phase.objects.filter(game=game, number__in=shown)
    for i in range(200):  # 200 long speeches more in the phases the first page shows
        Speech.objects.create(game=game, phase=phases[i % len(phases)], speaker="Don Carlos",
                              body="MANY: " + "Viva la Republica! " * 40,
                              body_html="<p>MANY: " + "Viva la Republica! " * 40 + "</p>")
    after = client.get(url).content.decode()
    assert "MANY:" not in after and "FEW-" not in after
    assert len(after.encode()) - len(before.encode()) < 20 * len(shown)  # a count's digits
    assert [int(n) for n in re.findall(r"(\d+) speeches</a>", after)] == [21] * len(shown)


def test_the_history_links_each_phase_to_its_own_speeches_in_pages(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    talk(game, users, 3, 0, "")
    first, second = open_phase(game).number, open_phase(game).number + 1
    for i in range(SPEECHES_PER_PAGE + 3):
        post_speech(game, users[i % 10], f"FIRST-PHASE-{i}.")
    play_days(game, users, 1)
    post_speech(game, users[1], "SECOND-PHASE.")
    play_days(game, users, 1)
    client.force_login(users[2])
    events = reverse("game_events", args=[game.id])

    history = client.get(reverse("game_history", args=[game.id])).content.decode()
    assert f'<a href="{events}?phase={first}">{SPEECHES_PER_PAGE + 3} speeches</a>' in history
    assert f'<a href="{events}?phase={second}">1 speech</a>' in history
    assert history.count("Speeches during this phase") == 2  # the phases without any: nothing

    page = client.get(f"{events}?phase={first}").content.decode()
    assert "Only the speeches made during" in page and f"(phase {first})" in page
    assert "SECOND-PHASE" not in page
    assert page.count("FIRST-PHASE-") == SPEECHES_PER_PAGE
    assert f"FIRST-PHASE-{SPEECHES_PER_PAGE + 2}." in page  # newest first
    assert "Page 1 of 2" in page and f'href="?phase={first}&amp;page=2"' in page
    older = client.get(f"{events}?phase={first}&page=2").content.decode()
    assert older.count("FIRST-PHASE-") == 3 and "FIRST-PHASE-0." in older
    assert f'href="?phase={first}&amp;page=1"' in older and "SECOND-PHASE" not in older

    page = client.get(f"{events}?phase={second}").content.decode()
    assert "SECOND-PHASE" in page and "FIRST-PHASE" not in page
    page = client.get(f"{events}?phase=1").content.decode()
    assert "No speech was made during this phase." in page
    everything = client.get(events).content.decode()
    assert "SECOND-PHASE" in everything and "Only the speeches made during" not in everything
    for wrong in ("999", "abc", "-1", "1.5", ""):
        assert client.get(events, {"phase": wrong}).status_code == 404, wrong


def test_a_speech_of_another_campaign_never_shows(campaign, client):
    game, users = campaign()
    other, strangers = campaign(players=6, review=True)
    start_campaign(game.id, game.gm)
    start_campaign(other.id, other.gm)
    post_speech(game, users[0], "OUR-SPEECH in phase 1.")
    post_speech(other, strangers[0], "THEIR-SPEECH in their phase 1.")
    play_days(game, users, 1)
    assert open_phase(other).number == 1 == Speech.objects.get(game=other).phase.number
    client.force_login(users[0])
    events = reverse("game_events", args=[game.id])
    for url in (events, f"{events}?phase=1", reverse("game_history", args=[game.id])):
        page = client.get(url).content.decode()
        assert "THEIR-SPEECH" not in page, url
    assert "OUR-SPEECH" in client.get(f"{events}?phase=1").content.decode()
    history = client.get(reverse("game_history", args=[game.id])).content.decode()
    assert f'<a href="{events}?phase=1">1 speech</a>' in history  # theirs is not counted
