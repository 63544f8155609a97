"""The orders given before turn 1: nominating a candidate for the first Presidency, seconding
a nomination and declining one's own (docs/rules.md §first-election); phases/election.py counts
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import PhaseKind, Step
from ..problems import Problem
from ..state import GameState
from .base import Arg, OrderKindSpec, T, seat_of

if TYPE_CHECKING:
    from ..orders import Order

NOMINATION_PHASES = frozenset({PhaseKind.NOMINATION})


class _Nomination(OrderKindSpec):
    step = Step.NOMINATIONS
    phases = NOMINATION_PHASES
    args = (Arg("candidate", "Candidate", T.SEAT),)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        candidate = seat_of(state, order.args.get("candidate"))
        if candidate is None or not state.players[candidate].active:
            return [Problem("Choose a living player in the country.", "candidate")]
        return []


class Nominate(_Nomination):
    name = "nominate"
    label = "Nominate a candidate"
    single = True
    template = "Nominate {candidate}"


class Second(_Nomination):
    name = "second"
    label = "Second a nomination"
    template = "Second {candidate}"


class Decline(OrderKindSpec):
    name = "decline"
    label = "Decline your nomination"
    step = Step.NOMINATIONS
    phases = NOMINATION_PHASES
    single = True
    template = "Decline my nomination"
