"""The adjudication order: one table, read by the resolver and by condition validation.

From the rules' "official order in which all moves are adjudicated", refined by SUPPLEMENT.md
(any-time actions first, in the Locations phase after locations; the assassination step
simultaneous). Each phase kind lists its steps in the order they resolve. A conditional order
may only depend on a step that comes before the step of its action.
"""

from __future__ import annotations

ADJUDICATION_ORDER: dict[str, tuple[str, ...]] = {
    "nomination": ("any_time", "nominations"),
    "election": ("any_time", "vote_count", "revote_cards"),
    "special_motion": ("any_time", "vote_count", "revote_cards"),
    "cabinet": ("any_time", "appointment"),
    "budget_draw": ("any_time", "draws"),
    "budget_proposal": ("any_time", "proposal"),
    "budget_vote": ("any_time", "vote_count", "revote_cards"),
    "internal_security": ("any_time", "seize_decision"),
    "locations": (
        "locations", "any_time", "assassinations", "banking", "coup_excuse", "rebel_only",
    ),
}

PHASE_TITLES: dict[str, str] = {
    "nomination": "Nominations",
    "election": "Presidential Election",
    "special_motion": "Motion on the President's Competence",
    "cabinet": "Cabinet Appointment",
    "budget_draw": "Draw Budget / New Weapons",
    "budget_proposal": "Budget Proposal",
    "budget_vote": "Budget Vote",
    "internal_security": "The Minister's Decision",
    "locations": "Locations, Assassinations, Banking and Rebel-Only Moves",
    "finished": "The Game Is Over",
}

STEP_TITLES: dict[str, str] = {
    "any_time": "any-time actions (payments, gifts, trades, card plays)",
    "nominations": "nominations",
    "vote_count": "the vote count",
    "revote_cards": "cards that annul a vote",
    "appointment": "the Cabinet appointment",
    "draws": "New Weapons and the budget draws",
    "proposal": "the budget proposal",
    "seize_decision": "the Minister's decision",
    "locations": "locations and exile",
    "assassinations": "assassinations",
    "banking": "banking",
    "coup_excuse": "the Coup Excuse",
    "rebel_only": "Rebel-Only moves",
}


def steps(phase: str) -> tuple[str, ...]:
    return ADJUDICATION_ORDER.get(phase, ())


def index(phase: str, step: str) -> int:
    """Position of a step in its phase; -1 when the phase has no such step."""
    order = steps(phase)
    return order.index(step) if step in order else -1


def describe(phase: str, step: str) -> str:
    return f"{STEP_TITLES.get(step, step)} (step {index(phase, step) + 1} of the " \
           f"{PHASE_TITLES.get(phase, phase)} phase)"
