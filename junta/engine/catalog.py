"""The game's fixed data: the 88 political cards, the 28-zone city and the cabinet positions.

Loaded once from the data files inside this package (converted from the rules' `cards.json` and
`map.json`); every other module asks here, so each fact lives in one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

PRESIDENT = "president"
INTERNAL_SECURITY = "internal_security"
GENERAL_1 = "general_1"
GENERAL_2 = "general_2"
GENERAL_3 = "general_3"
ADMIRAL = "admiral"
AIR_FORCE = "air_force"
WAR = "war"
FOREIGN = "foreign"
FARM_LABOR = "farm_labor"

POSITIONS: tuple[str, ...] = (
    PRESIDENT, INTERNAL_SECURITY, GENERAL_1, GENERAL_2, GENERAL_3,
    ADMIRAL, AIR_FORCE, WAR, FOREIGN, FARM_LABOR,
)
CABINET: tuple[str, ...] = POSITIONS[1:]
GENERALS: frozenset[str] = frozenset({GENERAL_1, GENERAL_2, GENERAL_3})
NEW_WEAPONS_TARGETS: tuple[str, ...] = (GENERAL_1, GENERAL_2, GENERAL_3, ADMIRAL, AIR_FORCE)
TITLES: dict[str, str] = {
    PRESIDENT: "El Presidente",
    INTERNAL_SECURITY: "Minister of Internal Security",
    GENERAL_1: "Generalissimo of the 1st Army Brigade",
    GENERAL_2: "Generalissimo of the 2nd Army Brigade",
    GENERAL_3: "Generalissimo of the 3rd Army Brigade",
    ADMIRAL: "Admiral of the Navy",
    AIR_FORCE: "Air Force Commander",
    WAR: "Minister of War",
    FOREIGN: "Foreign Minister",
    FARM_LABOR: "Farm & Labor Secretary",
}
# "Farm & Labor Secretary: Entitled to 5 votes in the Chamber of Deputies"; every other position 1.
POSITION_VOTES: dict[str, int] = {p: (5 if p == FARM_LABOR else 1) for p in POSITIONS}

LOCATIONS: tuple[str, ...] = ("home", "hq", "bank", "club", "mistress")
LOCATION_NAMES: dict[str, str] = {
    "home": "Home", "hq": "HQ", "bank": "Bank", "club": "Club", "mistress": "Mistress",
}

# "There are 51 one MP notes, 30 two MP notes, and 15 three MP notes, for a total of 96 bills"
MONEY_DECK: dict[int, int] = {1: 51, 2: 30, 3: 15}
KNOWN_BILLS = sum(MONEY_DECK.values())
HAND_LIMIT = 6


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    category: str
    effect: str
    when: tuple[str, ...]
    votes: int = 0
    bonus_with: str | None = None
    bonus_votes: int | None = None
    cost: int = 0

    @property
    def any_time(self) -> bool:
        return "any_except_assassination" in self.when


@cache
def cards() -> tuple[Card, ...]:
    raw = json.loads((DATA / "cards.json").read_text())["cards"]
    out = []
    for c in raw:
        cost = c.get("cost_mp", 0)
        out.append(Card(
            id=c["id"], name=c["name"], category=c["category"], effect=c["effect"],
            when=tuple(c["when"]), votes=c.get("votes") or 0, bonus_with=c.get("bonus_with"),
            bonus_votes=c.get("bonus_votes"), cost=cost if isinstance(cost, int) else 0,
        ))
    return tuple(out)


def card(card_id: int) -> Card:
    return cards()[card_id]


def card_named(name: str) -> Card:
    """The first copy of the card with this name (tests and bots use it)."""
    for c in cards():
        if c.name == name:
            return c
    raise KeyError(name)


def cards_named(name: str) -> list[int]:
    return list(_copies().get(name, ()))


@cache
def _copies() -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for c in cards():
        out.setdefault(c.name, []).append(c.id)
    return {name: tuple(ids) for name, ids in out.items()}


@dataclass(frozen=True)
class Zone:
    id: int
    name: str
    kind: str
    control_point: bool
    river: bool
    flags: tuple[str, ...]
    adjacent: tuple[int, ...]


@cache
def city() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "map.json").read_text())
    return data


@cache
def zones() -> dict[int, Zone]:
    return {
        z["id"]: Zone(z["id"], z["name"], z["kind"], z["control_point"], z["river"],
                      tuple(z["flags"]), tuple(z["adjacent"]))
        for z in city()["zones"]
    }
