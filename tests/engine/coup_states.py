"""Games in a coup, shared by the coup's tests (tests/engine/test_coup.py), the order sets'
(tests/engine/test_order_sets.py) and the messages' (tests/engine/test_problem_args.py).

Standard cabinet (helpers.standard_cabinet): Carlos President, Maria Internal Security, Bill,
Dona and Ernesto the 1st, 2nd and 3rd Brigades, Fidel Admiral, Gloria Air Force, Hector War,
Ines Foreign Minister, Jorge Farm & Labor.
"""

from __future__ import annotations

from junta.engine import Order

from .helpers import in_phase, run

ERNESTO, GLORIA, HECTOR = 4, 6, 7


def units(state, owner=None, zone=None, kind=None) -> list[dict]:
    return [u for u in state.coup["units"] if (owner is None or u["owner"] == owner)
            and (zone is None or u["zone"] == zone) and (kind is None or u["kind"] == kind)]


def coup_state(extra: dict | None = None, **kw):
    """Ernesto (3rd Brigade) rebels from HQ, moving his brigade to the North Suburb: the coup
    opens with Coup Phase 1."""
    state = in_phase("locations")
    for k, v in kw.items():
        setattr(state, k, v)
    orders = {ERNESTO: [Order("location", {"place": "hq"}),
                        Order("rebel_move", {"from_zone": 17, "to_zone": 24})],
              HECTOR: [Order("location", {"place": "bank"})]}
    for seat, more in (extra or {}).items():
        orders.setdefault(seat, []).extend(more)
    after, events = run(state, orders, submission_order=[ERNESTO])
    assert after.phase == "coup" and after.coup["phase"] == 1
    return after, events


def final_state():
    """Coup Phase 6 of `coup_state`, Gloria (Air Force) a Rebel too."""
    state, _ = coup_state()
    state.phase = "coup_final"
    state.coup["phase"] = 6
    state.players[GLORIA].rebel = True
    return state


def aftermath_state(result: str):
    """The Aftermath of `final_state`, the coup won by `result` ("junta" or "president")."""
    state = final_state()
    state.phase = "aftermath"
    state.coup["result"] = result
    return state
