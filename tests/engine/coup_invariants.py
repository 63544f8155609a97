"""Invariants of the coup, checked after every phase of the random campaigns
(test_campaigns.py): "Units destroyed in a coup are back at their starting zones for the next
coup. Units created by cards and Foreign Intervention forces leave the map when the coup ends"
(SUPPLEMENT); control follows "Any territory shared by players supporting both Pro-Junta and
Pro-President defaults to Pro-President control, as do any unoccupied territories"; and
"Following the resolution of the Coup Aftermath phase, the game returns to the beginning of a
new Turn."
"""

from __future__ import annotations

from collections import Counter

from junta.engine import GameState
from junta.engine import catalog as cat
from junta.engine.units import CONTROL_POINTS

# Units each position brings to a coup (SUPPLEMENT "Units").
POSITION_UNITS = {
    cat.PRESIDENT: 4, cat.INTERNAL_SECURITY: 4, cat.GENERAL_1: 6, cat.GENERAL_2: 6,
    cat.GENERAL_3: 6, cat.ADMIRAL: 1, cat.AIR_FORCE: 1, cat.WAR: 1, cat.FARM_LABOR: 1,
}
SEEN: Counter = Counter()  # what the campaigns went through: coups, results, battles


def control(state: GameState) -> dict[str, str]:
    coup = state.coup
    out = {}
    for zone in CONTROL_POINTS:
        owners = {u["owner"] for u in coup["units"] if u["zone"] == zone}
        junta = bool(owners) and all(o is not None and coup["votes"].get(str(o)) == "junta"
                                     for o in owners)
        out[str(zone)] = "junta" if junta else "president"
    return out


def coup_errors(before: GameState, after: GameState) -> list[str]:
    errors = []
    coup = after.coup
    if coup is not None:
        SEEN["coup phases"] += 1
        ids = [u["id"] for u in coup["units"]]
        if len(ids) != len(set(ids)):
            errors.append("a unit is on the map twice")
        if any(i >= coup["next_unit"] for i in ids):
            errors.append("a unit id beyond the counter")
        per_position = Counter(u["position"] for u in coup["units"] if u["position"])
        for pos, n in per_position.items():
            if n > POSITION_UNITS[pos]:
                errors.append(f"{pos} has {n} units, more than it brings")
        for u in coup["units"]:
            if u["zone"] is not None and u["zone"] not in cat.zones():
                errors.append(f"unit {u['id']} in no zone of the city")
            if u["owner"] is not None and not after.players[u["owner"]].active:
                errors.append(f"unit {u['id']} commanded by a player not in the country")
        if before.coup is not None:
            old = {u["id"] for u in before.coup["units"]}
            back = [i for i in ids if i not in old and i < before.coup["next_unit"]]
            if back:
                errors.append(f"destroyed units came back during the coup: {back}")
    if before.phase == "locations" and coup is not None:
        SEEN["coups"] += 1
        if after.phase not in ("coup", "election") or coup["phase"] != 1:
            errors.append("a coup did not open with Coup Phase 1 (or an election first)")
    if before.phase == "coup_final":
        SEEN[f"won by {coup['result']}"] += 1
        if coup["control"] != control(after):
            errors.append("control of the city does not follow the rule")
        wins = sum(1 for v in coup["control"].values() if v == "junta")
        if (coup["result"] == "junta") != (wins >= 3):
            errors.append("the coup's result does not follow 3 of 5 control points")
        if after.phase != "aftermath":
            errors.append("Coup Phase 6 is not followed by the Aftermath")
    if before.phase == "aftermath":
        if coup is not None:
            errors.append("units stay on the map after the coup")
        if not (after.finished or after.phase == "election" or
                after.phase == "cabinet" and after.turn == before.turn + 1):
            errors.append(f"the Aftermath is followed by {after.phase}, not a new turn")
    return errors
