"""Ordering on the map: what the Map page embeds so that a seated player gives his coup orders
by tapping his stacks and the zones (static/js/map_orders.js), and his orders of the phase
drawn over the city.

The engine owns the facts: the orders offered and their values are `legal_options` for the
viewer's seat, exactly as the Orders page reads them, reduced to the kinds that name a zone
(docs/rules.md §movement, §placement, §combat). A tap only fills in the Orders page's own form
(`orders_page.OrdersPage.submit`: same field names, CSRF token and state version), so what is
accepted and every message are the Orders page's. Nothing here is another player's: the
options and the orders are the viewer's own (his secret until carried out, docs/rules.md
§secrets), and the rest (who stands in which zone) is the public coup view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from junta.engine import (
    Catalog,
    GameState,
    Options,
    Order,
    OrderOption,
    describe_order,
    legal_options,
    parse_order,
    why_no_orders,
    zone_name,
)
from junta.games import citymap, status_info
from junta.games.order_forms import form_prefix, token
from junta.games.play import Seat

# The kinds of order given by choosing a stack and a zone, or a zone (and its occupant).
ROUTE_KINDS = frozenset({"move", "rebel_move", "retreat"})  # (from) a zone to another
ZONE_KINDS = frozenset({"place", "attack", "airstrike", "gunboat", "police_response"})
CARD_KIND = "play_card"  # a card that puts units in a zone (or bribes them): its only arg


def on_the_map(option: OrderOption) -> bool:
    """Whether the map can give this option: a route or a zone, plus values the map knows
    (the zone's occupants as the target, the stack's units left to the engine's default)."""
    if option.kind in ROUTE_KINDS or option.kind in ZONE_KINDS:
        return True
    return option.kind == CARD_KIND and [a.name for a in option.args] == ["zone"]


def map_options(options: Options) -> list[OrderOption]:
    return [o for o in options.orders if on_the_map(o)]


def option_data(option: OrderOption) -> dict[str, Any]:
    """One option as the script reads it: each argument's choices as the form's tokens."""
    return {
        "key": option.key, "kind": option.kind, "label": option.label,
        "prefix": form_prefix(option.key),
        "args": [{
            "name": a.name, "label": a.label, "shape": str(a.shape), "required": a.required,
            "choices": [[token(c.value), c.label] for c in a.choices],
            "depends_on": a.depends_on,
            "choices_for": {token(k): [token(v) for v in vs]
                            for k, vs in a.choices_for.items()},
        } for a in option.args],
    }


def occupants(coup: Mapping[str, Any] | None) -> dict[str, list[int]]:
    """The seats with units in each zone (public: everything on the map is, §coup)."""
    out: dict[str, set[int]] = {}
    for unit in (coup or {}).get("units") or []:
        zone, owner = unit.get("zone"), unit.get("owner")
        if zone is not None and isinstance(owner, int) and owner >= 0:
            out.setdefault(str(zone), set()).add(owner)
    return {z: sorted(seats) for z, seats in out.items()}


def planned(state: GameState, orders: Sequence[Order]) -> list[citymap.Planned]:
    """The viewer's orders of the phase that the map can draw, numbered as listed."""
    out = []
    for i, order in enumerate(orders):
        args = order.args
        if order.kind in ROUTE_KINDS:
            start = args.get("from_zone", args.get("zone"))
            end = args.get("to_zone")
        elif order.kind in ZONE_KINDS or order.kind == CARD_KIND:
            start, end = None, args.get("zone")
        else:
            continue
        if not isinstance(end, int) or (start is not None and not isinstance(start, int)):
            continue
        out.append(citymap.Planned(i + 1, order.kind, start, end, describe_order(state, order)))
    return out


def context(seat: Seat, coup: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the Map page adds for a seated player: his map orders of the phase (drawn and
    listed, each removable), and while he may give orders the options the map offers him,
    as JSON for the script. Empty for the GM and for a viewer without a seat."""
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
    offered = map_options(legal_options(state, index)) if is_open else []
    out: dict[str, Any] = {
        "planned": marks, "map_orders_open": is_open, "state_version": seat.game.state_version,
        "orders_revision": seat.order.revision if seat.order else 0,
        "planned_svg": citymap.planned_marks(marks, citymap.owner_colour(index)),
    }
    if offered:
        out["map_orders"] = {
            "seat": index, "orders_url": reverse("game_orders", args=[seat.game.id]),
            "zones": {str(z): f"{z} {zone_name(z)}" for z in sorted(Catalog.zones())},
            "occupants": occupants(coup),
            # before the coup (the Rebel-Only step) the map shows no units: a strike's target
            # is then any the engine offers, not only those seen in the zone
            "units_shown": coup is not None,
            "options": [option_data(o) for o in offered],
        }
    return out
