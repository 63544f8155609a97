"""What an order is: `Order(kind, args, condition)`, and the `Condition` it may wait for.

Plain data, below everything that reads orders: the registry of kinds (`kinds.py`) says what
each kind takes and means, `conditions.py` when a condition is settled and whether it holds,
`orders.py` reads an order from its JSON form and validates it. The words a kind's arguments
are declared in are here too (`ArgType`, `As`, `arguments`), below the kinds and the rules
they share with the phases (voting.py, card_plays.py...), which read them typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import (
    Annotated,
    NotRequired,
    Required,
    TypedDict,
    get_args,
    get_origin,
    get_type_hints,
)


@dataclass(frozen=True)
class Condition:
    """A condition: its kind and what it names, as in its JSON form (read typed through
    `conditions.details`)."""
    kind: str
    args: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, **self.args}


@dataclass(frozen=True)
class Order:
    """An order: its kind, its arguments as in its JSON form (read typed through its kind:
    `Pay.of(order)["amount"]`, order_kinds/base.py) and its condition."""
    kind: str
    args: dict[str, object] = field(default_factory=dict)
    condition: Condition | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, **self.args}
        if self.condition:
            out["condition"] = self.condition.to_dict()
        return out


class ArgType(StrEnum):
    """What an argument holds, as the engine reads it."""
    SEAT = "seat"  # a player's seat (int)
    ZONE = "zone"  # a zone of the city (int)
    CARD = "card"  # a political card's number (int); an assassin may be "secret_police"
    CARDS = "cards"  # a list of card numbers
    CARD_NAMES = "card_names"  # cards asked for by name in a trade
    AMOUNT = "amount"  # whole MP or a count (int)
    LOCATION = "location"  # home, hq, bank, club, mistress (or exile for a location order)
    POSITION = "position"  # a Cabinet position's key
    UNITS = "units"  # a list of unit numbers
    UNIT_KIND = "unit_kind"  # a kind of unit ("Marine")
    UNIT_KINDS = "unit_kinds"  # kinds of unit, in order
    FORCES = "forces"  # Foreign Intervention forces
    CHOICE = "choice"  # one of a fixed set of words ("deposit", "grant", "junta")
    BALLOT = "ballot"  # yes / no / abstain, or a candidate's seat
    FLAG = "flag"  # true or false
    TABLE = "table"  # a value for each of several keys (allocations, appointments, split)


@dataclass(frozen=True)
class Arg:
    name: str
    label: str
    type: ArgType


@dataclass(frozen=True)
class As:
    """An argument's label and type, in the TypedDict of a kind's arguments:
    `to: Annotated[int, As("To", T.SEAT)]`. A key without it is read by the kind but is no
    argument of its form (a hand-over's `after_moves`)."""
    label: str
    type: ArgType


class NoArgs(TypedDict):
    """The arguments of a kind that takes none."""


def arguments(typed: type) -> tuple[Arg, ...]:
    """The arguments a TypedDict of a kind's arguments declares (`As`), in its order."""
    out = []
    for name, hint in get_type_hints(typed, include_extras=True).items():
        while get_origin(hint) in (NotRequired, Required):
            hint = get_args(hint)[0]
        if get_origin(hint) is Annotated:
            out += [Arg(name, m.label, m.type) for m in hint.__metadata__ if isinstance(m, As)]
    return tuple(out)
