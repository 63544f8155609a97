"""What an order kind offers a seat now, below the kinds: the types of a seat's options
(`OrderOption`, its arguments `ArgOption`...), the `Builder` each kind's `offers` adds to, and
the helpers several kinds' offers share. `options.py`, above the kinds, implements the builder
(a trial order's check, the conditions offered with each option) and runs the kinds' offers in
their fixed order, so a kind never imports it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, TypeVar

from .. import catalog
from ..cabinet import check_cabinet, eligible_seats, random_cabinet
from ..card_plays import check_play
from ..enums import PhaseKind, Status
from ..labels import count_units, coup_units, zone_name, zones_with_occupants
from ..order import Order
from ..problems import Problem
from ..rng import Rng
from ..state import BIL, GameState
from ..state_shapes import Unit
from ..units import BRIBES, CARD_UNITS, EMBASSIES, distance

_T = TypeVar("_T")


class Shape(StrEnum):
    """How an argument is chosen."""
    ONE = "one"  # one value among the choices (a blank choice, when offered, is None)
    SOME = "some"  # any of the choices (a list; may be empty unless required)
    NUMBER = "number"  # a whole number from minimum to maximum
    TABLE = "table"  # for each key (a row) one value: among the choices, or a number
    RANKING = "ranking"  # up to `maximum` distinct choices in order, the first required


@dataclass(frozen=True)
class Choice:
    value: Any  # the engine's value: a seat, a zone, a card number, "home", True
    label: str


@dataclass(frozen=True)
class ArgOption:
    name: str  # the engine's argument ("to", "amount", "allocations")
    label: str
    shape: Shape
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    help: str = ""
    keys: tuple[Choice, ...] = ()  # TABLE: the rows (a key value and its label)
    blank: str | None = None  # ONE and TABLE cells: the label of the blank choice (None)
    default: Any = None  # the value the form starts with (None: the first choice or blank)
    depends_on: str | None = None  # ONE/SOME: the argument whose value narrows the choices
    choices_for: Mapping[Any, tuple[Any, ...]] = field(default_factory=dict)
    combined: bool = False  # legal only in combination (a Cabinet, a budget): not each value

    def values(self) -> list[Any]:
        return [c.value for c in self.choices]

    def allowed(self, chosen: Mapping[str, Any]) -> list[Any]:
        """The values allowed once the other arguments are chosen (`depends_on`)."""
        if self.depends_on is None:
            return self.values()
        narrowed = self.choices_for.get(chosen.get(self.depends_on), ())
        return [v for v in self.values() if v in narrowed]

    def start(self, chosen: Mapping[str, Any] | None = None) -> Any:
        """The value a form starts with."""
        if self.default is not None:
            return self.default
        if self.shape is Shape.ONE:
            if self.blank is not None:
                return None
            allowed = self.allowed(chosen or {})
            return allowed[0] if allowed else None
        if self.shape is Shape.SOME:
            return []
        if self.shape is Shape.NUMBER:
            return self.minimum if self.required else None
        if self.shape is Shape.RANKING:
            return [self.choices[0].value] if self.choices else []
        return {}


@dataclass(frozen=True)
class ConditionOption:
    kind: str
    label: str  # "a player is at a location"
    args: tuple[ArgOption, ...]  # its details (seat, location...)


@dataclass(frozen=True)
class OrderOption:
    key: str  # unique among a seat's options: "pay", "bank:deposit", "play_card:17"
    kind: str
    label: str
    help: str
    args: tuple[ArgOption, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)  # arguments the option sets itself
    conditions: tuple[ConditionOption, ...] = ()
    refused_conditions: tuple[str, ...] = ()  # why the other conditions are not offered
    # the order every player who owes orders gives in this phase (its kind's `likely`): the
    # Orders page shows its form unfolded
    likely: bool = False

    def arg(self, name: str) -> ArgOption | None:
        return next((a for a in self.args if a.name == name), None)

    def defaults(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a in self.args:
            out[a.name] = a.start(out)
        return out

    def condition(self, kind: str) -> ConditionOption | None:
        return next((c for c in self.conditions if c.kind == kind), None)



def one(name: str, label: str, choices: Iterable[tuple[Any, str]], **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.ONE, tuple(Choice(v, t) for v, t in choices), **kw)


def some(name: str, label: str, choices: Iterable[tuple[Any, str]], **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.SOME, tuple(Choice(v, t) for v, t in choices), **kw)


def number(name: str, label: str, minimum: int, maximum: int, **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.NUMBER, minimum=minimum, maximum=maximum, **kw)


LOCATION_CHOICES = list(catalog.LOCATION_NAMES.items())
TRADE_HELP = ("A trade happens only if your partner orders the same trade from his side: "
              "what you give he gets, what you get he gives, the same cards and the same MP. "
              "If either side cannot deliver when the orders are carried out, nothing changes "
              "hands.")
YES_NO = [(True, "Yes"), (False, "No")]
SIDE_CHOICES = [("junta", "Pro-Junta"), ("president", "Pro-President")]
REBEL_WARNING = (" Rebel action needs a Coup Excuse or your presence at HQ, and makes you a "
                 "Rebel for good.")


# --- the builder -------------------------------------------------------------------------------

class Builder(ABC):
    """A seat's options being gathered: each kind's `offers` adds its options (`add`) and a
    note for each thing a player might look for and cannot order now, with why (`notes`).
    What several kinds read (the other players, the positions commanded, the coup's units) is
    worked out once."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.s = state
        self.seat = seat
        self.p = state.players[seat]
        self.out: list[OrderOption] = []
        self.notes: list[str] = []
        self._shared: dict[str, Any] = {}

    @abstractmethod
    def add(self, kind: str, help_text: str, args: Iterable[ArgOption] = (), key: str = "",
            label: str = "", fixed: Mapping[str, Any] | None = None) -> None:
        """Offer an order of `kind` (nothing when the phase takes no order of it), with the
        conditions it may wait for."""

    @abstractmethod
    def refusals(self, kind: str, args: dict[str, Any]) -> list[Problem]:
        """The engine's messages for a trial order (empty: the engine would accept it)."""

    def players(self, include_self: bool = False) -> list[tuple[int, str]]:
        return [(p.seat, p.name) for p in self.s.players
                if p.active and (include_self or p.seat != self.seat)]

    def hand(self, pred: Callable[[catalog.Card], bool] = lambda c: True
             ) -> list[tuple[int, str]]:
        return [(cid, catalog.card(cid).name) for cid in self.p.hand
                if pred(catalog.card(cid))]

    @cached_property
    def others(self) -> list[tuple[int, str]]:
        """The other active players (a list the offers read, never change)."""
        return self.players()

    @cached_property
    def commands(self) -> list[str]:
        return self.s.commanded_positions(self.seat)

    @cached_property
    def units(self) -> list[Unit]:
        """The coup's units; in the Locations phase, as they would deploy (`coup_units`)."""
        return coup_units(self.s)

    @cached_property
    def mine(self) -> list[Unit]:
        """This seat's units (`units`), on the map or waiting to land."""
        return [u for u in self.units if u["owner"] == self.seat]

    @cached_property
    def on_map(self) -> list[Unit]:
        return [u for u in self.mine if u["zone"] is not None]

    def shared(self, key: str, make: Callable[[], _T]) -> _T:
        """What several kinds' offers read, made by the first that asks (`key` names it)."""
        if key not in self._shared:
            self._shared[key] = make()
        value: _T = self._shared[key]
        return value

    @property
    def rebel_step(self) -> bool:
        """Whether this seat may take Rebel action now: in the Locations phase, commanding a
        position, and not the President (docs/rules.md §rebel-only)."""
        return self.s.phase == PhaseKind.LOCATIONS and self.seat != self.s.president and \
            bool(self.commands)

    @property
    def in_coup(self) -> bool:
        """Whether a coup is being fought in this phase."""
        return self.s.phase in (PhaseKind.COUP, PhaseKind.COUP_FINAL) and self.s.coup is not None

    @property
    def resigning(self) -> bool:
        """ "The resigning President may not transfer his Pocket money in any way during the
        course of the Election." """
        election = self.s.election
        return self.s.phase == PhaseKind.ELECTION and election is not None and \
            election.get("resigned") == self.seat


# --- pieces ------------------------------------------------------------------------------------

def standing_cabinet(state: GameState) -> dict[str, Any]:
    """The Cabinet as it stands, for the appointment form to start from: each position with
    its holder while he may still hold it, else vacant. When that is not a legal Cabinet (a
    player without a position), a legal one made from it: positionless players fill vacant
    places first, and as a last resort the engine's own lot (docs/rules.md §appointment)."""
    eligible = eligible_seats(state)
    current: dict[str, Any] = {}
    for pos in catalog.CABINET:
        holder = state.positions.get(pos)
        current[pos] = holder if holder in eligible or (
            holder == BIL and state.president is not None) else None
    if not check_cabinet(state, current):
        return current
    filled = dict(current)
    for seat in eligible:
        if seat in filled.values():
            continue
        for pos in catalog.CABINET:
            trial = {**filled, pos: seat}
            if filled[pos] is None and not _counts_broken(trial, pos, seat):
                filled[pos] = seat
                break
    if not check_cabinet(state, filled):
        return filled
    return random_cabinet(state, Rng(f"{state.seed}:cabinet:{state.turn}"))


def _counts_broken(positions: Mapping[str, Any], pos: str, seat: int) -> bool:
    held = [p for p, h in positions.items() if h == seat]
    return len(held) > 2 or sum(p in catalog.GENERALS for p in held) > 1


def wanted_cards(state: GameState, seat: int) -> list[tuple[str, str]]:
    """The cards a trade may ask for, by name: every political card with a copy that is not
    in my hand and not in play in front of anyone (those are public)."""
    known = set(state.players[seat].hand)
    for p in state.players:
        known |= set(p.influence)
    names = sorted({c.name for c in catalog.cards() if c.id not in known})
    return [(name, name) for name in names]


def target_choices(state: GameState, seat: int) -> list[tuple[int, str]]:
    return [(x.seat, x.name if x.active else f"{x.name} (in exile)") for x in state.players
            if x.seat != seat and (x.active or x.status == Status.EXILED)]


def card_note(name: str, message: str) -> str:
    """ "Bank Holiday cannot be played...", "Helicopter: no unit it could bribe..." """
    return message if message.startswith(name) else f"{name}: {message}"


def unit_card_reason(state: GameState, seat: int, cid: int) -> str:
    """Why a card that puts units on the map (or bribes them) is not offered now."""
    c = catalog.card(cid)
    spec = CARD_UNITS.get(c.name)
    zone = spec.zones[0] if spec is not None and spec.zones else next(iter(catalog.zones()))
    refused = check_play(state, seat, Order("play_card", {"card": cid, "zone": zone}))
    if refused:
        return refused[0]
    if c.name in BRIBES:
        return "no unit it could bribe is on the map."
    return "it cannot be played now."


def stacks_by_zone(units: list[Unit]) -> dict[int, list[Unit]]:
    stacks: dict[int, list[Unit]] = {}
    for u in units:
        if u["zone"] is not None:
            stacks.setdefault(u["zone"], []).append(u)
    return dict(sorted(stacks.items()))


def reach_from(zone: int, units: list[Unit]) -> list[int]:
    """Zones a stack in `zone` may move to: next door; up to two zones for a Helicopter."""
    if units and all(u["kind"] == "Helicopter" for u in units):
        return [z for z in catalog.zones() if z != zone and distance(zone, z) <= 2]
    return sorted(catalog.zones()[zone].adjacent)


def move_args(stacks: dict[int, list[Unit]], extra_from: Iterable[tuple[int, str]] = ()
              ) -> tuple[list[ArgOption], str]:
    from_choices = [(z, f"{zone_name(z)}: {count_units(us)}") for z, us in stacks.items()]
    from_choices += list(extra_from)
    reach = {z: reach_from(z, us) for z, us in stacks.items()}
    for value, _ in extra_from:
        reach[value] = reach_from(value, [])
    targets = sorted({t for zs in reach.values() for t in zs})
    lines = "; ".join(f"from {zone_name(z)} to {', '.join(zone_name(t) for t in zs)}"
                      for z, zs in reach.items())
    args = [one("from_zone", "From", from_choices),
            one("to_zone", "To (a zone next to it)", [(z, zone_name(z)) for z in targets],
                depends_on="from_zone", choices_for={z: tuple(zs) for z, zs in reach.items()})]
    return args, f"You can reach: {lines}."


def foes_of(seat: int, units: list[Unit]) -> list[Unit]:
    """Other players' units on the map outside the embassies: what a strike can hit."""
    return [u for u in units if u["zone"] is not None and u["owner"] is not None
            and u["owner"] != seat and u["zone"] not in EMBASSIES]


def strike_args(state: GameState, foes: list[Unit]) -> list[ArgOption]:
    """The zone and the owner of a strike, among `foes` (`foes_of`: units on the map with an
    owner)."""
    zones = sorted({zone for u in foes if (zone := u["zone"]) is not None})
    owners = sorted({owner for u in foes if (owner := u["owner"]) is not None})
    return [one("zone", "Zone to strike", zones_with_occupants(state, foes, zones)),
            one("target", "Whose units", [(o, state.name(o)) for o in owners])]


def living(state: GameState) -> list[tuple[int, str]]:
    """The living players in the country (who the Junta may elect, the victor execute)."""
    return [(x.seat, x.name) for x in state.players if x.status == Status.ALIVE]


def strike_foes(b: Builder) -> tuple[list[Unit], str] | None:
    """What a strike may hit now (`foes_of`) and the words its help ends with: in the
    Rebel-Only step, the Rebel warning; during the coup, none. None: no strike now."""
    if b.rebel_step:
        extra = REBEL_WARNING
    elif b.in_coup:
        extra = ""
    else:
        return None
    foes = b.shared("foes", lambda: foes_of(b.seat, b.units))
    return (foes, extra) if foes else None
