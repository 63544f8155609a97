"""The Coup Aftermath after lunch, shared by the web tests of what is secret about who owes
orders (the Status page's who is in, the live answer of a page left open): the banker owes
orders in secret, only the President's turn to order is public."""

from __future__ import annotations

from functools import cache

from junta.engine import GameState, Order, PhaseKind, owes_orders, public_owes_orders
from tests.engine.helpers import give, in_phase, run

# the standard cabinet of tests.engine.helpers.in_phase
PRESIDENT, GENERAL_1, GENERAL_3, FARM = 0, 3, 5, 9


@cache
def _after_lunch() -> dict:
    """The Coup Aftermath after lunch (docs/rules.md §after-lunch): the Farm & Labor Secretary
    chose the Bank while it was closed for lunch, and a coup followed; now he may bank, and so
    owes orders, but only the President's turn to order is public."""
    s = in_phase(PhaseKind.LOCATIONS)
    give(s, GENERAL_1, "Demonstrators")
    s.players[FARM].pocket, s.players[FARM].bank = 2, 4
    s.bank_status = "closed_for_lunch"
    orders = {seat: [Order("location", {"place": "home"})] for seat in range(10)}
    orders[GENERAL_1] = [
        Order("location", {"place": "hq"}),
        Order("rebel_move", {"from_zone": 15, "to_zone": 13}),
        Order("play_card", {"card": next(c for c in s.players[GENERAL_1].hand)}),
    ]
    orders[FARM] = [Order("location", {"place": "bank"})]
    s, _ = run(s, orders)
    assert s.phase == PhaseKind.COUP
    while s.phase != PhaseKind.COUP_FINAL:
        s, _ = run(s)
    s, _ = run(s, {seat: [Order("coup_side", {"side": "president"})] for seat in (0, 1)})
    assert s.phase == PhaseKind.AFTERMATH and s.turn_flags.get("bank_after_lunch")
    return s.to_dict()


def after_lunch() -> GameState:
    s = GameState.from_dict(_after_lunch())
    # the state where the engine's two answers differ: the banker owes, in secret
    assert FARM in owes_orders(s) and FARM not in public_owes_orders(s)
    assert public_owes_orders(s) == [PRESIDENT]
    return s
