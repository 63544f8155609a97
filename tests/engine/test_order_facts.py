"""What the engine tells the pages about orders, so that they never name an order kind: how
the map gives an option (its shape and the arguments it fills in) and draws an order, the
values it may choose and the sentence each makes (the Orders page's words), where a stack may
stand after the moves (§movement, §combat), whether an order is Rebel action (§rebel-only,
§ruling-rebel-action) and the card an order plays."""

from __future__ import annotations

from junta.engine import (
    UNIT_CARDS,
    MapMark,
    MapShape,
    Order,
    build,
    describe_order,
    is_assassination,
    is_rebel_action,
    legal_options,
    map_mark,
    map_values,
    option_form,
    option_sentence,
    played_card,
    resolve,
    stack_ends,
)
from junta.engine import catalog as cat
from tests.engine.helpers import give, in_phase

GENERAL_1, ADMIRAL = 2, 5  # the standard cabinet of in_phase


def coup_phase_1():
    """The 1st Brigade's General moved his brigade from its barracks (15) into University City
    (13) at the Rebel-Only step."""
    state = in_phase("locations")
    state.coup_excuse = True
    state = resolve(state, {GENERAL_1: [Order("rebel_move", {"from_zone": 15, "to_zone": 13})]},
                    [GENERAL_1]).state
    assert state.phase == "coup"
    return state


def test_each_option_of_the_map_has_its_kind_s_shape_and_the_others_none():
    state = coup_phase_1()
    shapes = {o.key: option_form(o) for o in legal_options(state, GENERAL_1).orders}
    assert shapes["move"] is not None and shapes["move"].shape is MapShape.ROUTE
    assert (shapes["move"].start, shapes["move"].zone) == ("from_zone", "to_zone")
    assert shapes["retreat"] is not None and shapes["retreat"].shape is MapShape.ROUTE
    assert (shapes["retreat"].start, shapes["retreat"].zone) == ("zone", "to_zone")
    assert shapes["attack"] is not None and shapes["attack"].shape is MapShape.TARGET
    assert shapes["attack"].who == "target" and shapes["attack"].after_moves
    assert shapes["transfer"] is None and shapes["permit_retreat"] is None
    admiral = {o.key: option_form(o) for o in legal_options(state, ADMIRAL).orders}
    assert admiral["gunboat"] is not None and admiral["gunboat"].shape is MapShape.TARGET
    assert admiral["place:Marine"] is not None
    assert admiral["place:Marine"].shape is MapShape.ZONE


def test_a_card_is_on_the_map_when_it_names_a_zone_and_not_when_it_names_a_player():
    state = in_phase("locations")
    demonstrators = give(state, 7, "Demonstrators")
    informant = give(state, 7, "Informant")
    options = {o.key: o for o in legal_options(state, 7).orders}
    card = options[f"play_card:{demonstrators}"]
    form = option_form(card)
    assert form is not None and form.shape is MapShape.ZONE
    assert [v["zone"] for v in map_values(card)] == card.arg("zone").values()  # type: ignore
    against = options[f"play_card:{informant}"]
    assert [a.name for a in against.args] == ["target"]
    assert option_form(against) is None and list(map_values(against)) == []


def test_the_map_s_values_are_every_allowed_route_and_each_reads_as_the_orders_page():
    state = coup_phase_1()
    options = legal_options(state, GENERAL_1)
    move = options.get("move")
    assert move is not None
    routes = list(map_values(move))
    narrowed = move.arg("to_zone").choices_for  # type: ignore[union-attr]
    assert sorted((v["from_zone"], v["to_zone"]) for v in routes) == sorted(
        (z, t) for z in move.arg("from_zone").values()  # type: ignore[union-attr]
        for t in narrowed[z])
    for option in options.orders:
        for values in list(map_values(option))[:40]:
            order = build(state, GENERAL_1, option, values)
            assert option_sentence(state, GENERAL_1, option, values) == \
                describe_order(state, order)
    assert option_sentence(state, GENERAL_1, move, routes[0]).startswith(
        "Move the stack from University City to ")


def test_a_stack_stands_after_the_moves_where_it_is_or_where_it_may_go():
    state = coup_phase_1()
    options = legal_options(state, GENERAL_1)
    ends = stack_ends(options)
    assert ends[13][0] == 13
    assert set(ends[13][1:]) == set(cat.zones()[13].adjacent)
    assert stack_ends(legal_options(in_phase("budget_vote"), GENERAL_1)) == {}


def test_how_an_order_is_drawn():
    assert map_mark(Order("move", {"from_zone": 13, "to_zone": 14})) == \
        MapMark(MapShape.ROUTE, 13, 14)
    assert map_mark(Order("retreat", {"zone": 13, "to_zone": 12})) == \
        MapMark(MapShape.ROUTE, 13, 12)
    assert map_mark(Order("attack", {"zone": 13, "target": 0})) == \
        MapMark(MapShape.TARGET, None, 13)
    assert map_mark(Order("play_card", {"card": 3, "zone": 5})) == \
        MapMark(MapShape.ZONE, None, 5)
    assert map_mark(Order("move", {"from_zone": 13})) is None
    assert map_mark(Order("play_card", {"card": 3, "target": 1})) is None
    assert map_mark(Order("pay", {"to": 1, "amount": 2})) is None


def test_rebel_action_assassination_and_the_card_played():
    state = in_phase("locations")
    demonstrators = give(state, 7, "Demonstrators")
    other = next(c.id for c in cat.cards() if c.name not in UNIT_CARDS)
    assert is_rebel_action(Order("rebel_move", {"from_zone": 15, "to_zone": 13}))
    assert is_rebel_action(Order("airstrike", {"source": "air_force", "zone": 1, "target": 0}))
    assert is_rebel_action(Order("play_card", {"card": demonstrators}))
    assert not is_rebel_action(Order("play_card", {"card": other}))
    assert not is_rebel_action(Order("pay", {"to": 1, "amount": 2}))
    assert not is_rebel_action(Order("play_card", {"card": 10_000}))
    assert played_card(Order("play_card", {"card": other})) == other
    assert played_card(Order("discard", {"card": other})) is None
    assert played_card(Order("play_card", {"card": True})) is None
    assert is_assassination(Order("assassinate", {"card": other, "target": 1}))
    assert not is_assassination(Order("execute", {"target": 1}))
