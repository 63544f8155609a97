"""The bot's shared state and helpers: what one seat's orders so far spend, choosing among the
values an option offers, and `use`, which gives an order unless it would spend twice what the
earlier orders spend. What an order of each kind spends is read from a mapping by kind name
(`Spends`), which each group module (`anytime`, `votes`, `turn`, `locations`, `coup`) fills
for its own kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import catalog
from ..kinds import ORDER_KINDS
from ..options import ArgOption, ConditionOption, Options, OrderOption, build
from ..order import Order
from ..rng import Rng
from ..state import GameState
from ..units import stack_moves


@dataclass(frozen=True)
class Pick:
    """One order a bot gives: the option it used (its key in `legal_options`), the values it
    chose for the option's arguments, the condition (kind and details) and the order `build`
    made of them."""
    key: str
    values: Mapping[str, Any]
    condition: tuple[str, Mapping[str, Any]] | None
    order: Order


@dataclass(frozen=True)
class Spent:
    """What an order takes at most: money from the pocket (as `order_sets` counts it, before
    any Influence discount), money from the bank, the cards and units it uses, the stack moves
    it makes."""
    price: int = 0
    withdrawal: int = 0
    cards: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    moves: int = 0


NOTHING = Spent()
Spends = Mapping[str, Callable[[Order], Spent]]  # what an order of a kind (by name) spends


class BotCore:
    """One seat's choices for one phase, and what its orders so far spend."""
    spends: ClassVar[Spends] = {}  # the group modules' spends, gathered (`bots/__init__.py`)

    def __init__(self, state: GameState, seat: int, rng: Rng, options: Options) -> None:
        self.state, self.seat, self.rng, self.options = state, seat, rng, options
        self.picks: list[Pick] = []
        p = state.players[seat]
        self.pocket, self.bank = p.pocket, p.bank  # what the orders so far leave
        self.cards: set[int] = set()  # cards the orders so far use
        self.units: set[int] = set()  # units the orders so far name
        self.singles: set[str] = set()  # kinds of one order a phase given unconditionally
        self.moves = 0  # unconditional stack moves (a coup phase)
        self.others = [s for s in state.active_seats() if s != seat]
        self.place = "home"  # where the bot goes in the Locations phase

    # -- choosing among what an option offers --
    def allowed(self, option: OrderOption, name: str, chosen: Mapping[str, Any] | None = None,
                among: Iterable[Any] | None = None) -> list[Any]:
        """The values the option offers for argument `name` once `chosen` are chosen; only
        those in `among` when given."""
        arg = option.arg(name)
        if arg is None:
            return []
        values = arg.allowed(chosen or {})
        if among is not None:
            wanted = list(among)
            values = [v for v in values if v in wanted]
        return values

    def one(self, option: OrderOption, name: str, chosen: Mapping[str, Any] | None = None,
            among: Iterable[Any] | None = None) -> Any:
        """A random offered value (None when none is offered)."""
        values = self.allowed(option, name, chosen, among)
        return self.rng.choice(values) if values else None

    def number(self, option: OrderOption, name: str, low: int, high: int) -> int | None:
        """A random whole number in [low, high] within the argument's range."""
        arg = option.arg(name)
        if arg is None:
            return None
        low = max(low, arg.minimum if arg.minimum is not None else low)
        high = min(high, arg.maximum if arg.maximum is not None else high)
        return self.rng.between(low, high) if low <= high else None

    def condition(self, option: OrderOption, kind: str, details: Mapping[str, Any]
                  ) -> tuple[str, dict[str, Any]] | None:
        """The condition `kind` with these details, when the option offers it and each detail
        among the values offered for it."""
        offered: ConditionOption | None = option.condition(kind)
        if offered is None:
            return None
        out: dict[str, Any] = {}
        for arg in offered.args:
            value = details.get(arg.name)
            if not _offered(arg, value):
                return None
            out[arg.name] = value
        return kind, out

    def own(self, option: OrderOption, place: str) -> tuple[str, dict[str, Any]] | None:
        """Now and then tie an order to the bot's own location or exile (the only location
        conditions an assassination may have)."""
        roll = self.rng.below(8)
        if roll == 0:
            where = self.rng.choice([*catalog.LOCATIONS, place if place != "exile" else "home"])
            return self.condition(option, "location", {"seat": self.seat, "location": where})
        if roll == 1:
            return self.condition(option, "exiled", {"seat": self.seat})
        return None

    def use(self, option: OrderOption | None, values: Mapping[str, Any],
            condition: tuple[str, Mapping[str, Any]] | None = None) -> Order | None:
        """Give the order `build` makes of this option and these values, unless it would spend
        what the bot's earlier orders already spend (money, a card, a unit, a single order)."""
        if option is None:
            return None
        order = build(self.state, self.seat, option, values, condition)
        spent = self.spends[order.kind](order) if order.kind in self.spends else NOTHING
        price, withdrawal = spent.price, spent.withdrawal
        cards, units = list(spent.cards), list(spent.units)
        single = ORDER_KINDS[order.kind].single and order.condition is None
        moving = spent.moves > 0 and order.condition is None
        if price > self.pocket or withdrawal > self.bank or \
                len(set(cards)) < len(cards) or self.cards & set(cards) or \
                self.units & set(units) or (single and order.kind in self.singles) or \
                (moving and self.moves >= stack_moves(self.state, self.seat)):
            return None
        self.pocket -= price
        self.bank -= withdrawal
        self.cards |= set(cards)
        self.units |= set(units)
        if single:
            self.singles.add(order.kind)
        self.moves += int(moving)
        self.picks.append(Pick(option.key, dict(values), condition, order))
        return order

    def card(self, cid: int) -> tuple[OrderOption, dict[str, Any]] | None:
        """The option that plays this card now (a form of its own or the shared one)."""
        option = self.options.get(f"play_card:{cid}")
        if option is not None:
            return option, {}
        shared = self.options.get("play_card")
        if shared is not None and cid in self.allowed(shared, "card"):
            return shared, {"card": cid}
        return None

    def free(self, cid: int) -> bool:
        return cid not in self.cards


def _offered(arg: ArgOption, value: Any) -> bool:
    """Whether a condition's detail (a ONE or a NUMBER) takes this value."""
    if value is None:
        return arg.blank is not None or not arg.required
    if arg.choices:
        return value in arg.values()
    if arg.minimum is not None and value < arg.minimum:
        return False
    return arg.maximum is None or value <= arg.maximum
