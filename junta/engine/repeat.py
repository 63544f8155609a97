"""The same orders as last time: a player's orders of an earlier phase of the same kind, given
again where they still hold (docs/rules.md §repeat-orders).

`repeated_phases(phase)` says which earlier phases a phase may repeat (`steps.REPEATS`): none
for a phase held once. `repeat_orders(state, seat, previous, current)` is the plan: of the
orders given last time, in their order, those the player may give now beside the orders he has
already given this phase, and those left out, each with why in the words validation gives (the
order on its own, `orders.validate_order`; with the others, `order_sets.check_set`: nothing
spent twice). The plan saves nothing: the caller shows it, and on the player's word gives the
kept orders after the current ones, checked again as any orders are.

What is left out:
- an order of a kind that is not repeated (`OrderKindSpec.repeats`: the any-time deals of a
  day, a payment, a gift, a trade, a card played);
- an order the engine refuses now, on its own ("Isabel is dead", "you have 3 MP");
- an order already among the current ones, or of a kind given once a phase whose current
  order stands (the current orders are never replaced: `kinds.takes_the_place_of`);
- an order that, with the orders already in and those kept before it, would spend something
  twice or break the set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .kinds import ORDER_KINDS, describe_order, takes_the_place_of
from .order import Order
from .order_sets import check_set
from .orders import OrderError, parse_order, validate_order
from .state import GameState
from .steps import REPEATS, phase_words

NOT_REPEATED = ("Payments, gifts, trades and card plays are deals of their day and are not "
                "repeated: give it again yourself if you still mean to.")


@dataclass(frozen=True)
class LeftOut:
    """An order of last time left out: its sentence as it reads now and why."""
    text: str
    reason: str


@dataclass(frozen=True)
class RepeatPlan:
    """The orders of last time given again (`kept`, in their order, with their sentences in
    `texts`) and those left out with why (`dropped`)."""
    kept: tuple[Order, ...]
    texts: tuple[str, ...]
    dropped: tuple[LeftOut, ...]

    @property
    def empty(self) -> bool:
        return not self.kept


def repeated_phases(phase: str) -> frozenset[str]:
    """The kinds of earlier phase whose orders `phase` may give again: empty for a phase held
    once (the nominations) and for the end of the game."""
    return frozenset(REPEATS.get(phase, frozenset()))


def repeat_orders(state: GameState, seat: int,
                  previous: Sequence[Order | Mapping[str, object]],
                  current: Sequence[Order] = ()) -> RepeatPlan:
    """Of `previous` (the player's orders of last time, as engine orders or as stored), what
    he may give again now beside `current` (his orders already given this phase), and what
    not with why."""
    kept: list[Order] = []
    texts: list[str] = []
    dropped: list[LeftOut] = []
    repeats = state.phase in REPEATS
    for item in previous:
        try:
            order = item if isinstance(item, Order) else parse_order(dict(item))
        except OrderError as error:
            dropped.append(LeftOut(str(item.get("kind", "An order")) if isinstance(
                item, Mapping) else "An order", f"It can no longer be read: {error}"))
            continue
        text = describe_order(state, order)
        reason = _why_not(state, seat, order, current, kept, repeats)
        if reason is None:
            kept.append(order)
            texts.append(text)
        else:
            dropped.append(LeftOut(text, reason))
    return RepeatPlan(tuple(kept), tuple(texts), tuple(dropped))


def _why_not(state: GameState, seat: int, order: Order, current: Sequence[Order],
             kept: list[Order], repeats: bool) -> str | None:
    """Why `order` of last time is not given again, or None when it is."""
    if not repeats:
        return f"The orders of {phase_words(state.phase)} are not repeated."
    spec = ORDER_KINDS.get(order.kind)
    if spec is not None and not spec.repeats:
        return NOT_REPEATED
    problems = validate_order(state, seat, order)
    if problems:
        return " ".join(str(p) for p in problems)
    if order in current:
        return "It is already among your orders."
    standing = next((o for o in current if takes_the_place_of(order, o)), None)
    if standing is not None:
        return (f"You already gave this phase's order: {describe_order(state, standing)}. "
                "It stays; change it there if you mean to.")
    together = [*current, *kept, order]
    clash = [p for p in check_set(state, seat, together) if len(together) - 1 in p.orders]
    if clash:
        return (f"With your orders already given and those kept above it (this would be order "
                f"{len(together)}): " + " ".join(str(p) for p in clash))
    return None
