"""Facts about orders and options that the pages read, so that no code outside the engine names
an order kind or tests one: how the map gives an option and draws an order (each kind's
`MapForm`, kinds.py), the values the map may choose and the sentence each makes (the words of
`describe_order`, as the Orders page lists the order), where a stack may stand after the
moves, whether an order is Rebel action, and the card an order plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .kinds import ORDER_KINDS, MapForm, MapShape, describe_order
from .options import Options, OrderOption, Shape, build
from .order import Order
from .orders import is_rebel_action, played_card
from .state import GameState

__all__ = ["MapMark", "is_assassination", "is_rebel_action", "map_mark", "map_values",
           "option_form", "option_sentence", "played_card", "stack_ends"]


def option_form(option: OrderOption) -> MapForm | None:
    """How the map gives this option, or None when it cannot: the option has the arguments its
    kind's map form fills in (the zone; a route's start; a target's player), each one choice,
    and every other argument it needs is one choice among a few, the map offering each (an
    airstrike's source). A card that puts units in a zone is given on the map; one played
    against a player is not."""
    form = ORDER_KINDS[option.kind].map_form
    if form.shape is MapShape.NONE:
        return None
    filled = _filled(form)
    for name in filled:
        arg = option.arg(name)
        if arg is None or arg.shape is not Shape.ONE:
            return None
    if any(a.required and a.name not in filled and a.shape is not Shape.ONE
           for a in option.args):
        return None
    return form


def _filled(form: MapForm) -> tuple[str, ...]:
    return tuple(n for n in (form.start, form.zone, form.who) if n)


def map_values(option: OrderOption) -> Iterator[dict[str, Any]]:
    """Every set of values the map may give an option (`option_form`): each allowed
    combination of its one-choice arguments that are required or the map fills in, in the
    order of their choices; the others are left out (a move's units: the whole stack)."""
    form = option_form(option)
    if form is None:
        return
    filled = _filled(form)
    args = [a for a in option.args if a.shape is Shape.ONE and (a.required or a.name in filled)]

    # an argument narrowed by another (`depends_on`) comes after it
    args.sort(key=lambda a: a.depends_on is not None)

    def fill(index: int, chosen: dict[str, Any]) -> Iterator[dict[str, Any]]:
        if index == len(args):
            yield dict(chosen)
            return
        arg = args[index]
        for value in arg.allowed(chosen):
            yield from fill(index + 1, {**chosen, arg.name: value})

    yield from fill(0, {})


def option_sentence(state: GameState, seat: int, option: OrderOption,
                    values: Mapping[str, Any]) -> str:
    """The sentence of the order these values make, as the Orders page lists it
    (`describe_order` of the order `build` makes)."""
    return describe_order(state, build(state, seat, option, values))


def stack_ends(options: Options) -> dict[Any, tuple[Any, ...]]:
    """Where each stack an offered move starts from may stand after this phase's moves: where
    it is, or where the move takes it. A stack attacks where it stands after the moves
    (docs/rules.md §combat), so these are the zones its attack may name."""
    out: dict[Any, list[Any]] = {}
    for option in options.orders:
        form = option_form(option)
        if form is None or not form.moves:
            continue
        start, end = option.arg(form.start), option.arg(form.zone)
        if start is None or end is None:
            continue
        for zone in start.values():
            ends = out.setdefault(zone, [zone])
            ends += [z for z in end.allowed({form.start: zone}) if z not in ends]
    return {zone: tuple(ends) for zone, ends in out.items()}


@dataclass(frozen=True)
class MapMark:
    """How an order is drawn on the map: an arrow from `start` to `end` (a route), or a mark
    on `end` (`start` None: its outline, or a crosshair for a target)."""
    shape: MapShape
    start: int | None
    end: int


def map_mark(order: Order) -> MapMark | None:
    """How the map draws an order, or None: not an order of the map, or its zones not named
    (a card played against a player)."""
    spec = ORDER_KINDS.get(order.kind)
    if spec is None or spec.map_form.shape is MapShape.NONE:
        return None
    form = spec.map_form
    end = order.args.get(form.zone)
    if not isinstance(end, int):
        return None
    if not form.start:
        return MapMark(form.shape, None, end)
    start = order.args.get(form.start)
    return MapMark(form.shape, start, end) if isinstance(start, int) else None


def is_assassination(order: Order) -> bool:
    """Whether an order is an attempt on a player's life (docs/rules.md §assassinations)."""
    spec = ORDER_KINDS.get(order.kind)
    return spec is not None and spec.attempt_on_life
