"""Rule tests for setting up a campaign and for who owes orders in each phase.

Each test quotes the rule it checks from docs/rules.md (§about, §money-deck, §timing,
§brother-in-law) or the published game's own words that those paragraphs restate ("Rules").
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President,
1 Maria Minister of Internal Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel
Admiral, 6 Gloria Air Force Commander, 7 Hector Minister of War, 8 Ines Foreign Minister,
9 Jorge Farm & Labor Secretary.
"""

from __future__ import annotations

from collections import Counter

import pytest

from junta.engine import BIL, new_game, owes_orders
from junta.engine import catalog as cat

from .helpers import NAMES, give, in_phase, in_play

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)
EVERYONE = list(range(10))


# --- the table ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [5, 11])
def test_a_game_needs_6_to_10_players(players):
    """§about: "It has ten players by default; the GameMaster may start one with six to ten"."""
    names = [*NAMES, "Kiko"][:players]
    with pytest.raises(ValueError, match="6 to 10 players"):
        new_game("table", names)


@pytest.mark.parametrize("players", [6, 10])
def test_six_and_ten_players_may_play(players):
    """§about: "It has ten players by default; the GameMaster may start one with six to ten"."""
    assert len(new_game("table", NAMES[:players]).players) == players


# --- the money deck -------------------------------------------------------------------------

def extras(deck: list[int]) -> Counter:
    """The bills beyond the known 51 x 1, 30 x 2 and 15 x 3 (negative: some are missing)."""
    counts = Counter(deck)
    return Counter({d: counts[d] - n for d, n in {1: 51, 2: 30, 3: 15}.items()})


def test_the_money_deck_holds_the_known_96_bills_plus_0_to_14_hidden_ones():
    """Rules, "How Many Cards Are in the Money Deck?": "There are 51 one MP notes, 30 two MP
    notes, and 15 three MP notes, for a total of 96 bills (plus 0-14 extra random bills)...
    These extra bills may be of any denomination." §money-deck: "plus a hidden number (0 to
    14, set when the campaign is created) of extra bills of 1 to 3 MP"."""
    assert cat.MONEY_DECK == {1: 51, 2: 30, 3: 15} and cat.KNOWN_BILLS == 96
    seen_extra = set()
    for i in range(120):
        state = new_game(f"deck-{i}", NAMES)
        deck = state.money_deck
        assert set(deck) <= {1, 2, 3}
        more = extras(deck)
        assert all(n >= 0 for n in more.values()), more
        assert sum(more.values()) == state.extra_bills == len(deck) - 96
        assert 0 <= state.extra_bills <= 14
        seen_extra.add(state.extra_bills)
    assert {0, 14} <= seen_extra and len(seen_extra) == 15
    denominations = Counter()
    for i in range(40):
        deck = new_game(f"full-{i}", NAMES, {"extra_bills_min": 14}).money_deck
        assert len(deck) == 110
        denominations += extras(deck)
    assert all(denominations[d] > 0 for d in (1, 2, 3))  # "of any denomination"


def test_without_extra_bills_the_deck_is_exactly_the_known_96():
    """Rules: "There are 51 one MP notes, 30 two MP notes, and 15 three MP notes, for a total
    of 96 bills"."""
    state = new_game("plain", NAMES, {"extra_bills_max": 0})
    assert Counter(state.money_deck) == Counter({1: 51, 2: 30, 3: 15})
    assert state.extra_bills == 0 and state.bills_total() == 51 + 60 + 45


def test_the_deck_is_shuffled_by_the_seed():
    """§money-deck: the extra bills are part of the deck, which each campaign's seed
    shuffles: each game its own deck."""
    a, b = new_game("shuffle-a", NAMES), new_game("shuffle-b", NAMES)
    assert a.money_deck != b.money_deck
    assert new_game("shuffle-a", NAMES).money_deck == a.money_deck


# --- who owes orders ------------------------------------------------------------------------

def test_who_owes_orders_in_each_phase():
    """§timing: "A phase ends early once every player who owes orders has marked them
    final." Those who owe orders: every player in the nominations, the first election and the
    Locations phase; the President for the Cabinet and the proposal; the Minister of War, the
    Foreign Minister and the Farm & Labor Secretary for the draw; every player with votes in a
    vote; the Minister of Internal Security for his decision."""
    assert owes_orders(new_game("owes", NAMES)) == EVERYONE  # nominations
    election = in_phase("election")
    election.election = {"reason": "initial", "round": 1, "candidates": None}
    assert owes_orders(election) == EVERYONE  # "every player has exactly one vote"
    assert owes_orders(in_phase("cabinet")) == [CARLOS]
    assert owes_orders(in_phase("budget_draw")) == [HECTOR, INES, JORGE]
    assert owes_orders(in_phase("budget_proposal")) == [CARLOS]
    assert owes_orders(in_phase("budget_vote")) == EVERYONE  # a position is a vote
    assert owes_orders(in_phase("internal_security")) == [MARIA]
    assert owes_orders(in_phase("locations")) == EVERYONE
    assert owes_orders(in_phase("aftermath")) == [CARLOS]  # no Junta: his execution order


def test_the_brother_in_law_s_orders_are_owed_by_the_president():
    """§brother-in-law: "a position he holds is exercised by the President (its votes,
    units, draws and powers)", each ordered by the President as that position."""
    state = in_phase("budget_draw")
    state.positions[cat.FOREIGN] = BIL
    assert owes_orders(state) == [CARLOS, HECTOR, JORGE]
    state = in_phase("internal_security")
    state.positions[cat.INTERNAL_SECURITY] = BIL
    assert owes_orders(state) == [CARLOS]


def test_exiles_the_dead_and_the_voteless_owe_no_orders():
    """§timing: "A phase ends early once every player who owes orders has marked them
    final"; rules: "An Exiled player is essentially out of the game until he returns"; the dead
    "cannot take any actions until the beginning of the next turn"."""
    for phase in ("locations", "budget_vote"):
        state = in_phase(phase)
        state.players[DONA].status = "exiled"
        state.players[FIDEL].status = "dead"
        state.positions[cat.GENERAL_2] = state.positions[cat.ADMIRAL] = None
        assert owes_orders(state) == [s for s in EVERYONE if s not in (DONA, FIDEL)]
    state = in_phase("budget_vote")
    state.positions[cat.ADMIRAL] = None  # Fidel holds no position and no Influence: no vote
    assert FIDEL not in owes_orders(state)
    in_play(state, FIDEL, "Landowners")
    assert FIDEL in owes_orders(state)
    # Card Political Refugees: "Adds 2 votes to one vote": without a vote of her own, a Vote
    # card gives Gloria nothing to cast
    give(state, GLORIA, "Political Refugees")
    state.positions[cat.AIR_FORCE] = None
    assert GLORIA not in owes_orders(state)


def test_nobody_owes_orders_once_the_game_is_over():
    """Rules: "As soon as the budget cannot be drawn, the game has ended"."""
    state = in_phase("locations")
    state.finished, state.phase = True, "finished"
    assert owes_orders(state) == []
