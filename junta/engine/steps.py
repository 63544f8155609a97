"""The adjudication order: one table, read by the resolver and by condition validation.

From the rules' "official order in which all moves are adjudicated", as docs/rules.md
§adjudication-order gives it (any-time actions first, in the Locations phase after locations,
§any-time; the assassination step simultaneous, §assassinations). Each phase kind lists its
steps in the order they resolve. A conditional order may only depend on a step that comes before
the step of its action (§conditions). With it, the sets of phases the order kinds and the
conditions name (`ANY_PHASE`, `VOTING_PHASES`, `COUP_PHASES`, `REBEL_OR_COUP`).
"""

from __future__ import annotations

from .enums import PhaseKind, Step

COUP_STEPS = (Step.ANY_TIME, Step.INCOMING_FIRE, Step.BRIBES, Step.TRANSFERS, Step.MOVEMENT,
              Step.HANDOVERS, Step.COMBAT)

# Keyed by PhaseKind (Step below), typed by str: a StrEnum member is its string, and callers
# look phases up by the plain strings of the database and the JSON state as well.
ADJUDICATION_ORDER: dict[str, tuple[Step, ...]] = {
    PhaseKind.NOMINATION: (Step.ANY_TIME, Step.NOMINATIONS),
    PhaseKind.ELECTION: (Step.ANY_TIME, Step.VOTE_COUNT, Step.REVOTE_CARDS),
    PhaseKind.SPECIAL_MOTION: (Step.ANY_TIME, Step.VOTE_COUNT, Step.REVOTE_CARDS),
    PhaseKind.CABINET: (Step.ANY_TIME, Step.APPOINTMENT),
    PhaseKind.BUDGET_DRAW: (Step.ANY_TIME, Step.DRAWS),
    PhaseKind.BUDGET_PROPOSAL: (Step.ANY_TIME, Step.PROPOSAL),
    PhaseKind.BUDGET_VOTE: (Step.ANY_TIME, Step.VOTE_COUNT, Step.REVOTE_CARDS),
    PhaseKind.INTERNAL_SECURITY: (Step.ANY_TIME, Step.SEIZE_DECISION),
    PhaseKind.LOCATIONS: (
        Step.LOCATIONS, Step.ANY_TIME, Step.ASSASSINATIONS, Step.BANKING, Step.COUP_EXCUSE,
        Step.REBEL_ONLY,
    ),
    # "Coup Phases 1-5: Incoming Fire (Airstrikes, Gunboat shelling) is adjudicated; All troop
    # movement is adjudicated; All inter-troop combat is adjudicated." Bribes and transfers
    # come before the moves (a unit handed over unmoved brings its move along), hand-overs
    # ordered "after moving" after them (a moved unit brings none).
    PhaseKind.COUP: COUP_STEPS,
    # "Coup Phases 6: ... Votes for Pro-Rebel, Pro-President are tallied"
    PhaseKind.COUP_FINAL: (*COUP_STEPS, Step.COUP_VOTE),
    # "Coup Aftermath: If Rebels win, Votes for new President are tallied; Presidential
    # Post-coup execution"; after a forced budget, banking "after the Presidential execution".
    PhaseKind.AFTERMATH: (Step.ANY_TIME, Step.JUNTA_VOTE, Step.EXECUTION, Step.BANKING),
}

# The sets of phases the order kinds and the conditions are given in.
ANY_PHASE = frozenset(PhaseKind(p) for p in ADJUDICATION_ORDER)
VOTING_PHASES = frozenset({PhaseKind.ELECTION, PhaseKind.SPECIAL_MOTION, PhaseKind.BUDGET_VOTE})
COUP_PHASES = frozenset({PhaseKind.COUP, PhaseKind.COUP_FINAL})
REBEL_OR_COUP = frozenset({PhaseKind.LOCATIONS}) | COUP_PHASES  # the Rebel-Only step, then the coup

