"""The one vote of the Election, the Special Motion and the Budget Vote: a ballot, the vote
cards played with it and a split of its votes (docs/rules.md §votes); phases/votes.py counts
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..enums import Step
from ..labels import card_name
from ..problems import Problem
from ..state import GameState
from .base import VOTING_PHASES, Arg, OrderKindSpec, T

if TYPE_CHECKING:
    from ..orders import Order


class Vote(OrderKindSpec):
    """"Every player votes yes, no or abstain with all the votes he commands", or for a
    candidate in an election (docs/rules.md §votes, §vote-cards, §first-election)."""
    name = "vote"
    label = "Vote"
    rules = ("votes", "vote-cards", "first-election", "competence", "resignation",
             "ruling-deadlock")
    step = Step.VOTE_COUNT
    phases = VOTING_PHASES
    args = (Arg("choice", "Your vote", T.BALLOT), Arg("cards", "Vote cards to play", T.CARDS),
            Arg("split", "Split your votes", T.TABLE))
    single = True
    first_that_holds = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        # a narrow import: the ballot's rule lives with the count (voting.py)
        from ..voting import check_ballot
        return check_ballot(state, seat, order)

    def describe(self, state: GameState, args: Mapping[str, Any]) -> str:
        from ..voting import source_label  # narrow, as the check's

        choice = args.get("choice")
        text = f"Vote {state.name(choice) if isinstance(choice, int) else choice}"
        if args.get("cards"):
            text += " with " + ", ".join(card_name(c) for c in args["cards"])
        if args.get("split"):
            text += " (" + ", ".join(
                f"{source_label(k)}: {state.name(v) if isinstance(v, int) else v}"
                for k, v in args["split"].items()) + ")"
        return text
