"""Engine speed: N random campaigns played by the bots, timed phase by phase.

    python bench/engine.py --games N [--compare REV [--same-inputs [--rounds R]]]
                           [--diplomacy [--diplomacy-phases M]]

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

When REV's engine (or its bots) decides otherwise, the two play different campaigns from the
same seeds, and a kind's times no longer measure the same work. With `--same-inputs` too, this
engine plays the campaigns alone, recording each phase's input (the state before it,
`to_dict()`, and the orders, `{seat: [order.to_dict()...]}`); then both engines resolve exactly
those inputs (`GameState.from_dict`, `parse_order`), each in a worker subprocess of its own
(this engine's with PYTHONPATH set to the work tree, REV's to its export: the same treatment),
after an untimed pass each: `--rounds` rounds (5) of every input once, the two engines taking
turns round by round, which goes first alternating, both held to the same processor (on Linux;
left free, each kept to a processor of its own, and on a busy machine a run of this engine
against itself gave one side 6-9% faster on every kind, either side; held, within 1%). A kind's
"mean_ms" and "before_mean_ms" are then its best round's mean (the lowest over the rounds),
"max_ms" and the medians from that round, and "speedup" their ratio; "min_mean_ms",
"before_min_mean_ms" and "speedup_min" are the same of each phase's fastest time over the
rounds, averaged (steadier on a busy machine: a pause seldom falls on the same phase in every
round). The last line adds "same_inputs": true, "rounds", "inputs" (phases resolved in each
round), "speedup_min" (over all phases) and "different_results", the inputs the two engines
resolved into different states ("same_results" is whether there were none).

With `--diplomacy` the same run also times MILA diplomacy's `Game().process()` (the
`diplomacy` package, 1.1.2, never a dependency of the project: imported only with this option;
`make bench-diplomacy` makes var/bench-venv with the pins of bench/diplomacy.txt and runs the
bench there). It plays as many standard-map games as Junta's campaigns, one after each of them,
of up to `--diplomacy-phases` phases (100: random games rarely end), every power giving each
phase a random legal order for each location it may order (drawn by a seeded `random.Random`),
as diplomacy's own README plays a random game; `process()` alone is timed, the orders are not,
as Junta's bots are not. The last line then adds "diplomacy": the package's version, its games
and phases, the mean and worst ms of `process()` over every phase and by phase type
("movement", "retreats", "adjustments"); and Junta's side: "worst_coup_phase" (of the coup
phase kinds, coup, coup_final and aftermath, the one with the largest mean time),
"worst_coup_mean_ms", "worst_coup_max_ms" (the slowest single phase of any coup kind),
"mean_phase_ms" (all phases of all kinds) and the ratios:

- "worst_coup_vs_diplomacy": Junta's worst coup phase kind's mean over diplomacy's mean
  `process()`. The goal "the worst coup phase at most half as long as diplomacy's
  `Game.process()`" is this at most 0.5. A kind's mean, not its slowest phase, since a single
  phase's time is mostly whatever pause (the garbage collector's, the machine's) fell in it.
  Diplomacy's mean counts all its phases, the cheap retreats and adjustments too, as Junta's
  mean phase counts all of Junta's; against its movement phases alone (the heavier
  counterpart of a coup phase) the ratio would be smaller: all phases is the stricter reference.
- "mean_phase_vs_diplomacy": Junta's mean phase over diplomacy's mean `process()`.
- "worst_coup_max_vs_diplomacy_max": the slowest coup phase over the slowest `process()`, for
  a look at the tails only (noisy, for the reason above).

With `--compare` too, the same keys prefixed "before_" give Junta's side for that revision's
engine, against the same diplomacy games (with `--same-inputs`, both engines' best rounds).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from statistics import mean, median
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent

NAMES = ["Carlos", "Maria", "Bill", "Dona", "Ernesto", "Fidel", "Gloria", "Hector", "Ines",
         "Jorge"]
MAX_PHASES = 1000
# The engine's flow.COUP_KINDS, spelt out: the bench runs other revisions' engines too.
COUP_PHASES = ("coup", "coup_final", "aftermath")
DIPLOMACY_VERSION = "1.1.2"
DIPLOMACY_PHASE_TYPES = {"M": "movement", "R": "retreats", "A": "adjustments"}
DIPLOMACY_MISSING = f"""--diplomacy needs MILA's diplomacy package, not importable here ({{error}}).
It is no dependency of Junta: install it apart from the project's .venv, either with
    make bench-diplomacy   (var/bench-venv with diplomacy {DIPLOMACY_VERSION}; runs this bench)
