"""An empty country: every living player in exile (the others dead), no exile asking to return.

docs/rulings.md §ruling-empty-country (docs/rules.md §empty-country): no election is held, the
Presidency stays vacant and the campaign goes on (the dead come back with the next turn); an
exile may return, safely with no Minister to decide, and the Chamber elects a President; if the
country is still empty when the budget is due, the game ends and the richest Bank account wins.
Before, the Chamber was called to elect a President among nobody, by nobody, every day for ever.
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President.
"""

from __future__ import annotations

import pytest

from junta.engine import (
    GameState,
    Order,
    change_problems,
    instructions,
    resolve,
    state_problems,
    validate_order,
)
from junta.engine.bots import play_phase, whole_set
from junta.engine.flow import country_empty
from junta.engine.rng import Rng

from .helpers import game, in_phase, run, texts

PLAYERS = 6
EXILE = Order("location", {"place": "exile"})
RETURN = Order("return_from_exile", {})


def all_abroad(dead: tuple[int, ...] = ()) -> tuple[GameState, list]:
    """A Locations phase where every player flees into exile but the `dead`; the state after
    it and its events. Bill (seat 2) has the richest Bank account."""
    state = in_phase("locations", players=PLAYERS)
    for seat, bank in enumerate((3, 5, 9, 0, 4, 1)):
        state.players[seat].bank = bank
    for seat in dead:
        state.players[seat].status = "dead"
        state.positions = {pos: (None if holder == seat else holder)
                           for pos, holder in state.positions.items()}
    before = state.copy()
    after, events = run(state, {s: [EXILE] for s in range(PLAYERS) if s not in dead})
    assert change_problems(before, after) == []
    return after, events


def test_a_country_left_empty_holds_no_election_and_ends_when_the_budget_is_due():
    """§ruling-empty-country: "no election is held: the Presidency stays vacant and the
    campaign goes on where the election would have resumed it"; "If the country is still empty
    when the budget is due ... the game has ended", the richest Bank account winning."""
    state, events = all_abroad()
    assert (state.phase, state.turn, state.president, state.election) == ("cabinet", 2, None,
                                                                          None)
    assert "Nobody is left in the country: no President can be elected" in texts(events, None)
    assert country_empty(state)
    lines = " ".join(instructions(state, 3))
    assert "You are in exile" in lines
    assert "an exile who asks to return now comes home safely" in lines
    assert "If no exile asks by this phase's deadline, the game ends" in lines
    assert validate_order(state, 3, RETURN) == []
    after, events = run(state, {})
    assert after.finished and after.phase == "finished"
    assert after.winners == [2]
    told = texts(events, None)
    assert "Nobody is left in the country to govern it" in told
    assert "Bill wins with 9 MP in the Bank." in told and "Everything is revealed" in told
    assert change_problems(state, after) == [] and state_problems(after) == []
    assert instructions(after, 3) == ["The game is over: everything is revealed below."]


def test_an_exile_who_returns_to_the_empty_country_is_elected_and_the_turn_goes_on():
    """§ruling-empty-country: "An exile may ask to return in any phase; nobody holds the
    Ministry of Internal Security, so with no decision he returns safely and the Chamber
    elects a President at once (a deadlock is settled by lot)"."""
    state, _ = all_abroad()
    state, events = run(state, {3: [RETURN]})
    assert "Dona asks to return from exile" in texts(events, None)
    assert state.phase == "election" and state.election["reason"] == "vacancy"
    assert not country_empty(state)
    assert instructions(state, 4) == instructions(all_abroad()[0], 4)[:1]
    state, events = run(state, {})
    assert "Dona returns from exile under safe passage" in texts(events, None)
    for _ in range(2):  # a re-vote, then the lot
        if state.president is not None:
            break
        state, events = run(state, {})
    assert state.president == 3 and state.players[3].status == "alive"
    assert state.phase == "budget_draw" and state.turn == 2 and not state.finished


def test_the_dead_come_back_to_an_empty_country_and_elect_a_president():
    """§ruling-empty-country: the campaign goes on "normally the next turn, whose dead families
    return (the Chamber then elects a President)"; the exiles stay abroad."""
    state, events = all_abroad(dead=(4, 5))
    assert "Nobody is left in the country" in texts(events, None)
    assert state.phase == "cabinet" and state.turn == 2
    assert [p.status for p in state.players] == ["exiled"] * 4 + ["alive"] * 2
    assert not country_empty(state)
    state, _ = run(state, {})
    assert state.phase == "election" and state.election["reason"] == "vacancy"
    for _ in range(3):
        state, _ = run(state, {})
        if state.president is not None:
            break
    assert state.president in (4, 5) and state.phase == "budget_draw"


# --- bots that never come home -----------------------------------------------------------------

MAX_PHASES = 400  # as tests/engine/test_campaigns.py: a campaign ends well within it
EMPTY_PHASES = 10  # after the country empties: the coup's phases, its Aftermath, a Cabinet


def never_return(state: GameState, orders: dict[int, list[Order]], flee: set[int]
                 ) -> dict[int, list[Order]]:
    """The bots' orders, no exile asking to return, and every seat of `flee` going into exile
    instead of its location (the rest of its orders kept as far as the engine accepts them)."""
    out = {}
    for seat, given in orders.items():
        kept = [o for o in given if o.kind != "return_from_exile"]
        if seat in flee and state.players[seat].active:
            kept = whole_set([EXILE, *(o for o in kept if o.kind != "location")], state, seat)
        out[seat] = kept
    return out


@pytest.mark.parametrize("seed", range(12))
def test_a_campaign_of_bots_that_never_return_from_exile_ends(seed):
    """Invariant-style guard (§ruling-empty-country): bots that never ask to return and flee
    into exile often (half the table each Locations phase; for even seeds, the whole table in
    one of them) play a campaign that keeps every invariant, never holds an election in an
    empty country, and ends within a bounded number of phases, at most EMPTY_PHASES after the
    country empties."""
    state = game(6 + seed % 5, f"empty-{seed}")
    rng, chance = Rng(f"bots-empty-{seed}"), Rng(f"flee-{seed}")
    everyone_at = 2 + seed % 4  # the turn whose Locations phase the whole table flees
    emptied = None
    for number in range(MAX_PHASES):
        if state.finished:
            break
        flee: set[int] = set()
        if state.phase == "locations":
            seats = range(len(state.players))
            flee = set(seats) if state.turn == everyone_at and seed % 2 == 0 else \
                {s for s in seats if chance.below(2) == 0}
        orders = never_return(state, play_phase(state, rng), flee)
        after = resolve(state, orders).state
        errors = change_problems(state, after)
        assert not errors, f"seed {seed}, phase {state.phase_number} ({state.phase}): {errors}"
        assert not (after.phase == "election" and country_empty(after)), \
            "an election is held with nobody in the country"
        state = after
        if emptied is None and country_empty(state):
            emptied = number
        if emptied is not None:
            assert number - emptied <= EMPTY_PHASES, (
                f"seed {seed}: the country emptied at phase {emptied} and the campaign is still "
                f"at {state.phase} (turn {state.turn}) {number - emptied} phases later")
    assert state.finished, f"seed {seed}: no end within {MAX_PHASES} phases"
    assert emptied is not None, f"seed {seed}: the country never emptied"
    best = max(p.bank for p in state.players)
    assert state.winners == [p.seat for p in state.players if p.bank == best]
