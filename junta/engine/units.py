"""Units on the city map during a coup: who starts where, their dice, who commands them.

From the rules' position descriptions and SUPPLEMENT's unit table: Palace Guard x4 (2 dice in
the Palace), Police x4 one per precinct (all in the Chamber after a forced budget), 5 Soldiers
and a Tank per General at his barracks, the Admiral's Marine (placed in a river zone) and
Gunboat, the Air Force Commander's Paratrooper (placed anywhere) and 3 Airstrikes, the Minister
of War's Bodyguard (2 dice, New Weapons, placed by his location), the Farm & Labor Secretary's
Labor Rioter (unarmed, zone 22). A unit is a plain dict kept in `state.coup["units"]`.
"""

from __future__ import annotations

from typing import Any

from . import catalog
from .state import GameState

UNARMED = frozenset({"Labor Rioter", "Striker", "Rioter", "Mob"})
TWO_DICE = frozenset({"Tank", "Bodyguard"})
# Ground units whose New Weapons come from their position ("Marines, Paratroopers, Soldiers,
# and Tanks"; not forces "not derived from his position").
POSITION_GROUND = frozenset({"Soldier", "Tank", "Marine", "Paratrooper"})
BODYGUARD_ZONES = {"bank": 8, "hq": 9, "home": 18, "mistress": 13, "club": 23}
BARRACKS = {catalog.GENERAL_1: 15, catalog.GENERAL_2: 16, catalog.GENERAL_3: 17}
PRECINCTS = (10, 11, 12, 14)
PALACE, CHAMBER = 1, 2
CONTROL_POINTS = (1, 2, 3, 4, 8)


def new_unit(coup: dict, kind: str, owner: int | None, zone: int | None, *,
             position: str | None = None, phase: int = 0, new_weapons: bool = False,
             temporary: bool = False, armed: bool | None = None) -> dict[str, Any]:
    unit = {
        "id": coup["next_unit"], "kind": kind, "owner": owner, "zone": zone,
        "position": position, "armed": (kind not in UNARMED) if armed is None else armed,
        "new_weapons": new_weapons, "entered": phase, "from_zone": zone, "moved": False,
        "temporary": temporary,
    }
    coup["next_unit"] += 1
    coup["units"].append(unit)
    return unit


def deploy(state: GameState) -> dict[str, Any]:
    """Every position's units at their starting zones, commanded by the position's holder (the
    President for his Brother-in-Law's position; nobody for a vacant one: they hold and
    defend)."""
    coup: dict[str, Any] = {"units": [], "next_unit": 1}
    own = state.commander
    for _ in range(4):
        new_unit(coup, "Palace Guard", own(catalog.PRESIDENT), PALACE,
                 position=catalog.PRESIDENT)
    police_zones = [CHAMBER] * 4 if state.chamber_seized else list(PRECINCTS)
    for zone in police_zones:
        new_unit(coup, "Police", own(catalog.INTERNAL_SECURITY), zone,
                 position=catalog.INTERNAL_SECURITY)
    for pos, zone in BARRACKS.items():
        for _ in range(5):
            new_unit(coup, "Soldier", own(pos), zone, position=pos)
        new_unit(coup, "Tank", own(pos), zone, position=pos)
    new_unit(coup, "Marine", own(catalog.ADMIRAL), None, position=catalog.ADMIRAL)
    new_unit(coup, "Paratrooper", own(catalog.AIR_FORCE), None, position=catalog.AIR_FORCE)
    war = own(catalog.WAR)
    where = state.players[war].location if war is not None else None
    new_unit(coup, "Bodyguard", war, BODYGUARD_ZONES.get(where or "home", 18),
             position=catalog.WAR, new_weapons=True)
    new_unit(coup, "Labor Rioter", own(catalog.FARM_LABOR), 22, position=catalog.FARM_LABOR)
    return coup


def dice(unit: dict, zone: int) -> int:
    """Dice a single armed unit rolls: 1; Tank and Bodyguard 2; Palace Guard 2 in the Palace.
    Unarmed units roll as a group (see `combat.group_dice`)."""
    if unit["kind"] in TWO_DICE or (unit["kind"] == "Palace Guard" and zone == PALACE):
        return 2
    return 1


def has_new_weapons(state: GameState, unit: dict) -> bool:
    if unit["new_weapons"]:
        return True
    return (state.new_weapons is not None and unit["position"] == state.new_weapons
            and unit["kind"] in POSITION_GROUND)


def side(state: GameState, owner: int | None) -> str:
    """"rebel" or "loyal". Units nobody commands defend the government."""
    if owner is None:
        return "loyal"
    return "rebel" if state.players[owner].rebel else "loyal"


def on_map(coup: dict) -> list[dict]:
    return [u for u in coup["units"] if u["zone"] is not None]


def strength(unit: dict) -> int:
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
