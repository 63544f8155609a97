"""Engine speed: N random campaigns played by the bots, timed phase by phase.

    python bench/engine.py --games N [--compare REV]

Prints one JSON line per phase kind, {"phase": ..., "count": ..., "mean_ms": ..., "max_ms": ...}
(the time of `resolve` alone, bots excluded), then {"phases_per_s": ..., "games": N}.

With `--compare REV` (a git revision: HEAD, a branch, a commit) the same campaigns are also
played by the engine of that revision: its `junta/engine` is exported with `git archive` into a
temporary directory and run in a subprocess with PYTHONPATH set to it, the two engines taking
turns game by game (after one untimed campaign each) so that both meet the same load. Each line
then also gives that engine's "before_mean_ms" and "before_max_ms", the "speedup" (its mean
time over this engine's) and "speedup_median" (the same of the medians); the last line adds
"before_phases_per_s", the overall "speedup" and "same_results": whether both engines ended
every campaign in the same state (equal digests).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from statistics import mean, median
from typing import Any

REPO = Path(__file__).resolve().parent.parent

NAMES = ["Carlos", "Maria", "Bill", "Dona", "Ernesto", "Fidel", "Gloria", "Hector", "Ines",
         "Jorge"]
MAX_PHASES = 1000


def engine_path() -> str:
    """Where the `junta.engine` on the import path lives."""
    import junta.engine

    return str(Path(junta.engine.__file__).resolve().parent)


def play(game: int, seed: str) -> tuple[dict[str, list[float]], str | None]:
    """Play campaign `game` with the `junta.engine` on the import path: the seconds each
    `resolve` took, by phase kind, and the digest of the final state."""
    import junta.engine as engine
    from junta.engine import new_game, resolve
    from junta.engine.bots import play_phase
    from junta.engine.rng import Rng

    timings: dict[str, list[float]] = {}
    state = new_game(f"{seed}-{game}", NAMES[:6 + game % 5])
    rng = Rng(f"{seed}-bots-{game}")
    for _ in range(MAX_PHASES):
        if state.finished:
            break
        orders = play_phase(state, rng)
        start = time.perf_counter()
        result = resolve(state, orders)
        elapsed = time.perf_counter() - start
        timings.setdefault(str(state.phase), []).append(elapsed)
        state = result.state
    else:
        raise SystemExit(f"campaign {seed}-{game} did not end in {MAX_PHASES} phases")
    digest = getattr(engine, "digest", None)  # an engine's revision may predate it
    return timings, (digest(state) if digest else None)


def worker() -> None:
    """The subprocess of --compare: where its engine is, then for each line "GAME SEED" read,
    that campaign's timings and digest, one JSON line each."""
    print(json.dumps({"engine": engine_path()}), flush=True)
    for line in sys.stdin:
        game, seed = line.split(maxsplit=1)
        timings, digest = play(int(game), seed.strip())
        print(json.dumps({"timings": timings, "digest": digest}), flush=True)


class Revision:
    """The engine of a git revision, exported with `git archive` into a temporary directory
    and run by a `worker` subprocess with PYTHONPATH set to it."""

    def __init__(self, rev: str) -> None:
        archive = subprocess.run(["git", "archive", "--format=tar", rev, "junta/engine"],
                                 cwd=REPO, capture_output=True, check=False)
        if archive.returncode != 0:
            raise SystemExit(f"git archive {rev} failed: {archive.stderr.decode().strip()}")
        self.tmp = tempfile.TemporaryDirectory(prefix="junta-engine-")
        root = Path(self.tmp.name)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(root, filter="data")
        # the engine's package alone: the project's junta/__init__.py is empty on purpose
        (root / "junta" / "__init__.py").write_text("")
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        engine = self._read()["engine"]
        if Path(engine) != (root / "junta" / "engine").resolve():
            self.close()
            raise SystemExit(f"the engine of {rev} was not imported: {engine} was")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            raise SystemExit("the engine of the compared revision failed (its error above)")
        data: dict[str, Any] = json.loads(line)
        return data

    def play(self, game: int, seed: str) -> tuple[dict[str, list[float]], str | None]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{game} {seed}\n")
        self.proc.stdin.flush()
        data = self._read()
        return data["timings"], data["digest"]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.tmp.cleanup()


def add(into: dict[str, list[float]], timings: dict[str, list[float]]) -> None:
    for phase, times in timings.items():
        into.setdefault(phase, []).extend(times)


def mean_ms(times: list[float]) -> float:
    return round(1000 * sum(times) / len(times), 3)


def rate(timings: dict[str, list[float]]) -> float:
    """Phases resolved per second."""
    total = sum(sum(t) for t in timings.values())
    return round(sum(len(t) for t in timings.values()) / total, 1) if total else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="bench", help="campaign seeds are SEED-0, SEED-1...")
    parser.add_argument("--compare", metavar="REV",
                        help="also run the engine of this git revision, game by game")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:  # the engine is the one on PYTHONPATH
        worker()
        return
    sys.path.insert(0, str(REPO))
    revision = Revision(args.compare) if args.compare else None
    timings: dict[str, list[float]] = {}
    before: dict[str, list[float]] = {}
    same = True
    try:
        # an untimed campaign first: the card and map files loaded, the code warm
        play(0, f"{args.seed}-warmup")
        if revision:
            revision.play(0, f"{args.seed}-warmup")
        for i in range(args.games):
            # the two engines take turns, game by game, so that they share the machine's load
            now, digest = play(i, args.seed)
            add(timings, now)
            if revision:
                old, old_digest = revision.play(i, args.seed)
                add(before, old)
                same = same and old_digest == digest
    finally:
        if revision:
            revision.close()
    for phase, times in sorted(timings.items()):
        line: dict[str, Any] = {"phase": phase, "count": len(times), "mean_ms": mean_ms(times),
                                "max_ms": round(1000 * max(times), 3)}
        old_times = before.get(phase)
        if old_times:
            line.update(before_mean_ms=mean_ms(old_times),
                        before_max_ms=round(1000 * max(old_times), 3),
                        speedup=round(mean(old_times) / mean(times), 2),
                        speedup_median=round(median(old_times) / median(times), 2))
        print(json.dumps(line))
    summary: dict[str, Any] = {"phases_per_s": rate(timings), "games": args.games}
    if revision:
        summary.update(compare=args.compare, before_phases_per_s=rate(before),
                       speedup=round(rate(timings) / rate(before), 2), same_results=same)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
