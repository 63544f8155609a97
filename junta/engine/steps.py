"""The adjudication order: one table, read by the resolver and by condition validation.

From the rules' "official order in which all moves are adjudicated", refined by SUPPLEMENT.md
(any-time actions first, in the Locations phase after locations; the assassination step
simultaneous). Each phase kind lists its steps in the order they resolve. A conditional order
may only depend on a step that comes before the step of its action.
"""

from __future__ import annotations

COUP_STEPS = ("any_time", "incoming_fire", "bribes", "transfers", "movement", "handovers",
              "combat")

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
    # "Coup Phases 1-5: Incoming Fire (Airstrikes, Gunboat shelling) is adjudicated; All troop
    # movement is adjudicated; All inter-troop combat is adjudicated." Bribes and transfers
    # come before the moves (a unit handed over unmoved brings its move along), hand-overs
    # ordered "after moving" after them (a moved unit brings none).
    "coup": COUP_STEPS,
    # "Coup Phases 6: ... Votes for Pro-Rebel, Pro-President are tallied"
    "coup_final": (*COUP_STEPS, "coup_vote"),
    # "Coup Aftermath: If Rebels win, Votes for new President are tallied; Presidential
    # Post-coup execution"; after a forced budget, banking "after the Presidential execution".
    "aftermath": ("any_time", "junta_vote", "execution", "banking"),
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
    "coup": "Coup Phase",
    "coup_final": "Coup Phase 6",
    "aftermath": "Coup Aftermath",
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
    "incoming_fire": "incoming fire (airstrikes, gunboat shelling)",
    "bribes": "bribes of units",
    "transfers": "transfers of units before moving",
    "movement": "troop movement",
    "handovers": "transfers of units after moving",
    "combat": "combat",
    "coup_vote": "the Pro-Junta / Pro-President vote and control of the city",
    "junta_vote": "the Junta's election of a President",
    "execution": "the post-coup execution",
}


def phase_words(phase: str) -> str:
    """"the Budget Vote phase", "the Coup Phase": a phase named in a sentence."""
    title = PHASE_TITLES.get(phase, phase).removeprefix("The ")
    return f"the {title}" if "Phase" in title or "Aftermath" in title else f"the {title} phase"


def steps(phase: str) -> tuple[str, ...]:
    return ADJUDICATION_ORDER.get(phase, ())


def index(phase: str, step: str) -> int:
    """Position of a step in its phase; -1 when the phase has no such step."""
    order = steps(phase)
    return order.index(step) if step in order else -1


def describe(phase: str, step: str) -> str:
    return f"{STEP_TITLES.get(step, step)} (step {index(phase, step) + 1} of the " \
           f"{PHASE_TITLES.get(phase, phase)} phase)"
