"""The Status, History, Events and lobby pages: the full reveal when the game ends (and not
before, docs/rules.md §secrets), coup maps and speeches in the History with a fixed number of
queries, what the Chamber is deciding now, the extra-bill range, phase titles, this turn's
results on the Events page, headlines per kind of event, the dead, and the lobby's links."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from junta.engine import GameState, catalog, view_for
from junta.engine.events import Event
from junta.engine.guidance import DEAD
from junta.games import coup_maps, order_intake, repository
from junta.games.campaigns import start_campaign
from junta.games.headlines import headline
from junta.games.models import Game, Phase, PhaseResult, Player, Speech
from junta.games.speeches import post_speech
from junta.games.status_info import deciding
from tests.web.campaigns import advance_until, drawn_next, open_phase, play_days, state_of
from tests.web.landmarks import repeated

pytestmark = pytest.mark.django_db


def rewrite(phase: Phase, change: Callable[[GameState], None]) -> GameState:
    state = state_of(phase)
    change(state)
    repository.rewrite_state_before(phase, state)
    Game.objects.filter(pk=phase.game_id).update(state_version=phase.game.state_version + 1)
    return state


def user_at(game: Game, seat: int):
    return game.players.get(seat=seat, membership=Player.Membership.ACTIVE).user


def get(client, user, name: str, game: Game, query: str = "") -> str:
    client.force_login(user)
    response = client.get(reverse(name, args=[game.id]) + query)
    assert response.status_code == 200, name
    return response.content.decode()


# --- 1. the full reveal ------------------------------------------------------------------------

def test_everything_is_revealed_when_the_game_ends_and_nothing_before(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    # through a whole turn (with its budget draw), to the next turn's Cabinet Appointment
    phase = advance_until(game, users, lambda p, s: s.phase == "cabinet" and s.turn == 2)

    def last_bills_and_markers(s: GameState) -> None:
        s.players[1].pocket = 987651
        s.players[1].bank = 876541
        s.money_deck = s.money_deck[-3:]  # the budget cannot be drawn: the game ends
        for p in s.players:  # no motion on the President's competence delays the draw
            for cid in [c for c in p.hand if catalog.card(c).name ==
                        "The President's Competence Questioned"]:
                p.hand.remove(cid)
                s.political_discard.append(cid)

    state = rewrite(phase, last_bills_and_markers)
    mine = {catalog.card(c).name for c in state.players[0].hand}
    watcher = user_at(game, 0)
    status = get(client, watcher, "game_status", game)
    history = "".join(get(client, watcher, "game_history", game, f"?page={n}")
                      for n in (1, 2, 3))
    for page in (status, history):
        assert "987651" not in page and "876541" not in page
        assert "Everything revealed" not in page and "Secret at the time" not in page
        assert "Every family's orders" not in page and "The deck held" not in page
    assert "As Foreign Minister you drew" not in history or \
        state.commander("foreign") == 0

    play_days(game, users, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    final = repository.state_after(PhaseResult.objects.get(phase=phase))
    status = get(client, watcher, "game_status", game)
    assert "Everything revealed" in status
    pocket = final.players[1].pocket  # 987651 and what was paid to him in the phase
    assert str(pocket).startswith("9876") and f"<td>{pocket} MP</td>" in status
    assert "<td>876541 MP</td>" in status
    secret_card = next(catalog.card(c).name for c in final.players[1].hand
                       if catalog.card(c).name not in mine)
    assert secret_card in html.unescape(status)  # e.g. "The President's Competence..."
    assert f"The deck held <strong>{final.extra_bills} extra bill" in status
    assert "Every budget draw" in status and "Turn 1:" in status
    assert "Foreign Minister (" in status and " kept " in status
    # the last phases' orders, from PhaseResult.orders_used: the President's appointment
    assert "Every family's orders in this phase" in status and "Appoint " in status
    history = "".join(get(client, watcher, "game_history", game, f"?page={n}")
                      for n in (1, 2, 3))
    assert "Secret at the time" in history and "told to" in history
    assert "As Foreign Minister you drew" in history  # every minister's draw
    assert "Appoint " in history and "Every family's orders" in history


# --- 2. coup maps and speeches in the History --------------------------------------------------

def through_a_coup(game: Game, users: list, speeches: bool = True) -> None:
    """Bots play until a coup has run its course; a speech is made in Coup Phase 3."""
    seen = []

    def speak(phase: Phase, state: GameState) -> None:
        if state.coup is not None:
            seen.append(phase.kind)
        if speeches and phase.kind == "coup" and state.coup["phase"] == 3:
            post_speech(game, users[2], "Hold the bridge, compañeros! SPEECH-COUP-3")

    advance_until(game, users, lambda p, s: bool(seen) and s.coup is None, limit=150,
                  each=speak)


def report_of(page: str, number: int) -> str:
    start = page.index(f'<article class="report" id="phase-{number}"')
    end = page.find('<article class="report"', start + 10)
    return page[start:end if end != -1 else len(page)]


def test_history_draws_each_coup_phase_names_it_and_shows_its_speeches(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    through_a_coup(game, users)
    post_speech(game, users[0], "A speech in the next turn.")
    page = get(client, users[1], "game_history", game)
    coup_phases = list(game.phases.filter(kind__in=["coup", "coup_final"]).order_by("number"))
    assert len(coup_phases) == 6
    for n, phase in enumerate(coup_phases, start=1):
        report = report_of(page, phase.number)
        assert f"Coup Phase {n}" in report
        assert report.count("<svg") == 1 and f'id="p{phase.number}-zone-1"' in report
        assert "cm-counter" in report  # the units after the phase
        assert f"The city after Coup Phase {n}." in report
    started = game.phases.get(kind="locations", number=coup_phases[0].number - 1)
    report = report_of(page, started.number)
    assert "<svg" in report and "Arrows show the Rebel-Only moves" in report
    assert "Locations, Assassinations, Banking and Rebel-Only Moves" in report
    third = report_of(page, coup_phases[2].number)
    # the phase counts its speeches and links to them on the Events page
    link = f'{reverse("game_events", args=[game.id])}?phase={coup_phases[2].number}'
    assert "Speeches during this phase" in third and f'<a href="{link}">1 speech</a>' in third
    assert "SPEECH-COUP-3" not in page
    assert "Speeches during this phase" not in report_of(page, coup_phases[3].number)
    assert "SPEECH-COUP-3" in get(client, users[1], "game_events", game,
                                  f"?phase={coup_phases[2].number}")
    # the map is the public coup view of the state after the phase
    result = PhaseResult.objects.get(phase=coup_phases[2])
    units = [u for u in view_for(repository.state_after(result), None)["coup"]["units"]
             if u["zone"] is not None]
    drawn = sum(int(n) for n in re.findall(r'data-count="(\d+)"', third))
    assert drawn == len(units)
    # the ids of several maps on one page do not clash
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def fighting_zones(result: PhaseResult) -> list[int]:
    return sorted({e["data"]["zone"] for e in result.events if e["audience"] == "public"
                   and e["kind"] in ("combat", "bombardment", "retreat", "destroyed")})


def test_history_shows_each_coup_phase_s_own_fighting_and_no_secret(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    through_a_coup(game, users, speeches=False)
    coup_phases = list(game.phases.filter(kind__in=["coup", "coup_final"]).order_by("number"))
    second = PhaseResult.objects.get(phase=coup_phases[1])
    quiet = [z for z in sorted(catalog.zones()) if z not in fighting_zones(second)]
    secret_zone, fight_zone = quiet[0], quiet[-1]
    second.events = [*second.events,
                     {"kind": "combat", "audience": "public", "text": "PUBLIC-BATTLE-5520.",
                      "data": {"zone": fight_zone, "casualties": {"0": 1, "None": 2}}},
                     {"kind": "combat", "audience": [1], "text": "SECRET-SKIRMISH-5521.",
                      "data": {"zone": secret_zone, "casualties": {"1": 3}}},
                     {"kind": "destroyed", "audience": "gm", "text": "SECRET-RUIN-5522.",
                      "data": {"zone": secret_zone}}]
    second.save(update_fields=["events"])
    names = {p["seat"]: p["name"] for p in second.state_after["players"]}
    for who in (user_at(game, 1), game.gm):  # both may read the private line in the report
        page = get(client, who, "game_history", game)
        for n, phase in enumerate(coup_phases, start=1):
            result = PhaseResult.objects.get(phase=phase)
            report = report_of(page, phase.number)
            assert f'<h4 id="fighting-{phase.number}">Fighting in Coup Phase {n}</h4>' in report
            marked = sorted(int(z) for z in re.findall(
                r'<g class="cm-battle" data-zone="(\d+)">', report))
            assert marked == fighting_zones(result)  # this phase's, and only the public ones
            listed = sorted(int(z) for z in re.findall(r'<li data-zone="(\d+)">', report))
            assert listed == marked
            if not marked:
                assert "No battle, bombardment or retreat." in report
            for event in result.events:
                if event["audience"] == "public" and event["kind"] == "retreat":
                    assert (f'<g class="cm-retreat" data-from="{event["data"]["zone"]}" '
                            f'data-to="{event["data"]["to"]}">') in report
        report = report_of(page, coup_phases[1].number)
        assert "SECRET-SKIRMISH-5521" in report  # in his own lines: "Only you know"
        assert f'<g class="cm-battle" data-zone="{fight_zone}">' in report
        assert f"Battle: {names[0]} lost 1, Leaderless (government) lost 2" in report
        assert "PUBLIC-BATTLE-5520" in report
        figure = report[report.index("<figure"):report.index("</figure>")]
        assert "SECRET-" not in figure  # never on the map, not even for the GM
        fighting = report[report.index('class="fighting"'):]
        assert "SECRET-" not in fighting.split("</section>")[0]
        assert f'data-zone="{secret_zone}">' not in figure.split("cm-battles")[-1]
    # the Locations phase that began the coup has no fighting list
    started = report_of(page, coup_phases[0].number - 1)
    assert "Fighting in" not in started and "cm-battle" not in started


def test_history_queries_do_not_grow_with_coups_and_speeches(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])
    url = reverse("game_history", args=[game.id])
    play_days(game, users, 2)
    post_speech(game, users[0], "Early days.")

    def count() -> int:
        """The queries of the page once its reports are drawn (the first view draws them,
        reading the states they need in one query, then they come from the cache)."""
        client.get(url)
        drawn_next(client)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    early = count()
    through_a_coup(game, users)
    for _ in range(3):
        post_speech(game, users[0], "More words.")
    page = client.get(url).content.decode()
    assert page.count("<svg") >= 6 and "Speeches during this phase" in page
    assert page.count("Fighting in Coup Phase") == 6
    assert not repeated(page)  # each map, fighting and vote a region of its own name
    assert count() == early


# --- 3. what the Chamber is deciding ---------------------------------------------------------

def test_status_shows_the_proposed_budget_during_the_vote(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = advance_until(game, users, lambda p, s: s.phase == "budget_vote")
    view = view_for(state_of(phase), 0)
    page = get(client, user_at(game, 0), "game_status", game)
    assert "Before the Chamber" in page and "proposed budget" in page
    for seat, amount in view["budget"]["allocations"].items():
        name = view["players"][int(seat)]["name"]
        assert re.search(rf"<th scope=\"row\">{re.escape(name)}</th><td>{amount} MP</td>", page)
    total = sum(view["budget"]["allocations"].values())
    assert f"<th scope=\"row\">In all</th><td>{total} MP</td>" in page
    assert "Bills drawn for this turn's budget: the Foreign Minister 2" in page or \
        re.search(r"Bills drawn for this turn's budget: the Foreign Minister \d, the Farm "
                  r"&amp; Labor Secretary \d, El Presidente 2\.", page)


def test_status_shows_nominations_candidates_and_the_motion(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    page = get(client, users[0], "game_status", game)
    assert "Before the Chamber" not in page  # nominations are orders: secret until counted
    play_days(game, users, 1)
    phase = open_phase(game)
    assert phase.kind == "election"
    state = state_of(phase)
    page = get(client, users[0], "game_status", game)
    assert "Before the Chamber" in page and "Candidates:" in page
    assert "Nominated by" in page
    for seat, n in state.nominations.items():
        by = ", ".join(state.name(x) for x in n["nominated_by"]) or "nobody"
        seconded = ", ".join(state.name(x) for x in n["seconded_by"]) or "nobody"
        assert re.search(rf"<th scope=\"row\">{state.name(int(seat))}[^/]*</th><td>{by}</td>"
                         rf"<td>{seconded}</td>", page)
    for seat in state.election["candidates"]:
        assert state.name(seat) in page.split("Candidates:")[1].split("</p>")[0]
    phase = advance_until(game, users, lambda p, s: s.phase == "cabinet")

    def motion(s: GameState) -> None:
        s.phase = "special_motion"
        s.motion = {"mover": 2, "president": s.president}

    state = rewrite(phase, motion)
    page = get(client, users[0], "game_status", game)
    assert (f"{state.name(2)} moves that {state.name(state.president)} be removed from the "
            "Presidency for incompetence") in page


def test_deciding_uses_only_the_public_view():
    from tests.engine.helpers import in_phase

    state = in_phase("budget_vote")
    state.budget = {"drawn": {"foreign": [3, 3], "farm_labor": [1], "president": [2, 2]},
                    "all_drawn": [3, 3, 1, 2, 2], "held": [3, 3, 1, 2, 2], "holder": 0,
                    "proposer": 0, "outcome": None, "set_aside": 0,
                    "proposal": {"allocations": {"1": 4, "2": 3}, "from_pocket": 0,
                                 "bills": {}, "top_up": {}}}
    info = deciding(view_for(state, 5))
    assert ("the Foreign Minister", 2) in info["draws"]  # counts, never the bills
    assert dict(info["allocations"])[state.name(1)] == 4 and info["allocated"] == 7
    assert "3, 3" not in str(info)


# --- 4. the extra-bill range -------------------------------------------------------------------

def test_the_money_deck_names_the_game_s_range_of_extra_bills(campaign, client):
    game, users = campaign()
    Game.objects.filter(pk=game.pk).update(extra_bills_min=3, extra_bills_max=9)
    start_campaign(game.id, game.gm)
    page = get(client, users[0], "game_status", game)
    assert "Between 3 and 9 extra bills lie hidden in the deck." in page
    assert "Up to 14" not in page
    game.refresh_from_db()
    game.extra_bills_min = game.extra_bills_max = 5  # saved, as the GM's settings page does
    game.save(update_fields=["extra_bills_min", "extra_bills_max"])
    page = get(client, users[0], "game_status", game)
    assert "5 extra bills lie hidden in the deck." in page


# --- 5. the Standing table on a phone ----------------------------------------------------------

def test_the_standing_table_scrolls_in_a_labelled_region(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    page = get(client, users[0], "game_status", game)
    assert re.search(r'<div class="table-scroll" role="region" aria-labelledby='
                     r'"standing-caption" tabindex="0">\s*'
                     r'<table class="table standing" role="table">\s*'
                     r'<caption id="standing-caption">', page)


# --- 6. titles, this turn's results, headlines ----------------------------------------------

def test_reports_carry_the_phase_title(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    advance_until(game, users, lambda p, s: s.phase == "budget_vote")
    page = get(client, users[0], "game_history", game)
    assert "Turn 1, Budget Proposal" in page and "Turn 1, Draw Budget / New Weapons" in page
    assert "Budgetproposal" not in page and "Budgetdraw" not in page


def test_the_events_page_shows_this_turn_s_results_newest_first(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    advance_until(game, users, lambda p, s: s.phase == "budget_vote")
    page = get(client, users[0], "game_events", game)
    assert "Latest results: turn 1" in page
    titles = ["Budget Proposal", "Draw Budget / New Weapons", "Cabinet Appointment"]
    at = [page.index(f"Turn 1, {t}") for t in titles]
    assert at == sorted(at)  # newest first
    latest = page.split('<h2 id="latest-h">')[1]  # the reports come after the speeches
    assert "Nominations <span" not in latest  # turn 0 is in the History
    assert reverse("game_history", args=[game.id]) in page


@pytest.mark.parametrize(("kind", "text", "data", "words"), [
    ("death", "Don Carlos is dead: assassinated at the Club.",
     {"victim": 0, "how": "assassinated", "location": "club"}, ("DON CARLOS",)),
    ("death", "Don Carlos is dead: sent to the firing squad by El Presidente Don Miguel.",
     {"victim": 0, "how": "sent to the firing squad by El Presidente Don Miguel"},
     ("DON CARLOS",)),
    ("budget_failed", "The budget is defeated, 3 votes to 9!", {}, ()),
    ("rebels", "Troops move! Don Carlos takes Rebel action; Don Carlos is the First Rebel.",
     {"rebels": [0], "first_rebel": 0}, ()),
    ("coup_result", "The coup succeeds! ...", {"result": "junta", "points": 3}, ()),
    ("coup_result", "The coup fails: ...", {"result": "president", "points": 1}, ()),
    ("president", "Don Isabel is elected President of the Republica de los Papayas!",
     {"president": 1}, ("DON ISABEL",)),
    ("exile", "Don Isabel flees the country into exile.", {"seat": 1}, ("DON ISABEL",)),
    ("flight", "Don Isabel flees the country through an embassy and goes into exile.",
     {"seat": 1}, ("DON ISABEL",)),
    ("game_over", "The foreign aid has run out: only 2 bills remain. Don Isabel wins with "
     "40 MP in the Bank.", {"winners": [1], "bills_left": 2}, ("DON ISABEL",)),
])
def test_headlines_are_written_for_each_kind_of_event(kind, text, data, words):
    names = {0: "Don Carlos", 1: "Don Isabel", 2: "Don Miguel"}
    event = Event(kind, text, "public", data, True)
    seen = {headline(event, str(salt), names) for salt in range(40)}
    assert len(seen) >= 2 or kind in ("chamber_seized",)  # varied
    for line in seen:
        assert "EXTRA! EXTRA!" not in line and text not in line  # not the report line again
        assert line == line.upper()  # a newspaper headline
    for word in words:  # names the one it is about
        assert any(word in line for line in seen)
    assert headline(Event(kind, text, (1, 2), data, True), "1", names) is None


def test_assassination_and_execution_headlines_differ():
    names = {0: "Don Carlos"}
    shot = Event("death", "x", "public", {"victim": 0, "how": "assassinated",
                                          "location": "mistress"}, True)
    executed = Event("death", "x", "public", {"victim": 0, "how": "sent to the firing "
                                              "squad by El Presidente Don Miguel"}, True)
    assassinations = {headline(shot, str(i), names) for i in range(30)}
    executions = {headline(executed, str(i), names) for i in range(30)}
    assert not assassinations & executions
    assert any("AT THE MISTRESS'S" in h for h in assassinations)
    assert any("FIRING SQUAD" in h or "THE WALL" in h or "SHOT" in h for h in executions)


# --- 7. the dead ---------------------------------------------------------------------------

def test_the_dead_are_told_one_story_get_no_orders_button_and_may_speak(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = advance_until(game, users, lambda p, s: s.phase == "budget_proposal")
    state = state_of(phase)
    seat = next(s for s in range(10) if s != state.president and s not in phase.owing_seats)

    def die(s: GameState) -> None:
        s.players[seat].status = "dead"
        s.players[seat].hand = []

    rewrite(phase, die)
    Player.objects.filter(game=game, seat=seat).update(state=Player.State.DEAD)
    dead = user_at(game, seat)
    page = get(client, dead, "game_status", game)
    assert DEAD.split(":")[0] in page and "start of the next turn" in page
    assert "next Cabinet Appointment" not in page.replace("its Cabinet Appointment", "")
    assert "Prepare your new character" in page
    assert "Your orders</a>" not in page and "You owe orders" not in page
    orders = get(client, dead, "game_orders", game)
    assert "Mark my orders final" not in orders and "Give an order" not in orders
    assert "The dead give no orders." in orders
    client.force_login(dead)
    response = client.post(reverse("game_events", args=[game.id]),
                           {"body": "I speak from beyond the grave.", "post": "1"})
    assert response.status_code == 302
    speech = Speech.objects.get(body="I speak from beyond the grave.")
    assert speech.player.seat == seat
    assert "I speak from beyond the grave." in get(client, users[0], "game_events", game)


# --- 8. the lobby ------------------------------------------------------------------------------

def test_the_lobby_links_my_running_games_to_my_status_and_says_if_i_owe_orders(
        campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    status_url = reverse("game_status", args=[game.id])
    client.force_login(users[0])
    page = client.get(reverse("lobby")).content.decode()
    assert f'<a href="{status_url}">Papayas</a>' in page
    assert "You owe orders this phase" in page
    phase = open_phase(game)
    order_intake.submit_orders(phase.id, users[0], [{"kind": "decline"}],
                          state_version=Game.objects.get(pk=game.pk).state_version)
    page = client.get(reverse("lobby")).content.decode()
    assert "Your orders for this phase are in, not yet final." in page
    order_intake.set_final(phase.id, users[0])
    assert "in and final" in client.get(reverse("lobby")).content.decode()
    # nothing is owed from a player the phase does not wait for
    advance_until(game, users, lambda p, s: s.phase == "cabinet")
    president = state_of(open_phase(game)).president
    other = user_at(game, (president + 1) % 10)
    client.force_login(other)
    page = client.get(reverse("lobby")).content.decode()
    assert "Nothing is due from you this phase." in page
    # the GM has no seat: his link stays the campaign page
    client.force_login(game.gm)
    assert reverse("game_detail", args=[game.id]) in client.get(reverse("lobby")).content.decode()


def test_lobby_queries_do_not_grow_with_my_campaigns(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])

    def count() -> int:
        drawn_next(client)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("lobby")).status_code == 200
        return len(ctx.captured_queries)

    one = count()
    from junta.games.campaigns import create_game, join_game
    for i in range(3):
        other = create_game(game.gm, f"Other {i}", join_policy=Game.JoinPolicy.OPEN)
        for user in users:
            join_game(other.id, user, f"Don {user.pk} {i}")
        start_campaign(other.id, game.gm)
    assert count() == one


def test_every_headline_event_of_the_engine_has_its_own_headlines():
    """Scan the engine for public events flagged as headlines: each kind has variants of its
    own, never the generic "EXTRA!" fallback."""
    import ast
    from pathlib import Path

    import junta.engine
    from junta.games.headlines import VARIANTS

    special = {"death", "coup_result"}  # split by their data (assassination, execution...)
    kinds = set()
    for path in Path(junta.engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and node.args and any(
                    k.arg == "headline" and not (isinstance(k.value, ast.Constant)
                                                 and k.value.value is False)
                    for k in node.keywords) and isinstance(node.args[0], ast.Constant):
                kinds.add(node.args[0].value)
    assert {"death", "president", "rebels", "budget_failed"} <= kinds
    assert kinds - special <= set(VARIANTS), kinds - special - set(VARIANTS)
    names = {0: "Don Carlos"}
    for kind in kinds:
        event = Event(kind, "Don Carlos did something.", "public",
                      {"zone": 22, "card": "General Strike", "result": "junta", "points": 3},
                      True)
        for known in (names, {}):  # with and without the families' names
            line = headline(event, "1", known)
            assert line and not line.startswith(("EXTRA!", "LATE EDITION")), kind


def test_the_lobby_counts_every_seated_player_of_my_campaigns(campaign, client):
    game, users = campaign()
    client.force_login(users[0])
    page = client.get(reverse("lobby")).content.decode()
    assert "10/10 players" in page


def test_a_published_coup_s_map_is_drawn_once_then_read_from_the_cache(campaign, client,
                                                                         monkeypatch):
    """History draws the city after every coup phase: a published result never changes, so
    its map is drawn once; a change in what it is drawn from (here its events) draws it anew."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    through_a_coup(game, users, speeches=False)
    first = get(client, user_at(game, 0), "game_history", game)
    drawn: list[int] = []
    real = coup_maps._draw_coup_map
    monkeypatch.setattr(coup_maps, "_draw_coup_map",
                        lambda result, title: drawn.append(result.phase.number)
                        or real(result, title))
    second = get(client, user_at(game, 0), "game_history", game)
    svgs = re.compile(r"<svg.*?</svg>", re.S)
    assert svgs.findall(second) == svgs.findall(first) and len(svgs.findall(first)) >= 6
    assert drawn == []
    coup = PhaseResult.objects.filter(phase__game=game, phase__kind="coup").first()
    coup.events = [*coup.events, {"kind": "note", "audience": "public", "text": "Rain.",
                                  "data": {}}]
    coup.save(update_fields=["events"])
    get(client, user_at(game, 0), "game_history", game)
    assert drawn == [coup.phase.number]
