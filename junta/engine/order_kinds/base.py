"""What every order kind is: `OrderKindSpec`, the base of the kind objects, and the words
their arguments are given in.

A kind declares its arguments once, as a TypedDict of what a well-formed order of it holds,
each argument `Annotated` with its label and type (`As`): `class Pay(OrderKindSpec[PayArgs])`.
The kind's `args` (name, label, type: what the forms, the validation of JSON types and the
sentences read) are drawn from it when the class is made, and `Pay.of(order)` reads an order's
arguments as a `PayArgs`, so that mypy checks each key and each value's type where the kind
reads them. The order's JSON form stays the plain dict it was (`Order.args`): reading it typed
costs nothing at run time and validates nothing (a kind's `check` still refuses what is not
well formed).

A kind says its label, the paragraphs of the rules it comes from (`rules`), the phases it may
be given in, the adjudication step it acts at (`steps.py`), whether a player gives one
unconditional order of it a phase, its arguments (name, label, type), how it is given and
drawn on the map (its `MapForm`), its check, its sentence and the players it deals with
openly. This module imports no phase and no order of the engine's flow: the kinds sit below
the phases that carry them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import get_original_bases
from typing import TYPE_CHECKING, Any, cast, get_args, is_typeddict

from .. import catalog
from ..enums import PhaseKind, Step
from ..labels import card_name, zone_name
from ..order import Arg, ArgType, Order, arguments
from ..problems import Problem
from ..state import BIL, GameState

if TYPE_CHECKING:
    from ..context import Context
    from .offering import Builder, OrderOption


T = ArgType


class MapShape(StrEnum):
    """How an order is given and drawn on the Map page (`order_facts.py`)."""
    NONE = "none"  # not on the map
    ROUTE = "route"  # a stack from a zone to another: an arrow
    ZONE = "zone"  # a zone: its outline
    TARGET = "target"  # a zone struck or attacked, and whose units there: a crosshair


@dataclass(frozen=True)
class MapForm:
    """An order's map shape and the arguments the map fills in: the zone it acts in (a
    route's end), a route's start, a target's player."""
    shape: MapShape = MapShape.NONE
    zone: str = "zone"
    start: str = ""  # ROUTE: the argument naming the zone it starts from
    who: str = ""  # TARGET: the argument naming whose units
    moves: bool = False  # ROUTE: a stack's move; the stack stands at the end after the moves
    after_moves: bool = False  # given by a stack where it stands after the moves (an attack)


OFF_MAP = MapForm()
MOVE = MapForm(MapShape.ROUTE, "to_zone", "from_zone", moves=True)
STRIKE = MapForm(MapShape.TARGET, who="target")
IN_A_ZONE = MapForm(MapShape.ZONE)


@dataclass(frozen=True)
class Share:
    """What one order spends of what the checks of a player's whole set count
    (`order_sets.py`): MP from his pocket (`discounted`: an Assassin's or a Bribe's cost, which
    the Bankers and the Monarchists lower), MP from his Bank account, cards (each with the words
    naming its use) and units (each with its use: "move", "handover" after the moves,
    "handover_before"), with the words naming the order in a message."""
    pocket: int = 0
    pocket_words: str = ""  # "your payment of 5 MP to Bill"
    discounted: bool = False
    bank: int = 0
    bank_words: str = ""
    cards: tuple[tuple[int, str], ...] = ()  # (card, "your gift of it to Bill")
    units: tuple[int, ...] = ()  # the unit numbers it names
    unit_use: str = ""
    unit_words: str = ""


NOTHING = Share()


