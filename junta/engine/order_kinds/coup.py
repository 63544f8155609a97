"""The coup's orders: strikes, Foreign Intervention, transfers, placements, stack moves, the
Police Response, flight and passage through embassies, combat and retreat orders and the
Pro-Junta / Pro-President vote (phases/coup.py carries them out; the Junta's vote and the
execution are the Coup Aftermath's, `aftermath.py`).

Each check returns precise messages; an empty list means the order is legal now. Orders given
in the Locations phase (airstrike, gunboat, place, rebel_move) are the Rebel-Only step's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, NotRequired, TypedDict

from .. import catalog
from ..enums import PhaseKind, Status, Step
from ..labels import (
    FORCE_LABELS,
    FORCE_NAMES,
    FOREIGN_KINDS,
    FOREIGN_NAMES,
    coup_units,
    moves_reason,
    plural,
    unit_label,
    zone_name,
    zones_with_occupants,
)
from ..order import As, NoArgs, Order
from ..problems import Problem
from ..state import GameState
from ..state_shapes import CoupSide as SideName
from ..state_shapes import ForeignForce, Unit, UnitKind
from ..steps import COUP_PHASES, REBEL_OR_COUP
from ..units import (
    BODYGUARD_ZONES,
    EMBASSIES,
    FOREIGN_FORCES,
    PLACED_ANYWHERE,
    PLACED_ON_RIVER,
    RIVER_ZONES,
    coup_of,
    distance,
    stack_moves,
    units_now,
)
from ..words import Term, gettext_noop, words
from ..words import Zone as WordsZone
from .base import (
    IN_A_ZONE,
    MOVE,
    NOTHING,
    STRIKE,
    MapForm,
    MapShape,
    OrderKindSpec,
    Share,
    T,
    seat_of,
    who,
    zone_of,
    zone_title,
)
from .offering import (
    REBEL_WARNING,
    SIDE_CHOICES,
    YES_NO,
    ArgOption,
    Choice,
    Shape,
    move_args,
    one,
    some,
    stacks_by_zone,
    strike_args,
    strike_foes,
)

if TYPE_CHECKING:
    from .offering import Builder

AIRSTRIKES = 3  # "Controls 3 Airstrikes... Only one Airstrike may be used per Coup Phase"
SIDES = ("junta", "president")


class StrikeArgs(TypedDict):
    """A strike: the zone struck and whose units there."""
    zone: Annotated[int, As("Zone to strike", T.ZONE)]
    target: Annotated[int, As("Whose units", T.SEAT)]


class AirstrikeArgs(TypedDict):
    source: NotRequired[Annotated[str, As("Airstrike from", T.CHOICE)]]  # "air_force" if none
    zone: Annotated[int, As("Zone to strike", T.ZONE)]
    target: Annotated[int, As("Whose units", T.SEAT)]


class ForcesArgs(TypedDict):
    forces: Annotated[list[ForeignForce], As("Forces", T.FORCES)]  # keys of units.FOREIGN_FORCES


class HandOverArgs(TypedDict):
    units: Annotated[list[int], As("Units", T.UNITS)]
    to: Annotated[int, As("To", T.SEAT)]
    after_moves: NotRequired[Annotated[bool, As("When", T.FLAG)]]


class LandArgs(TypedDict):
    unit: Annotated[UnitKind, As("Unit", T.UNIT_KIND)]  # a kind of unit: "Marine"
    zone: Annotated[int, As("Zone", T.ZONE)]


class MoveArgs(TypedDict):
    from_zone: Annotated[int, As("From", T.ZONE)]
    to_zone: Annotated[int, As("To", T.ZONE)]
    units: NotRequired[Annotated[list[int], As("Only these units", T.UNITS)]]  # none: the stack


class PoliceArgs(TypedDict):
    zone: Annotated[int, As("Zone", T.ZONE)]
    units: NotRequired[Annotated[list[int], As("Only these Police", T.UNITS)]]


class ExileArgs(TypedDict):
    seat: Annotated[int, As("Exile", T.SEAT)]


class CasualtiesArgs(TypedDict):
    last: Annotated[list[str], As("Lose last", T.UNIT_KINDS)]  # kinds of unit, the last first


class AttackArgs(TypedDict):
    zone: Annotated[int, As("Zone", T.ZONE)]
    target: Annotated[int, As("Player", T.SEAT)]


class RetreatArgs(TypedDict):
    zone: Annotated[int, As("Retreat from", T.ZONE)]
    to_zone: Annotated[int, As("Retreat to", T.ZONE)]


class PermitArgs(TypedDict):
    seat: Annotated[int, As("Player", T.SEAT)]
    allow: Annotated[bool, As("Allow the retreat", T.FLAG)]


class SideArgs(TypedDict):
    side: Annotated[SideName, As("Your vote", T.CHOICE)]  # one of SIDES


def rebel_move_problems(state: GameState, seat: int, start: int) -> list[Problem]:
    """A Rebel-Only move starts from a zone where the player's units deploy (his Bodyguard,
    for the Minister of War, by the location he chooses)."""
    if catalog.WAR in state.commanded_positions(seat) and start in BODYGUARD_ZONES.values():
        return []
    if any(u["owner"] == seat and u["zone"] == start and u["kind"] != "Bodyguard"
           for u in units_now(state)):
        return []
    return [Problem(words(gettext_noop("You have no units in {zone} to move."),
                          zone=WordsZone(start)), "from_zone")]


def _no_units(state: GameState, seat: int) -> list[Problem]:
    """Attacks, retreats and their permissions are for players who command units."""
    if any(u["owner"] == seat for u in coup_of(state)["units"]):
        return []
    return [Problem(gettext_noop("You command no units in this coup."))]


def _rebel_step_ok(state: GameState, seat: int) -> list[Problem]:
    if state.phase == PhaseKind.LOCATIONS and seat == state.president:
        return [Problem(gettext_noop("The President cannot take Rebel action."))]
    return []


def _strike_target(state: GameState, seat: int, a: StrikeArgs | AirstrikeArgs
                   ) -> list[Problem]:
    """"The orders for such an action must include the area to be struck, as well as the
    player whose units are to be attacked.\""""
    zone = zone_of(a.get("zone"))
    target = seat_of(state, a.get("target"))
    errors = []
    if zone is None:
        errors.append(Problem(gettext_noop("Name the zone to strike."), "zone"))
    elif "no_combat" in catalog.zones()[zone].flags:
        errors.append(Problem(words(gettext_noop("{zone} is an embassy: no combat there."),
                                    zone=WordsZone(zone)), "zone"))
    foes = [u for u in units_now(state) if u["zone"] is not None and u["owner"] is not None
            and u["owner"] != seat and u["zone"] not in EMBASSIES]
    if zone is not None and not errors and not any(u["zone"] == zone for u in foes):
        errors.append(Problem(words(gettext_noop(
            "No other player's unit stands in {zone}: there is nothing to strike there."),
            zone=WordsZone(zone)), "zone"))
    if target is None:
        errors.append(Problem(gettext_noop(
            "Name the player whose units are to be struck."), "target"))
    elif target == seat:
        errors.append(Problem(gettext_noop("You cannot strike your own units."), "target"))
    elif not state.players[target].active:
        errors.append(Problem(words(gettext_noop("{seat} is {status} and commands no units."),
                                    seat=state.name(target),
                                    status=Term(state.players[target].status)), "target"))
    elif not any(u["owner"] == target for u in foes):
        errors.append(Problem(words(gettext_noop("{seat} has no unit on the map to strike."),
                                    seat=state.name(target)), "target"))
    return errors


def _may_choose(state: GameState, force: str) -> bool:
    foreign = coup_of(state)["foreign"]
    return force not in foreign["chosen"] and len(foreign["chosen"]) < foreign["allowed"]


def _owned(state: GameState, seat: int, ids: list[int] | None
           ) -> tuple[list[Unit], list[Problem]]:
    """The units named (the order's "units"), when they are all the player's."""
    units = {u["id"]: u for u in coup_of(state)["units"]}
    if not isinstance(ids, list) or not ids or not all(isinstance(i, int) for i in ids):
        return [], [Problem(gettext_noop("Choose the units."), "units")]
    missing = [i for i in ids if i not in units or units[i]["owner"] != seat]
    if missing:
        return [], [Problem(gettext_noop("You do not command every unit you named."), "units")]
    return [units[i] for i in ids], []


def _another_active(state: GameState, seat: int, other: int | None, arg: str, choose: str,
                    inactive: str) -> list[Problem]:
    """Another player than `seat`, still in the game, named by the order's `arg`: `choose`
    when none (or `seat` himself) was named, "<name> is <status> and `inactive`" when he is
    out."""
    if other is None or other == seat:
        return [Problem(choose, arg)]
    if not state.players[other].active:
        return [Problem(f"{state.name(other)} is {state.players[other].status} and {inactive}",
                        arg)]
    return []


def helicopter_only(state: GameState, order: Order, seat: int) -> bool:
    """A move of Helicopters alone: the units named, or (none named) the whole stack the
    player has in the zone it leaves. Such a flight goes up to two zones and is not a stack
    move (docs/rulings.md §ruling-stack-moves)."""
    a = Move.of(order)
    ids = a.get("units")
    units = coup_of(state)["units"]
    if ids is None:
        start = a.get("from_zone")
        kinds: list[str | None] = [u["kind"] for u in units if u["owner"] == seat
                                   and u["zone"] == start and start is not None]
    else:
        by_id = {u["id"]: u["kind"] for u in units}
        kinds = [by_id.get(i) for i in ids if isinstance(i, int)]
    return bool(kinds) and all(kind == "Helicopter" for kind in kinds)


def check_moves_allowed(state: GameState, seat: int, orders: list[Order]) -> list[Problem]:
    """The number of unconditional stack moves against the player's allowance."""
    moves = [i for i, o in enumerate(orders) if o.kind == "move" and o.condition is None
             and not helicopter_only(state, o, seat)]
    allowed = stack_moves(state, seat)
    if len(moves) > allowed:
        return [Problem(f"You may move {allowed} stack{'s' if allowed != 1 else ''} a phase; "
                        f"you ordered {len(moves)}.", orders=tuple(moves))]
    return []


def embassy_holders(state: GameState) -> set[int]:
    return {u["owner"] for u in coup_of(state)["units"]
            if u["zone"] in EMBASSIES and u["owner"] is not None}


class Airstrike(OrderKindSpec[AirstrikeArgs]):
    """"Airstrikes (6 dice) ... hit one named player's units in one named zone"
    (docs/rules.md §incoming-fire, §air-force, §foreign-intervention)."""
    name = "airstrike"
    label = "Airstrike"
    rules = ("incoming-fire", "air-force", "foreign-intervention", "rebel-only")
    step = Step.INCOMING_FIRE
    phases = REBEL_OR_COUP
    map_form = STRIKE
    rebel_action = True

    def once(self, order: Order) -> tuple[str, str] | None:
        """"Only one Airstrike may be used per Coup Phase", from each source."""
        return (f"{self.name}:{self.of(order).get('source', 'air_force')}",
                "Only one Airstrike may be used per Coup Phase: give one airstrike order for "
                "each source.")

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        source = self.of(order).get("source", "air_force")
        coup = coup_of(state)
        errors = _rebel_step_ok(state, seat)
        if source == "air_force":
            if catalog.AIR_FORCE not in state.commanded_positions(seat):
                errors.append(Problem(gettext_noop(
                    "Only the Air Force Commander orders the Airstrikes."),
                                      "source"))
            elif coup["airstrikes_used"] >= AIRSTRIKES:
                errors.append(Problem(gettext_noop(
                    "All three Airstrikes have been used in this coup."),
                                      "source"))
        elif source == "foreign":
            foreign = coup["foreign"]
            if catalog.FOREIGN not in state.commanded_positions(seat):
                errors.append(Problem(gettext_noop(
                    "Only the Foreign Minister orders the foreign Air Strikes."),
                                      "source"))
            elif "airstrikes" not in foreign["chosen"] and not _may_choose(state, "airstrikes"):
                errors.append(Problem(gettext_noop(
                    "The foreign Air Strikes are not among your Foreign "
                                      "Intervention forces."), "source"))
            elif foreign["airstrikes_used"] >= FOREIGN_FORCES["airstrikes"][1]:
                errors.append(Problem(gettext_noop(
                    "The four foreign Air Strikes have all been used."), "source"))
        else:
            errors.append(Problem(gettext_noop(
                "An airstrike comes from the Air Force or the foreign "
                                  "intervention."), "source"))
        return errors + _strike_target(state, seat, self.of(order))

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        source = "foreign Air Strike" if a.get("source") == "foreign" else "Airstrike"
        return (f"{source} on {_seat_words(state, a.get('target'))}'s units in "
                f"{_zone_words(a.get('zone'))}")

    def offers(self, b: Builder, group: str = "") -> None:
        found = strike_foes(b)
        if found is None:
            return
        foes, extra = found
        s = b.s
        coup = coup_of(s)
        origins: list[tuple[str, str]] = []
        if catalog.AIR_FORCE in b.commands and coup["airstrikes_used"] < AIRSTRIKES:
            left = AIRSTRIKES - coup["airstrikes_used"]
            origins.append(("air_force", f"the Air Force ({left} of {AIRSTRIKES} left)"))
        if s.phase in COUP_PHASES and catalog.FOREIGN in b.commands:
            foreign = coup["foreign"]
            total = FOREIGN_FORCES["airstrikes"][1]
            if "airstrikes" in foreign["chosen"] and foreign["airstrikes_used"] < total:
                origins.append(("foreign", f"the foreign Air Strikes "
                                           f"({total - foreign['airstrikes_used']} of {total} "
                                           "left)"))
            elif _may_choose(s, "airstrikes"):
                origins.append(("foreign", "the foreign Air Strikes (calls them in as one of "
                                           "your Foreign Intervention forces)"))
        if origins:
            b.add("airstrike", "An Airstrike rolls 6 dice at one player's units in one "
                  "zone, before any movement; a 6 destroys a unit. One Airstrike per source "
                  "each phase." + extra, [one("source", "Airstrike from", origins),
                                          *strike_args(s, foes)])


class Gunboat(OrderKindSpec[StrikeArgs]):
    """The Gunboat "shells one player's units in one zone once each Coup Phase"
    (docs/rules.md §incoming-fire, §admiral)."""
    name = "gunboat"
    label = "Gunboat shelling"
    rules = ("incoming-fire", "admiral", "rebel-only")
    step = Step.INCOMING_FIRE
    phases = REBEL_OR_COUP
    single = True
    template = "Gunboat shells {target}'s units in {zone}"
    map_form = STRIKE
    rebel_action = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        errors = _rebel_step_ok(state, seat)
        if catalog.ADMIRAL not in state.commanded_positions(seat):
            errors.append(Problem(gettext_noop("Only the Admiral commands the Gunboat.")))
        return errors + _strike_target(state, seat, self.of(order))

    def offers(self, b: Builder, group: str = "") -> None:
        found = strike_foes(b)
        if found is not None and catalog.ADMIRAL in b.commands:
            foes, extra = found
            b.add("gunboat", "The Gunboat shells one player's units in one zone with 3 "
                  "dice, before any movement, once a phase." + extra, strike_args(b.s, foes))


class Intervene(OrderKindSpec[ForcesArgs]):
    """The Foreign Minister "picks each force at most once during the coup"
    (docs/rules.md §foreign-intervention)."""
    name = "intervene"
    label = "Choose Foreign Intervention forces"
    rules = ("foreign-intervention", "ruling-foreign-intervention")
    step = Step.INCOMING_FIRE
    phases = COUP_PHASES
    single = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"The Foreign Minister may choose each of the following Forces once, and once only
        during any coup."
        (docs/rules.md §foreign-intervention; docs/rulings.md §ruling-foreign-intervention)"""
        foreign = coup_of(state)["foreign"]
        forces = self.of(order).get("forces")
        if catalog.FOREIGN not in state.commanded_positions(seat):
            return [Problem(gettext_noop(
                "Only the Foreign Minister calls in Foreign Intervention forces."))]
        if not isinstance(forces, list) or not forces or \
                any(f not in FOREIGN_FORCES for f in forces) or len(set(forces)) != len(forces):
            return [Problem(gettext_noop(
                "Choose forces among Air Strikes, Helicopter, Paratroopers and "
                            "Commandos, each once."), "forces")]
        errors = [Problem(f"You have already called in the {f}.", "forces")
                  for f in forces if f in foreign["chosen"]]
        left = foreign["allowed"] - len(foreign["chosen"])
        if len(forces) > left:
            errors.append(Problem(f"The die allows {foreign['allowed']} Foreign Intervention force"
                                  f"{'s' if foreign['allowed'] != 1 else ''}; you may choose "
                                  f"{left} more.", "forces"))
        return errors

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        return "Call in the foreign " + ", ".join(FORCE_NAMES.get(f, f) for f in
                                                  a.get("forces") or [])

    def offers(self, b: Builder, group: str = "") -> None:
        if not b.in_coup:
            return
        foreign = coup_of(b.s)["foreign"]
        left = foreign["allowed"] - len(foreign["chosen"])
        if catalog.FOREIGN in b.commands and left > 0:
            free = [(f, FORCE_LABELS[f]) for f in FOREIGN_FORCES if f not in foreign["chosen"]]
            b.add("intervene", f"The die showed {foreign['roll']}: you may call in {left} "
                  f"more Foreign Intervention force{'s' if left != 1 else ''}, each once a "
                  "coup. They arrive with this phase's incoming fire; the units then wait "
                  "to be landed.", [some("forces", "Forces", free)])


class Transfer(OrderKindSpec[HandOverArgs]):
    """"A player may hand any of his units to another player" (docs/rules.md §transfers)."""
    name = "transfer"
    label = "Transfer units to another player"
    rules = ("transfers", "ruling-coup-adjudication")
    step = Step.TRANSFERS
    phases = COUP_PHASES
    party = "to"  # not an any-time order, but told to both sides as one

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"each player... may also transfer control of any of his units to any other player."
        (docs/rules.md §transfers)"""
        a = self.of(order)
        to = seat_of(state, a.get("to"))
        _, errors = _owned(state, seat, a.get("units"))
        return errors + _another_active(state, seat, to, "to",
                                        "Choose another player to take the units.",
                                        "cannot command units.")

    def share(self, state: GameState, order: Order) -> Share:
        a = self.of(order)
        ids = a.get("units")
        if not isinstance(ids, list):
            return NOTHING
        when = "after" if a.get("after_moves") else "before"
        return Share(units=tuple(ids), unit_use="handover" if when == "after"
                     else "handover_before", unit_words=f"your hand-over to "
                     f"{who(state, a.get('to'))} {when} the moves")

    def step_of(self, order: Order, phase: str | None) -> Step:
        """A hand-over "after moving" acts after the moves."""
        return Step.HANDOVERS if self.of(order).get("after_moves") else \
            super().step_of(order, phase)

    def fails_where_it_acts(self, state: GameState, seat: int, order: Order) -> bool:
        """A hand-over, well formed, some of whose units are no longer the giver's (a ruling
        removed them) or whose receiver is out: it fails where it acts, told to both
        (phases/coup.py)."""
        a = self.of(order)
        ids, to = a.get("units"), seat_of(state, a.get("to"))
        if not state.players[seat].active or state.coup is None or not isinstance(ids, list) \
                or not ids or not all(isinstance(i, int) and not isinstance(i, bool)
                                      for i in ids) or to is None or to == seat:
            return False
        owners = {u["id"]: u["owner"] for u in state.coup["units"]}
        return not state.players[to].active or any(owners.get(i) != seat for i in ids)

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        when = " after the moves" if a.get("after_moves") else ""
        return (f"Hand {_units_words(state, a.get('units'))} to "
                f"{_seat_words(state, a.get('to'))}{when}")

    def offers(self, b: Builder, group: str = "") -> None:
        if b.in_coup and b.mine and b.others:
            b.add("transfer", "Hand units over to another player. Unmoved units handed "
                  "over before the moves bring their move along; units handed over after "
                  "moving do not move again this phase.",
                  [some("units", "Units", [(u["id"], unit_label(u)) for u in b.mine]),
                   one("to", "To", b.others),
                   one("after_moves", "When", [(False, "before the moves"),
                                               (True, "after the moves")])])


class Place(OrderKindSpec[LandArgs]):
    """"Paratroopers (any zone) and Marines (a river zone) land by an order in any Coup
    Phase" (docs/rules.md §placement)."""
    name = "place"
    label = "Place units on the map"
    rules = ("placement", "admiral", "air-force", "foreign-intervention")
    step = Step.MOVEMENT
    phases = REBEL_OR_COUP
    template = "Land the {unit} in {zone}"
    map_form = IN_A_ZONE
    rebel_action = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"Paratroopers (any zone) and Marines (a river zone) enter by placement in any coup
        phase"; so do the foreign Paratroopers, Commandos and Helicopter.
        (docs/rules.md §placement, §admiral, §air-force)."""
        a = self.of(order)
        kind = a.get("unit")
        zone = zone_of(a.get("zone"))
        errors = _rebel_step_ok(state, seat)
        if kind not in PLACED_ANYWHERE | PLACED_ON_RIVER:
            return errors + [Problem(gettext_noop(
                "Only Paratroopers, Marines, Commandos and the Helicopter "
                                     "are placed on the map."), "unit")]
        waiting = [u for u in coup_of(state)["units"] if u["owner"] == seat and u["kind"] == kind
                   and u["zone"] is None]
        foreign_kind = {v[0]: k for k, v in FOREIGN_FORCES.items()}.get(kind)
        if state.coup is None and kind in ("Paratrooper", "Marine"):
            position = catalog.AIR_FORCE if kind == "Paratrooper" else catalog.ADMIRAL
            if position not in state.commanded_positions(seat):
                errors.append(Problem(words(gettext_noop("You do not command the {kind}."),
                                            kind=Term(kind)), "unit"))
        elif not waiting and not (foreign_kind and catalog.FOREIGN in
                                  state.commanded_positions(seat) and
                                  _may_choose(state, foreign_kind)):
            errors.append(Problem(words(gettext_noop("You have no {kind} waiting to be placed."),
                                        kind=Term(kind)), "unit"))
        if zone is None:
            errors.append(Problem(gettext_noop("Choose the zone."), "zone"))
        elif kind in PLACED_ON_RIVER and zone not in RIVER_ZONES:
            errors.append(Problem(f"{kind}s land in a river zone; {zone_title(zone)} is not on the "
                                  "river.", "zone"))
        return errors

    def offers(self, b: Builder, group: str = "") -> None:
        """In the Rebel-Only step the Paratroopers and Marines; during the coup the units
        waiting to land and the foreign forces the Minister may still call in."""
        if b.rebel_step:
            for kind, position in (("Paratrooper", catalog.AIR_FORCE),
                                   ("Marine", catalog.ADMIRAL)):
                if position in b.commands:
                    self._land(b, kind, 1, REBEL_WARNING)
            return
        if not b.in_coup:
            return
        waiting: dict[str, int] = {}
        for u in b.mine:
            if u["zone"] is None:
                waiting[u["kind"]] = waiting.get(u["kind"], 0) + 1
        for kind, count in sorted(waiting.items()):
            self._land(b, kind, count)
        if catalog.FOREIGN in b.commands:
            for force in ("helicopter", "paratroopers", "commandos"):
                kind = FOREIGN_FORCES[force][0]
                if kind not in waiting and _may_choose(b.s, force):
                    self._land(b, kind, 0)

    def _land(self, b: Builder, kind: str, count: int, extra: str = "") -> None:
        """An option to land waiting units of one kind; `count` 0 for a foreign force not yet
        called in (landing it calls it in)."""
        river = kind in PLACED_ON_RIVER
        zones = RIVER_ZONES if river else tuple(sorted(catalog.zones()))
        where = "a river zone" if river else "any zone"
        if count:
            label = f"Land your {plural(kind, count)}"
            what = f"Your {count} {plural(kind, count)} "  # as `count_units` words them
        else:
            force = FOREIGN_KINDS[kind]
            label = f"Call in and land {FOREIGN_NAMES[kind]}"
            what = f"{FOREIGN_NAMES[kind][0].upper()}{FOREIGN_NAMES[kind][1:]} " \
                f"({FORCE_LABELS[force]}) "
            count = FOREIGN_FORCES[force][1]
            extra = " Landing them calls them in as one of your Foreign Intervention forces." \
                + extra
        verb = "lands" if count == 1 else "land"
        b.add("place", f"{what}{verb} in {where} with this phase's movement." + extra,
              [one("zone", "Zone", [(z, zone_name(z)) for z in zones])],
              key=f"place:{kind}", label=label, fixed={"unit": kind})


class Move(OrderKindSpec[MoveArgs]):
    """"Each Coup Phase every player moves one stack ... to an adjacent zone"
    (docs/rules.md §movement; docs/rulings.md §ruling-stack-moves)."""
    name = "move"
    label = "Move a stack"
    rules = ("movement", "ruling-stack-moves")
    step = Step.MOVEMENT
    phases = COUP_PHASES
    map_form = MOVE

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"Each stack move takes any of a player's units in one zone to one adjacent zone"
        (docs/rules.md §movement); the Helicopter "may move up to 2 zones"."""
        a = self.of(order)
        start, end = zone_of(a.get("from_zone")), zone_of(a.get("to_zone"))
        if start is None or end is None:
            return [Problem(gettext_noop("Choose the zones of the move from the map."),
                            "from_zone" if start is None else "to_zone")]
        if start == end:
            return [Problem(gettext_noop("A move goes to another zone."), "to_zone")]
        ids = a.get("units")
        here = [u for u in coup_of(state)["units"] if u["zone"] == start]
        if ids is None and not any(u["owner"] is not None for u in here):
            # his own units, or units handed to him before the moves, which "transfers that
            # unit's movement to the new controller" (docs/rules.md §transfers)
            return [Problem(words(gettext_noop("No units stand in {zone} to move."),
                                  zone=WordsZone(start)), "from_zone")]
        if ids is None:
            moving = [u for u in here if u["owner"] == seat]
        else:
            moving, errors = _owned(state, seat, ids)
            if errors:
                return errors
            if any(u["zone"] != start for u in moving):
                return [Problem(words(gettext_noop("Not every unit you named stands in {zone}."),
                                      zone=WordsZone(start)), "units")]
        # a move of Helicopters alone (`helicopter_only`)
        if moving and all(u.get("kind") == "Helicopter" for u in moving):
            if distance(start, end) > 2:
                return [Problem(words(gettext_noop(
                    "The Helicopter flies up to two zones; {to} is farther from {zone}."),
                    to=WordsZone(end), zone=WordsZone(start)), "to_zone")]
            return []
        if end not in catalog.zones()[start].adjacent:
            return [Problem(words(gettext_noop("{to} is not next to {zone}."), to=WordsZone(end),
                                  zone=WordsZone(start)), "to_zone")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        what = _units_words(state, a["units"]) if a.get("units") else "the stack"
        return (f"Move {what} from {_zone_words(a.get('from_zone'))} to "
                f"{_zone_words(a.get('to_zone'))}")

    def share(self, state: GameState, order: Order) -> Share:
        ids = self.of(order).get("units")
        return Share(units=tuple(ids), unit_use="move", unit_words="your stack move") \
            if isinstance(ids, list) else NOTHING

    def offers(self, b: Builder, group: str = "") -> None:
        if not b.in_coup:
            return
        s, seat, on_map = b.s, b.seat, b.on_map
        stacks = stacks_by_zone(on_map)
        # units another player may hand over before the moves bring their move along
        # (docs/rules.md §transfers): a move may start where they stand
        handed = [(z, f"{zone_name(z)}: units handed over to you before the moves")
                  for z in sorted({u["zone"] for u in b.units if u["zone"] is not None
                                   and u["owner"] not in (None, seat)} - set(stacks))]
        if stacks or handed and b.others:
            args, reach = move_args(stacks, handed if b.others else ())
            args.append(some("units", "Only these units (leave empty to move the whole stack)",
                             [(u["id"], unit_label(u)) for u in on_map], required=False,
                             depends_on="from_zone",
                             choices_for={z: tuple(u["id"] for u in us)
                                          for z, us in stacks.items()}))
            b.add("move", f"You may move {moves_reason(s, seat)} this phase; a Helicopter "
                  f"alone flies up to two zones and does not count. {reach}", args)


class PoliceResponse(OrderKindSpec[PoliceArgs]):
    """The Minister of Internal Security "may rush any or all of his Police to those
    zones" (docs/rules.md §police-response)."""
    name = "police_response"
    label = "Police Response"
    rules = ("police-response", "internal-security")
    step = Step.MOVEMENT
    phases = frozenset({PhaseKind.COUP})
    single = True
    template = "Police Response to {zone}"
    map_form = IN_A_ZONE

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"the Minister of Internal Security may respond in the First Coup Phase by moving any or
        all Police units to an area in which these units were deployed."
        (docs/rules.md §police-response)"""
        coup = coup_of(state)
        a = self.of(order)
        zone = zone_of(a.get("zone"))
        if catalog.INTERNAL_SECURITY not in state.commanded_positions(seat):
            return [Problem(gettext_noop(
                "Only the Minister of Internal Security orders the Police Response."))]
        if coup["phase"] != 1:
            return [Problem(gettext_noop(
                "The Police Response is made in the first Coup Phase only."))]
        if zone not in coup.get("agitator_zones", []):
            return [Problem(gettext_noop(
                "The Police may respond only where Mob, Striker or Rioter units were "
                            "deployed in the Rebel-Only phase."), "zone")]
        ids = a.get("units")
        if ids is not None:
            units, errors = _owned(state, seat, ids)
            if errors:
                return errors
            if any(u["kind"] != "Police" for u in units):
                return [Problem(gettext_noop(
                    "Only Police units take part in the Police Response."), "units")]
        return []

    def share(self, state: GameState, order: Order) -> Share:
        ids = self.of(order).get("units")
        return Share(units=tuple(ids), unit_use="move", unit_words="the Police Response") \
            if isinstance(ids, list) else NOTHING

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if not b.in_coup:
            return
        coup = coup_of(s)
        if s.phase == PhaseKind.COUP and coup["phase"] == 1 and coup.get("agitator_zones") and \
                catalog.INTERNAL_SECURITY in b.commands:
            police = [u for u in b.on_map if u["kind"] == "Police"]
            b.add("police_response", "Rush any or all Police to a zone where Mob, Striker "
                  "or Rioter units were deployed in the Rebel-Only step. This does not count "
                  "as your stack move.",
                  [one("zone", "Zone", zones_with_occupants(
                      s, b.units, sorted(coup["agitator_zones"]))),
                   some("units", "Only these Police (leave empty for all)",
                        [(u["id"], unit_label(u)) for u in police], required=False)])


class Flee(OrderKindSpec[NoArgs]):
    """"A player may flee the country during a coup if one of his units stands in an
    embassy after the moves" (docs/rules.md §embassies)."""
    name = "flee"
    label = "Flee the country through an embassy"
    rules = ("embassies", "ruling-flight")
    step = Step.MOVEMENT
    phases = COUP_PHASES
    single = True
    template = "Flee the country through an embassy"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"A player may also flee the country during a Coup, but only if he can move one of his
        active units into an Embassy." Checked again after the moves (docs/rules.md §embassies)."""
        if not any(u["owner"] == seat and u["zone"] is not None for u in coup_of(state)["units"]):
            return [Problem(gettext_noop("You have no unit on the map to reach an embassy with."))]
        return []

    def offers(self, b: Builder, group: str = "") -> None:
        if b.in_coup and b.on_map:
            embassies = " or ".join(zone_name(z) for z in EMBASSIES)
            b.add("flee", f"Flee the country: it works only if one of your units stands in "
                  f"an embassy ({embassies}) after this phase's moves. You lose your "
                  "positions.")


class EmbassyPassage(OrderKindSpec[ExileArgs]):
    """An exile comes home "through an embassy where he, or a player who grants
    him passage, holds a unit" (docs/rules.md §embassies)."""
    name = "embassy_passage"
    label = "Safe passage through your embassy"
    rules = ("embassies", "ruling-flight")
    step = Step.MOVEMENT
    phases = COUP_PHASES
    template = "Grant {seat} passage through my embassy"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"Another player who controls a unit in an embassy grants the exile safe passage."
        (docs/rules.md §embassies)"""
        exile = seat_of(state, self.of(order).get("seat"))
        if exile is None or state.players[exile].status != Status.EXILED:
            return [Problem(gettext_noop("Choose an exile."), "seat")]
        if not any(u["owner"] == seat and u["zone"] is not None for u in coup_of(state)["units"]):
            return [Problem(gettext_noop("You have no unit on the map to hold an embassy with."))]
        return []

    def offers(self, b: Builder, group: str = "") -> None:
        if not (b.in_coup and b.on_map):
            return
        exiles = [(x.seat, x.name) for x in b.s.players if x.status == Status.EXILED]
        if exiles:
            b.add("embassy_passage", "Let an exile come home through an embassy where "
                  "you hold a unit after the moves (he must also order his return).",
                  [one("seat", "Exile", exiles)])


class Casualties(OrderKindSpec[CasualtiesArgs]):
    """Units fall weakest first "unless he ordered which kinds fall last"
    (docs/rules.md §casualties)."""
    name = "casualties"
    label = "Which units fall last"
    rules = ("casualties", "ruling-targets")
    step = Step.INCOMING_FIRE
    phases = COUP_PHASES
    single = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """Casualties fall weakest first "unless the owner ordered another priority"
        (docs/rules.md §casualties): the kinds named fall last, the first named the very last."""
        kinds = self.of(order).get("last")
        known = {u["kind"] for u in coup_of(state)["units"] if u["owner"] == seat}
        if len(known) < 2:
            return [Problem(gettext_noop(
                "Your units on the map are all of one kind (or you have none): there "
                            "is no order of casualties to choose."))]
        if not isinstance(kinds, list) or not kinds or any(k not in known for k in kinds) or \
                len(set(kinds)) != len(kinds) or len(kinds) > 3:
            return [Problem(gettext_noop(
                "Name up to three kinds of your units to lose last, each once."),
                            "last")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        return "Units to lose last: " + ", then ".join(a.get("last") or [])

    def offers(self, b: Builder, group: str = "") -> None:
        if not b.in_coup:
            return
        kinds_held = sorted({u["kind"] for u in b.mine})
        if len(kinds_held) > 1:
            b.add("casualties", "Your units hit by strikes or in battle fall weakest first "
                  "(unarmed, then armed, then 2-dice units). Name the kinds to lose last "
                  "instead, the first named the very last; it holds for this phase.",
                  [ArgOption("last", "Lose last, then", Shape.RANKING,
                             tuple(Choice(k, k) for k in kinds_held),
                             maximum=min(3, len(kinds_held)))])


class Attack(OrderKindSpec[AttackArgs]):
    """"units of players who ordered an attack on each other" fight
    (docs/rules.md §combat)."""
    name = "attack"
    label = "Attack a player"
    rules = ("combat", "ruling-targets")
    step = Step.COMBAT
    phases = COUP_PHASES
    template = "Attack {target} in {zone}"
    map_form = MapForm(MapShape.TARGET, who="target", after_moves=True)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if _no_units(state, seat):
            return _no_units(state, seat)
        a = self.of(order)
        zone = zone_of(a.get("zone"))
        target = seat_of(state, a.get("target"))
        errors = []
        if zone is None:
            errors.append(Problem(gettext_noop("Choose the zone of the attack."), "zone"))
        elif "no_combat" in catalog.zones()[zone].flags:
            errors.append(Problem(words(gettext_noop("{zone} is an embassy: no combat there."),
                                        zone=WordsZone(zone)), "zone"))
        return errors + _another_active(state, seat, target, "target",
                                        "Choose another player to attack.", "commands no units.")

    def offers(self, b: Builder, group: str = "") -> None:
        if b.in_coup and b.mine and b.others:
            b.add("attack", "Attack a player's units in a zone after the moves (Rebels and "
                  "Loyalists who meet fight anyway). Embassies are no-combat zones.",
                  [one("zone", "Zone", _fighting(b)), one("target", "Player", b.others)])


class Retreat(OrderKindSpec[RetreatArgs]):
    """The loser retreats "back where he came from, unless he ordered otherwise"
    (docs/rules.md §retreats)."""
    name = "retreat"
    label = "Where to retreat"
    rules = ("retreats",)
    step = Step.COMBAT
    phases = COUP_PHASES
    template = "Retreat from {zone} to {to_zone}"
    map_form = MapForm(MapShape.ROUTE, "to_zone", "zone")

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"Orders concerning retreats may be as specific as the player wishes."
        (docs/rules.md §retreats)"""
        if _no_units(state, seat):
            return _no_units(state, seat)
        a = self.of(order)
        zone, to = zone_of(a.get("zone")), zone_of(a.get("to_zone"))
        if zone is None or to is None:
            return [Problem(gettext_noop(
                "Choose the zone to retreat from and the zone to retreat to."),
                            "zone" if zone is None else "to_zone")]
        if zone in EMBASSIES:
            return [Problem(words(gettext_noop(
                "{zone} is an embassy: no battle there, so no retreat."), zone=WordsZone(zone)),
                "zone")]
        if to not in catalog.zones()[zone].adjacent:
            return [Problem(words(gettext_noop(
                "A retreat goes to an adjacent zone; {to} is not next to {zone}."),
                to=WordsZone(to), zone=WordsZone(zone)), "to_zone")]
        return []

    def offers(self, b: Builder, group: str = "") -> None:
        if b.in_coup and b.mine and b.others:
            b.add("retreat", "If your units in a zone must retreat after a battle, where "
                  "they go (a zone next to it); otherwise they go back where they came "
                  "from.",
                  [one("zone", "Retreat from", _fighting(b)),
                   one("to_zone", "Retreat to", [(z, zone_name(z))
                                                 for z in sorted(catalog.zones())],
                       depends_on="zone",
                       choices_for={z: tuple(sorted(catalog.zones()[z].adjacent))
                                    for z in _FIGHTING})])


class PermitRetreat(OrderKindSpec[PermitArgs]):
    """"Rebels deny Loyalists and Loyalists deny Rebels unless they order otherwise"
    (docs/rules.md §retreats)."""
    name = "permit_retreat"
    label = "Retreat permission"
    rules = ("retreats",)
    step = Step.COMBAT
    phases = COUP_PHASES

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"Unless otherwise specified, Rebels will deny permission to retreat to Loyalists and
        vice versa." (docs/rules.md §retreats)"""
        if _no_units(state, seat):
            return _no_units(state, seat)
        a = self.of(order)
        other = seat_of(state, a.get("seat"))
        if other is None or other == seat:
            return [Problem(gettext_noop("Choose another player."), "seat")]
        if not state.players[other].active:
            return [Problem(words(gettext_noop("{seat} is {status} and commands no units."),
                                  seat=state.name(other),
                                  status=Term(state.players[other].status)), "seat")]
        if not isinstance(a.get("allow"), bool):
            return [Problem(gettext_noop("Say whether you allow or deny the retreat."), "allow")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        verb = "Allow" if a.get("allow") else "Deny"
        return f"{verb} {_seat_words(state, a.get('seat'))} to retreat into my zones"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.in_coup and b.mine and b.others:
            b.add("permit_retreat", "Whether a player's retreating units may enter zones "
                  "you hold. Unless you say so, Rebels deny Loyalists and Loyalists deny "
                  "Rebels.", [one("seat", "Player", b.others),
                              one("allow", "Allow the retreat", YES_NO)])


class CoupSide(OrderKindSpec[SideArgs]):
    """"In the last phase everybody votes Pro-Junta or Pro-President"
    (docs/rules.md §control)."""
    name = "coup_side"
    label = "Vote Pro-Junta or Pro-President"
    rules = ("control",)
    step = Step.COUP_VOTE
    phases = frozenset({PhaseKind.COUP_FINAL})
    single = True
    likely = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"Players must submit as an order a vote of either Pro-Junta or Pro-President. The
        President cannot vote Pro-Junta." (docs/rules.md §control)"""
        choice = self.of(order).get("side")
        if choice not in SIDES:
            return [Problem(gettext_noop("Vote Pro-Junta or Pro-President."), "side")]
        if choice == "junta" and seat == state.president:
            return [Problem(gettext_noop("The President cannot vote Pro-Junta."), "side")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        return "Vote Pro-Junta" if a.get("side") == "junta" else "Vote Pro-President"

    def offers(self, b: Builder, group: str = "") -> None:
        s, seat = b.s, b.seat
        if not (b.in_coup and s.phase == PhaseKind.COUP_FINAL):
            return
        sides = SIDE_CHOICES[1:] if seat == s.president else SIDE_CHOICES
        b.add("coup_side", "Vote Pro-Junta or Pro-President. A control point counts "
              "Pro-Junta only if every unit in it belongs to a Pro-Junta voter; empty or "
              "shared points count Pro-President. The side with 3 of the 5 control "
              "points wins; no vote abstains." + (
                  " The President cannot vote Pro-Junta."
                  if seat == s.president else ""),
              [one("side", "Your vote", sides)])



# --- in words ----------------------------------------------------------------------------------

# the zones where units may fight: all but the embassies (no-combat zones)
_FIGHTING = tuple(z for z in sorted(catalog.zones()) if z not in EMBASSIES)


def _fighting(b: Builder) -> list[tuple[int, str]]:
    """The zones an attack or a retreat names, each with who stands there."""
    return b.shared("fighting", lambda: zones_with_occupants(b.s, b.units, list(_FIGHTING)))


def _units_words(state: GameState, ids: list[int] | None) -> str:
    known = {u["id"]: u for u in coup_units(state)}
    picked = [known[i] for i in ids or [] if i in known]
    return ", ".join(f"{u['kind']} #{u['id']}" for u in picked) or "units"


def _zone_words(value: int | None) -> str:
    return zone_name(value) if value is not None and value in catalog.zones() else "?"


def _seat_words(state: GameState, value: int | None) -> str:
    return state.name(value) if isinstance(value, int) and 0 <= value < len(state.players) \
        else "?"