or into a virtual environment of your own: pip install -r bench/diplomacy.txt"""


def engine_path() -> str:
    """Where the `junta.engine` on the import path lives."""
    import junta.engine

    return str(Path(junta.engine.__file__).resolve().parent)


def play(game: int, seed: str, record: IO[str] | None = None
         ) -> tuple[dict[str, list[float]], str | None]:
    """Play campaign `game` with the `junta.engine` on the import path: the seconds each
    `resolve` took, by phase kind, and the digest of the final state. With `record`, each
    phase's input (the state before it and the orders, as JSON) is written there, a line each."""
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
        if record is not None:
            record.write(json.dumps({
                "state": state.to_dict(),
                "orders": {str(seat): [order.to_dict() for order in given]
                           for seat, given in orders.items()}}) + "\n")
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


def inputs_worker(path: str) -> None:
    """The subprocesses of --same-inputs: where its engine is; then, after an untimed pass (the
    code warm), the digest of each outcome of the inputs `play` recorded in `path`; then for
    each line read, a round: every input resolved once, in the order recorded, the seconds
    each took by phase kind, one JSON line."""
    import junta.engine as engine
    from junta.engine import GameState, parse_order, resolve

    print(json.dumps({"engine": engine_path()}), flush=True)
    inputs = []
    with open(path) as recorded:
        for line in recorded:
            data = json.loads(line)
            inputs.append((GameState.from_dict(data["state"]),
                           {int(seat): [parse_order(order) for order in given]
                            for seat, given in data["orders"].items()}))
    digest = getattr(engine, "digest", None)  # an engine's revision may predate it
    outcomes = [resolve(state, orders).state for state, orders in inputs]
    print(json.dumps({"digests": [digest(s) if digest else None for s in outcomes]}),
          flush=True)
    del outcomes
    for _ in sys.stdin:
        timings: dict[str, list[float]] = {}
        for state, orders in inputs:
            start = time.perf_counter()
            resolve(state, orders)
            elapsed = time.perf_counter() - start
            timings.setdefault(str(state.phase), []).append(elapsed)
        print(json.dumps({"timings": timings}), flush=True)


