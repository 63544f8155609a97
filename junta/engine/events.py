"""What happened in a phase, each line with its audience.

audience is "public" (everyone), "gm" (the GameMaster only) or a list of seats (those players
and the GM). The text is written for people; `data` carries the facts for pages and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PUBLIC = "public"
GM = "gm"


@dataclass(frozen=True)
class Event:
    kind: str
    text: str
    audience: str | tuple[int, ...] = PUBLIC
    data: dict[str, Any] = field(default_factory=dict)
    headline: bool = False  # a big public event worth a newspaper headline

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
        return {"kind": self.kind, "text": self.text, "audience": audience, "data": self.data,
                "headline": self.headline}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        audience = d["audience"] if isinstance(d["audience"], str) else tuple(d["audience"])
        return cls(d["kind"], d["text"], audience, d.get("data", {}), d.get("headline", False))


def private(*seats: int) -> tuple[int, ...]:
    return tuple(sorted(set(seats)))
