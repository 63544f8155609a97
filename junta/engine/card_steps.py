"""The cards' own steps and timings: which cards annul a vote, which put units on the map or
bribe them, the timings (`Card.when`) that fit each kind of phase, and the adjudication step
a card acts at (docs/rules.md §adjudication-order, §revote-cards; docs/rulings.md
§ruling-unit-cards). Data and one function, below the order kinds that read them.
"""

from __future__ import annotations

from . import catalog
from .enums import PhaseKind, Step

REVOTE_CARDS = frozenset({"Power Failure", "Summer Recess", "Recount", "Alternative Budget"})
UNIT_CARDS = frozenset({
    "General Strike", "Dock Strike", "Slum Riots", "Demonstrators", "Student Protest",
    "Peasant Strike", "Peasant Uprising", "Christian Militia Formed", "Helicopter",
    "Provincial Pretender", "Radical Terrorists", "Mercenaries", "Bribe the Police",
    "Bribe the 1st Army Brigade", "Bribe the 2nd Army Brigade", "Bribe the 3rd Army Brigade",
    "Bribe the Agitators", "Bribe the Palace Guard",
})
# The card timings (`Card.when`) that fit each kind of phase.
PHASE_TIMINGS: dict[PhaseKind, frozenset[str]] = {
    PhaseKind.NOMINATION: frozenset(),
    PhaseKind.ELECTION: frozenset({"election"}),
    PhaseKind.SPECIAL_MOTION: frozenset({"special_motion"}),
    PhaseKind.CABINET: frozenset({"cabinet"}),
    PhaseKind.BUDGET_DRAW: frozenset({"budget_draw"}),
    PhaseKind.BUDGET_PROPOSAL: frozenset({"budget_proposal"}),
    PhaseKind.BUDGET_VOTE: frozenset({"budget_vote"}),
    PhaseKind.INTERNAL_SECURITY: frozenset(),
    PhaseKind.LOCATIONS: frozenset({"location", "assassination", "banking", "rebel_only"}),
    PhaseKind.COUP: frozenset({"coup", "coup_movement"}),
    PhaseKind.COUP_FINAL: frozenset({"coup", "coup_movement"}),
    PhaseKind.AFTERMATH: frozenset({"aftermath"}),
}
BRIBE_UNIT_CARDS = frozenset(n for n in UNIT_CARDS if n.startswith("Bribe the ")
                             and n != "Bribe the Assassin")


def card_step(card: catalog.Card, phase: str | None = None) -> Step:
    """The step a card acts at; unit and Bribe cards act at the Rebel-Only step in the
    Locations phase, and during a coup with the bribes or the movement."""
    if card.name in REVOTE_CARDS:
        return Step.REVOTE_CARDS
    if "assassination" in card.when:
        return Step.ASSASSINATIONS
    if card.name in UNIT_CARDS:
        if phase in (PhaseKind.COUP, PhaseKind.COUP_FINAL):
            return Step.BRIBES if card.name in BRIBE_UNIT_CARDS else Step.MOVEMENT
        return Step.REBEL_ONLY
    return Step.ANY_TIME
