"""Adjudication throughput: N campaigns due in the same minute, adjudicated by Celery workers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/junta_storm_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/14 \\
        python bench/adjudication_storm.py --games 1000 --workers 1 [--templates 4] [--profile]

1. Creates the PostgreSQL database afresh (its name must contain "bench"). In the Redis database
   of CELERY_BROKER_URL it uses queues and cache keys named for the run ("bench-storm-<random>"),
   deleted at the end: nothing else there is read or touched.
2. Plays `--templates` campaigns of ten players through the services (joined, started, played by
   the engine's bots until the first President is elected, then the bots' orders, final, for the
   open phase), then copies them in bulk, row by row as the services wrote them (campaign,
   players, characters, phases, results, orders, positions, cards, bills, units, mail
   preferences; new users), until there are `--games` campaigns. Every open phase is then made
   due.
3. Starts one Celery worker as production does (`celery -A junta worker`, prefork, `--workers`
   processes, reading the adjudication queue; the mails the publications queue wait on the mail
   queue, which is another worker's), runs the minute sweep once, which finds the due phases and
   queues one adjudication task each, and waits until every phase has its result.
4. Stops the worker cleanly (TERM: a warm shutdown) and prints, whatever happened, one JSON line:
   {"games", "workers", "seconds", "ms_per_game", "adjudicated", "failed", "queries_per_game",
   "setup_seconds", "peak_rss_mb", "worker_cpu_ms_per_game"}: seconds from the sweep to the
   last result; ms_per_game = seconds / games; peak_rss_mb the highest resident memory any of
   the worker's processes reached (`--games 10000`: one storm of 10,000 campaigns, the memory
   staying flat); worker_cpu_ms_per_game the processor time the worker's processes used from
   the sweep to the last result, a campaign's share (on a machine shared with other jobs the
   clock's figures move with the load, this one much less; PostgreSQL's time is not in it).
   `--profile` runs one template phase's adjudication under cProfile first and prints the top
   functions (and the query count comes from that run too).

Never run by `make test` but at a tiny size (tests/web/test_bench_storm.py). About a minute of
set-up for 1,000 campaigns on two cores.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PLAYERS = 10
BATCH = 100  # campaigns copied per bulk insert
WORKER_LOG = "worker.log"  # the worker's output, in the scratch folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="campaigns due at once")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (prefork)")
    parser.add_argument("--templates", type=int, default=4,
                        help="campaigns played by the bots, the others copied from them")
    parser.add_argument("--timeout", type=float, default=0,
                        help="seconds to wait for the results (default: 1 s a campaign + 60)")
    parser.add_argument("--profile", action="store_true",
                        help="profile one adjudication first and print the top functions")
    args = parser.parse_args(argv)
    if min(args.games, args.workers, args.templates) < 1 or args.templates > args.games:
        parser.error("--games, --workers and --templates must be at least 1, templates <= games")
    outcome = {"games": args.games, "workers": args.workers, "seconds": None,
               "ms_per_game": None, "adjudicated": 0, "failed": 0, "queries_per_game": None,
               "setup_seconds": None, "peak_rss_mb": None, "worker_cpu_ms_per_game": None}
    scratch = Path(tempfile.mkdtemp(prefix="junta-adjudication-storm-"))
    worker = None
    try:
        worker = run(args, scratch, outcome)
    except BaseException as exc:
        outcome["error"] = f"{type(exc).__name__}: {exc}"
        raise
    finally:
        if worker is not None:
            outcome["worker_exit"] = stop(worker, scratch / WORKER_LOG)
        if os.environ.get("CACHE_KEY_PREFIX", "").startswith("bench-storm-"):
            try:
                forget()
            except Exception as exc:  # noqa: BLE001 - said; the run's own outcome stands
                outcome["redis_left"] = f"{type(exc).__name__}: {exc}"
        shutil.rmtree(scratch, ignore_errors=True)
        print(json.dumps(outcome), flush=True)


def prepare(scratch: Path) -> None:
    """The scratch environment: the database created afresh, and in Redis queues and cache keys
    named for this run alone (`RUN_NAMES`), so that nothing else in that Redis database is read
    or touched (`forget` deletes them at the end)."""
    from bench._common import prepare_environment

    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not os.environ.get("DATABASE_URL") or not broker.startswith("redis://"):
        raise SystemExit("set DATABASE_URL (a PostgreSQL database named *bench*) and "
                         "CELERY_BROKER_URL (redis://host:port/N)")
    prepare_environment(scratch)  # drops and creates the database; pops the broker's variable
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ["CACHE_URL"] = broker
    name = f"bench-storm-{secrets.token_hex(4)}"
    os.environ["JUNTA_CELERY_QUEUE"] = name  # the adjudication queue: "<name>-adjudication"
    os.environ.pop("JUNTA_CELERY_ADJUDICATION_QUEUE", None)
    os.environ["CACHE_KEY_PREFIX"] = name


def forget() -> None:
    """Delete from Redis what this run put there: its two queues, kombu's bindings of them and
    its cache keys."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    queues = [settings.CELERY_TASK_DEFAULT_QUEUE, settings.JUNTA_ADJUDICATION_QUEUE]
    client.delete(*queues)
    for key in client.scan_iter(match="_kombu.binding*", count=1000):
        if key.decode().rsplit(".", 1)[-1] in queues:  # kombu's bindings of them
            client.delete(key)
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    if prefix:
        for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            client.delete(key)


