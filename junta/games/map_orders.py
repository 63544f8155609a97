"""Ordering on the map: what the Map page embeds so that a seated player gives his coup orders
by tapping his stacks and the zones (static/js/map_orders.js), and his orders of the phase
drawn over the city.

The engine owns the facts: the orders offered and their values are `legal_options` for the
viewer's seat, exactly as the Orders page reads them, reduced to those the map can give (the
engine's `option_form`: a route, a zone, or a zone and whose units there; docs/rules.md
§movement, §placement, §combat). For each the page embeds every choice a tap can make, with
the engine's sentence for it (the Orders page's words): the script keeps no list of kinds and
no rule. A tap only fills in the Orders page's own form (`orders_page.OrdersPage.submit`: same
field names, CSRF token and state version), so what is accepted and every message are the
Orders page's. Nothing here is another player's: the
options and the orders are the viewer's own (his secret until carried out, docs/rules.md
§secrets), and the rest (who stands in which zone) is the public coup view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

from django.urls import reverse
from django.utils.safestring import SafeString

from junta.engine import (
    Catalog,
    CoupView,
    GameState,
    MapForm,
    Options,
    Order,
    OrderOption,
    describe_order,
    legal_options,
    map_mark,
    map_values,
    option_form,
    option_sentence,
    parse_order,
    stack_ends,
    why_no_orders,
    zone_name,
)
from junta.games import citymap, status_info
from junta.games.order_forms import form_prefix, token
from junta.games.play import Seat


def map_options(options: Options) -> list[tuple[OrderOption, MapForm]]:
    """The options the map can give, each with how (the engine's `option_form`)."""
    out = []
    for option in options.orders:
        form = option_form(option)
        if form is not None:
            out.append((option, form))
    return out


def stands(options: Options, seat: int, occupied: Mapping[str, list[int]] | None
           ) -> dict[str, list[str]]:
    """The zones of the seat's stacks the map gives orders to, each with the zones it may
    stand in after the moves (the engine's `stack_ends`; a stack no move starts from stands
    where it is), as the form's tokens. While the map shows the units (`occupied` not None),
    only the stacks the seat has there: a move the engine offers from another player's zone,
    for units that may be handed over to him before the moves (docs/rules.md §transfers), is
    given on the Orders page, so that a tap on another player's stack never reads as his."""
    out = {token(z): [token(e) for e in ends] for z, ends in stack_ends(options).items()}
    if occupied is None:
        return out
    own = [zone for zone, seats in occupied.items() if seat in seats]
    return {zone: out.get(zone, [zone]) for zone in sorted(own, key=int)}


# One choice a tap can make, as the script reads it: the zone tapped (`at`), the stack a route
# starts from, whose units, the stacks that may give it after their moves, the form's values and
# the engine's sentence ("from" is a keyword: the functional form). Filled in this order (the
# page's JSON keeps it), so every key but `at` comes later.
MapAction = TypedDict("MapAction", {
    "at": str, "from": NotRequired[str], "who": NotRequired[str],
    "stacks": NotRequired[list[str]], "values": NotRequired[dict[str, str]],
    "text": NotRequired[str],
})


class MapOptionData(TypedDict):
    key: str
    label: str
    prefix: str
    shape: str
    actions: list[MapAction]


class MapOrders(TypedDict):
    """What the script gets to give orders on the map (as JSON)."""
    seat: int
    orders_url: str
    zones: dict[str, str]
    stacks: list[str]
    options: list[MapOptionData]


class MapOrdersContext(TypedDict, total=False):
    """What the Map page adds for a seated player (nothing for the GM or a spectator)."""
    planned: list[citymap.Planned]
    map_orders_open: bool
    state_version: int
    orders_revision: int
    planned_svg: SafeString
    map_orders: MapOrders


def option_data(state: GameState, seat: int, option: OrderOption, form: MapForm,
                occupied: Mapping[str, list[int]] | None,
                stacks: Mapping[str, list[str]]) -> MapOptionData:
    """One option as the script reads it: its shape, and each choice a tap can make (the
    zone tapped, a route's stack, whose units, the stacks that may give it after their moves),
    with the form's values and the engine's sentence for it. A route starts from one of the
    seat's stacks; a target is a player seen in the zone (any the engine offers while the map
    shows no units: `occupied` None)."""
    actions: list[MapAction] = []
    for values in map_values(option):
        action: MapAction = {"at": token(values[form.zone])}
        if form.start:
            action["from"] = token(values[form.start])
            if action["from"] not in stacks:
                continue
        if form.who:
            action["who"] = token(values[form.who])
            if occupied is not None and \
                    values[form.who] not in occupied.get(action["at"], []):
                continue
        if form.after_moves:
            action["stacks"] = [z for z, ends in stacks.items() if action["at"] in ends]
        action["values"] = {name: token(value) for name, value in values.items()}
        action["text"] = option_sentence(state, seat, option, values)
        actions.append(action)
    return {"key": option.key, "label": option.label, "prefix": form_prefix(option.key),
            "shape": str(form.shape), "actions": actions}


def occupants(coup: CoupView | None) -> dict[str, list[int]]:
    """The seats with units in each zone (public: everything on the map is, §coup)."""
    out: dict[str, set[int]] = {}
    for unit in (coup.get("units") or [] if coup else []):
        zone, owner = unit.get("zone"), unit.get("owner")
        if zone is not None and isinstance(owner, int) and owner >= 0:
            out.setdefault(str(zone), set()).add(owner)
    return {z: sorted(seats) for z, seats in out.items()}


def planned(state: GameState, orders: Sequence[Order]) -> list[citymap.Planned]:
    """The viewer's orders of the phase that the map can draw, numbered as listed."""
    out = []
    for i, order in enumerate(orders):
        mark = map_mark(order)
        if mark is not None:
            out.append(citymap.Planned(i + 1, order.kind, mark.shape, mark.start, mark.end,
                                       describe_order(state, order)))
    return out


def context(seat: Seat, coup: CoupView | None) -> MapOrdersContext:
    """What the Map page adds for a seated player: his map orders of the phase (drawn and
    listed, each removable), and while he may give orders the options the map offers him,
    each with the choices a tap can make (an option without any is left out: a retreat
    without a stack), as JSON for the script. Empty for the GM and for a viewer without a seat."""
    if seat.player is None or seat.seat is None:
        return {}
    state, index = seat.state, seat.seat
    payload = list(seat.order.payload) if seat.order else []
    orders = [parse_order(dict(o)) for o in payload]
    marks = planned(state, orders)
    # the Orders page's own truth: orders are taken only while the clock counts down and
    # never from the dead (no query: the game and the phase are loaded)
    is_open = status_info.clock(seat.game, seat.phase).counting and \
        why_no_orders(state, index) is None
    options = legal_options(state, index) if is_open else None
    offered = map_options(options) if options is not None else []
    out: MapOrdersContext = {
        "planned": marks, "map_orders_open": is_open, "state_version": seat.game.state_version,
        "orders_revision": seat.order.revision if seat.order else 0,
        "planned_svg": citymap.planned_marks(marks, citymap.owner_colour(index)),
    }
    if options is not None and offered:
        occupied = occupants(coup) if coup is not None else None
        stacks = stands(options, index, occupied)
        out["map_orders"] = {
            "seat": index, "orders_url": reverse("game_orders", args=[seat.game.id]),
            "zones": {str(z): f"{z} {zone_name(z)}" for z in sorted(Catalog.zones())},
            "stacks": list(stacks),
            # before the coup (the Rebel-Only step) the map shows no units: a strike's target
            # is then any the engine offers, not only those seen in the zone
            "options": [data for data in (
                option_data(state, index, o, form, occupied, stacks)
                for o, form in offered) if data["actions"]],
        }
    return out
