"""Watchers (spectators, `junta.games.watching`): a campaign its GM made watchable is followed
by anyone signed in (or, when the GM says so, anyone with its watching link) on its public
pages only, `watch_delay` published phases behind the players: History lists exactly those
phases, Events the speeches made while they were open (never those of a later phase: they
would tell its events) and the reports of their last turn, the Families and the Map the state
after the last of them. Never a secret, never the open phase, never a conversation, an order,
a poll or the GM's panel; nothing posted or voted."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import escape

from junta.engine import Rng, bot_orders, view_for, why_no_orders
from junta.games import order_intake, repository
from junta.games.campaigns import start_campaign
from junta.games.models import AuditEntry, Game, Phase, PhaseResult, Speech
from junta.games.speeches import post_speech
from junta.games.watching import last_phase_seen_by, last_watched_phase
from junta.gm.services import GMError, update_settings
from tests.web.browser_forms import forms_in, submit
from tests.web.campaigns import advance_until, play_days
from tests.web.leak_markers import BANK, NOTE, POCKET, TALK, rewrite, user_at, write_to_gm

pytestmark = pytest.mark.django_db

PUBLISHED = 6  # phases published in the campaign below; the 7th is open
WATCH_PAGES = ("watch_families", "watch_events", "watch_history", "watch_map")
SECRETS = (str(POCKET), str(BANK), "NOTE-TO-GM-MARKER", "TALK-MARKER-31337", "A private word",
           "players_secret", "Hidden extra bills", "Secret at the time", "Only you know",
           "/gm/", "/talk/", "/orders/", "/polls/")


def said(number: int) -> str:
    return f"SPEECH-IN-PHASE-{number}-MARKER"


@pytest.fixture
def watched(campaign):
    """A watchable campaign of six families with PHASES published and one open, a speech made
    in each phase; in phase 3 one family got a pocket and a bank found nowhere else (carried
    into the published states after it); in the open phase another got them too, ordered
    with a note to the GM and wrote to the GM privately."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    for number in range(1, PUBLISHED + 1):
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        assert phase.number == number
        post_speech(game, users[0], said(number))
        if number == 3:
            rewrite(phase, _markers(1))
        play_days(game, users, 1)
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    post_speech(game, users[0], said(phase.number))
    rewrite(phase, _markers(2))
    order_intake.submit_orders(phase.id, user_at(game, 2), [],
                               state_version=Game.objects.get(pk=game.pk).state_version,
                               note_to_gm=NOTE)
    write_to_gm(game, 2, TALK)
    settle(game, watchable=True)
    return game, users


def _markers(seat: int):
    def change(state) -> None:
        state.players[seat].pocket = POCKET
        state.players[seat].bank = BANK
    return change


def watcher():
    return get_user_model().objects.create_user(email="watcher@example.org",
                                                display_name="Watcher")


def settle(game: Game, **changes: object) -> None:
    """The GM changes the spectators' settings (his settings' service, as the panel does)."""
    update_settings(game.id, game.gm, changes)
    game.refresh_from_db()


def delay(game: Game, phases: int) -> None:
    settle(game, watch_delay=phases)


def crawl(client, game: Game, key: str = "") -> dict[str, str]:
    out = {}
    for name in WATCH_PAGES:
        url = reverse(f"{name}_link", args=[game.id, key]) if key else \
            reverse(name, args=[game.id])
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        out[name] = response.content.decode()
    return out


def secret_numbers(game: Game) -> set[str]:
    """Every family's pocket and bank in every published state and the open one, as pages
    would write them, when they are the markers' (six figures)."""
    states = [repository.state_after(r) for r in
              PhaseResult.objects.filter(phase__game=game).select_related("phase")]
    states.append(repository.state_before(Phase.objects.get(game=game,
                                                            status=Phase.Status.OPEN)))
    return {str(n) for s in states for p in s.players for n in (p.pocket, p.bank)
            if n >= 100000}


def private_lines(game: Game) -> set[str]:
    return {escape(e["text"]) for r in PhaseResult.objects.filter(phase__game=game)
            for e in r.events if e["audience"] != "public"}