def export(rev: str) -> tempfile.TemporaryDirectory[str]:
    """A temporary directory holding the `junta/engine` of git revision `rev` (`git archive`)."""
    archive = subprocess.run(["git", "archive", "--format=tar", rev, "junta/engine"],
                             cwd=REPO, capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {rev} failed: {archive.stderr.decode().strip()}")
    tmp = tempfile.TemporaryDirectory(prefix="junta-engine-")
    root = Path(tmp.name)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
    # the engine's package alone: the project's junta/__init__.py is empty on purpose
    (root / "junta" / "__init__.py").write_text("")
    return tmp


class Worker:
    """A subprocess of this script (`--worker` or `--worker-inputs`, in `args`) running the
    `junta.engine` found under `root` (its PYTHONPATH): a git revision's exported by `export`
    (`tmp`, removed at the end) or the work tree's, `REPO`; held to processor `cpu` if given
    (where the system lets a process be pinned: Linux)."""

    def __init__(self, root: Path, args: list[str], label: str,
                 tmp: tempfile.TemporaryDirectory[str] | None = None,
                 cpu: int | None = None) -> None:
        self.label, self.tmp = label, tmp
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.proc = subprocess.Popen([sys.executable, __file__, *args], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if cpu is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(self.proc.pid, {cpu})
        engine = self.read()["engine"]
        if Path(engine) != (root / "junta" / "engine").resolve():
            self.close()
            raise SystemExit(f"the engine of {label} was not imported: {engine} was")

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            raise SystemExit(f"the engine of {self.label} failed (its error above)")
        data: dict[str, Any] = json.loads(line)
        return data

    def ask(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.read()

    def play(self, game: int, seed: str) -> tuple[dict[str, list[float]], str | None]:
        data = self.ask(f"{game} {seed}")
        return data["timings"], data["digest"]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)
        if self.tmp:
            self.tmp.cleanup()


class Diplomacy:
    """MILA diplomacy's `Game.process()`, timed on standard-map games of random legal orders."""

    def __init__(self, max_phases: int) -> None:
        try:  # by name: no dependency of the project, so no stubs nor package for mypy
            self.game_class = importlib.import_module("diplomacy").Game
        except ImportError as error:
            raise SystemExit(DIPLOMACY_MISSING.format(error=error)) from None
        self.max_phases = max_phases
        try:
            self.version = importlib.metadata.version("diplomacy")
        except importlib.metadata.PackageNotFoundError:
            self.version = "?"
        if self.version != DIPLOMACY_VERSION:
            print(f"warning: diplomacy {self.version}, not {DIPLOMACY_VERSION} "
                  "(bench/diplomacy.txt)", file=sys.stderr)

    def play(self, game: int, seed: str) -> dict[str, list[float]]:
        """Play game `game`: the seconds each `process()` took, by phase type. Locations and
        orders are sorted before the draw, so that a seed gives the same game in every process
        (diplomacy builds some of its lists from sets)."""
        rng = random.Random(f"{seed}-diplomacy-{game}")
        timings: dict[str, list[float]] = {}
        board = self.game_class()
        for _ in range(self.max_phases):
            if board.is_game_done:
                break
            possible = board.get_all_possible_orders()
            for power in sorted(board.powers):
                orders = [rng.choice(sorted(possible[location]))
                          for location in sorted(board.get_orderable_locations(power))
                          if possible[location]]
                board.set_orders(power, orders)
            kind = DIPLOMACY_PHASE_TYPES.get(board.get_current_phase()[-1], "other")
            start = time.perf_counter()
            board.process()
            elapsed = time.perf_counter() - start
            timings.setdefault(kind, []).append(elapsed)
        return timings


def add(into: dict[str, list[float]], timings: dict[str, list[float]]) -> None:
    for phase, times in timings.items():
        into.setdefault(phase, []).extend(times)


def mean_ms(times: list[float]) -> float:
    return round(1000 * sum(times) / len(times), 3)


def stats(times: list[float]) -> dict[str, Any]:
    return {"count": len(times), "mean_ms": mean_ms(times), "max_ms": round(1000 * max(times), 3)}


def worst_coup(timings: dict[str, list[float]]) -> str | None:
    """The coup phase kind with the largest mean time, if any was played."""
    played = [kind for kind in COUP_PHASES if timings.get(kind)]
    return max(played, key=lambda kind: mean(timings[kind])) if played else None


def versus_diplomacy(timings: dict[str, list[float]], reference: list[float],
                     prefix: str = "") -> dict[str, Any]:
    """Junta's worst coup phase kind and mean phase, and their ratios to diplomacy's mean
    `process()` (`reference`, every phase's seconds)."""
    every = [t for times in timings.values() for t in times]
    if not every or not reference:
        return {}
    line: dict[str, Any] = {
        f"{prefix}mean_phase_ms": mean_ms(every),
        f"{prefix}mean_phase_vs_diplomacy": round(mean(every) / mean(reference), 2)}
    kind = worst_coup(timings)
    if kind:
        coup = timings[kind]
        slowest = max(t for k in COUP_PHASES for t in timings.get(k, []))
        line.update({f"{prefix}worst_coup_phase": kind,
                     f"{prefix}worst_coup_mean_ms": mean_ms(coup),
                     f"{prefix}worst_coup_max_ms": round(1000 * slowest, 3),
                     f"{prefix}worst_coup_vs_diplomacy": round(mean(coup) / mean(reference), 2),
                     f"{prefix}worst_coup_max_vs_diplomacy_max":
                         round(slowest / max(reference), 2)})
    return line


def rate(timings: dict[str, list[float]]) -> float:
    """Phases resolved per second."""
    total = sum(sum(t) for t in timings.values())
    return round(sum(len(t) for t in timings.values()) / total, 1) if total else 0.0


def revision_worker(rev: str, args: list[str], cpu: int | None = None) -> Worker:
    """A `Worker` running the engine of git revision `rev`, exported for it."""
    tmp = export(rev)
    return Worker(Path(tmp.name), args, rev, tmp, cpu)


Rounds = list[dict[str, list[float]]]  # an engine's rounds: by phase kind, each phase's seconds


def best_round(rounds: Rounds) -> dict[str, list[float]]:
    """By phase kind, its times in the round in which their mean was the lowest."""
    return {kind: min((times[kind] for times in rounds), key=mean) for kind in rounds[0]}


def fastest(rounds: Rounds) -> dict[str, list[float]]:
    """By phase kind, each phase's lowest time over the rounds: a pause of the machine seldom
    falls on the same phase in every round."""
    return {kind: [min(times) for times in zip(*(r[kind] for r in rounds), strict=True)]
            for kind in rounds[0]}


def time_inputs(path: Path, rev: str, count: int) -> tuple[Rounds, Rounds, int]:
    """--same-inputs: the phases recorded in `path` resolved by the work tree's engine and by
    `rev`'s, each in a worker subprocess, `count` rounds each, the two taking turns round by
    round (which goes first alternates) on the same processor (left to the system, each worker
    would keep to its own, and what else runs on each would set them apart). Each engine's
    rounds, and how many inputs the two engines resolved into different states (digests)."""
    args = ["--worker-inputs", str(path)]
    cpu = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    workers: list[Worker] = []
    try:
        workers.append(Worker(REPO, args, "the work tree", cpu=cpu))
        workers.append(revision_worker(rev, args, cpu))
        now, old = (worker.read()["digests"] for worker in workers)
        different = sum(a != b for a, b in zip(now, old, strict=True))
        rounds: tuple[Rounds, Rounds] = ([], [])
        for i in range(count):
            for turn in ((0, 1) if i % 2 == 0 else (1, 0)):
                rounds[turn].append(workers[turn].ask("round")["timings"])
    finally:
        for worker in workers:
            worker.close()
    return rounds[0], rounds[1], different


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="bench", help="campaign seeds are SEED-0, SEED-1...")
    parser.add_argument("--compare", metavar="REV",
                        help="also run the engine of this git revision, game by game")
    parser.add_argument("--same-inputs", action="store_true",
                        help="with --compare: both engines resolve the phases of this engine's "
                             "campaigns, round by round; each kind's best round is kept")
    parser.add_argument("--rounds", type=int, default=5, metavar="R",
                        help="with --same-inputs: rounds of each engine (5)")
    parser.add_argument("--diplomacy", action="store_true",
                        help=f"also time MILA diplomacy {DIPLOMACY_VERSION}'s Game.process() on "
                             "random games (make bench-diplomacy)")
    parser.add_argument("--diplomacy-phases", type=int, default=100, metavar="M",
                        help="phases of each diplomacy game at most (100)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker-inputs", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:  # the engine is the one on PYTHONPATH
        worker()
        return
    if args.worker_inputs:
        inputs_worker(args.worker_inputs)
        return
    if args.same_inputs and not args.compare:
        parser.error("--same-inputs needs --compare REV")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    sys.path.insert(0, str(REPO))
    diplomacy = Diplomacy(args.diplomacy_phases) if args.diplomacy else None
    timings: dict[str, list[float]] = {}
    before: dict[str, list[float]] = {}
    reference: dict[str, list[float]] = {}
    same = True
    different = 0
    fast: dict[str, list[float]] = {}  # with --same-inputs, by fastest()
    before_fast: dict[str, list[float]] = {}
    with contextlib.ExitStack() as stack:
        revision, record = None, None
        if args.same_inputs:  # this engine's campaigns recorded, then timed apart
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="junta-")))
            inputs = scratch / "inputs.jsonl"
            record = stack.enter_context(inputs.open("w"))
        elif args.compare:
            revision = revision_worker(args.compare, ["--worker"])
            stack.callback(revision.close)
        # an untimed campaign first: the card and map files loaded, the code warm
        play(0, f"{args.seed}-warmup")
        if revision:
            revision.play(0, f"{args.seed}-warmup")
        if diplomacy:
            diplomacy.play(0, f"{args.seed}-warmup")
        for i in range(args.games):
            # the engines take turns, game by game, so that they share the machine's load
            now, digest = play(i, args.seed, record)
            add(timings, now)
            if revision:
                old, old_digest = revision.play(i, args.seed)
                add(before, old)
                same = same and old_digest == digest
            if diplomacy:
                add(reference, diplomacy.play(i, args.seed))
        if record:
            record.close()
            now_rounds, old_rounds, different = time_inputs(inputs, args.compare, args.rounds)
            timings, before = best_round(now_rounds), best_round(old_rounds)
            fast, before_fast = fastest(now_rounds), fastest(old_rounds)
            same = different == 0
    for phase, times in sorted(timings.items()):
        line: dict[str, Any] = {"phase": phase, "count": len(times), "mean_ms": mean_ms(times),
                                "max_ms": round(1000 * max(times), 3)}
        old_times = before.get(phase)
        if old_times:
            line.update(before_mean_ms=mean_ms(old_times),
                        before_max_ms=round(1000 * max(old_times), 3),
                        speedup=round(mean(old_times) / mean(times), 2),
                        speedup_median=round(median(old_times) / median(times), 2))
        if fast:
            line.update(min_mean_ms=mean_ms(fast[phase]),
                        before_min_mean_ms=mean_ms(before_fast[phase]),
                        speedup_min=round(mean(before_fast[phase]) / mean(fast[phase]), 2))
        print(json.dumps(line))
    summary: dict[str, Any] = {"phases_per_s": rate(timings), "games": args.games}
    if args.compare:
        summary.update(compare=args.compare, before_phases_per_s=rate(before),
                       speedup=round(rate(timings) / rate(before), 2), same_results=same)
    if args.same_inputs:
        summary.update(same_inputs=True, rounds=args.rounds,
                       inputs=sum(len(times) for times in timings.values()),
                       different_results=different,
                       speedup_min=round(rate(fast) / rate(before_fast), 2))
    if diplomacy:
        process = [t for times in reference.values() for t in times]
        summary["diplomacy"] = {
            "version": diplomacy.version, "games": args.games,
            "max_phases": args.diplomacy_phases, **stats(process),
            **{kind: stats(times) for kind, times in sorted(reference.items())}}
        summary.update(versus_diplomacy(timings, process))
        if args.compare:
            summary.update(versus_diplomacy(before, process, prefix="before_"))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
