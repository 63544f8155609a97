"""The one vote of the Election, the Special Motion and the Budget Vote: a ballot, the vote
cards played with it and a split of its votes (docs/rules.md §votes); phases/votes.py counts
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..enums import PhaseKind, Step
from ..labels import card_name
from ..problems import Problem
from ..state import GameState
from ..steps import VOTING_PHASES
from ..voting import BallotArgs, check_ballot, source_label, sources
from .base import OrderKindSpec, Share, card_uses
from .offering import ArgOption, Choice, Shape, one, some

if TYPE_CHECKING:
    from ..order import Order
    from .offering import Builder


class Vote(OrderKindSpec[BallotArgs]):
    """"Every player votes yes, no or abstain with all the votes he commands", or for a
    candidate in an election (docs/rules.md §votes, §vote-cards, §first-election)."""
    name = "vote"
    label = "Vote"
    rules = ("votes", "vote-cards", "first-election", "competence", "resignation",
             "ruling-deadlock")
    step = Step.VOTE_COUNT
    phases = VOTING_PHASES
    single = True
    likely = True
    first_that_holds = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        return check_ballot(state, seat, order)

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        choice = a.get("choice")
        text = f"Vote {state.name(choice) if isinstance(choice, int) else choice}"
        if a.get("cards"):
            text += " with " + ", ".join(card_name(c) for c in a["cards"])
        if a.get("split"):
            text += " (" + ", ".join(
                f"{source_label(k)}: {state.name(v) if isinstance(v, int) else v}"
                for k, v in a["split"].items()) + ")"
        return text

    def share(self, state: GameState, order: Order) -> Share:
        cards = self.of(order).get("cards")
        return Share(cards=card_uses(cards if isinstance(cards, list) else [],
                                     "your ballot, which counts it"))

    def offers(self, b: Builder, group: str = "") -> None:
        s, seat = b.s, b.seat
        if s.phase not in VOTING_PHASES:
            return
        own = sources(s, seat)
        if not own:
            return
        if s.phase == PhaseKind.ELECTION:
            cands = (s.election and s.election["candidates"]) or s.active_seats()
            choices: list[tuple[Any, str]] = [(c, s.name(c)) for c in cands
                                              if s.players[c].active]
        else:
            choices = [("yes", "Yes"), ("no", "No")]
        choices.append(("abstain", "Abstain"))
        args = [one("choice", "Your vote", choices)]
        vote_cards = []
        for cid, name in b.hand(lambda c: c.category == "vote"):
            refused = b.refusals("vote", {"choice": "abstain", "cards": [cid]})
            if refused:
                b.notes.append(f"{name}: {refused[0]}")
            else:
                vote_cards.append((cid, name))
        if vote_cards:
            args.append(some("cards", "Vote cards to play", vote_cards, required=False,
                             help="A Vote card played is discarded."))
        if len(own) + len(vote_cards) > 1:
            rows = [(source, f"{source_label(source)} ({votes})")
                    for source, votes in own.items()]
            rows += [(f"card:{cid}", f"{name}, if played") for cid, name in vote_cards]
            args.append(ArgOption(
                "split", "Split your votes", Shape.TABLE,
                tuple(Choice(v, t) for v, t in choices),
                keys=tuple(Choice(k, t) for k, t in rows), blank="as my vote", required=False,
                combined=True,  # a Vote card's row counts only when the card is played
                help="Optional: any source of votes may go another way than your vote."))
        b.add("vote", "All your votes go to your choice unless you split them.", args)
