"""The bot's Coup Aftermath: its vote in the Junta, and now and then an execution."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..enums import PhaseKind
from .core import BotCore


class AftermathBot(BotCore):
    def aftermath(self) -> None:
        s, rng = self.state, self.rng
        vote = self.options.get("junta_vote")
        if vote is not None and rng.below(6):
            self.use(vote, {"candidate": self.one(vote, "candidate")})
        execute = self.options.get("execute")
        if execute is not None and rng.below(2) == 0:
            result = s.coup["result"] if s.coup else None
            wanted = [x for x in self.others if result == "junta" or s.players[x].rebel]
            target = self.one(execute, "target", among=wanted)
            if target is not None:
                self.use(execute, {"target": target})


PLAYS: Mapping[PhaseKind, tuple[Callable[[AftermathBot], None], ...]] = {
    PhaseKind.AFTERMATH: (AftermathBot.aftermath,),
}