@pytest.mark.parametrize("phases", [0, 1, 3])
def test_a_watcher_sees_exactly_the_phases_the_delay_allows(watched, client, phases):
    game, users = watched
    delay(game, phases)
    allowed = PUBLISHED - phases
    assert last_watched_phase(game) == allowed
    person = watcher()
    assert last_phase_seen_by(game, person) == allowed
    assert last_phase_seen_by(game, users[0]) == PUBLISHED
    client.force_login(person)
    seen = crawl(client, game)
    shown = {int(n) for n in re.findall(r'id="phase-(\d+)"', seen["watch_history"])}
    assert shown == set(range(1, allowed + 1))
    for number in range(1, PUBLISHED + 2):  # the open phase's speech never
        assert (said(number) in seen["watch_events"]) == (number <= allowed), number
    assert f"up to phase {allowed}" in seen["watch_map"]
    # the families and the map: the state after the last allowed phase, as a spectator sees it
    result = PhaseResult.objects.get(phase__game=game, phase__number=allowed)
    expected = view_for(repository.state_after(result), None)
    response = client.get(reverse("watch_families", args=[game.id]))
    assert [f["positions"] for f in response.context["families"]] == \
        [p["positions"] for p in expected["players"]]
    response = client.get(reverse("watch_map", args=[game.id]))
    assert response.context["turn"] == expected["turn"]
    assert response.context["phase_title"] == expected["phase_title"]
    view = response.context["watch"].view
    assert not {"me", "full", "players_secret", "extra_bills"} & set(view)


@pytest.mark.parametrize("phases", [0, 1, 3])
def test_a_leak_crawl_of_the_watching_pages_finds_no_secret(watched, client, phases):
    game, users = watched
    delay(game, phases)
    numbers = secret_numbers(game)
    assert numbers, "the markers are in the states"
    lines = private_lines(game)
    client.force_login(watcher())
    pages = crawl(client, game)
    settle(game, watch_by_link=True)
    client.logout()
    pages |= {f"link {k}": v for k, v in crawl(client, game, game.watch_token).items()}
    for name, page in pages.items():
        for marker in (*SECRETS, *numbers):
            assert marker not in page, (phases, name, marker)
        for line in lines:
            assert line not in page, (phases, name, line)


def test_a_watcher_cannot_post_vote_talk_order_or_reach_the_gm_panel(watched, client):
    game, users = watched
    client.force_login(watcher())
    speeches = Speech.objects.count()
    for name in WATCH_PAGES:
        assert client.post(reverse(name, args=[game.id]), {"body": "Hi"}).status_code == 405
    assert client.post(reverse("game_events", args=[game.id]),  # sent to his own page
                       {"body": "Hello", "post": "1"}).status_code == 302
    assert Speech.objects.count() == speeches
    for name in ("game_status", "game_orders", "game_map", "talk_index", "polls_index",
                 "gm_overview"):
        assert client.get(reverse(name, args=[game.id])).status_code == 404, name
    assert client.post(reverse("game_orders", args=[game.id]), {}).status_code == 404
    # the full History, Events and campaign pages are the members': a watcher is sent to his own
    for name, own in (("game_history", "watch_history"), ("game_events", "watch_events"),
                      ("game_detail", "watch_families")):
        response = client.get(reverse(name, args=[game.id]))
        assert response.status_code == 302 and response["Location"] == \
            reverse(own, args=[game.id])
    menu = crawl(client, game)["watch_history"]
    assert "Orders" not in menu and "Talk" not in menu and "GM panel" not in menu


def test_a_campaign_not_watchable_is_404_to_outsiders(watched, client):
    game, users = watched
    settle(game, watchable=False)
    client.force_login(watcher())
    for name in (*WATCH_PAGES, "game_history", "game_events", "game_detail"):
        assert client.get(reverse(name, args=[game.id])).status_code == 404, name
    # its members keep their pages
    client.force_login(users[0])
    assert client.get(reverse("game_history", args=[game.id])).status_code == 200


