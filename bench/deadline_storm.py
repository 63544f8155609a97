"""Deadline storm: the players' Status page while every campaign is adjudicated at once.

    python bench/deadline_storm.py [--campaigns 100] [--requests 300] [--workers 4]
                                   [--clients 2] [--web-workers 3] [--nice 0] [--profile]

1. Sets up a scratch database: PostgreSQL when DATABASE_URL names one (that database is dropped
   and created afresh, so its name must contain "bench":
   DATABASE_URL=postgres://postgres@127.0.0.1:5432/junta_bench), otherwise a SQLite file in a
   temporary folder (SQLite serialises writers, so its storm numbers are not PostgreSQL's; the
   output says so). Celery's broker and the cache are the embedded ones, under that folder.
2. Creates `--campaigns` running campaigns of ten players through the services, in `--workers`
   processes: each is started and played by the engine's bots until its first President is
   elected, then every seat with something to order gives the bots' orders for the open phase.
3. Starts gunicorn (the production web server, `--web-workers` sync workers, DEBUG off) and
   measures the Status page (`game_status`, each request as a player of the next campaign in
   turn) from `--clients` concurrent HTTP clients: `--requests` requests while idle, then every
   request made while the storm lasts, in which all the campaigns' open phases fall due at once
   and a pool of `--workers` processes (niced by `--nice`) runs `adjudicate_phase` for each, as
   the Celery workers would.
4. Prints one table: p50/p95/p99/max of the Status page idle and during the storm, their ratio,
   and the storm's throughput in phases per second; then, last, the same in one JSON line:
   {"campaigns", "workers", "clients", "idle": {"requests", "p50_ms", "p95_ms", "p99_ms",
   "req_per_s"}, "storm": {...}, "p50_ratio", "phases", "adjudicated", "results", "seconds",
   "phases_per_s", "failed_requests"}. `--profile` also profiles the storm's
   adjudications (cProfile in every pool process) and prints the top functions.

About 1 s a campaign to set up on two cores: the default takes 2-3 minutes, --campaigns 200
about 5. Never run by `make test` but at a tiny size (tests/web/test_bench_storm.py).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import http.client
import json
import multiprocessing
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._common import (  # noqa: E402 - the repository is on sys.path now
    CHARACTERS,
    PLAYERS,
    percentile,
    play_bots,
    prepare_environment,
    web_server,
)

GM_EMAIL = "storm-gm@junta.test"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=100,
                        help="running campaigns of ten players, all due at once (default 100)")
    parser.add_argument("--requests", type=int, default=300,
                        help="Status page requests measured while idle (default 300); during "
                             "the storm, every request it lasts")
    parser.add_argument("--workers", type=int, default=4,
                        help="adjudicating processes (and set-up processes) (default 4)")
    parser.add_argument("--clients", type=int, default=2,
                        help="concurrent HTTP clients, each one request at a time (default 2)")
    parser.add_argument("--web-workers", type=int, default=3,
                        help="gunicorn sync workers, as scripts/web-start (default 3)")
    parser.add_argument("--nice", type=int, default=0,
                        help="niceness of the adjudicating processes, e.g. 10 to see whether "
                             "a niced worker spares the pages (default 0)")
    parser.add_argument("--profile", action="store_true",
                        help="profile the storm's adjudications and print the top functions")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    if min(args.campaigns, args.requests, args.workers, args.clients, args.web_workers) < 1:
        parser.error("every count must be at least 1")

    scratch = Path(tempfile.mkdtemp(prefix="junta-storm-"))
    try:
        run(args, scratch)
    finally:
        if args.keep:
            print(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def run(args: argparse.Namespace, scratch: Path) -> None:
    database = prepare_environment(scratch)
    import django

    django.setup()
    from django.core.management import call_command

    began = time.monotonic()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from django.contrib.auth import get_user_model
    from django.db import connections

    gm = get_user_model().objects.create_user(email=GM_EMAIL, display_name="Storm GM")
    connections.close_all()
    print(f"database: {database}")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} before the "
          f"set-up; {args.workers} adjudicating processes (nice {args.nice}), gunicorn with "
          f"{args.web_workers} sync workers, {args.clients} concurrent clients")

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.workers, initializer=worker_init, initargs=(args.nice,)) as pool:
        migrated = time.monotonic()
        made = pool.map(make_campaign, [(n, gm.pk) for n in range(args.campaigns)],
                        chunksize=1)
        print(f"set-up: database ready in {migrated - began:.1f} s, then {args.campaigns} "
              f"running campaigns of {PLAYERS} players in {time.monotonic() - migrated:.1f} s")
        targets = sessions_for(made)
        profile = str(scratch / "storm.prof") if args.profile else ""
        with web_server(args.web_workers) as (port, server_pid):
            idle, idle_use = measure_idle(port, server_pid, targets, args.clients,
                                          args.requests)
            storm, phases = measure_storm(port, server_pid, targets, args.clients, pool, made,
                                          profile)
        pool.close()
        pool.join()  # the pool's processes write their profiles as they exit
    phases["profiles"] = sorted(str(p) for p in scratch.glob("storm.prof.*"))
    report(idle, idle_use, storm, phases, args)


# --- the pool's work (each in a spawned process) --------------------------------------------

def worker_init(nice: int) -> None:
    import logging

    import django

    if nice:
        os.nice(nice)
    django.setup()
    # the filesystem broker's "No hostname was supplied" each time a publication queues mail
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)


def make_campaign(job: tuple[int, int]) -> tuple[int, int, list[int]]:
    """Campaign `n` through the services: ten players join, the GM starts it, the bots play it
    until the first President is elected (the game is running), then every seat with something
    to order gives the bots' orders, final, for the open phase. Returns (game id, open phase
    id, user ids)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from junta.engine import why_no_orders
    from junta.engine.bots import bot_orders
    from junta.engine.rng import Rng
    from junta.games import adjudication
    from junta.games.campaigns import create_game, join_game, start_campaign
    from junta.games.models import Game, Phase

    n, gm_id = job
    User = get_user_model()
    gm = User.objects.get(pk=gm_id)
    users = User.objects.bulk_create([User(email=f"storm{n}-{i}@junta.test",
                                           display_name=f"Storm {n}.{i}", password="!")
                                      for i in range(PLAYERS)])
    game = create_game(gm, f"Storm campaign {n}", join_policy=Game.JoinPolicy.OPEN)
    Game.objects.filter(pk=game.pk).update(seed=f"storm-{n}")
    for user, character in zip(users, CHARACTERS, strict=True):
        join_game(game.id, user, character)
    phase = start_campaign(game.id, gm, now=timezone.now() - timedelta(days=20))
    rng = Rng(f"storm-bots-{n}")
    for _ in range(20):
        play_bots(phase, rng, bot_orders, why_no_orders)
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING:
            break
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    else:
        raise RuntimeError(f"{game.name} had no President after 20 phases")
    # due in an hour: nothing sweeps, the storm makes every phase due at once
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() + timedelta(hours=1))
    return game.id, phase.id, [u.pk for u in users]


