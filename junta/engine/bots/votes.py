"""The bot's ballots (the election, a special motion, the budget vote), with the cards it
votes and the cards that call a vote again; and what a ballot spends."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import catalog
from ..enums import PhaseKind
from ..options import OrderOption
from ..order_kinds import votes as kinds
from .core import BotCore, Spends, Spent

REVOTES = ("Power Failure", "Summer Recess", "Recount")

SPENDS: Spends = {
    kinds.Vote.name: lambda order: Spent(cards=tuple(kinds.Vote.of(order).get("cards") or [])),
}


class VotesBot(BotCore):
    def vote(self) -> None:
        """A ballot, then the cards played on the vote."""
        option = self.options.get("vote")
        if option is None:  # no votes in this vote
            return
        self.ballot(option)
        self.vote_cards()

    def ballot(self, option: OrderOption) -> None:
        """A candidate (an election) or yes, no, abstain; some vote cards; now and then a
        source of votes split off."""
        s, rng = self.state, self.rng
        if s.phase == PhaseKind.ELECTION:
            choice = self.one(option, "choice", among=[
                v for v in self.allowed(option, "choice") if v != "abstain"])
            if choice is None:
                choice = "abstain"
        else:
            choice = rng.choice(["yes", "yes", "no", "abstain"])
        values: dict[str, Any] = {"choice": choice}
        cards = [c for c in self.allowed(option, "cards") if rng.below(2) == 0]
        if cards:
            values["cards"] = cards
        split = option.arg("split")
        if split is not None and rng.below(10) == 0:
            # a source of votes goes another way: the player's own, or a card he plays
            rows = [k.value for k in split.keys if not str(k.value).startswith("card:")
                    or str(k.value)[5:].isdigit() and int(str(k.value)[5:]) in cards]
            ways = [v for v in split.values() if v != choice]
            if rows and ways:
                values["split"] = {rng.choice(rows): rng.choice(ways)}
        self.use(option, values)

    def vote_cards(self) -> None:
        """The cards that call a vote again, Alternative Budget, Church Desecrated."""
        s, rng = self.state, self.rng
        for cid in s.players[self.seat].hand:
            name = catalog.card(cid).name
            found = self.card(cid)
            if found is None or not self.free(cid):
                continue
            play, args = found
            if name in REVOTES and rng.below(3) == 0 and s.phase in (PhaseKind.BUDGET_VOTE,
                                                                     PhaseKind.ELECTION):
                condition = None
                if s.phase == PhaseKind.BUDGET_VOTE:
                    condition = self.condition(play, "vote_result", {
                        "result": rng.choice(["passes", "fails"]),
                        "margin_at_most": rng.between(1, 8)})
                    if condition is None:
                        continue
                self.use(play, args, condition)
            elif name == "Alternative Budget" and s.phase == PhaseKind.BUDGET_VOTE and \
                    rng.below(2) == 0:
                condition = self.condition(play, "vote_result", {"result": "fails"})
                if condition is not None:
                    self.use(play, args, condition)
            elif name == "Church Desecrated" and rng.below(2) == 0:
                self.use(play, args)


PLAYS: Mapping[PhaseKind, tuple[Callable[[VotesBot], None], ...]] = {
    PhaseKind.ELECTION: (VotesBot.vote,),
    PhaseKind.SPECIAL_MOTION: (VotesBot.vote,),
    PhaseKind.BUDGET_VOTE: (VotesBot.vote,),
}
