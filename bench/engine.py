"""Engine speed: N random campaigns played by the bots, timed phase by phase.

    python bench/engine.py --games N

Prints one JSON line per phase kind, {"phase": ..., "count": ..., "mean_ms": ..., "max_ms": ...}
(the time of `resolve` alone, bots excluded), then {"phases_per_s": ..., "games": N}.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

NAMES = ["Carlos", "Maria", "Bill", "Dona", "Ernesto", "Fidel", "Gloria", "Hector", "Ines",
         "Jorge"]
MAX_PHASES = 1000


def main(argv: list[str] | None = None) -> None:
    from junta.engine import new_game, resolve
    from junta.engine.bots import play_phase
    from junta.engine.rng import Rng

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="bench", help="campaign seeds are SEED-0, SEED-1...")
    args = parser.parse_args(argv)
    timings: dict[str, list[float]] = {}
    total = 0.0
    for i in range(args.games):
        state = new_game(f"{args.seed}-{i}", NAMES[:6 + i % 5])
        rng = Rng(f"{args.seed}-bots-{i}")
        for _ in range(MAX_PHASES):
            if state.finished:
                break
            orders = play_phase(state, rng)
            start = time.perf_counter()
            result = resolve(state, orders)
            elapsed = time.perf_counter() - start
            timings.setdefault(state.phase, []).append(elapsed)
            total += elapsed
            state = result.state
        else:
            raise SystemExit(f"campaign {args.seed}-{i} did not end in {MAX_PHASES} phases")
    for phase, times in sorted(timings.items()):
        print(json.dumps({"phase": phase, "count": len(times),
                          "mean_ms": round(1000 * sum(times) / len(times), 3),
                          "max_ms": round(1000 * max(times), 3)}))
    phases = sum(len(t) for t in timings.values())
    print(json.dumps({"phases_per_s": round(phases / total, 1) if total else 0.0,
                      "games": args.games}))


if __name__ == "__main__":
    main()
