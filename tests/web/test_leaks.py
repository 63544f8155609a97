"""Leak tests (docs/rules.md §secrets): every page, fragment and JSON response, as each player,
contains none of another player's secret markers (hand, pocket, bank, location, orders, draws,
the skim, the extra-bill count, private conversations).

Two kinds of test. Markers: one family's pocket and bank are set to numbers found nowhere
else, his orders carry an amount and a note to the GM found nowhere else, he writes to the GM
in a private conversation (docs/rules.md §talk), and the lines only a
minister or the President were told ("As Foreign Minister you drew...", "If the budget passes
you keep...") must appear on no page of anyone else. Twins: the same campaign with one family's
secrets changed (pocket, bank, the cards in his hand, his location, his orders and note, the
minister's drawn bills, the hidden extra-bill count, a private word to the GM) must give every
other player byte-for-byte the same pages; a secret that shows anywhere, in any wording, makes
the twins differ.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from junta.engine import GameState, catalog
from junta.games import order_intake, repository
from junta.games.campaigns import start_campaign
from junta.games.models import Bill, Game, Order, Phase, Player
from junta.notify.selectors import calendar_feed
from tests.web.campaigns import play_days
from tests.web.leak_markers import (
    AMOUNT,
    BANK,
    NOTE,
    POCKET,
    TALK,
    rewrite,
    user_at,
    write_to_gm,
)

pytestmark = pytest.mark.django_db

GAME_PAGES = ("game_status", "game_orders", "game_events", "game_map", "game_detail",
              "game_character", "game_notifications", "talk_index")
PERSON_PAGES = ("lobby", "notify_overview")


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def until(game: Game, users: list, kind: str, limit: int = 60) -> Phase:
    for _ in range(limit):
        phase = open_phase(game)
        if phase.kind == kind:
            return phase
        play_days(game, users, 1)
    raise AssertionError(f"no {kind} phase")


def pages(client, user, game: Game) -> dict[str, str]:
    """Every page a player opens, as `user`: the campaign's pages, every page of the History,
    the lobby, the notifications pages and the calendar feed."""
    client.force_login(user)
    urls = {name: reverse(name, args=[game.id]) for name in GAME_PAGES}
    urls |= {name: reverse(name) for name in PERSON_PAGES}
    history = reverse("game_history", args=[game.id])
    pages_of_history = 1 + game.phases.filter(status=Phase.Status.PUBLISHED).count() // 10
    urls |= {f"history {n}": f"{history}?page={n}" for n in range(1, pages_of_history + 1)}
    urls["calendar"] = reverse("notify_calendar", args=[calendar_feed(user).token])
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        out[name] = response.content.decode()
    return out


# --- markers -----------------------------------------------------------------------------------

@pytest.fixture
def budget_vote(campaign):
    """A campaign in its first Budget Vote. The Foreign Minister (the family whose secrets we
    watch) has 987651 MP in pocket and 876541 MP in the bank, and has ordered a payment of
    45678 MP with a note to the GM."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = until(game, users, "budget_vote")
    state = repository.state_before(phase)
    minister = state.commander(catalog.FOREIGN)
    if minister == state.president:  # the Brother-in-Law's draw is the President's own
        minister = state.commander(catalog.FARM_LABOR)
    assert minister not in (None, state.president)

    def markers(s: GameState) -> None:
        s.players[minister].pocket = POCKET
        s.players[minister].bank = BANK

    rewrite(phase, markers)
    payee = next(p.seat for p in state.players if p.seat != minister and p.active)
    order_intake.submit_orders(phase.id, user_at(game, minister),
                          [{"kind": "pay", "to": payee, "amount": AMOUNT}],
                          state_version=Game.objects.get(pk=game.pk).state_version,
                          note_to_gm=NOTE)
    write_to_gm(game, minister, TALK)
    return game, users, phase, state, minister


def owners_of_private_lines(game: Game, state: GameState) -> dict[str, set[int]]:
    """Who was told each private line so far (read from the stored results), each line as a
    page shows it (HTML-escaped)."""
    from junta.games.models import PhaseResult

    told: dict[str, set[int]] = {}
    for result in PhaseResult.objects.filter(phase__game=game):
        for event in result.events:
            if event["audience"] not in ("public", "gm"):
                told.setdefault(escape(event["text"]), set()).update(event["audience"])
    return told


def test_no_page_shows_another_family_s_markers(budget_vote, client):
    game, users, phase, state, minister = budget_vote
    mine = pages(client, user_at(game, minister), game)
    assert f"{POCKET} MP" in mine["game_status"] and f"{BANK} MP" in mine["game_status"]
    assert str(AMOUNT) in mine["game_orders"] and "NOTE-TO-GM-MARKER-31337" in \
        mine["game_orders"]
    assert "A private word" in mine["talk_index"]
    told = owners_of_private_lines(game, state)
    draw_line = next(t for t in told if t.startswith("As Foreign Minister you drew")
                     or t.startswith("As Farm &amp; Labor Secretary you drew"))
    skim_line = next(t for t in told if t.startswith("If the budget passes you keep"))
    bills_line = next(t for t in told if t.startswith("Your budget bills"))
    assert draw_line in "".join(mine.values())  # the minister reads his own draw
    for seat in range(len(state.players)):
        if seat == minister:
            continue
        seen = pages(client, user_at(game, seat), game)
        for name, page in seen.items():
            for marker in (str(POCKET), str(BANK), str(AMOUNT), "NOTE-TO-GM-MARKER",
                           "TALK-MARKER-31337", "A private word"):
                assert marker not in page, (seat, name, marker)
            for line, owners in told.items():
                if seat not in owners:
                    assert line not in page, (seat, name, line)
            assert "The deck held" not in page and "Everything revealed" not in page
            assert "Hidden extra bills" not in page and "/gm/" not in page, (seat, name)
            assert "Secret at the time" not in page, (seat, name)
        everything = "".join(seen.values())
        for line in (skim_line, bills_line, draw_line):  # the President reads his skim...
            assert (line in everything) == (seat in told[line]), (seat, line)


