"""What happened in a phase, each line with its audience.

audience is "public" (everyone), "gm" (the GameMaster only) or a list of seats (those players
and the GM). The text is written for people, in English; `words` is the same sentence as a
message id and its parameters, for a page to say it in its reader's language (None in the
events of campaigns played before the engine wrote them: those read as their text); `data`
carries the facts for pages and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .words import Words

PUBLIC = "public"
GM = "gm"


@dataclass(frozen=True)
class Event:
    kind: str
    text: str
    audience: str | tuple[int, ...] = PUBLIC
    data: dict[str, Any] = field(default_factory=dict)
    headline: bool = False  # a big public event worth a newspaper headline
    words: Words | None = None

    def visible_to(self, viewer: int | str | None) -> bool:
        if viewer == GM:
            return True
        if self.audience == PUBLIC:
            return True
        if self.audience == GM or viewer is None:
            return False
        return viewer in self.audience

    def to_dict(self) -> dict[str, Any]:
        audience = self.audience if isinstance(self.audience, str) else list(self.audience)
        out = {"kind": self.kind, "text": self.text, "audience": audience, "data": self.data,
               "headline": self.headline}
        if self.words is not None:
            out["words"] = self.words.to_dict()
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        audience = d["audience"] if isinstance(d["audience"], str) else tuple(d["audience"])
        words = Words.from_dict(d["words"]) if d.get("words") else None
        return cls(d["kind"], d["text"], audience, d.get("data", {}), d.get("headline", False),
                   words)


def private(*seats: int) -> tuple[int, ...]:
    return tuple(sorted(set(seats)))
