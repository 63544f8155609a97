"""Validation of the coup's orders: strikes, Foreign Intervention, transfers, placements, stack
moves, the Police Response, flight and passage through embassies, combat and retreat orders,
the Pro-Junta / Pro-President vote, the Junta's vote and the post-coup execution.

Each check returns precise messages; an empty list means the order is legal now. Orders given
in the Locations phase (airstrike, gunboat, place, rebel_move) are the Rebel-Only step's.
"""

from __future__ import annotations

from typing import Any

from . import catalog
from .enums import PhaseKind, Status
from .orders import Order
from .problems import Problem
from .state import GameState
from .units import (
    BODYGUARD_ZONES,
    EMBASSIES,
    FOREIGN_FORCES,
    PLACED_ANYWHERE,
    PLACED_ON_RIVER,
    RIVER_ZONES,
    deploy,
    distance,
    stack_moves,
)

AIRSTRIKES = 3  # "Controls 3 Airstrikes... Only one Airstrike may be used per Coup Phase"
SIDES = ("junta", "president")


def _zone(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and \
        value in catalog.zones() else None


def _seat(state: GameState, value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value < len(state.players) else None


def _zname(zone: int) -> str:
    return catalog.zones()[zone].name


def _coup(state: GameState) -> dict[str, Any]:
    return state.coup or {"units": [], "phase": 0, "airstrikes_used": 0,
                          "foreign": {"allowed": 0, "chosen": [], "airstrikes_used": 0}}


def units_now(state: GameState) -> list[dict[str, Any]]:
    """The units on the map: the coup's; in the Locations phase, the units as they would
    deploy if a coup began (the Rebel-Only step strikes and moves them where they start)."""
    if state.coup is None and state.phase == PhaseKind.LOCATIONS:
        return list(deploy(state)["units"])
    return list(_coup(state)["units"])


def rebel_move_problems(state: GameState, seat: int, start: int) -> list[Problem]:
    """A Rebel-Only move starts from a zone where the player's units deploy (his Bodyguard,
    for the Minister of War, by the location he chooses)."""
    if catalog.WAR in state.commanded_positions(seat) and start in BODYGUARD_ZONES.values():
        return []
    if any(u["owner"] == seat and u["zone"] == start and u["kind"] != "Bodyguard"
           for u in units_now(state)):
        return []
    return [Problem(f"You have no units in {_zname(start)} to move.", "from_zone")]


def _no_units(state: GameState, seat: int) -> list[Problem]:
    """Attacks, retreats and their permissions are for players who command units."""
    if any(u["owner"] == seat for u in _coup(state)["units"]):
        return []
    return [Problem("You command no units in this coup.")]


def _rebel_step_ok(state: GameState, seat: int) -> list[Problem]:
    if state.phase == PhaseKind.LOCATIONS and seat == state.president:
        return [Problem("The President cannot take Rebel action.")]
    return []


def check_airstrike(state: GameState, seat: int, order: Order) -> list[Problem]:
    source = order.args.get("source", "air_force")
    coup = _coup(state)
    errors = _rebel_step_ok(state, seat)
    if source == "air_force":
        if catalog.AIR_FORCE not in state.commanded_positions(seat):
            errors.append(Problem("Only the Air Force Commander orders the Airstrikes.",
                                  "source"))
        elif coup["airstrikes_used"] >= AIRSTRIKES:
            errors.append(Problem("All three Airstrikes have been used in this coup.",
                                  "source"))
    elif source == "foreign":
        foreign = coup["foreign"]
        if catalog.FOREIGN not in state.commanded_positions(seat):
            errors.append(Problem("Only the Foreign Minister orders the foreign Air Strikes.",
                                  "source"))
        elif "airstrikes" not in foreign["chosen"] and not _may_choose(state, "airstrikes"):
            errors.append(Problem("The foreign Air Strikes are not among your Foreign "
                                  "Intervention forces.", "source"))
        elif foreign["airstrikes_used"] >= FOREIGN_FORCES["airstrikes"][1]:
            errors.append(Problem("The four foreign Air Strikes have all been used.", "source"))
    else:
        errors.append(Problem("An airstrike comes from the Air Force or the foreign "
                              "intervention.", "source"))
    return errors + _strike_target(state, seat, order)


def check_gunboat(state: GameState, seat: int, order: Order) -> list[Problem]:
    errors = _rebel_step_ok(state, seat)
    if catalog.ADMIRAL not in state.commanded_positions(seat):
        errors.append(Problem("Only the Admiral commands the Gunboat."))
    return errors + _strike_target(state, seat, order)


def _strike_target(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"The orders for such an action must include the area to be struck, as well as the
    player whose units are to be attacked.\""""
    zone = _zone(order.args.get("zone"))
    target = _seat(state, order.args.get("target"))
    errors = []
    if zone is None:
        errors.append(Problem("Name the zone to strike.", "zone"))
    elif "no_combat" in catalog.zones()[zone].flags:
        errors.append(Problem(f"{_zname(zone)} is an embassy: no combat there.", "zone"))
    foes = [u for u in units_now(state) if u["zone"] is not None and u["owner"] is not None
            and u["owner"] != seat and u["zone"] not in EMBASSIES]
    if zone is not None and not errors and not any(u["zone"] == zone for u in foes):
        errors.append(Problem(f"No other player's unit stands in {_zname(zone)}: there is "
                              "nothing to strike there.", "zone"))
    if target is None:
        errors.append(Problem("Name the player whose units are to be struck.", "target"))
    elif target == seat:
        errors.append(Problem("You cannot strike your own units.", "target"))
    elif not state.players[target].active:
        errors.append(Problem(f"{state.name(target)} is {state.players[target].status} and "
                              "commands no units.", "target"))
    elif not any(u["owner"] == target for u in foes):
        errors.append(Problem(f"{state.name(target)} has no unit on the map to strike.",
                              "target"))
    return errors


def _may_choose(state: GameState, force: str) -> bool:
    foreign = _coup(state)["foreign"]
    return force not in foreign["chosen"] and len(foreign["chosen"]) < foreign["allowed"]


def check_intervene(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"The Foreign Minister may choose each of the following Forces once, and once only
    during any coup."
    (docs/rules.md §foreign-intervention; docs/rulings.md §ruling-foreign-intervention)"""
    foreign = _coup(state)["foreign"]
    forces = order.args.get("forces")
    if catalog.FOREIGN not in state.commanded_positions(seat):
        return [Problem("Only the Foreign Minister calls in Foreign Intervention forces.")]
    if not isinstance(forces, list) or not forces or \
            any(f not in FOREIGN_FORCES for f in forces) or len(set(forces)) != len(forces):
        return [Problem("Choose forces among Air Strikes, Helicopter, Paratroopers and "
                        "Commandos, each once.", "forces")]
    errors = [Problem(f"You have already called in the {f}.", "forces")
              for f in forces if f in foreign["chosen"]]
    left = foreign["allowed"] - len(foreign["chosen"])
    if len(forces) > left:
        errors.append(Problem(f"The die allows {foreign['allowed']} Foreign Intervention force"
                              f"{'s' if foreign['allowed'] != 1 else ''}; you may choose "
                              f"{left} more.", "forces"))
    return errors


def _owned(state: GameState, seat: int, ids: Any) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The units named (the order's "units"), when they are all the player's."""
    units = {u["id"]: u for u in _coup(state)["units"]}
    if not isinstance(ids, list) or not ids or not all(isinstance(i, int) for i in ids):
        return [], [Problem("Choose the units.", "units")]
    missing = [i for i in ids if i not in units or units[i]["owner"] != seat]
    if missing:
        return [], [Problem("You do not command every unit you named.", "units")]
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


def check_transfer(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"each player... may also transfer control of any of his units to any other player."
    (docs/rules.md §transfers)"""
    to = _seat(state, order.args.get("to"))
    _, errors = _owned(state, seat, order.args.get("units"))
    return errors + _another_active(state, seat, to, "to",
                                    "Choose another player to take the units.",
                                    "cannot command units.")


def check_place(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"Paratroopers (any zone) and Marines (a river zone) enter by placement in any coup
    phase"; so do the foreign Paratroopers, Commandos and Helicopter.
    (docs/rules.md §placement, §admiral, §air-force)."""
    kind = order.args.get("unit")
    zone = _zone(order.args.get("zone"))
    errors = _rebel_step_ok(state, seat)
    if kind not in PLACED_ANYWHERE | PLACED_ON_RIVER:
        return errors + [Problem("Only Paratroopers, Marines, Commandos and the Helicopter "
                                 "are placed on the map.", "unit")]
    waiting = [u for u in _coup(state)["units"] if u["owner"] == seat and u["kind"] == kind
               and u["zone"] is None]
    foreign_kind = {v[0]: k for k, v in FOREIGN_FORCES.items()}.get(kind)
    if state.coup is None and kind in ("Paratrooper", "Marine"):
        position = catalog.AIR_FORCE if kind == "Paratrooper" else catalog.ADMIRAL
        if position not in state.commanded_positions(seat):
            errors.append(Problem(f"You do not command the {kind}.", "unit"))
    elif not waiting and not (foreign_kind and catalog.FOREIGN in
                              state.commanded_positions(seat) and
                              _may_choose(state, foreign_kind)):
        errors.append(Problem(f"You have no {kind} waiting to be placed.", "unit"))
    if zone is None:
        errors.append(Problem("Choose the zone.", "zone"))
    elif kind in PLACED_ON_RIVER and zone not in RIVER_ZONES:
        errors.append(Problem(f"{kind}s land in a river zone; {_zname(zone)} is not on the "
                              "river.", "zone"))
    return errors


def check_move(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"Each stack move takes any of a player's units in one zone to one adjacent zone"
    (docs/rules.md §movement); the Helicopter "may move up to 2 zones"."""
    start, end = _zone(order.args.get("from_zone")), _zone(order.args.get("to_zone"))
    if start is None or end is None:
        return [Problem("Choose the zones of the move from the map.",
                        "from_zone" if start is None else "to_zone")]
    if start == end:
        return [Problem("A move goes to another zone.", "to_zone")]
    ids = order.args.get("units")
    units: list[dict[str, Any]] = []
    if ids is None and not any(u["zone"] == start and u["owner"] is not None
                               for u in _coup(state)["units"]):
        # his own units, or units handed to him before the moves, which "transfers that
        # unit's movement to the new controller" (docs/rules.md §transfers)
        return [Problem(f"No units stand in {_zname(start)} to move.", "from_zone")]
    if ids is not None:
        units, errors = _owned(state, seat, ids)
        if errors:
            return errors
        if any(u["zone"] != start for u in units):
            return [Problem(f"Not every unit you named stands in {_zname(start)}.", "units")]
    if helicopter_only(state, order, seat):
        if distance(start, end) > 2:
            return [Problem(f"The Helicopter flies up to two zones; {_zname(end)} is farther "
                            f"from {_zname(start)}.", "to_zone")]
        return []
    if end not in catalog.zones()[start].adjacent:
        return [Problem(f"{_zname(end)} is not next to {_zname(start)}.", "to_zone")]
    return []


def helicopter_only(state: GameState, order: Order, seat: int) -> bool:
    """A move of Helicopters alone: the units named, or (none named) the whole stack the
    player has in the zone it leaves. Such a flight goes up to two zones and is not a stack
    move (docs/rulings.md §ruling-stack-moves)."""
    ids = order.args.get("units")
    units = _coup(state)["units"]
    if ids is None:
        start = order.args.get("from_zone")
        moving = [u for u in units if u["owner"] == seat and u["zone"] == start
                  and start is not None]
    else:
        by_id = {u["id"]: u for u in units}
        moving = [by_id.get(i, {}) for i in ids if isinstance(i, int)]
    return bool(moving) and all(u.get("kind") == "Helicopter" for u in moving)


def check_moves_allowed(state: GameState, seat: int, orders: list[Order]) -> list[Problem]:
    """The number of unconditional stack moves against the player's allowance."""
    moves = [i for i, o in enumerate(orders) if o.kind == "move" and o.condition is None
             and not helicopter_only(state, o, seat)]
    allowed = stack_moves(state, seat)
    if len(moves) > allowed:
        return [Problem(f"You may move {allowed} stack{'s' if allowed != 1 else ''} a phase; "
                        f"you ordered {len(moves)}.", orders=tuple(moves))]
    return []


def check_police_response(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"the Minister of Internal Security may respond in the First Coup Phase by moving any or
    all Police units to an area in which these units were deployed."
    (docs/rules.md §police-response)"""
    coup = _coup(state)
    zone = _zone(order.args.get("zone"))
    if catalog.INTERNAL_SECURITY not in state.commanded_positions(seat):
        return [Problem("Only the Minister of Internal Security orders the Police Response.")]
    if coup["phase"] != 1:
        return [Problem("The Police Response is made in the first Coup Phase only.")]
    if zone not in coup.get("agitator_zones", []):
        return [Problem("The Police may respond only where Mob, Striker or Rioter units were "
                        "deployed in the Rebel-Only phase.", "zone")]
    ids = order.args.get("units")
    if ids is not None:
        units, errors = _owned(state, seat, ids)
        if errors:
            return errors
        if any(u["kind"] != "Police" for u in units):
            return [Problem("Only Police units take part in the Police Response.", "units")]
    return []


def check_flee(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"A player may also flee the country during a Coup, but only if he can move one of his
    active units into an Embassy." Checked again after the moves (docs/rules.md §embassies)."""
    if not any(u["owner"] == seat and u["zone"] is not None for u in _coup(state)["units"]):
        return [Problem("You have no unit on the map to reach an embassy with.")]
    return []


def check_embassy_passage(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"Another player who controls a unit in an embassy grants the exile safe passage."
    (docs/rules.md §embassies)"""
    exile = _seat(state, order.args.get("seat"))
    if exile is None or state.players[exile].status != Status.EXILED:
        return [Problem("Choose an exile.", "seat")]
    if not any(u["owner"] == seat and u["zone"] is not None for u in _coup(state)["units"]):
        return [Problem("You have no unit on the map to hold an embassy with.")]
    return []


def check_casualties(state: GameState, seat: int, order: Order) -> list[Problem]:
    """Casualties fall weakest first "unless the owner ordered another priority"
    (docs/rules.md §casualties): the kinds named fall last, the first named the very last."""
    kinds = order.args.get("last")
    known = {u["kind"] for u in _coup(state)["units"] if u["owner"] == seat}
    if len(known) < 2:
        return [Problem("Your units on the map are all of one kind (or you have none): there "
                        "is no order of casualties to choose.")]
    if not isinstance(kinds, list) or not kinds or any(k not in known for k in kinds) or \
            len(set(kinds)) != len(kinds) or len(kinds) > 3:
        return [Problem("Name up to three kinds of your units to lose last, each once.",
                        "last")]
    return []


def check_attack(state: GameState, seat: int, order: Order) -> list[Problem]:
    if _no_units(state, seat):
        return _no_units(state, seat)
    zone = _zone(order.args.get("zone"))
    target = _seat(state, order.args.get("target"))
    errors = []
    if zone is None:
        errors.append(Problem("Choose the zone of the attack.", "zone"))
    elif "no_combat" in catalog.zones()[zone].flags:
        errors.append(Problem(f"{_zname(zone)} is an embassy: no combat there.", "zone"))
    return errors + _another_active(state, seat, target, "target",
                                    "Choose another player to attack.", "commands no units.")


def check_retreat(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"Orders concerning retreats may be as specific as the player wishes."
    (docs/rules.md §retreats)"""
    if _no_units(state, seat):
        return _no_units(state, seat)
    zone, to = _zone(order.args.get("zone")), _zone(order.args.get("to_zone"))
    if zone is None or to is None:
        return [Problem("Choose the zone to retreat from and the zone to retreat to.",
                        "zone" if zone is None else "to_zone")]
    if zone in EMBASSIES:
        return [Problem(f"{_zname(zone)} is an embassy: no battle there, so no retreat.",
                        "zone")]
    if to not in catalog.zones()[zone].adjacent:
        return [Problem(f"A retreat goes to an adjacent zone; {_zname(to)} is not next to "
                        f"{_zname(zone)}.", "to_zone")]
    return []


def check_permit_retreat(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"Unless otherwise specified, Rebels will deny permission to retreat to Loyalists and
    vice versa." (docs/rules.md §retreats)"""
    if _no_units(state, seat):
        return _no_units(state, seat)
    other = _seat(state, order.args.get("seat"))
    if other is None or other == seat:
        return [Problem("Choose another player.", "seat")]
    if not state.players[other].active:
        return [Problem(f"{state.name(other)} is {state.players[other].status} and commands "
                        "no units.", "seat")]
    if not isinstance(order.args.get("allow"), bool):
        return [Problem("Say whether you allow or deny the retreat.", "allow")]
    return []


def check_coup_side(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"Players must submit as an order a vote of either Pro-Junta or Pro-President. The
    President cannot vote Pro-Junta." (docs/rules.md §control)"""
    choice = order.args.get("side")
    if choice not in SIDES:
        return [Problem("Vote Pro-Junta or Pro-President.", "side")]
    if choice == "junta" and seat == state.president:
        return [Problem("The President cannot vote Pro-Junta.", "side")]
    return []


def check_junta_vote(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"The Junta will have one day to elect a President. Any live player may be elected by
    the Junta, including the sitting President." (docs/rules.md §junta)"""
    coup = _coup(state)
    candidate = _seat(state, order.args.get("candidate"))
    if coup.get("result") != "junta":
        return [Problem("The Rebels did not win the coup: there is no Junta to vote in.")]
    if not state.players[seat].rebel:
        return [Problem("Only Rebels sit in the Junta.")]
    if candidate is None or not state.players[candidate].active:
        return [Problem("Choose a living player in the country.", "candidate")]
    return []


def check_execute(state: GameState, seat: int, order: Order) -> list[Problem]:
    """"The President may send any one Rebel player to the Firing Squad"; "A newly elected
    President may execute ANY one player." Anyone but the President orders it "should they be
    elected President" (docs/rules.md §junta, §firing-squad)."""
    coup = _coup(state)
    target = _seat(state, order.args.get("target"))
    if target is None or target == seat:
        return [Problem("Choose another player to execute.", "target")]
    if state.players[target].status != Status.ALIVE:
        return [Problem(f"{state.name(target)} is {state.players[target].status}: beyond the "
                        "firing squad.", "target")]
    if coup.get("result") == "president":
        if seat != state.president:
            return [Problem("The President won the coup: only he may order an execution.")]
        if not state.players[target].rebel:
            return [Problem("Loyalist players are immune from execution by a sitting "
                            "President: choose a Rebel.", "target")]
    return []


def embassy_holders(state: GameState) -> set[int]:
    return {u["owner"] for u in _coup(state)["units"]
            if u["zone"] in EMBASSIES and u["owner"] is not None}