def test_page_contexts_never_carry_the_full_state(budget_vote, client):
    game, users, phase, state, minister = budget_vote
    for seat in range(len(state.players)):
        client.force_login(user_at(game, seat))
        for name in ("game_status", "game_orders", "game_map"):
            response = client.get(reverse(name, args=[game.id]))
            for key in ("view", "seat"):
                context = response.context.get(key) if response.context else None
                view = getattr(context, "view", context)
                if isinstance(view, dict):
                    assert not {"full", "players_secret", "extra_bills"} & set(view), name
                    assert view.get("me", {}).get("seat", seat) == seat


# --- twins ---------------------------------------------------------------------------------

VOLATILE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), 'name="csrfmiddlewaretoken"'),
    (re.compile(r"DTSTAMP:\d{8}T\d{6}Z"), "DTSTAMP"),
]


def normal(page: str) -> str:
    for pattern, replacement in VOLATILE:
        page = pattern.sub(replacement, page)
    return page


def twin(phase: Phase, seat: int, variant: int) -> None:
    """Give `seat` one of two sets of secrets with the same public face: as many cards, the
    same number of bills drawn (so the same count of bills drawn from the deck), different
    amounts, cards, location, orders, note, hidden extra bills and, while the budget is
    under way, a minister's draw (which the President sees too)."""
    def change(s: GameState) -> None:
        p = s.players[seat]
        p.pocket, p.bank = (3, 4) if variant == 0 else (POCKET, BANK)
        size = len(p.hand)
        pool = sorted(set(s.political_deck))
        p.hand = pool[:size] if variant == 0 else pool[size:2 * size]
        p.last_location = "home" if variant == 0 else "mistress"
        if s.phase != "locations":
            p.location = p.last_location
        # one more hidden extra bill, and one more bill left in the deck: drawn stays the same
        if variant == 1:
            s.extra_bills += 1
            s.money_deck.insert(0, 2)
        drawn = (s.budget or {}).get("drawn") or {} if s.phase.startswith("budget") else {}
        for pos in (catalog.FOREIGN, catalog.FARM_LABOR):
            if s.commander(pos) == seat and drawn.get(pos):
                old = list(drawn[pos])
                drawn[pos] = [1 if variant == 0 else 3] * len(old)
                for role in ("held", "all_drawn"):
                    bills = list(s.budget.get(role, []))
                    for bill in old:
                        if bill in bills:
                            bills.remove(bill)
                    s.budget[role] = bills + drawn[pos]

    rewrite(phase, change)
    if phase.kind == "locations":
        payload = [{"kind": "location", "place": "home" if variant == 0 else "mistress"}]
    else:
        payload = [{"kind": "pay", "to": (seat + 1) % 10, "amount": 1 if variant == 0 else
                    AMOUNT}]
    Order.objects.update_or_create(
        phase=phase, player=phase.game.players.get(seat=seat, membership="active"),
        defaults={"payload": payload, "note_to_gm": "a note" if variant == 0 else NOTE,
                  "final": False, "revision": 1})
    Game.objects.filter(pk=phase.game_id).update(state_version=999)
    if variant == 1:  # and a private word with the GameMaster
        write_to_gm(phase.game, seat, TALK)


@pytest.mark.parametrize("kind", ["budget_vote", "locations"])
def test_twins_with_different_secrets_look_the_same_to_everyone_else(campaign, client, kind):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = until(game, users, kind)
    state = repository.state_before(phase)
    watched = state.commander(catalog.FOREIGN)
    if watched in (None, state.president):
        watched = next(p.seat for p in state.players if p.seat != state.president and p.active)
    others = [s for s in range(len(state.players)) if s != watched
              and not (kind == "budget_vote" and s == state.president)]  # he sees the draw
    for seat in others:  # each has read the Events page once: both twins mark nothing new
        client.force_login(user_at(game, seat))
        client.get(reverse("game_events", args=[game.id]))
    seen: list[dict[int, dict[str, str]]] = []
    board: list[tuple] = []  # the board rows differ between the twins too
    for variant in (0, 1):
        twin(phase, watched, variant)
        board.append((Game.objects.get(pk=game.pk).extra_bills,
                      Bill.objects.filter(game=game).count(),
                      Player.objects.get(game=game, seat=watched, membership="active").pocket))
        seen.append({seat: {name: normal(page) for name, page in
                            pages(client, user_at(game, seat), game).items()}
                     for seat in others})
    assert board[0][0] + 1 == board[1][0] and board[0][1] + 1 == board[1][1]
    assert (board[0][2], board[1][2]) == (3, POCKET)
    for seat in others:
        for name in seen[0][seat]:
            assert seen[0][seat][name] == seen[1][seat][name], (kind, seat, name)
    # the control: the watched family's own Status page does change
    client.force_login(user_at(game, watched))
    assert f"{POCKET} MP" in client.get(reverse("game_status", args=[game.id])).content.decode()
