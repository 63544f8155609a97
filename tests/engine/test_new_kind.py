"""A new kind of order is one object: a kind written in the tests alone (`throwaway_kind.Rally`,
"spend a card on a rally in a zone"), once registered, is offered, checked alone and in the
whole set, described, carried out at its step with its owner told when it cannot be, and given
and drawn on the map, with no file of the project naming it (docs/rules.md §orders: "the engine
offers each seat exactly the orders it may give now")."""

from __future__ import annotations

import subprocess
from pathlib import Path

from junta.engine import (
    MapShape,
    Order,
    describe_order,
    legal_options,
    map_mark,
    map_values,
    option_form,
    resolve,
    validate_order,
    validate_orders,
)
from junta.engine import catalog as cat
from junta.engine.kinds import ORDER_KINDS, registered
from junta.engine.labels import zone_name

from .helpers import give, in_phase
from .throwaway_kind import NAME, Rally

ROOT = Path(__file__).resolve().parents[2]
SEAT, ZONE = 3, 13


def test_a_kind_written_in_the_tests_alone_is_named_by_no_file_of_the_project() -> None:
    found = subprocess.run(["git", "grep", "-l", NAME, "--", "junta", "static", "templates",
                            "docs", "accounts"], cwd=ROOT, capture_output=True, text=True)
    assert found.stdout == "", found.stdout


def test_a_registered_kind_is_offered_checked_described_carried_out_and_drawn() -> None:
    state = in_phase("cabinet")
    cid = give(state, SEAT, "Press Scandal")
    other = give(state, SEAT + 1, "Coalition Breaks Up")
    assert NAME not in legal_options(state, SEAT).kinds
    with registered(Rally()):
        # offered: one option for each card in the hand, every zone a choice
        options = legal_options(state, SEAT)
        option = options.get(f"{NAME}:{cid}")
        assert option is not None and option.fixed == {"card": cid}
        assert [c.value for c in option.arg("zone").choices] == sorted(cat.zones())
        assert NAME not in legal_options(state, SEAT + 2).kinds  # an empty hand
        # checked: alone, and in the whole set (a card is used once)
        order = Order(NAME, {"card": cid, "zone": ZONE})
        assert validate_order(state, SEAT, order) == []
        assert [p.arg for p in validate_order(state, SEAT, Order(NAME, {"card": other,
                                                                         "zone": 99}))] == \
            ["card", "zone"]
        twice = validate_orders(state, SEAT, [order, Order(NAME, {"card": cid, "zone": 1})])
        assert any("Press Scandal is used by two of your orders: rallying with it" in p
                   for p in twice), twice
        clash = validate_orders(state, SEAT, [order, Order("discard", {"card": cid})])
        assert any("rallying with it (order 1) and discarding it (order 2)" in p
                   for p in clash), clash
        # described in its own words
        assert describe_order(state, order) == \
            f"Hold a rally in {zone_name(ZONE)} with Press Scandal"
        # given and drawn on the map: a zone, each one a choice
        assert option_form(option).shape is MapShape.ZONE
        assert [v["zone"] for v in map_values(option)] == sorted(cat.zones())
        mark = map_mark(order)
        assert mark is not None and (mark.shape, mark.start, mark.end) == \
            (MapShape.ZONE, None, ZONE)
        # carried out at the any-time step
        done = resolve(state, {SEAT: [order]})
        assert cid in done.state.political_discard and cid not in done.state.players[SEAT].hand
        said = [e.text for e in done.events if e.kind == "rally"]
        assert said == [f"{state.name(SEAT)} holds a rally in {cat.zones()[ZONE].name}."]
        assert [(o.seat, o.done) for o in done.outcomes if o.order.kind == NAME] == \
            [(SEAT, True)]
        # or its owner is told why not: the card went since (a gift carried out before it)
        gift = Order("give_card", {"to": SEAT + 1, "card": cid})
        later = resolve(state, {SEAT: [gift, order]})
        assert [(e.audience, e.text) for e in later.events if e.kind == "rally_failed"] == \
            [((SEAT,), f"Your rally in {cat.zones()[ZONE].name} was not held: the card is no "
                       "longer in your hand.")]
        assert [o.done for o in later.outcomes if o.order.kind == NAME] == [False]
    # gone with the block
    assert NAME not in ORDER_KINDS
    assert NAME not in legal_options(state, SEAT).kinds
    assert validate_order(state, SEAT, Order(NAME, {"card": cid, "zone": ZONE}))