def run(args: argparse.Namespace, scratch: Path, outcome: dict) -> subprocess.Popen | None:
    prepare(scratch)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from junta.games.models import Phase, PhaseResult

    began = time.monotonic()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    templates = make_templates(args.templates)
    # one adjudication in this process, on a copy made for it: its queries (and its profile)
    from junta.games.adjudication import adjudicate_phase
    from junta.games.models import Game

    probe = clone([templates[0]], 1, offset=args.games)[0]
    profiler = cProfile.Profile() if args.profile else None
    with CaptureQueriesContext(connection) as queries:
        if profiler:
            profiler.enable()
        adjudicate_phase(probe, force=True)
        if profiler:
            profiler.disable()
    outcome["queries_per_game"] = len(queries)
    if profiler:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
        print(text.getvalue(), file=sys.stderr)
    Game.objects.filter(phases__id=probe).delete()
    phase_ids = templates + clone(templates, args.games - len(templates))
    Phase.objects.filter(pk__in=phase_ids).update(deadline=timezone.now())
    analyze()
    outcome["setup_seconds"] = round(time.monotonic() - began, 1)
    connection.close()

    worker = start_worker(args.workers, scratch)
    from bench._common import cpu_seconds
    from junta.games.tasks import queue_due_phases

    cpu_before = cpu_seconds(worker.pid)
    started = time.monotonic()
    due = queue_due_phases()
    missing = set(phase_ids) - set(due)
    if missing:
        raise RuntimeError(f"the sweep did not find {len(missing)} due phase(s)")
    limit = args.timeout or args.games + 60
    done = 0
    # while tasks wait in the queue, watch its length in Redis (free); then count the results
    # (a query over every phase, which would otherwise take its share of the two cores)
    import redis
    from django.conf import settings

    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    while time.monotonic() - started < limit and worker.poll() is None \
            and queue.llen(settings.JUNTA_ADJUDICATION_QUEUE):
        time.sleep(0.1)
    while time.monotonic() - started < limit:
        done = PhaseResult.objects.filter(phase_id__in=phase_ids).count()
        if done == len(phase_ids) or worker.poll() is not None:
            break
        time.sleep(0.05)
    seconds = time.monotonic() - started
    cpu_after = cpu_seconds(worker.pid)
    if cpu_before is not None and cpu_after is not None:
        outcome["worker_cpu_ms_per_game"] = round(1000 * (cpu_after - cpu_before) / args.games,
                                                  1)
    outcome.update(seconds=round(seconds, 2), adjudicated=done, failed=len(phase_ids) - done,
                   ms_per_game=round(1000 * seconds / args.games, 1))
    # the worker's memory: its processes' highest resident size (flat whatever --games)
    from bench._common import peak_rss_mb

    outcome["peak_rss_mb"] = peak_rss_mb(worker.pid)
    return worker


def analyze() -> None:
    """The planner's statistics of the tables just filled in bulk, as autovacuum gathers them
    on a site in a while: without them PostgreSQL reads all the players' rows to find ten
    (a sequential scan for each campaign's lives: 95 ms a campaign at 10,000 instead of 38)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def start_worker(processes: int, scratch: Path) -> subprocess.Popen:
    from django.conf import settings

    log = open(scratch / WORKER_LOG, "w")  # noqa: SIM115 - the worker's, closed with it
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "junta", "worker", "--pool", "prefork",
         "--concurrency", str(processes), "-Q", settings.JUNTA_ADJUDICATION_QUEUE,
         "--without-gossip", "--without-mingle", "--loglevel", "INFO"],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
    deadline = time.monotonic() + 60
    while " ready." not in (scratch / WORKER_LOG).read_text():  # its start is not timed
        if worker.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the worker did not start: "
                               + (scratch / WORKER_LOG).read_text()[-2000:])
        time.sleep(0.1)
    return worker


def stop(worker: subprocess.Popen, log_path: Path) -> str:
    """A warm shutdown (TERM: the tasks under way finish), killed after 60 s."""
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
            return "killed after 60 s"
    log = log_path.read_text()
    errors = [line for line in log.splitlines() if "ERROR/" in line or "Traceback" in line]
    return f"exit {worker.returncode}" + (f"; {len(errors)} error line(s): {errors[:3]}"
                                          if errors else "")


def make_templates(count: int) -> list[int]:
    """`count` campaigns played through the services; their open phases' ids."""
    from django.contrib.auth import get_user_model

    from bench.deadline_storm import make_campaign

    gm = get_user_model().objects.create_user(email="storm-gm@junta.test", display_name="GM")
    return [make_campaign((n, gm.pk))[1] for n in range(count)]


