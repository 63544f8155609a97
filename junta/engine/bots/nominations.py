"""The bot's nominations and seconds before turn 1."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..enums import PhaseKind
from .core import BotCore


class NominationsBot(BotCore):
    def nominations(self) -> None:
        if not self.others:
            return
        nominate, second = self.options.get("nominate"), self.options.get("second")
        if nominate is not None and self.rng.below(2) == 0:
            self.use(nominate, {"candidate": self.one(nominate, "candidate")})
        if second is not None and self.rng.below(3) == 0:
            candidate = self.one(second, "candidate", among=self.others)
            if candidate is not None:
                self.use(second, {"candidate": candidate})


PLAYS: Mapping[PhaseKind, tuple[Callable[[NominationsBot], None], ...]] = {
    PhaseKind.NOMINATION: (NominationsBot.nominations,),
}
