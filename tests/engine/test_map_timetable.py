"""The city map (`junta/engine/data/map.json`, §zones) against the rules' coup timetable.

"The rules text's timetable must hold on the map: from each barracks two control points are 3
moves away and the other two and the Palace 4, so a brigade leaving in phase 3 reaches all, in
phase 4 the near two, in phase 5 none."

Distances here come from a breadth-first search written in this file over the zones'
adjacency lists as read straight from `junta/engine/data/map.json`; the engine's
`catalog.zones()` and `units.distance` are then checked against it.
"""

from __future__ import annotations

import json
from collections import deque
from itertools import pairwise
from pathlib import Path

import pytest

import junta.engine
from junta.engine import Order, new_game, units
from junta.engine import catalog as cat
from junta.engine.combat import NO_COMBAT
from junta.engine.kinds import ORDER_KINDS

from .helpers import NAMES, standard_cabinet

MAP = json.loads((Path(junta.engine.__file__).parent / "data" / "map.json").read_text())
RAW = {z["id"]: z for z in MAP["zones"]}
ADJ = {zid: set(z["adjacent"]) for zid, z in RAW.items()}
PALACE = 1
CONTROL_POINTS = {1, 2, 3, 4, 8}
BARRACKS = {15: cat.GENERAL_1, 16: cat.GENERAL_2, 17: cat.GENERAL_3}
COUP_PHASES = 6  # Coup Phases 1-5, then Coup Phase 6


def bfs(start: int) -> dict[int, int]:
    """Moves from `start` to every zone, one adjacent zone per move."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        z = queue.popleft()
        for n in sorted(ADJ[z]):
            if n not in dist:
                dist[n] = dist[z] + 1
                queue.append(n)
    return dist


def shortest_path(start: int, end: int) -> list[int]:
    dist = bfs(start)
    path = [end]
    while path[-1] != start:
        path.append(min(n for n in ADJ[path[-1]] if dist.get(n) == dist[path[-1]] - 1))
    return path[::-1]


def reachable_moves(leave_phase: int) -> int:
    """A stack that first moves in Coup Phase k also moves in every later phase up to 6: one
    zone a phase, 6 - k + 1 moves in all."""
    return COUP_PHASES - leave_phase + 1


def test_adjacency_is_symmetric_and_matches_the_catalog() -> None:
    """§movement: "every player moves one stack (any of his units in one zone) to an adjacent
    zone". Adjacency must go both ways (a stack can go back the way it came, and "a retreating
    stack goes to the zone it came from"), no zone is next to itself, and the engine's catalog
    holds exactly map.json's adjacency."""
    assert sorted(RAW) == list(range(1, 29))
    for zid, near in ADJ.items():
        assert zid not in near, RAW[zid]["name"]
        assert near <= set(RAW), RAW[zid]["name"]
        for n in near:
            assert zid in ADJ[n], f"{RAW[zid]['name']} -> {RAW[n]['name']} is one-way"
    zones = cat.zones()
    assert set(zones) == set(RAW)
    for zid, zone in zones.items():
        assert set(zone.adjacent) == ADJ[zid]
        assert len(zone.adjacent) == len(ADJ[zid])  # no duplicates
    assert all(len(bfs(z)) == len(RAW) for z in RAW)  # the city is connected


def test_five_control_points_and_two_embassies() -> None:
    """Rules: "if you don't have units in any of the Control Points (the 5 pink territories)
    you won't have a say in who wins the Coup"; "A player may also flee the country during a
    Coup, but only if he can move one of his active units into an Embassy" (the North
    American and the Soviet Embassy); §incoming-fire: "Embassies are no-combat zones.\""""
    points = {zid for zid, z in RAW.items() if z["control_point"]}
    assert points == CONTROL_POINTS
    assert len(points) == 5
    assert set(units.CONTROL_POINTS) == CONTROL_POINTS
    assert {z.id for z in cat.zones().values() if z.control_point} == CONTROL_POINTS
    assert RAW[PALACE]["kind"] == "palace" and units.PALACE == PALACE
    embassies = {zid for zid, z in RAW.items() if z["kind"] == "embassy"}
    assert len(embassies) == 2
    assert embassies == {zid for zid, z in RAW.items() if "embassy" in z["flags"]}
    assert set(units.EMBASSIES) == embassies
    assert set(NO_COMBAT) == embassies
    assert not embassies & CONTROL_POINTS


def test_river_zones_match_map_json() -> None:
    """Rules, Admiral: "The Marine may be deployed to any River-bordering zone of the
    Republic." Every zone's river flag in the engine is map.json's, and the Marine's landing
    zones are exactly the river zones."""
    for zid, zone in cat.zones().items():
        assert zone.river is RAW[zid]["river"], zone.name
    river = {zid for zid, z in RAW.items() if z["river"] is True}
    assert {zid for zid, z in RAW.items() if z["river"] is False} == set(RAW) - river
    assert set(units.RIVER_ZONES) == river
    assert river  # the Marine has somewhere to land


