"""What an order is: `Order(kind, args, condition)`, and the `Condition` it may wait for.

Plain data, below everything that reads orders: the registry of kinds (`kinds.py`) says what
each kind takes and means, `conditions.py` when a condition is settled and whether it holds,
`orders.py` reads an order from its JSON form and validates it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Condition:
    kind: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.args}


@dataclass(frozen=True)
class Order:
    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    condition: Condition | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.args}
        if self.condition:
            out["condition"] = self.condition.to_dict()
        return out