class OrderKindSpec[A: Mapping[str, object]]:
    """One kind of order: its facts (class attributes), its arguments (`A`: the TypedDict of
    what a well-formed order of it holds; read only, so that the registry holds a kind of any
    TypedDict as a kind of Mapping[str, object]), its check, its sentence and the players it
    deals with. A kind is a subclass; the registry (`kinds.py`) holds one instance of each."""
    name: str
    label: str
    # where in the rules it comes from: the sections (`{#name}` anchors) of docs/rules.md and
    # docs/rulings.md that govern it, the main one first; the class docstring quotes or names
    # the main one. The Rules page lists the kind under each; the Orders page links its option
    # to the first.
    rules: tuple[str, ...]
    step: Step
    phases: frozenset[PhaseKind]
    args: tuple[Arg, ...] = ()
    single = False  # one unconditional order of this kind a phase
    template = ""  # how it reads: "Pay {to} {amount} MP"; `describe` otherwise
    map_form = OFF_MAP  # how it is given and drawn on the map
    # the argument naming the other player an order deals with openly: when it cannot be
    # carried out, both sides are told (docs/rules.md §any-time; docs/rulings.md
    # §ruling-no-silent-orders)
    party = ""
    rebel_action = False  # a Rebel action when given in the Locations phase
    # of a player's orders of this kind the first whose condition holds is carried out and the
    # others are not (phases/votes.py `ballots`, phases/locations.py, phases/budget.py: the New
    # Weapons, the draws, the proposal, the Minister's decision; phases/cabinet.py): an order
    # of it after one with no condition could never be carried out
    first_that_holds = False
    # carried out one order at a time by its `carry_out`, at its step (the any-time orders:
    # `anytime.run`); a kind without it is weighed together with the other orders of its step by
    # the step's handler (`resolve.HANDLERS`, phases/: the votes, the moves, combat)
    acts_alone = False
    exiles_give = False  # an order an exile may give (his only one: docs/rules.md §exile)
    plays_card = False  # plays the political card its "card" argument names (not a gift, a discard)
    attempt_on_life = False  # an assassination attempt (docs/rules.md §assassinations)
    # given again by "the same orders as last time" where it still holds (`repeat.py`): the
    # orders of a phase's own steps; an any-time order (a payment, a gift, a trade, a card
    # played) is a deal of its day, not repeated (docs/rules.md §repeat-orders)
    repeats = True
    # the order every player who owes orders gives in the phases of this kind (the ballot, the
    # location, the Cabinet...): the Orders page shows its form unfolded (docs/rules.md §orders)
    likely = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A kind naming the TypedDict of its arguments (`OrderKindSpec[PayArgs]`, or a base
        of several kinds given it: `_ToAnother[PayArgs]`) takes its `args` from it."""
        super().__init_subclass__(**kwargs)
        for base in get_original_bases(cls):
            typed = next(iter(get_args(base)), None)
            if isinstance(typed, type) and is_typeddict(typed):
                if "args" in cls.__dict__:
                    raise TypeError(f"{cls.__name__} declares its arguments twice: in "
                                    f"{typed.__name__} and in args")
                cls.args = arguments(typed)
                return

    @classmethod
    def of(cls, order: Order) -> A:
        """The order's arguments, read as this kind's TypedDict (not validated: what `check`
        has not refused yet may be anything)."""
        return cast(A, order.args)

    @classmethod
    def read(cls, args: Mapping[str, object]) -> A:
        """Arguments given apart from an order (a sentence's, a trial's), read as `of` reads
        an order's."""
        return cast(A, args)

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """Why this player cannot give this order now, beyond its phase and his status; each
        message names the argument a player would change to mend it; a message about who
        gives the order, or when, is about the order as a whole (None)."""
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        """A sentence for an order of this kind without its condition ("Pay Maria 3 MP")."""
        fields = {a.name: word(state, a, args.get(a.name)) for a in self.args}
        return self.template.format(**fields) if self.template else self.label

    def parties(self, order: Order) -> tuple[int, ...]:
        """The other players an order deals with openly, told when it fails: the payee, the
        one given a card, the trading partner, the one units are handed over to."""
        value = self.of(order).get(self.party) if self.party else None
        return (value,) if isinstance(value, int) and not isinstance(value, bool) else ()

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        """Carry out an order of this kind whose condition holds, at its step (`acts_alone`):
        its effect, with `ctx.carried_out`, or nothing of it and `ctx.failed` telling its owner
        and the players it deals with (`parties`) why it could not be carried out
        (docs/rulings.md §ruling-no-silent-orders)."""
        raise NotImplementedError(f"{self.name} is carried out by its step's handler")

    def share(self, state: GameState, order: Order) -> Share:
        """What an order of this kind, well formed, spends: its share in the checks of the
        player's whole set, which refuse two orders spending one thing twice (docs/rulings.md
        §ruling-nothing-spent-twice)."""
        return NOTHING

    def step_of(self, order: Order, phase: str | None) -> Step:
        """The step of `phase`'s adjudication at which an order of this kind acts: its `step`;
        a Rebel action's is the Rebel-Only step in the Locations phase."""
        if phase == PhaseKind.LOCATIONS and self.rebel_action:
            return Step.REBEL_ONLY
        return self.step

    def fails_where_it_acts(self, state: GameState, seat: int, order: Order) -> bool:
        """Whether an order refused at the deadline (a GM ruling took the money, the card or
        the units since it was given: `validate_order` on the phase's starting state fails) goes
        on to fail where it acts, telling both sides why (a payment, a gift, a trade, a
        hand-over of units), rather than being dropped with a word to its owner alone."""
        return False

    def from_form(self, state: GameState, seat: int, option: OrderOption,
                  values: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """An order's arguments from the values chosen for an option (`options.build`, which
        made `args` the plain way: a table's filled rows, a list, a number): a kind whose
        arguments read otherwise (the Cabinet's every position, the budget's bills by row, a
        trade's cards asked by name) makes them here."""
        return args

    def to_form(self, state: GameState, order: Order, values: dict[str, Any]) -> None:
        """The values an option's form starts with to change `order` (`options.values_of`,
        which copied each argument as it is), where this kind reads them otherwise: the
        inverse of `from_form`."""

    def once(self, order: Order) -> tuple[str, str] | None:
        """The group of which a player may give one unconditional order a phase, and the words
        refusing more ("{count}": how many he gave); None when unconditional orders of this kind
        stand side by side (`order_sets.py`)."""
        if self.single:
            return self.name, (f"You gave {{count}} unconditional orders to "
                               f"{self.label.lower()}; give one.")
        return None

    def replaces(self, new: Order, old: Order) -> bool:
        """Whether a new order of this kind replaces an old one of it rather than standing
        beside it (both unconditional): one given once a phase (`single`) replaces the one before
        (docs/rules.md §orders)."""
        return self.single

    def fallback_group(self, order: Order) -> tuple[str, str] | None:
        """The orders among which the first whose condition holds is carried out and the rest
        are not (`first_that_holds`): None for an order that stands beside the others of its
        kind."""
        return (self.name, "") if self.first_that_holds else None

    def offers(self, b: Builder, group: str = "") -> None:
        """Add to `b` what the seat may order of this kind now, each with the values the
        engine accepts, and a note for what he might look for and cannot order, with why.
        `options.py` runs the kinds' offers in a fixed order (`OFFER_STEPS`); `group` names
        the step of a kind offered at two places of it."""


# --- the values of arguments -------------------------------------------------------------------
# Each takes what a kind's TypedDict says an argument holds (`a.get("to")`: int | None), so that
# a misspelt key (whose `get` mypy types as object) is a type error here too; each still refuses
# at run time any other value a JSON order may carry.

def seat_of(state: GameState, value: int | None) -> int | None:
    """A seat of this game, or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value < len(state.players) else None


def amount_of(value: int | None) -> int | None:
    """A whole number, or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def card_ids_of(value: list[int] | None) -> list[int] | None:
    """A list of card numbers (none given: an empty list), or None."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(catalog.cards())
            for c in value):
        return None
    return value


def zone_of(value: int | None) -> int | None:
    """A zone of the city, or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and \
        value in catalog.zones() else None


def positive(value: int | None) -> int:
    """A whole number above 0, or 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def card_uses(values: Sequence[int | str | None], words: str) -> tuple[tuple[int, str], ...]:
    """The cards among these values (political cards' numbers), each with the words of its
    use (a `Share`'s cards)."""
    return tuple((c, words) for c in values if isinstance(c, int) and not isinstance(c, bool)
                 and 0 <= c < len(catalog.cards()))


def who(state: GameState, value: int | None) -> str:
    """A seat named in an order, by name; "another player" for no seat of this game."""
    seat = seat_of(state, value)
    return "another player" if seat is None else state.name(seat)


def zone_title(zone: int) -> str:
    return catalog.zones()[zone].name


# --- in words ----------------------------------------------------------------------------------

def word(state: GameState, arg: Arg | None, value: object) -> str:
    """One argument's value in words: a seat by name, a zone, a card, a location, a position."""
    if arg is None:
        return str(value)
    if arg.type is T.SEAT and isinstance(value, int) and not isinstance(value, bool) and (
            value == BIL or 0 <= value < len(state.players)):
        return state.name(value)
    if arg.type is T.ZONE and isinstance(value, int) and value in catalog.zones():
        return zone_name(value)
    if arg.type is T.CARD:
        return card_name(value)
    if arg.type is T.LOCATION:
        return catalog.LOCATION_NAMES.get(value, value) if isinstance(value, str) else str(value)
    if arg.type is T.POSITION:
        return catalog.TITLES.get(value, "no one") if isinstance(value, str) else "no one"
    return str(value)


# A kind, whatever its arguments: what the registry holds.
type Kind = OrderKindSpec[Mapping[str, object]]
