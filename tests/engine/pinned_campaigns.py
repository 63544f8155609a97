"""Campaigns pinned to the engine's version (tests/engine/test_engine_version.py).

pinned_campaigns.json holds a few whole campaigns played by the bots: each one's starting state,
every phase's orders as the web app stores them (`PhaseResult.orders_used`) and the digest of
the state the engine made of them, under the ENGINE_VERSION that made them. Resolved again, they
must give the same digests while the version stays: a change of outcome means a stored phase
would no longer replay, which is what raising ENGINE_VERSION (and writing its changelog) is for.

Record them again, after raising the version, with
    .venv/bin/python -m tests.engine.pinned_campaigns
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from junta.engine import ENGINE_VERSION, GameState, digest, new_game, parse_orders, resolve
from junta.engine.bots import play_phase
from junta.engine.rng import Rng

from .helpers import NAMES

PINS = Path(__file__).with_name("pinned_campaigns.json")
# (name, players, the bots' seed): small and large tables, coups won by either side
CAMPAIGNS = [("pinned-6", 6, "pinned-bots-6"), ("pinned-10", 10, "pinned-bots-10")]
RECORD = ".venv/bin/python -m tests.engine.pinned_campaigns"


def record() -> dict[str, Any]:
    """The pinned campaigns played again by the bots with today's engine."""
    campaigns = []
    for name, players, bots in CAMPAIGNS:
        state = new_game(name, NAMES[:players])
        start = state.to_dict()
        rng = Rng(bots)
        phases = []
        while not state.finished:
            orders = play_phase(state, rng)
            state = resolve(state, orders).state
            phases.append({"orders": {str(seat): [o.to_dict() for o in items]
                                      for seat, items in orders.items()},
                           "digest": digest(state)})
        campaigns.append({"name": name, "start": start, "phases": phases})
    return {"engine_version": ENGINE_VERSION, "campaigns": campaigns}


def replayed(campaign: dict[str, Any]) -> Iterator[tuple[int, str, str, str]]:
    """Each pinned phase resolved again from the state the one before it ended in: (its number
    in the campaign, its kind, the pinned digest, the digest today's engine gives)."""
    state = GameState.from_dict(campaign["start"])
    for number, phase in enumerate(campaign["phases"], start=1):
        kind = str(state.phase)
        orders = {int(seat): parse_orders(items) for seat, items in phase["orders"].items()}
        state = resolve(state, orders).state
        yield number, kind, phase["digest"], digest(state)


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PINS.read_text(encoding="utf-8"))
    return data


def write(data: dict[str, Any]) -> None:
    """One line per phase, so that a new recording reads as a diff of the phases it changed."""
    lines = ['{"engine_version": ' + json.dumps(data["engine_version"]) + ', "campaigns": [']
    for i, campaign in enumerate(data["campaigns"]):
        lines.append(f'{{"name": {json.dumps(campaign["name"])}, "start": '
                     f'{json.dumps(campaign["start"], sort_keys=True)}, "phases": [')
        phases = campaign["phases"]
        lines += [json.dumps(phase, sort_keys=True) + ("," if j < len(phases) - 1 else "")
                  for j, phase in enumerate(phases)]
        lines.append("]}" + ("," if i < len(data["campaigns"]) - 1 else ""))
    lines.append("]}")
    PINS.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(record())
    print(f"Recorded {len(CAMPAIGNS)} campaigns under engine {ENGINE_VERSION} in {PINS}.")
