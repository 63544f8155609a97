"""The Junta when its members are gone: a First Rebel who fled through an embassy (or died),
and a coup won with no Rebel left in the country.

docs/rules.md §junta: "If the Rebels won, the Rebels in the country elect the next President
among all living players, the sitting one included; the First Rebel breaks a tie";
§embassies: a player who flees "loses his positions"; docs/rulings.md §ruling-junta: only a
player in the country sits in the Junta or takes the Presidency; with no Rebel left the
President falls and the Chamber elects when the Aftermath is over
(§ruling-president-fled). Before, a sitting President whose Rebels had all fled stayed in
office and shot whom he liked, a Loyalist too, as if the Junta had elected him.
Standard cabinet (helpers.standard_cabinet): Carlos President, Bill the 1st Brigade, Ernesto
the 3rd, Gloria the Air Force.
"""

from __future__ import annotations

import pytest

from junta.engine import Order, instructions, state_problems
from junta.engine import catalog as cat
from junta.engine.options import legal_options
from junta.engine.units import new_unit

from .coup_states import final_state
from .helpers import run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA = range(7)
NEXT_TO_EMBASSY, EMBASSY = 18, 19
PRO_JUNTA = Order("coup_side", {"side": "junta"})


def won_by_the_rebels(fleeing: tuple[int, ...]):
    """Coup Phase 6 of Ernesto's coup (Ernesto the First Rebel, Gloria a Rebel): Bill, a Loyalist
    voting Pro-Junta, holds three control points; the `fleeing` Rebels move a unit into an
    embassy and flee. The Aftermath that follows, and its events."""
    state = final_state()
    state.coup["units"] = []
    for zone in (2, 3, 4):
        new_unit(state.coup, "Soldier", BILL, zone, position=cat.GENERAL_1)
    new_unit(state.coup, "Soldier", ERNESTO, NEXT_TO_EMBASSY, position=cat.GENERAL_3)
    new_unit(state.coup, "Paratrooper", GLORIA, NEXT_TO_EMBASSY, position=cat.AIR_FORCE)
    orders = {BILL: [PRO_JUNTA], ERNESTO: [PRO_JUNTA], GLORIA: [PRO_JUNTA]}
    for seat in fleeing:
        orders[seat] = [Order("move", {"from_zone": NEXT_TO_EMBASSY, "to_zone": EMBASSY}),
                        Order("flee", {})]
    after, events = run(state, orders)
    assert after.phase == "aftermath" and after.coup["result"] == "junta"
    assert after.first_rebel == ERNESTO
    for seat in fleeing:
        assert after.players[seat].status == "exiled" and not after.positions_of(seat)
    return after, events


def test_a_first_rebel_who_fled_does_not_take_the_presidency():
    """Rulings: "with no ballot at all the First Rebel takes the Presidency"; "A First Rebel who
    fled through an embassy (or died) casts no ballot and breaks no tie, and with no ballot cast
    the lot chooses among the Rebels still in the country" (§ruling-junta, §embassies)."""
    state, _ = won_by_the_rebels(fleeing=(ERNESTO,))
    assert "the lot breaks ties" in " ".join(instructions(state, GLORIA))
    vote = legal_options(state, GLORIA).get("junta_vote")  # the Orders page's help says it too
    assert vote is not None and "is not in the country: the lot breaks ties" in vote.help
    after, events = run(state, {})
    assert after.president == GLORIA
    assert "No member of the Junta votes: the lot falls on Gloria." in texts(events)
    assert after.players[ERNESTO].status == "exiled" and not after.positions_of(ERNESTO)
    assert state_problems(after) == []


def test_a_dead_first_rebel_does_not_take_the_presidency():
    """Rulings: a First Rebel who died "casts no ballot and breaks no tie" (§ruling-junta);
    "his positions fall vacant" (§assassinations). No phase of a coup kills before the Junta
    votes, so the First Rebel dies here as the engine kills (`Context.kill`)."""
    from junta.engine.context import Context
    from junta.engine.words import words

    state, _ = won_by_the_rebels(fleeing=())
    Context(state, {}, state.rng()).kill(ERNESTO, None, words("struck by lightning"), None)
    after, events = run(state, {GLORIA: [Order("junta_vote", {"candidate": MARIA})]})
    assert after.president == MARIA
    assert after.players[ERNESTO].status == "alive"  # his family is back with the new turn
    assert after.players[ERNESTO].life == 2 and not after.positions_of(ERNESTO)


@pytest.mark.parametrize("execute", [MARIA, ERNESTO])
def test_with_no_rebel_in_the_country_the_president_falls_and_the_chamber_elects(execute):
    """Rules: "If the Rebels won, the Rebels in the country elect the next President... If no
    Rebel is left in the country, the President falls all the same and the Chamber elects his
    successor right after the Aftermath" (§junta); Rulings: "the sitting President loses office
    (no execution: his order was given 'if I am elected')" (§ruling-junta). Before, Carlos stayed
    in office and shot Maria, a Loyalist, as the Junta's President."""
    state, _ = won_by_the_rebels(fleeing=(ERNESTO, GLORIA))
    guidance = " ".join(instructions(state, CARLOS))
    assert "no Rebel is left in the country to form the Junta" in guidance
    after, events = run(state, {CARLOS: [Order("execute", {"target": execute})]})
    assert after.president is None and after.phase == "election"
    assert (after.election or {}).get("reason") == "vacancy"
    assert all(p.status != "dead" for p in after.players)
    assert "El Presidente Carlos falls with his government and executes nobody" in texts(events)
    assert state_problems(after) == []
    for _ in range(3):  # nobody votes: from the third round the lot (§ruling-deadlock)
        after, _ = run(after, {})
    assert after.president is not None and after.players[after.president].active
    assert state_problems(after) == []


def test_with_nobody_left_at_all_the_presidency_stays_vacant_until_the_chamber_elects():
    """Rules: "A President who fled during the coup is replaced by the Chamber right after the
    Aftermath" (§after-lunch); with no Rebel in the country nobody elects in the Aftermath
    (§ruling-junta, §ruling-president-fled)."""
    state, _ = won_by_the_rebels(fleeing=(ERNESTO, GLORIA))
    state.positions[cat.PRESIDENT] = None  # Carlos fled too
    state.players[CARLOS].status = "exiled"
    after, events = run(state, {})
    assert after.president is None and after.phase == "election"
    assert "nobody elects a President in the Aftermath. The Chamber elects one" in texts(events)
