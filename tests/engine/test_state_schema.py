"""The schema of a stored state (`state.SCHEMA`) and the upgrade of older ones.

- "Every stored schema loads": stored_states.json keeps, for each schema a state was ever
  stored under, states of real campaigns (a coup with its units and casualty orders, a budget
  with its proposal, an election, a motion, the nominations, the Rebel-Only moves, the turn's
  flags, the options); each loads into a state of today's schema and plays on. A state of
  today's schema comes back from `to_dict` byte for byte as it was stored.
- `upgrade` runs, in order, one step of UPGRADES from the stored schema up to today's; every
  older schema has its step, and a state of a later schema than the engine's is refused.

A change to the shape of the state's JSON raises SCHEMA, adds its step to UPGRADES, and keeps
the states of the older schema here (record those of the new one with
`.venv/bin/python -m tests.engine.test_state_schema`).
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest

from junta.engine import GameState, new_game, resolve
from junta.engine import state as state_module
from junta.engine.bots import play_phase
from junta.engine.rng import Rng
from junta.engine.rulings import UNIT_KINDS
from junta.engine.state import SCHEMA, UPGRADES, upgrade
from junta.engine.state_shapes import ForeignForce, UnitKind
from junta.engine.units import FOREIGN_FORCES

from .helpers import NAMES

STORED = Path(__file__).with_name("stored_states.json")


def stored() -> dict[str, list[dict[str, Any]]]:
    return json.loads(STORED.read_text())


def test_a_state_of_each_stored_schema_loads_and_plays_on():
    states = stored()
    assert sorted(int(schema) for schema in states) == list(range(1, SCHEMA + 1))
    for schema, items in states.items():
        assert items
        for data in items:
            assert data["schema"] == int(schema)
            state = GameState.from_dict(data)
            assert state.schema == SCHEMA
            if int(schema) == SCHEMA:  # today's: written again byte for byte
                assert json.dumps(state.to_dict()) == json.dumps(data)
            if not state.finished:
                resolve(state, play_phase(state, Rng(f"stored-{schema}")))


def test_the_stored_states_hold_every_shape_of_the_state():
    """The samples are worth keeping: between them they hold a coup (with a casualty order and
    a unit that retreated), a budget proposal, an election, a motion, nominations, Rebel-Only
    moves, turn flags and options."""
    today = stored()[str(SCHEMA)]
    coups = [d["coup"] for d in today if d["coup"]]
    assert any("casualties_last" in c for c in coups)
    assert any("retreated" in u for c in coups for u in c["units"])
    assert any(d["budget"].get("proposal") for d in today)
    assert any(d["election"] for d in today)
    assert any(d["motion"] for d in today)
    assert any(d["nominations"] for d in today)
    assert any(d["rebel_orders"] for d in today)
    assert any(d["turn_flags"] for d in today)
    assert any(d["options"] for d in today)


def test_the_literals_of_the_shapes_name_the_words_the_engine_writes():
    """The unit kinds are those the rules put on the map (`rulings.UNIT_KINDS`: the positions',
    the cards', the foreign forces'), the foreign forces the keys of `units.FOREIGN_FORCES`."""
    assert sorted(typing.get_args(UnitKind)) == sorted(UNIT_KINDS)
    assert sorted(typing.get_args(ForeignForce)) == sorted(FOREIGN_FORCES)


def test_every_older_schema_has_its_upgrade_step():
    assert sorted(UPGRADES) == list(range(1, SCHEMA))


def test_a_state_of_a_later_schema_is_refused():
    data = new_game("later", NAMES[:6]).to_dict()
    data["schema"] = SCHEMA + 1
    with pytest.raises(ValueError, match="schema"):
        GameState.from_dict(data)


def test_upgrade_runs_each_step_from_the_stored_schema_up(monkeypatch):
    """With a made-up schema 3 and its two steps, a schema-1 state goes through both, in order,
    a schema-2 state through the second only."""
    ran: list[int] = []

    def step(n: int):
        def apply(data: dict[str, Any]) -> None:
            ran.append(n)
            data[f"step_{n}"] = data.get("schema")  # the schema the step found
        return apply

    monkeypatch.setattr(state_module, "SCHEMA", 3)
    monkeypatch.setitem(UPGRADES, 1, step(1))
    monkeypatch.setitem(UPGRADES, 2, step(2))
    first = upgrade({"schema": 1})
    assert ran == [1, 2] and first == {"schema": 3, "step_1": 1, "step_2": 2}
    ran.clear()
    assert upgrade({"schema": 2}) == {"schema": 3, "step_2": 2} and ran == [2]
    ran.clear()
    assert upgrade({}) == {"schema": 3, "step_1": None, "step_2": 2}  # none named: the first


# --- recording the samples of today's schema ------------------------------------------------

def _samples() -> list[dict[str, Any]]:
    """States of bot campaigns, the first one to show each shape `test_the_stored_states_...`
    asks for."""
    wanted = {
        "casualties": lambda d: d["coup"] and "casualties_last" in d["coup"],
        "retreat": lambda d: d["coup"] and any("retreated" in u for u in d["coup"]["units"]),
        "proposal": lambda d: d["budget"].get("proposal"),
        "election": lambda d: d["election"] and d["election"]["round"] > 1,
        "motion": lambda d: d["motion"],
        "nominations": lambda d: d["nominations"] and d["election"],
        "rebels": lambda d: d["rebel_orders"] and d["coup"],
        "flags": lambda d: len(d["turn_flags"]) > 1,
        "options": lambda d: d["options"] and d["finished"],
    }
    found: dict[str, dict[str, Any]] = {}
    for i in range(40):
        state = new_game(f"stored-{i}", NAMES[:6 + i % 5],
                         {"extra_bills_min": 2, "extra_bills_max": 9} if i % 2 else None)
        rng = Rng(f"stored-bots-{i}")
        while True:
            data = state.to_dict()
            for name, shows in wanted.items():
                if name not in found and shows(data):
                    found[name] = data
            if state.finished or len(found) == len(wanted):
                break
            state = resolve(state, play_phase(state, rng)).state
        if len(found) == len(wanted):
            break
    missing = sorted(set(wanted) - set(found))
    assert not missing, f"no campaign showed {missing}"
    unique = {json.dumps(d): d for d in found.values()}
    return list(unique.values())


if __name__ == "__main__":
    record = stored() if STORED.exists() else {}
    record[str(SCHEMA)] = _samples()
    STORED.write_text("{\n" + ",\n".join(  # a state a line
        f"{json.dumps(schema)}: [\n" + ",\n".join(json.dumps(d) for d in items) + "\n]"
        for schema, items in sorted(record.items(), key=lambda kv: int(kv[0]))) + "\n}\n")