def test_watching_by_link_only_when_the_gm_chose_it(watched, client):
    game, users = watched
    link = reverse("watch_history_link", args=[game.id, game.watch_token])
    assert client.get(link).status_code == 404  # not by link
    signed_in_only = client.get(reverse("watch_history", args=[game.id]))
    assert signed_in_only.status_code == 302 and "login" in signed_in_only["Location"]
    settle(game, watch_by_link=True)
    assert client.get(link).status_code == 200
    wrong = reverse("watch_history_link", args=[game.id, "0" * 32])
    assert client.get(wrong).status_code == 404
    page = client.get(link).content.decode()
    assert reverse("watch_map_link", args=[game.id, game.watch_token]) in page


def test_the_page_cache_never_serves_a_player_s_page_to_a_watcher(watched, client):
    game, users = watched
    delay(game, 3)
    client.force_login(users[0])
    history = reverse("game_history", args=[game.id])
    mine = client.get(history).content.decode()
    assert f'id="phase-{PUBLISHED}"' in mine
    client.force_login(watcher())
    assert client.get(history).status_code == 302
    theirs = client.get(reverse("watch_history", args=[game.id])).content.decode()
    assert f'id="phase-{PUBLISHED}"' not in theirs
    client.force_login(users[0])
    again = client.get(history).content.decode()
    assert f'id="phase-{PUBLISHED}"' in again and "You are watching" not in again


def test_the_archive_lists_watchable_running_campaigns(watched, client):
    game, users = watched
    client.force_login(watcher())
    page = client.get(reverse("game_archive")).content.decode()
    assert reverse("watch_families", args=[game.id]) in page
    settle(game, watchable=False)
    page = client.get(reverse("game_archive")).content.decode()
    assert reverse("watch_families", args=[game.id]) not in page


def test_the_api_shows_a_watched_campaign_to_no_outsider(watched, client):
    from junta.api import tokens

    game, users = watched
    settle(game, watch_by_link=True, watch_delay=0)
    auth = {"Authorization": f"Bearer {tokens.create(watcher(), 'watching').secret}"}
    listed = client.get("/api/v1/campaigns", headers=auth)
    assert listed.status_code == 200 and listed.json() == []
    for path in ("", "/phases", "/phases/1", "/speeches", "/conversations", "/options",
                 "/orders"):
        response = client.get(f"/api/v1/campaigns/{game.id}{path}", headers=auth)
        assert response.status_code == 404, path
        assert said(1) not in response.content.decode()


def test_the_gm_chooses_watchers_at_creation_and_later_in_his_settings(campaign, client):
    gm = get_user_model().objects.create_user(email="maker@example.org")
    client.force_login(gm)
    page = client.get(reverse("game_create")).content.decode()
    form = next(f for f in forms_in(page) if "watchable" in f.names())
    form.set("name", "Watched Papayas").set("watchable", "").set("watch_delay", "3")
    assert submit(client, reverse("game_create"), form).status_code == 302
    made = Game.objects.get(name="Watched Papayas")
    assert (made.watchable, made.watch_delay, made.watch_by_link) == (True, 3, False)

    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    client.force_login(game.gm)
    url = reverse("gm_settings", args=[game.id])
    form = next(f for f in forms_in(client.get(url).content.decode())
                if "watchable" in f.names())
    form.set("watchable", "").set("watch_delay", "2").set("watch_by_link", "")
    assert submit(client, url, form).status_code == 302
    game.refresh_from_db()
    assert (game.watchable, game.watch_delay, game.watch_by_link) == (True, 2, True)
    entry = AuditEntry.objects.filter(game=game).latest("id")
    assert entry.action == "settings" and "watch_delay" in entry.data["changes"]
    page = client.get(url).content.decode()
    assert reverse("watch_families_link", args=[game.id, game.watch_token]) in page
    form = next(f for f in forms_in(page) if "watchable" in f.names())
    assert submit(client, url, form.set("watch_delay", "11")).status_code == 400
    with pytest.raises(GMError, match="0 to 10"):
        update_settings(game.id, game.gm, {"watch_delay": 12})
    game.refresh_from_db()
    assert game.watch_delay == 2
    # a player's own settings page is not his: a watcher's neither
    client.force_login(watcher())
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("phases", [0, 1, 3])
def test_a_watcher_replays_on_the_map_exactly_the_phases_the_delay_allows(watched, client,
                                                                          phases):
    """The replay (`replay_views.last_replayable`): a signed-in watcher steps through the
    published phases his delay allows and no further (404), with the public lines only and his
    own menu; without the campaign watchable, none of it."""
    game, users = watched
    delay(game, phases)
    allowed = PUBLISHED - phases
    numbers = secret_numbers(game)
    lines = private_lines(game)
    client.force_login(watcher())
    start = client.get(reverse("game_replay", args=[game.id]))
    assert start.status_code == 302
    assert start["Location"] == reverse("game_replay_step", args=[game.id, 1])
    for number in range(1, PUBLISHED + 2):
        response = client.get(reverse("game_replay_step", args=[game.id, number]))
        assert response.status_code == (200 if number <= allowed else 404), (phases, number)
        if response.status_code != 200:
            continue
        page = response.content.decode()
        assert "You are watching this campaign" in page  # his menu, not the members'
        for marker in (*SECRETS, *numbers):
            assert marker not in page, (phases, number, marker)
        for line in lines:
            assert line not in page, (phases, number, line)
    settle(game, watchable=False)
    assert client.get(reverse("game_replay", args=[game.id])).status_code == 404
    assert client.get(reverse("game_replay_step", args=[game.id, 1])).status_code == 404


