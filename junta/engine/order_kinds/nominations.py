"""The orders given before turn 1: nominating a candidate for the first Presidency, seconding
a nomination and declining one's own (docs/rules.md §first-election); phases/election.py counts
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypedDict

from ..enums import PhaseKind, Step
from ..order import As, NoArgs, Order
from ..problems import Problem
from ..state import GameState
from ..words import gettext_noop
from .base import OrderKindSpec, T, seat_of
from .offering import one

if TYPE_CHECKING:
    from .offering import Builder

NOMINATION_PHASES = frozenset({PhaseKind.NOMINATION})


class CandidateArgs(TypedDict):
    candidate: Annotated[int, As("Candidate", T.SEAT)]


class _Nomination(OrderKindSpec[CandidateArgs]):
    step = Step.NOMINATIONS
    phases = NOMINATION_PHASES

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        candidate = seat_of(state, self.of(order).get("candidate"))
        if candidate is None or not state.players[candidate].active:
            return [Problem(gettext_noop("Choose a living player in the country."), "candidate")]
        return []


class Nominate(_Nomination):
    """"any player may nominate any player for the Presidency"
    (docs/rules.md §first-election)."""
    name = "nominate"
    label = "Nominate a candidate"
    rules = ("first-election", "ruling-first-candidates")
    single = True
    template = "Nominate {candidate}"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase == PhaseKind.NOMINATION:
            b.add("nominate", "Nominate a player for the Presidency.",
                  [one("candidate", "Candidate", b.players(include_self=True))])


class Second(_Nomination):
    """Any player may "second a nomination" (docs/rules.md §first-election;
    docs/rulings.md §ruling-first-candidates)."""
    name = "second"
    label = "Second a nomination"
    rules = ("first-election", "ruling-first-candidates")
    template = "Second {candidate}"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase == PhaseKind.NOMINATION:
            b.add("second", "Second or support a nomination.",
                  [one("candidate", "Candidate", b.players(include_self=True))])


class Decline(OrderKindSpec[NoArgs]):
    """A nominee may "decline his own" nomination (docs/rules.md §first-election)."""
    name = "decline"
    label = "Decline your nomination"
    rules = ("first-election", "ruling-first-candidates")
    step = Step.NOMINATIONS
    phases = NOMINATION_PHASES
    single = True
    template = "Decline my nomination"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase == PhaseKind.NOMINATION:
            b.add("decline", "Decline any nomination of you.")
