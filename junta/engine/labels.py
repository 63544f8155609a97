"""Words for the things orders name: zones, units, stacks, foreign forces, a player's moves.

One wording for the order options, the order descriptions, the Status instructions and the
pages: "Soldier #12 (1st Brigade) in Cathedral", "5 Soldiers, 1 Tank", "2 stacks (Minister of
War)".
"""

from __future__ import annotations

from typing import TypedDict

from . import catalog
from .enums import PhaseKind
from .state import BIL, GameState
from .state_shapes import ForeignForce, Unit, UnitKind
from .units import FOREIGN_FORCES, deploy, stack_moves

BRIGADES = {catalog.GENERAL_1: "1st Brigade", catalog.GENERAL_2: "2nd Brigade",
            catalog.GENERAL_3: "3rd Brigade"}
FOREIGN_KINDS: dict[str, ForeignForce] = {kind: force
                                          for force, (kind, _) in FOREIGN_FORCES.items()}
FORCE_LABELS = {
    "airstrikes": "Air Strikes (4 strikes of 6 dice)",
    "helicopter": "Helicopter (1, New Weapons, flies 2 zones)",
    "paratroopers": "Paratroopers (1, New Weapons, lands anywhere)",
    "commandos": "Commandos (3 Marines, New Weapons, land in a river zone)",
}
FORCE_NAMES = {"airstrikes": "Air Strikes", "helicopter": "the Helicopter",
               "paratroopers": "Paratroopers", "commandos": "Commandos"}
FOREIGN_NAMES = {"Helicopter": "the foreign Helicopter",
                 "Foreign Paratrooper": "the foreign Paratroopers",
                 "Commando": "the foreign Commandos"}
SECRET_POLICE_NAME = "the Secret Police"
# A political card's category as players read it (cards.json holds the identifiers).
CARD_CATEGORIES = {
    "vote": "Vote", "influence": "Influence",
    "secret_political_donation": "Secret Political Donation", "bribe": "Bribe",
    "assassin": "Assassin", "intelligence": "Intelligence", "event": "Event",
}


def plural(kind: str, n: int) -> str:
    """ "Soldiers", "Mercenaries", "Police" (Police is its own plural)."""
    if n == 1 or kind.endswith("Police"):
        return kind
    return kind[:-1] + "ies" if kind.endswith("y") and kind[-2] not in "aeiou" else kind + "s"


def zone_name(zone: int) -> str:
    return catalog.zones()[zone].name


def card_name(card: object) -> str:
    """A card's name; the Secret Police for their pseudo-card."""
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(catalog.cards()):
        return catalog.card(card).name
    return SECRET_POLICE_NAME if card == "secret_police" else str(card)


def category_label(category: str) -> str:
    """ "Secret Political Donation" for "secret_political_donation"."""
    return CARD_CATEGORIES.get(category) or category.replace("_", " ").title()


def count_units(units: list[Unit]) -> str:
    """ "5 Soldiers, 1 Tank" """
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u["kind"]] = kinds.get(u["kind"], 0) + 1
    return ", ".join(f"{n} {plural(k, n)}" for k, n in sorted(kinds.items()))


class UnitFace(TypedDict):
    """What `unit_label` reads of a unit: a unit of the state (`Unit`) or of a coup view (a
    viewer's `visibility.UnitView`), which both hold these keys with these types."""
    id: int
    kind: UnitKind
    zone: int | None
    position: str | None
    new_weapons: bool


def unit_label(u: UnitFace) -> str:
    """ "Soldier #12 (1st Brigade) in Cathedral"; "Marine #27, waiting to land" """
    text = f"{u['kind']} #{u['id']}"
    brigade = BRIGADES.get(u["position"] or "")
    if brigade is not None:
        text += f" ({brigade})"
    elif u["kind"] in FOREIGN_KINDS and u.get("new_weapons"):  # not a Helicopter card's
        text += " (foreign)"
    if u["zone"] is None:
        return text + ", waiting to land"
    return f"{text} in {zone_name(u['zone'])}"


def coup_units(state: GameState) -> list[Unit]:
    """The coup's units; in the Locations phase, the units as they would deploy if a coup
    began (the Rebel-Only step strikes and moves them where they start)."""
    if state.coup is not None:
        return list(state.coup["units"])
    if state.phase == PhaseKind.LOCATIONS:
        return list(deploy(state)["units"])
    return []


def occupants(state: GameState, units: list[Unit], zone: int) -> str:
    """ "Bill: 5 Soldiers, 1 Tank; leaderless: 2 Police" """
    by_owner: dict[int | None, list[Unit]] = {}
    for u in units:
        if u["zone"] == zone:
            by_owner.setdefault(u["owner"], []).append(u)
    parts = [f"{'leaderless' if owner is None else state.name(owner)}: {count_units(us)}"
             for owner, us in sorted(by_owner.items(), key=lambda kv: -1 if kv[0] is None
                                     else kv[0])]
    return "; ".join(parts)


def zone_with_occupants(state: GameState, units: list[Unit], zone: int) -> str:
    who = occupants(state, units, zone)
    return f"{zone_name(zone)} ({who})" if who else zone_name(zone)


def zones_with_occupants(state: GameState, units: list[Unit], zones: list[int]
                         ) -> list[tuple[int, str]]:
    """(zone, "Cathedral (Bill: 5 Soldiers, 1 Tank)") for each zone, the units sorted once."""
    here: dict[int, list[Unit]] = {}
    for u in units:
        if u["zone"] is not None:
            here.setdefault(u["zone"], []).append(u)
    return [(z, zone_with_occupants(state, here[z], z) if z in here else zone_name(z))
            for z in zones]


def moves_reason(state: GameState, seat: int) -> str:
    """ "2 stacks (Minister of War)" from units.stack_moves and the player's positions."""
    n = stack_moves(state, seat)
    why = [catalog.TITLES[p] for p in state.positions_of(seat) if p != catalog.PRESIDENT]
    if seat == state.president:
        why.insert(0, "El Presidente" + (" with your Brother-in-Law in office" if any(
            state.positions.get(p) == BIL for p in catalog.CABINET) else ""))
    text = f"{n} stack{'s' if n != 1 else ''}"
    return f"{text} ({', '.join(why)})" if why else text