def test_a_watcher_of_a_coup_sees_what_the_delay_allows_and_no_secret(campaign, client):
    """A coup under way (Coup Phase 4 open, the three before it published; in the open phase
    a family got the pocket and bank markers, a General ordered his moves with a note to the
    GM and a family wrote to the GM): at delays 0, 1 and 3 a watcher's History and replay hold
    exactly the phases allowed, his Map and Families the state after the last of them as a
    spectator sees it (the coup's units as they stood then, or no coup yet), and none of his
    pages a secret, a private line or the open phase."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    phase = advance_until(game, users, lambda p, s: p.kind == "coup" and s.coup is not None
                          and s.coup["phase"] == 4, limit=150)
    state = rewrite(phase, _markers(2))
    general = next(s for s in range(len(state.players)) if any(
        u["owner"] == s for u in state.coup["units"]) and not why_no_orders(state, s))
    moves = [o.to_dict() for o in bot_orders(state, general, Rng("watch-coup"))]
    order_intake.submit_orders(phase.id, user_at(game, general), moves,
                               state_version=Game.objects.get(pk=game.pk).state_version,
                               note_to_gm=NOTE)
    write_to_gm(game, 2, TALK)
    settle(game, watchable=True)
    latest = phase.number - 1
    numbers = secret_numbers(game)
    assert numbers, "the markers are in the states"
    lines = private_lines(game)
    client.force_login(watcher())
    for phases in (0, 1, 3):
        delay(game, phases)
        allowed = latest - phases
        seen = crawl(client, game)
        shown = {int(n) for n in re.findall(r'id="phase-(\d+)"', seen["watch_history"])}
        assert shown == set(range(min(shown), allowed + 1)), phases  # its latest page
        assert f"up to phase {allowed}" in seen["watch_map"]
        expected = view_for(repository.state_after(PhaseResult.objects.get(
            phase__game=game, phase__number=allowed)), None)
        watch = client.get(reverse("watch_map", args=[game.id])).context["watch"]
        assert watch.view == expected, phases
        if phases < 3:
            assert watch.view.get("coup") is not None, phases  # the coup's units, as then
        for number in (allowed, allowed + 1):  # the replay: as far as the delay allows
            response = client.get(reverse("game_replay_step", args=[game.id, number]))
            assert response.status_code == (200 if number == allowed else 404), (phases, number)
            seen[f"replay {number}"] = response.content.decode()
        for name, page in seen.items():
            for marker in (*SECRETS, *numbers):
                assert marker not in page, (phases, name, marker)
            for line in lines:
                assert line not in page, (phases, name, line)