# The phases whose orders a phase may give again, "the same orders as last time"
# (docs/rules.md §repeat-orders): the phase kinds that come back (the turn's five phases each
# turn, the votes, a coup's phases), each the earlier phases of its kind; a Coup Phase the
# coup's phases before it (moves, strikes and attacks go on from one to the next). The
# nominations, held once before the first turn, repeat nothing.
REPEATS: dict[str, frozenset[PhaseKind]] = {
    **{kind: frozenset({PhaseKind(kind)}) for kind in ADJUDICATION_ORDER
       if kind != PhaseKind.NOMINATION},
    PhaseKind.COUP: COUP_PHASES,
    PhaseKind.COUP_FINAL: COUP_PHASES,
}

PHASE_TITLES: dict[str, str] = {
    PhaseKind.NOMINATION: "Nominations",
    PhaseKind.ELECTION: "Presidential Election",
    PhaseKind.SPECIAL_MOTION: "Motion on the President's Competence",
    PhaseKind.CABINET: "Cabinet Appointment",
    PhaseKind.BUDGET_DRAW: "Draw Budget / New Weapons",
    PhaseKind.BUDGET_PROPOSAL: "Budget Proposal",
    PhaseKind.BUDGET_VOTE: "Budget Vote",
    PhaseKind.INTERNAL_SECURITY: "The Minister's Decision",
    PhaseKind.LOCATIONS: "Locations, Assassinations, Banking and Rebel-Only Moves",
    PhaseKind.COUP: "Coup Phase",
    PhaseKind.COUP_FINAL: "Coup Phase 6",
    PhaseKind.AFTERMATH: "Coup Aftermath",
    PhaseKind.FINISHED: "The Game Is Over",
}

STEP_TITLES: dict[str, str] = {
    Step.ANY_TIME: "any-time actions (payments, gifts, trades, card plays)",
    Step.NOMINATIONS: "nominations",
    Step.VOTE_COUNT: "the vote count",
    Step.REVOTE_CARDS: "cards that annul a vote",
    Step.APPOINTMENT: "the Cabinet appointment",
    Step.DRAWS: "New Weapons and the budget draws",
    Step.PROPOSAL: "the budget proposal",
    Step.SEIZE_DECISION: "the Minister's decision",
    Step.LOCATIONS: "locations and exile",
    Step.ASSASSINATIONS: "assassinations",
    Step.BANKING: "banking",
    Step.COUP_EXCUSE: "the Coup Excuse",
    Step.REBEL_ONLY: "Rebel-Only moves",
    Step.INCOMING_FIRE: "incoming fire (airstrikes, gunboat shelling)",
    Step.BRIBES: "bribes of units",
    Step.TRANSFERS: "transfers of units before moving",
    Step.MOVEMENT: "troop movement",
    Step.HANDOVERS: "transfers of units after moving",
    Step.COMBAT: "combat",
    Step.COUP_VOTE: "the Pro-Junta / Pro-President vote and control of the city",
    Step.JUNTA_VOTE: "the Junta's election of a President",
    Step.EXECUTION: "the post-coup execution",
}


def phase_words(phase: str) -> str:
    """"the Budget Vote phase", "the Coup Phase": a phase named in a sentence."""
    title = PHASE_TITLES.get(phase, phase).removeprefix("The ")
    return f"the {title}" if "Phase" in title or "Aftermath" in title else f"the {title} phase"


def steps(phase: str) -> tuple[Step, ...]:
    return ADJUDICATION_ORDER.get(phase, ())


def index(phase: str, step: str) -> int:
    """Position of a step in its phase; -1 when the phase has no such step."""
    order = steps(phase)
    return order.index(step) if step in order else -1


def describe(phase: str, step: str) -> str:
    return f"{STEP_TITLES.get(step, step)} (step {index(phase, step) + 1} of the " \
           f"{PHASE_TITLES.get(phase, phase)} phase)"
