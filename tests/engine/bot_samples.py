"""States from random bot campaigns at every phase kind (coups included), shared by the sweep
of the engine's options (tests/engine/test_options_property.py) and of the Orders page's forms
(tests/web/test_orders_property.py). Cached: the campaigns are played once a session."""

from __future__ import annotations

from functools import cache

from junta.engine import new_game, resolve
from junta.engine.bots import play_phase
from junta.engine.rng import Rng

PHASE_KINDS = ("nomination", "election", "cabinet", "budget_draw", "budget_proposal",
               "budget_vote", "internal_security", "locations", "coup", "coup_final",
               "aftermath")
SEEDS = [f"options-{i}" for i in range(6)]
PER_KIND = 3  # states kept for each phase kind


@cache
def sample_states() -> dict[str, list[dict]]:
    """Up to PER_KIND states of each phase kind from bot campaigns (the first of each kind,
    then later ones), as plain data."""
    found: dict[str, list[dict]] = {}
    for seed in SEEDS:
        state = new_game(seed, [f"Family {i}" for i in range(10)])
        rng = Rng(seed)
        for _ in range(150):
            if state.finished:
                break
            kept = found.setdefault(state.phase, [])
            if len(kept) < PER_KIND and (not kept or rng.below(4) == 0):
                kept.append(state.to_dict())
            state = resolve(state, play_phase(state, rng)).state
    return found
