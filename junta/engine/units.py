"""Units on the city map during a coup: who starts where, their dice, who commands them.

From the positions' units and the coup's units (docs/rules.md §positions, §units): Palace
Guard x4 (2 dice in the Palace), Police x4 one per precinct (all in the Chamber after a forced
budget), 5 Soldiers and a Tank per General at his barracks, the Admiral's Marine (placed in a
river zone) and Gunboat, the Air Force Commander's Paratrooper (placed anywhere) and 3
Airstrikes, the Minister of War's Bodyguard (2 dice, New Weapons, placed by his location), the
Farm & Labor Secretary's Labor Rioter (unarmed, zone 22). A unit is a plain dict kept in
`state.coup["units"]`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import catalog
from .enums import PhaseKind
from .state import BIL, GameState
from .state_shapes import Coup, ForeignForce, Unit, UnitKind

UNARMED = frozenset({"Labor Rioter", "Striker", "Rioter", "Mob"})
AGITATORS = frozenset({"Mob", "Striker", "Rioter"})  # what the Police Response answers
TWO_DICE = frozenset({"Tank", "Bodyguard"})
ALL_ZONES = tuple(sorted(catalog.zones()))
RIVER_ZONES = tuple(z.id for z in catalog.zones().values() if z.river)
EMBASSIES = tuple(z.id for z in catalog.zones().values() if "embassy" in z.flags)
NOT_CONTROL_POINTS = tuple(z.id for z in catalog.zones().values() if not z.control_point)


@dataclass(frozen=True)
class CardUnits:
    """What an Event card puts on the map (cards.json): kind, count, the zones to choose from,
    the influence it needs, its price, and whether it gives a Coup Excuse."""
    kind: UnitKind
    count: int
    zones: tuple[int, ...]
    requires: str | None = None
    cost: int = 0
    excuse: bool = True


CARD_UNITS: dict[str, CardUnits] = {
    "General Strike": CardUnits("Striker", 3, (22,), "Labor Unions"),
    "Dock Strike": CardUnits("Striker", 2, (7,)),
    "Slum Riots": CardUnits("Rioter", 3, (21,)),
    "Demonstrators": CardUnits("Mob", 2, (5,)),
    "Student Protest": CardUnits("Mob", 3, (13,), "Students"),
    "Peasant Strike": CardUnits("Striker", 2, (25,), "Peasants"),
    "Peasant Uprising": CardUnits("Peasant", 3, (25, 27), "Peasants"),
    "Christian Militia Formed": CardUnits("Militia", 2, (9,), "Church"),
    "Helicopter": CardUnits("Helicopter", 1, ALL_ZONES, excuse=False),
    "Provincial Pretender": CardUnits("Rural Guerrilla", 3, (24, 25)),
    "Radical Terrorists": CardUnits("Terrorist", 2, NOT_CONTROL_POINTS, "Radicals"),
    "Mercenaries": CardUnits("Mercenary", 3, (28,), cost=2, excuse=False),
}
# "Bribe the ...": which units in the named zone each card can buy.
BRIBES: dict[str, tuple[str, str]] = {
    "Bribe the Police": ("kind", "Police"),
    "Bribe the 1st Army Brigade": ("position", catalog.GENERAL_1),
    "Bribe the 2nd Army Brigade": ("position", catalog.GENERAL_2),
    "Bribe the 3rd Army Brigade": ("position", catalog.GENERAL_3),
    "Bribe the Agitators": ("agitators", ""),
    "Bribe the Palace Guard": ("kind", "Palace Guard"),
}
# Foreign Intervention: "Air Strikes (4), Helicopter (1) (With New Weapons), Paratroopers (1)
# (With New Weapons), Commandos (Marines) (3) (With New Weapons)"; each kind once a coup.
FOREIGN_FORCES: dict[ForeignForce, tuple[UnitKind | Literal["Airstrike"], int]] = {
    "airstrikes": ("Airstrike", 4), "helicopter": ("Helicopter", 1),
    "paratroopers": ("Foreign Paratrooper", 1), "commandos": ("Commando", 3),
}
FOREIGN_TABLE = {1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4}  # die roll -> forces available
# Units placed rather than moved in: "Paratroopers (any zone) and Marines (a river zone)".
PLACED_ANYWHERE = frozenset({"Paratrooper", "Foreign Paratrooper", "Helicopter"})
PLACED_ON_RIVER = frozenset({"Marine", "Commando"})
# Ground units whose New Weapons come from their position ("Marines, Paratroopers, Soldiers,
# and Tanks"; not forces "not derived from his position").
POSITION_GROUND = frozenset({"Soldier", "Tank", "Marine", "Paratrooper"})
BODYGUARD_ZONES = {"bank": 8, "hq": 9, "home": 18, "mistress": 13, "club": 23}
BARRACKS = {catalog.GENERAL_1: 15, catalog.GENERAL_2: 16, catalog.GENERAL_3: 17}
PRECINCTS = (10, 11, 12, 14)
PALACE, CHAMBER = 1, 2
CONTROL_POINTS = (1, 2, 3, 4, 8)
# What `deploy` reads of a state: the positions, whether the Chamber is seized, where the
# Minister of War spends the day.
DeployInputs = tuple[tuple[tuple[str, int | None], ...], bool, str | None]


def new_unit(coup: Coup, kind: UnitKind, owner: int | None, zone: int | None, *,
             position: str | None = None, phase: int = 0, new_weapons: bool = False,
             temporary: bool = False, armed: bool | None = None) -> Unit:
    unit: Unit = {
        "id": coup["next_unit"], "kind": kind, "owner": owner, "zone": zone,
        "position": position, "armed": (kind not in UNARMED) if armed is None else armed,
        "new_weapons": new_weapons, "entered": phase, "from_zone": zone, "moved": None,
        "temporary": temporary,
    }
    coup["next_unit"] += 1
    coup["units"].append(unit)
    return unit


def deploy_inputs(state: GameState) -> DeployInputs:
    """Everything `deploy` reads of a state: the positions, whether the Chamber is seized, where
    the Minister of War spends the day. Two states equal in these deploy the same units."""
    holder = state.positions.get(catalog.WAR)
    where = state.players[holder].location if holder is not None and holder >= 0 else None
    return tuple(state.positions.items()), state.chamber_seized, where


_DEPLOYED: dict[DeployInputs, tuple[Unit, ...]] = {}


def deployed(state: GameState) -> tuple[Unit, ...]:
    """The units `deploy` would put on the map, to read and never change: kept for states that
    deploy alike (`deploy_inputs`), since every check of a Rebel-Only order asks."""
    key = deploy_inputs(state)
    units = _DEPLOYED.get(key)
    if units is None:
        if len(_DEPLOYED) >= 512:
            _DEPLOYED.clear()
        units = _DEPLOYED[key] = tuple(deploy(state)["units"])
    return units


def deploy(state: GameState) -> Coup:
    """Every position's units at their starting zones, commanded by the position's holder (the
    President for his Brother-in-Law's position; nobody for a vacant one: they hold and
    defend).
    (docs/rules.md §president, §internal-security, §generals, §admiral, §air-force, §war,
    §farm-labor; docs/rulings.md §ruling-map)."""
    coup: Coup = {
        "units": [], "next_unit": 1, "phase": 0, "airstrikes_used": 0,
        "foreign": {"roll": None, "allowed": 0, "chosen": [], "airstrikes_used": 0},
        "agitator_zones": [], "votes": {}, "control": {}, "result": None, "elected": None,
    }
    own = state.commander
    start = -1  # in place before the coup: First Fire against anything that comes in
    for _ in range(4):
        new_unit(coup, "Palace Guard", own(catalog.PRESIDENT), PALACE,
                 position=catalog.PRESIDENT, phase=start)
    police_zones = [CHAMBER] * 4 if state.chamber_seized else list(PRECINCTS)
    for zone in police_zones:
        new_unit(coup, "Police", own(catalog.INTERNAL_SECURITY), zone,
                 position=catalog.INTERNAL_SECURITY, phase=start)
    for pos, zone in BARRACKS.items():
        for _ in range(5):
            new_unit(coup, "Soldier", own(pos), zone, position=pos, phase=start)
        new_unit(coup, "Tank", own(pos), zone, position=pos, phase=start)
    new_unit(coup, "Marine", own(catalog.ADMIRAL), None, position=catalog.ADMIRAL)
    new_unit(coup, "Paratrooper", own(catalog.AIR_FORCE), None, position=catalog.AIR_FORCE)
    _, _, where = deploy_inputs(state)
    new_unit(coup, "Bodyguard", own(catalog.WAR), BODYGUARD_ZONES.get(where or "home", 18),
             position=catalog.WAR, new_weapons=True, phase=start)
    new_unit(coup, "Labor Rioter", own(catalog.FARM_LABOR), 22, position=catalog.FARM_LABOR,
             phase=start)
    return coup


def coup_of(state: GameState) -> Coup:
    """The coup under way, or an empty map (to read, not to change) when there is none."""
    return state.coup or {
        "units": [], "next_unit": 1, "phase": 0, "airstrikes_used": 0,
        "foreign": {"roll": None, "allowed": 0, "chosen": [], "airstrikes_used": 0},
        "agitator_zones": [], "votes": {}, "control": {}, "result": None, "elected": None}


def units_now(state: GameState) -> list[Unit]:
    """The units on the map: the coup's; in the Locations phase, the units as they would
    deploy if a coup began (the Rebel-Only step strikes and moves them where they start)."""
    if state.coup is None and state.phase == PhaseKind.LOCATIONS:
        return list(deployed(state))
    return list(coup_of(state)["units"])


def dice(unit: Unit, zone: int) -> int:
    """Dice a single armed unit rolls: 1; Tank and Bodyguard 2; Palace Guard 2 in the Palace.
    Unarmed units roll as a group (see `combat.group_dice`)."""
    if unit["kind"] in TWO_DICE or (unit["kind"] == "Palace Guard" and zone == PALACE):
        return 2
    return 1


def has_new_weapons(state: GameState, unit: Unit) -> bool:
    """Whether a unit hits on 5 or 6: the units of the position given New Weapons this turn, and
    those that always have them (the Bodyguard, foreign forces) (docs/rules.md §new-weapons;
    docs/rulings.md §ruling-new-weapons-stay)."""
    if unit["new_weapons"]:
        return True
    return (state.new_weapons is not None and unit["position"] == state.new_weapons
            and unit["kind"] in POSITION_GROUND)


def side(state: GameState, owner: int | None) -> str:
    """"rebel" or "loyal". Units nobody commands defend the government (docs/rules.md §rebels)."""
    if owner is None:
        return "loyal"
    return "rebel" if state.players[owner].rebel else "loyal"


def on_map(coup: Coup) -> list[Unit]:
    return [u for u in coup["units"] if u["zone"] is not None]


def strength(unit: Unit) -> int:
    """Casualty order: the weakest first (unarmed, then armed, then 2-dice units)."""
    if not unit["armed"]:
        return 0
    return 2 if unit["kind"] in TWO_DICE or unit["kind"] == "Palace Guard" else 1


def distance(a: int, b: int) -> int:
    if a == b:
        return 0
    zones = catalog.zones()
    seen, frontier, steps = {a}, [a], 0
    while frontier:
        steps += 1
        nxt = []
        for z in frontier:
            for n in zones[z].adjacent:
                if n == b:
                    return steps
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return 99


def stack_moves(state: GameState, seat: int) -> int:
    """"Each player may move one stack... The Minister of War may move two stacks per coup
    phase, and any player with more than one position may move one stack (or two if one
    position is the Minister of War) per position... The President may move two stacks per
    phase, should his Brother-in-Law be in control of a position."
    (docs/rules.md §movement, §war)"""
    own = state.positions_of(seat)
    moves = sum(2 if p == catalog.WAR else 1 for p in own)
    if seat == state.president and any(state.positions.get(p) == BIL for p in catalog.CABINET):
        moves += 1
    return max(1, moves)


def units_of(coup: Coup, seat: int | None) -> list[Unit]:
    return [u for u in coup["units"] if u["owner"] == seat]


def reassign_position_units(state: GameState, seat: int) -> None:
    """A commander who leaves the country (flight to an embassy) leaves his units: those of a
    position go to its new commander (or stand leaderless), the rest stand leaderless.
    (docs/rulings.md §ruling-flight)."""
    if state.coup is None:
        return
    for u in state.coup["units"]:
        if u["owner"] == seat:
            u["owner"] = state.commander(u["position"]) if u["position"] else None
