"""The engine's fixed vocabularies: the kinds of phase, the adjudication steps, a player's status.

They are `StrEnum`s: each member IS its string, so saved states (JSON), digests, database rows
and templates read them unchanged, while the code names them instead of comparing literals.
`steps.ADJUDICATION_ORDER` and `steps.PHASE_TITLES` are keyed by them; `tests/engine/
test_enums.py` keeps string literals of these values out of the code.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["PhaseKind", "Status", "Step"]


class PhaseKind(StrEnum):
    """A kind of phase (`GameState.phase`, the web app's `Phase.kind`)."""
    NOMINATION = "nomination"
    ELECTION = "election"
    SPECIAL_MOTION = "special_motion"
    CABINET = "cabinet"
    BUDGET_DRAW = "budget_draw"
    BUDGET_PROPOSAL = "budget_proposal"
    BUDGET_VOTE = "budget_vote"
    INTERNAL_SECURITY = "internal_security"
    LOCATIONS = "locations"
    COUP = "coup"
    COUP_FINAL = "coup_final"
    AFTERMATH = "aftermath"
    FINISHED = "finished"  # the game is over: no more phases


class Step(StrEnum):
    """A step of a phase's adjudication (`steps.ADJUDICATION_ORDER`)."""
    ANY_TIME = "any_time"
    NOMINATIONS = "nominations"
    VOTE_COUNT = "vote_count"
    REVOTE_CARDS = "revote_cards"
    APPOINTMENT = "appointment"
    DRAWS = "draws"
    PROPOSAL = "proposal"
    SEIZE_DECISION = "seize_decision"
    LOCATIONS = "locations"
    ASSASSINATIONS = "assassinations"
    BANKING = "banking"
    COUP_EXCUSE = "coup_excuse"
    REBEL_ONLY = "rebel_only"
    INCOMING_FIRE = "incoming_fire"
    BRIBES = "bribes"
    TRANSFERS = "transfers"
    MOVEMENT = "movement"
    HANDOVERS = "handovers"
    COMBAT = "combat"
    COUP_VOTE = "coup_vote"
    JUNTA_VOTE = "junta_vote"
    EXECUTION = "execution"


class Status(StrEnum):
    """A player's status (`Player.status`)."""
    ALIVE = "alive"
    DEAD = "dead"
    EXILED = "exiled"  # out of the country: may not act until he returns