def test_barracks_distances_match_the_rules_timetable() -> None:
    """Rules, Day 8, Coup Phase 3: "This is the last day the Generals can leave their Barracks
    and still reach the farthest 2 pink Control Points or the Palace from their position
    before the Coup ends." Day 9, Coup Phase 4: "This is the last day the Generals can leave
    their Barracks and still reach the 2 closest pink Control Points." So from each barracks
    two control points are 3 moves away, and the other two and the Palace 4."""
    assert {zid for zid, z in RAW.items() if z["kind"] == "barracks"} == set(BARRACKS)
    assert {pos: zid for zid, pos in BARRACKS.items()} == units.BARRACKS
    for barracks in BARRACKS:
        dist = bfs(barracks)
        name = RAW[barracks]["name"]
        assert dist[PALACE] == 4, name
        others = sorted(dist[cp] for cp in CONTROL_POINTS - {PALACE})
        assert others == [3, 3, 4, 4], f"{name}: {others}"
        for cp in CONTROL_POINTS:
            assert units.distance(barracks, cp) == dist[cp], (name, cp)


def test_engine_distance_agrees_with_bfs_everywhere() -> None:
    """`units.distance` (used for the Helicopter's "up to 2 zones") counts moves the same way:
    for every pair of zones it gives the breadth-first distance."""
    for a in RAW:
        dist = bfs(a)
        for b in RAW:
            assert units.distance(a, b) == dist[b], (a, b)


def test_map_json_distance_table_matches_the_map() -> None:
    """map.json's own `barracks_to_control_point_distance` table (which "fit the rules' coup
    timetable") is what the adjacency gives."""
    table = MAP["barracks_to_control_point_distance"]
    by_name = {z["name"]: zid for zid, z in RAW.items()}
    assert {by_name[b] for b in table} == set(BARRACKS)
    for barracks_name, row in table.items():
        dist = bfs(by_name[barracks_name])
        assert {by_name[cp] for cp in row} == CONTROL_POINTS
        for cp_name, moves in row.items():
            assert dist[by_name[cp_name]] == moves, (barracks_name, cp_name)


@pytest.mark.parametrize(("leave_phase", "reached"), [
    (1, 5), (2, 5), (3, 5), (4, 2), (5, 0), (6, 0),
])
def test_a_brigade_leaving_in_phase_k_reaches_its_timetable(leave_phase: int,
                                                            reached: int) -> None:
    """Rules: Coup Phase 3 is "the last day the Generals can leave their Barracks and still
    reach the farthest 2 pink Control Points or the Palace"; Coup Phase 4 "the last day ...
    still reach the 2 closest pink Control Points"; Day 10, Coup Phase 5: "Any Army Brigade
    that is still in its Barracks when Coup Phase 5 starts can no longer reach any of the pink
    Control Points before the end of the Coup." One zone a phase per stack, six Coup Phases:
    leaving in phase k a brigade can be at any zone within 6 - k + 1 moves by the end."""
    moves = reachable_moves(leave_phase)
    for barracks in BARRACKS:
        dist = bfs(barracks)
        points = {cp for cp in CONTROL_POINTS if dist[cp] <= moves}
        assert len(points) == reached, (RAW[barracks]["name"], leave_phase, sorted(points))
        if leave_phase == 4:
            assert PALACE not in points
            assert all(dist[cp] == 3 for cp in points)
        if leave_phase == 3:
            # the last phase that still works: one phase later the far points are lost
            assert {cp for cp in CONTROL_POINTS
                    if dist[cp] > reachable_moves(leave_phase + 1)} == \
                {cp for cp in CONTROL_POINTS if dist[cp] == 4}


def test_the_engine_accepts_each_step_of_the_march_and_refuses_a_jump() -> None:
    """§movement: "every player moves one stack (any of his units in one zone) to an adjacent
    zone". The engine's move check accepts every step of a shortest march from each barracks
    to each control point, and refuses a move that skips a zone; so a brigade cannot beat the
    timetable."""
    state = new_game("march", NAMES)
    standard_cabinet(state)
    state.coup = units.deploy(state)
    for barracks, position in BARRACKS.items():
        seat = state.positions[position]
        for cp in CONTROL_POINTS:
            path = shortest_path(barracks, cp)
            assert len(path) - 1 == bfs(barracks)[cp]
            for a, b in pairwise(path):
                for u in state.coup["units"]:  # the brigade marches: it stands in a
                    if u["owner"] == seat:
                        u["zone"] = a
                order = Order("move", {"from_zone": a, "to_zone": b})
                assert ORDER_KINDS["move"].check(state, seat, order) == [], (a, b)
            jump = Order("move", {"from_zone": path[0], "to_zone": path[2]})
            assert ORDER_KINDS["move"].check(state, seat, jump), (path[0], path[2])