_profiler: cProfile.Profile | None = None


def adjudicate(job: tuple[int, str]) -> tuple[int, str, float, str]:
    """The Celery task's work for one phase: (phase id, its kind, seconds, "" when it was
    adjudicated, else what happened). With a profile path, the process profiles its
    adjudications and writes them there on exit."""
    from multiprocessing.util import Finalize

    from junta.games.adjudication import adjudicate_phase
    from junta.games.models import Phase

    global _profiler
    phase_id, profile = job
    kind = Phase.objects.values_list("kind", flat=True).get(pk=phase_id)
    if profile and _profiler is None:
        _profiler = cProfile.Profile()
        Finalize(None, _profiler.dump_stats, args=(f"{profile}.{os.getpid()}",),
                 exitpriority=10)
    started = time.perf_counter()
    if _profiler is not None:
        _profiler.enable()
    try:
        outcome = "" if adjudicate_phase(phase_id) else "nothing to do"
    except Exception as exc:  # noqa: BLE001 - reported; Celery's next sweep would retry it
        outcome = f"{type(exc).__name__}: {exc}"
    finally:
        if _profiler is not None:
            _profiler.disable()
    return phase_id, kind, time.perf_counter() - started, outcome


# --- the web server and its clients ---------------------------------------------------------

def sessions_for(made: list[tuple[int, int, list[int]]]) -> list[tuple[str, str]]:
    """(Status page path, session cookie) of one player per campaign, seats taken in turn."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    User = get_user_model()
    targets = []
    for n, (game_id, _phase_id, user_ids) in enumerate(made):
        client = Client()
        client.force_login(User.objects.get(pk=user_ids[n % PLAYERS]))
        name = settings.SESSION_COOKIE_NAME
        cookie = f"{name}={client.cookies[name].value}"
        targets.append((reverse("game_status", args=[game_id]), cookie))
    connections.close_all()
    return targets


class Sample:
    __slots__ = ("end", "seconds", "start", "status")

    def __init__(self, start: float, end: float, status: int) -> None:
        self.start, self.end, self.seconds, self.status = start, end, end - start, status


def get(conn: http.client.HTTPConnection, target: tuple[str, str]) -> Sample:
    path, cookie = target
    started = time.perf_counter()
    try:
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        body = response.read()
        status = response.status if b"Storm campaign" in body else -response.status
    except (OSError, http.client.HTTPException):
        conn.close()
        status = 0
    return Sample(started, time.perf_counter(), status)


def clients(port: int, targets: list[tuple[str, str]], count: int,
            keep_going: threading.Event | None, requests: int) -> list[Sample]:
    """`count` threads, each one request at a time over the targets in turn: until
    `keep_going` is cleared, or `requests` in all when it is None."""
    samples: list[Sample] = []
    lock = threading.Lock()
    issued = iter(range(10**9))

    def loop() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                i = next(issued)
            if keep_going is None and i >= requests:
                break
            if keep_going is not None and not keep_going.is_set():
                break
            sample = get(conn, targets[i % len(targets)])
            with lock:
                samples.append(sample)
        conn.close()

    threads = [threading.Thread(target=loop) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples


def usage(server_pid: int) -> dict:
    """Now, the CPU seconds used so far by gunicorn's processes and by this program's pool,
    and the seconds so far in which some runnable task of the machine waited for a CPU
    (Linux's /proc/pressure/cpu, when there is one)."""
    tick = os.sysconf("SC_CLK_TCK")
    pool = {child.pid for child in multiprocessing.active_children()}
    web = adjudicating = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int(stat.parent.name)
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
            if int(fields[1]) == server_pid or pid == server_pid:
                web += cpu
            elif pid in pool:
                adjudicating += cpu
    stall = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        stall = int(some.rsplit("total=", 1)[1]) / 1e6
    return {"at": time.perf_counter(), "web_cpu": web, "pool_cpu": adjudicating, "stall": stall}


def used(before: dict, after: dict) -> dict:
    seconds = after["at"] - before["at"]
    stall = None if before["stall"] is None or after["stall"] is None else \
        min(1.0, (after["stall"] - before["stall"]) / seconds)
    return {"seconds": seconds, "web_cpu": after["web_cpu"] - before["web_cpu"],
            "pool_cpu": after["pool_cpu"] - before["pool_cpu"], "stall": stall}


def measure_idle(port: int, server_pid: int, targets: list[tuple[str, str]], count: int,
                 requests: int) -> tuple[list[Sample], dict]:
    clients(port, targets, count, None, max(20, 4 * count))  # warm every gunicorn worker
    before = usage(server_pid)
    samples = clients(port, targets, count, None, requests)
    return samples, used(before, usage(server_pid))


def measure_storm(port: int, server_pid: int, targets: list[tuple[str, str]], count: int,
                  pool, made: list[tuple[int, int, list[int]]],  # noqa: ANN001 - a Pool
                  profile: str) -> tuple[list[Sample], dict]:
    """Clients run; every campaign's open phase falls due at once and the pool adjudicates
    them all; the clients stop. Only requests made wholly within the storm count."""
    from django.db import connections
    from django.utils import timezone

    from junta.games.models import Phase, PhaseResult

    phase_ids = [phase_id for _game, phase_id, _users in made]
    running = threading.Event()
    running.set()
    collected: list[Sample] = []
    load = threading.Thread(target=lambda: collected.extend(
        clients(port, targets, count, running, 0)))
    load.start()
    time.sleep(1.0)  # the clients are going
    Phase.objects.filter(pk__in=phase_ids).update(deadline=timezone.now())
    before = usage(server_pid)
    started = before["at"]
    done = pool.map(adjudicate, [(phase_id, profile) for phase_id in phase_ids], chunksize=1)
    after = usage(server_pid)
    ended = after["at"]
    running.clear()
    load.join()
    results = PhaseResult.objects.filter(phase_id__in=phase_ids).count()
    connections.close_all()
    samples = [s for s in collected if s.start >= started and s.end <= ended]
    return samples, {
        "count": len(phase_ids), "seconds": ended - started, "results": results,
        "adjudicated": sum(1 for *_rest, outcome in done if not outcome),
        "failures": Counter(outcome for *_rest, outcome in done if outcome),
        "kinds": Counter(kind for _id, kind, _s, _outcome in done),
        "each": [seconds for _id, _kind, seconds, _outcome in done],
        "use": used(before, after),
        "made": sum(1 for s in collected if started <= s.end <= ended),
    }


# --- the report -----------------------------------------------------------------------------

def report(idle: list[Sample], idle_use: dict, storm: list[Sample], phases: dict,
           args: argparse.Namespace) -> None:
    failed = [s for s in idle + storm if s.status != 200]
    idle_ms = [1000 * s.seconds for s in idle if s.status == 200]
    storm_ms = [1000 * s.seconds for s in storm if s.status == 200]
    storm_use = phases["use"]

    def row(label: str, a: float | None, b: float | None, unit: str = "",
            ratio: bool = True) -> None:
        cells = [f"{x:>9.1f}{unit}" if x is not None else f"{'-':>9}{unit and ' '}"
                 for x in (a, b)]
        times = f"{b / a:>10.1f}x" if ratio and a and b is not None else ""
        print(f"  {label:<38}{cells[0]}  {cells[1]}{times}")

    print()
    print(f"Status page, {args.clients} concurrent clients{'idle':>17}{'storm':>11}"
          f"{'storm/idle':>12}")
    print(f"  {'requests measured':<38}{len(idle_ms):>9}  {len(storm_ms):>9}")
    if idle_ms and storm_ms:
        for label, p in [("p50", 50), ("p95", 95), ("p99", 99), ("max", 100)]:
            row(f"{label} ms", percentile(idle_ms, p), percentile(storm_ms, p))
        row("mean ms", statistics.fmean(idle_ms), statistics.fmean(storm_ms))
    row("requests per second", len(idle) / idle_use["seconds"],
        phases["made"] / storm_use["seconds"])
    row("gunicorn CPU ms per request", 1000 * idle_use["web_cpu"] / max(1, len(idle)),
        1000 * storm_use["web_cpu"] / max(1, phases["made"]))
    row("machine CPU pressure (PSI some) %",
        None if idle_use["stall"] is None else 100 * idle_use["stall"],
        None if storm_use["stall"] is None else 100 * storm_use["stall"], ratio=False)
    if failed:
        print(f"  FAILED requests: {len(failed)} (statuses {Counter(s.status for s in failed)};"
              " 0 = no answer, negative = not the Status page)")
    each = [1000 * s for s in phases["each"]]
    kinds = ", ".join(f"{n} {kind}" for kind, n in phases["kinds"].most_common())
    print()
    print(f"Storm: {phases['count']} phases ({kinds}) adjudicated by {args.workers} processes "
          f"in {phases['seconds']:.2f} s: {phases['count'] / phases['seconds']:.1f} phases/s")
    print(f"  each adjudication: p50 {percentile(each, 50):.0f} ms, p95 "
          f"{percentile(each, 95):.0f} ms, max {max(each):.0f} ms (wall); "
          f"{1000 * storm_use['pool_cpu'] / phases['count']:.0f} ms of CPU a phase")
    print(f"  {phases['adjudicated']} adjudicated, {phases['results']} results stored")
    for outcome, n in phases["failures"].most_common():
        print(f"  NOT adjudicated: {n} phases: {outcome}")
    if phases["profiles"]:
        stats = pstats.Stats(*phases["profiles"], stream=sys.stdout)
        print(f"\nProfile of the storm's adjudications ({len(phases['profiles'])} processes),"
              " by cumulative time:")
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(15)
    print(json.dumps(outcome_line(idle, idle_use, storm, phases, args)), flush=True)
    if failed or phases["results"] != phases["count"]:
        raise SystemExit(1)


def outcome_line(idle: list[Sample], idle_use: dict, storm: list[Sample], phases: dict,
                 args: argparse.Namespace) -> dict:
    """The last line, in JSON: the Status page's percentiles idle and during the storm (ms;
    None without an answered request), their p50 ratio, and the storm's phases per second."""
    def times(samples: list[Sample]) -> dict:
        ms = [1000 * s.seconds for s in samples if s.status == 200]
        return {f"p{p}_ms": round(percentile(ms, p), 1) if ms else None for p in (50, 95, 99)}

    idle_ms, storm_ms = times(idle), times(storm)
    return {
        "campaigns": args.campaigns, "workers": args.workers, "clients": args.clients,
        "idle": {"requests": len(idle), **idle_ms,
                 "req_per_s": round(len(idle) / idle_use["seconds"], 1)},
        "storm": {"requests": len(storm), **storm_ms,
                  "req_per_s": round(phases["made"] / phases["use"]["seconds"], 1)},
        "p50_ratio": round(storm_ms["p50_ms"] / idle_ms["p50_ms"], 2)
        if idle_ms["p50_ms"] and storm_ms["p50_ms"] else None,
        "phases": phases["count"], "adjudicated": phases["adjudicated"],
        "results": phases["results"], "seconds": round(phases["seconds"], 2),
        "phases_per_s": round(phases["count"] / phases["seconds"], 1),
        "failed_requests": sum(1 for s in idle + storm if s.status != 200),
    }


if __name__ == "__main__":
    main()