def clone(template_phases: list[int], count: int, offset: int = 0) -> list[int]:
    """`count` copies of the campaigns whose open phases are `template_phases`, taken in turn,
    made in bulk; the copies' open phases' ids."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from junta.games import models as g
    from junta.games.models import Phase
    from junta.notify.models import Preferences

    User = get_user_model()
    sources = []
    for phase_id in template_phases:
        game = Phase.objects.get(pk=phase_id).game
        players = list(g.Player.objects.filter(game=game))
        sources.append({
            "game": game, "players": players,
            "characters": list(g.Character.objects.filter(player__game=game)),
            "phases": list(Phase.objects.filter(game=game)),
            "results": list(g.PhaseResult.objects.filter(phase__game=game)),
            "orders": list(g.Order.objects.filter(phase__game=game)),
            "positions": list(g.Position.objects.filter(game=game)),
            "cards": list(g.PoliticalCard.objects.filter(game=game)),
            "bills": list(g.Bill.objects.filter(game=game)),
            "units": list(g.Unit.objects.filter(game=game)),
            "prefs": list(Preferences.objects.filter(game=game)),
        })
    open_phases: list[int] = []
    for first in range(0, count, BATCH):
        numbers = range(offset + first, offset + min(count, first + BATCH))
        with transaction.atomic():
            open_phases += copy_batch([sources[n % len(sources)] for n in numbers], numbers,
                                      User)
    return open_phases


def copy(row, **changes):  # noqa: ANN001, ANN201 - any model instance
    """A new, unsaved instance with the row's field values, `changes` applied (by attname)."""
    values = {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields
              if not f.primary_key}
    values.update(changes)
    return type(row)(**values)


def copy_batch(batch: list[dict], numbers: range, User) -> list[int]:  # noqa: ANN001
    from junta.games import models as g
    from junta.games.models import Game, Phase, new_seed
    from junta.notify.models import Preferences

    games = Game.objects.bulk_create([
        copy(src["game"], name=f"Storm campaign {n}", invite_token=new_seed(),
             seed=f"storm-copy-{n}") for src, n in zip(batch, numbers, strict=True)])
    # what creating a campaign makes with it: its content revision (junta/games/revisions.py)
    g.ContentRevision.objects.bulk_create([g.ContentRevision(game=game) for game in games])
    users = User.objects.bulk_create([
        User(email=f"copy{n}-{i}@junta.test", display_name=f"Copy {n}.{i}", password="!")
        for n in numbers for i in range(PLAYERS)])
    by_user: list[dict[int, int]] = []
    players = []
    for k, (src, game) in enumerate(zip(batch, games, strict=True)):
        mine = users[k * PLAYERS:(k + 1) * PLAYERS]
        by_user.append({p.user_id: mine[i].pk for i, p in enumerate(src["players"])})
        players += [copy(p, game_id=game.pk, user_id=by_user[k][p.user_id])
                    for p in src["players"]]
    players = g.Player.objects.bulk_create(players)
    player_map: list[dict[int, int]] = []
    phases = []
    at = 0
    for src, game in zip(batch, games, strict=True):
        count = len(src["players"])
        player_map.append({old.pk: new.pk for old, new in
                           zip(src["players"], players[at:at + count], strict=True)})
        at += count
        phases += [copy(ph, game_id=game.pk) for ph in src["phases"]]
    phases = Phase.objects.bulk_create(phases)
    phase_map: list[dict[int, int]] = []
    at = 0
    for src in batch:
        count = len(src["phases"])
        phase_map.append({old.pk: new.pk for old, new in
                          zip(src["phases"], phases[at:at + count], strict=True)})
        at += count

    def holder(mapping: dict[int, int], pk: int | None) -> int | None:
        return mapping[pk] if pk is not None else None

    rows: dict[type, list] = {}
    for k, (src, game) in enumerate(zip(batch, games, strict=True)):
        pm, hm = phase_map[k], player_map[k]
        for model, items in (
            (g.Character, [copy(c, player_id=hm[c.player_id]) for c in src["characters"]]),
            (g.PhaseResult, [copy(r, phase_id=pm[r.phase_id]) for r in src["results"]]),
            (g.Order, [copy(o, phase_id=pm[o.phase_id], player_id=hm[o.player_id])
                       for o in src["orders"]]),
            (g.Position, [copy(p, game_id=game.pk, holder_id=holder(hm, p.holder_id))
                          for p in src["positions"]]),
            (g.PoliticalCard, [copy(c, game_id=game.pk, holder_id=holder(hm, c.holder_id))
                               for c in src["cards"]]),
            (g.Bill, [copy(b, game_id=game.pk) for b in src["bills"]]),
            (g.Unit, [copy(u, game_id=game.pk, owner_id=holder(hm, u.owner_id))
                      for u in src["units"]]),
            (Preferences, [copy(p, game_id=game.pk, user_id=by_user[k][p.user_id])
                           for p in src["prefs"]]),
        ):
            rows.setdefault(model, []).extend(items)
    for model, items in rows.items():
        model.objects.bulk_create(items, batch_size=2000)
    open_status = Phase.Status.OPEN
    return [new.pk for old, new in zip(
        [ph for src in batch for ph in src["phases"]], phases, strict=True)
        if old.status == open_status]


if __name__ == "__main__":
    main()
