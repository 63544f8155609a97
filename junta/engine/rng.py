"""The engine's own random generator: SHA-256 of the campaign seed and a counter.

Python's `random` may change its algorithms between versions, and a campaign lasts months, so
the engine draws every die and shuffle from this counter-based generator. Its only state is the
counter, kept inside the game state: the same state always gives the same rolls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


class Rng:
    """Deterministic generator; `counter` is written back into the game state after use."""

    def __init__(self, seed: str, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter

    def _block(self) -> int:
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._block()
            if value < limit:
                return value % n

    def die(self) -> int:
        """One six-sided die: 1 to 6."""
        return self.below(6) + 1

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high]."""
        return low + self.below(high - low + 1)

    def shuffle[T](self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice[T](self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
