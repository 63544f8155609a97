"""Perft-style counts of the options generator: in fixed positions, how many options of each
kind every seat together is offered and how many values each argument offers, pinned below, so
that any change to what the engine offers (`legal_options`, each kind's `offers`) shows here
as a changed count (tests/engine/option_counts.json), to be checked against the rules and
pinned again (`.venv/bin/python -m tests.engine.test_option_counts`).

The positions are the hand-made states of tests/engine/option_states.py (a standard Cabinet,
cards given for every kind of play) and the first state of each phase kind in the seeded bot
campaigns of tests/engine/bot_samples.py (the coups among them). What the counts reflect:

- docs/rules.md §orders: "the page only offers what the rules allow you at this moment, with
  the players, cards, zones and amounts you may choose from": a kind's count is the seats (and
  forms: a card with a form of its own, a bank deposit and a withdrawal) it is offered to now,
  an argument's the choices summed over them.
- §order-sets ("Orders that together take more from your pocket than it holds ... are
  refused"): each order is offered as the pocket allows alone, `pay.amount` counting 1 to the
  pocket; the set's sum is checked when the orders are given, not offered.
- §any-time: payments, gifts, trades, card plays and discards in every phase, to every other
  active player; §hand-limit: no card given to a player at the limit.
- §first-election, §votes / §vote-cards, §appointment, §new-weapons / §draws,
  §budget-proposal, §seize: the phase's own order, for the players who give it.
- §location / §exile / §assassinations / §banking / §rebel-only: in the Locations phase a
  location for everyone, assassins as their cards and the Secret Police allow, the Bank when
  it is open, Rebel-Only moves, strikes and landings for the commanders (not the President).
- §coup and its paragraphs (§movement, §placement, §transfers, §incoming-fire, §combat,
  §retreats, §foreign-intervention, §police-response, §embassies, §control): during a coup.
- §junta / §firing-squad / §after-lunch: in the Coup Aftermath.
- "notes" counts what a player might look for and cannot order now, each with why.

A value count: ONE, SOME and RANKING their choices (a choice narrowed by another argument,
`depends_on`, counted for each value of that argument: the routes of a move, the locations of
each assassin); NUMBER the whole numbers from its minimum to its maximum; TABLE its rows times
its choices (or times its numbers).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from junta.engine import GameState
from junta.engine.kinds import OFFER_STEPS, ORDER_KINDS
from junta.engine.options import ArgOption, Shape, legal_options

from .bot_samples import PHASE_KINDS, sample_states
from .option_states import STATES


def values(arg: ArgOption) -> int:
    """How many values an argument offers (see the module's docstring)."""
    if arg.shape is Shape.NUMBER:
        return (arg.maximum or 0) - (arg.minimum or 0) + 1
    if arg.shape is Shape.TABLE:
        per_row = len(arg.choices) or (arg.maximum or 0) - (arg.minimum or 0) + 1
        return len(arg.keys) * per_row
    if arg.depends_on is not None:
        return sum(len(v) for v in arg.choices_for.values())
    return len(arg.choices)


def counts(state: GameState) -> dict[str, int]:
    """For every seat together: the options of each kind ("pay"), the values of each of their
    arguments ("pay.amount") and the notes."""
    out: Counter[str] = Counter()
    for seat in range(len(state.players)):
        options = legal_options(state, seat)
        out["notes"] += len(options.notes)
        for option in options.orders:
            out[option.kind] += 1
            for arg in option.args:
                out[f"{option.kind}.{arg.name}"] += values(arg)
    return dict(sorted(out.items()))


NAMES = [f"made.{name}" for name in STATES] + [f"sample.{kind}" for kind in PHASE_KINDS]


def position(name: str) -> GameState:
    source, kind = name.split(".")
    if source == "made":
        return STATES[kind]()
    return GameState.from_dict(sample_states()[kind][0])


PINS = Path(__file__).with_name("option_counts.json")
RECORD = ".venv/bin/python -m tests.engine.test_option_counts"


def pinned() -> dict[str, dict[str, int]]:
    data: dict[str, dict[str, int]] = json.loads(PINS.read_text(encoding="utf-8"))
    return data


def record() -> None:
    """Pin the counts of today's engine (option_counts.json: a line a position)."""
    lines = [f"{json.dumps(name)}: {json.dumps(counts(position(name)))}" for name in NAMES]
    PINS.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_option_counts(name: str) -> None:
    assert counts(position(name)) == pinned().get(name), (
        f"{name}: the options offered changed; check the new counts against the rules "
        f"(docs/rules.md) and pin them again: {RECORD}")


def test_only_these_positions_are_pinned() -> None:
    assert sorted(pinned()) == sorted(NAMES)


def test_every_kind_is_asked_for_its_offers() -> None:
    """A kind missing from the fixed order of the offers would never be offered."""
    asked = {kind for kind, _ in OFFER_STEPS}
    assert asked == set(ORDER_KINDS)


if __name__ == "__main__":
    record()
