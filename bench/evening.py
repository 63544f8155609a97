"""A busy evening: players by the hundred at their day's play while some campaigns fall due.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/junta_evening_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/14 \\
        python bench/evening.py [--players 1000] [--campaigns 100] [--seconds 120]
                                [--pace 20 | --rate R] [--due-share 0.1] [--web-workers 3]
                                [--concurrency 2] [--sweep-seconds S] [--clients 64] [--keep]

1. Creates the PostgreSQL database afresh (its name must contain "bench") and empties the Redis
   database of CELERY_BROKER_URL (a number of its own: it is flushed). `--database-url` and
   `--broker-url` name them instead of the environment.
2. Plays `--templates` campaigns of ten players through the services until their first
   President is elected (bench/deadline_storm.py's make_campaign), copies them in bulk
   (bench/adjudication_storm.py's clone) to `--campaigns` running campaigns, and takes back the
   bots' orders of every open phase: the players give their own. `--due-share` of the campaigns
   fall due during the evening (at whole minutes, when the minute sweep runs, as the site's
   deadlines do; with `--sweep-seconds`, spread over the evening's middle), the others
   tomorrow. Each simulated player gets a session of his own, stored as the site stores a login.
3. Starts the site as production does: gunicorn (`--web-workers` sync workers, DEBUG off), one
   Celery worker reading both queues (`--concurrency` processes) and one beat sending the sweep
   (every minute, or every `--sweep-seconds`).
4. `--players` simulated players (spread over the campaigns' seats) each do a player's day in
   a loop, one request every `--pace` seconds on average (or `--rate` requests a second in all),
   for `--seconds`: the dashboard, the Status page, the Events page (a speech now and then, with
   the page's form: only when the page offers it, so the dead and the exiled stay silent), the
   conversations (starting one with the page's form, writing in one, polling it as its page's
   script does), the Orders page (an order added with one of the forms the page offers, one
   changed, the orders marked final). Every form is read from the page and posted as a browser
   posts it, with the session and CSRF cookies and the form's CSRF token; redirects are
   followed. `--clients` threads send the requests; each is timed from send to last byte.
5. Waits for every due campaign's result (up to two minutes past its deadline), stops the
   processes (TERM), drops the database unless `--keep`, and prints one JSON line:
   {"players", "campaigns", "seconds", "requests", "req_per_s", "p50_ms", "p95_ms", "p99_ms",
   "errors", "adjudicated", "adjudication_lag_s", ...}: errors are answers no browser should
   get (5xx, 403, 404, none at all); a form the site refuses with its message (400: the phase
   closed meanwhile, an order the engine refuses) is "refused", not an error. `adjudicated`
   counts the due campaigns whose phase was published; the lag is the latest publication's
   seconds after its deadline (its result's published_at, which the worker stamps as it takes
   the phase up; null when one is missing).

Set-up: about 1 s a template campaign, then a few seconds per 100 copies. Never run by
`make test` (tests/web/test_bench_evening.py runs a tiny evening).
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import http.client
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html import unescape
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._common import (  # noqa: E402 - the repository is on sys.path now
    PLAYERS,
    peak_rss_mb,
    percentile,
    web_server,
)
from bench.pages import drop_database  # noqa: E402

HOST = "127.0.0.1"
WORKER_LOG = "worker.log"
BEAT_LOG = "beat.log"
# what a player does on a visit of the Events page, the conversations and the Orders page
SPEECH_SHARE = 0.2  # of the Events page's visits end in a speech
WRITE_SHARE = 0.4  # of the conversation's visits end in a message
POLLS = 3  # polls of the open conversation (its page's script) per visit
START_SHARE = 0.1  # of the conversations' visits start a new one (always, when he has none)
FINAL_SHARE = 0.3  # of the Orders page's visits with orders in mark them final
CHANGE_SHARE = 0.3  # ... change one of them
EXPECTED = {200, 302, 304}
REFUSED = {400, 409}  # the site's answer to a form it refuses, saying why


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    outcome: dict[str, object] = {
        "players": args.players, "campaigns": args.campaigns, "seconds": args.seconds,
        "requests": 0, "req_per_s": 0.0, "p50_ms": None, "p95_ms": None, "p99_ms": None,
        "errors": 0, "adjudicated": 0, "adjudication_lag_s": None}
    scratch = Path(tempfile.mkdtemp(prefix="junta-evening-"))
    processes: list[tuple[str, subprocess.Popen]] = []
    try:
        run(args, scratch, outcome, processes)
    except BaseException as exc:
        outcome["error"] = f"{type(exc).__name__}: {exc}"
        raise
    finally:
        for _name, process in processes:  # all at once (the worker's warm shutdown waits)
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for name, process in reversed(processes):
            outcome[f"{name}_exit"] = stop(process, scratch / f"{name}.log")
        say("stopped")
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
            if args.created:  # only the database this run created (its name checked)
                with contextlib.suppress(Exception):
                    drop_database(os.environ["DATABASE_URL"])
        if args.shared_redis and os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
            with contextlib.suppress(Exception):
                forget_keys(args)
        print(json.dumps(outcome), flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=1000,
                        help="simulated players, at most ten a campaign (default 1000)")
    parser.add_argument("--campaigns", type=int, default=100,
                        help="running campaigns of ten players (default 100)")
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="how long the players play (default 120)")
    parser.add_argument("--pace", type=float, default=20.0,
                        help="a player's mean seconds between two requests (default 20)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="requests a second from all the players together (sets the pace)")
    parser.add_argument("--due-share", type=float, default=0.1,
                        help="share of the campaigns that fall due during the evening (0.1)")
    parser.add_argument("--templates", type=int, default=4,
                        help="campaigns played by the bots, the others copied (default 4)")
    parser.add_argument("--web-workers", type=int, default=3,
                        help="gunicorn sync workers, as scripts/web-start (default 3)")
    parser.add_argument("--concurrency", type=int, default=2,
                        help="the Celery worker's processes, as docker-compose.yml (default 2)")
    parser.add_argument("--sweep-seconds", type=float, default=0.0,
                        help="beat sends the sweep this often instead of every whole minute")
    parser.add_argument("--clients", type=int, default=64,
                        help="client threads sending the players' requests (default 64)")
    parser.add_argument("--database-url", default="",
                        help="the PostgreSQL database to create afresh (default DATABASE_URL)")
    parser.add_argument("--broker-url", default="",
                        help="the Redis database to flush and use (default CELERY_BROKER_URL)")
    parser.add_argument("--shared-redis", action="store_true",
                        help="do not flush the Redis database: use queues and cache keys of "
                             "this run's own, and delete them at the end (for the smoke test)")
    parser.add_argument("--seed", default="evening", help="the players' random choices")
    parser.add_argument("--keep", action="store_true",
                        help="keep the database and the temporary folder afterwards")
    args = parser.parse_args(argv)
    if min(args.players, args.campaigns, args.templates, args.web_workers, args.concurrency,
           args.clients) < 1 or args.seconds <= 0 or args.pace <= 0 or args.rate < 0 \
            or not 0 <= args.due_share <= 1 or args.sweep_seconds < 0:
        parser.error("counts must be at least 1, --seconds and --pace above 0, --rate and "
                     "--sweep-seconds not negative, --due-share between 0 and 1")
    if args.players > PLAYERS * args.campaigns:
        parser.error(f"--players: at most {PLAYERS} a campaign ({PLAYERS * args.campaigns})")
    args.templates = min(args.templates, args.campaigns)
    if args.rate:
        args.pace = args.players / args.rate
    args.tag = f"evening-{os.getpid()}"
    args.created = False
    return args


# --- the set-up ---------------------------------------------------------------------------------

def prepare(args: argparse.Namespace, scratch: Path) -> None:
    """The environment every process shares: the scratch folder, production's settings (DEBUG
    off), the database created afresh, the Redis database flushed."""
    from bench._common import prepare_environment

    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    broker = args.broker_url or os.environ.get("CELERY_BROKER_URL", "")
    url = os.environ.get("DATABASE_URL", "")
    if not url or not broker.startswith("redis://"):
        raise SystemExit("bench/evening.py needs PostgreSQL and Redis: set DATABASE_URL (a "
                         "database named *bench*, dropped and created afresh) and "
                         "CELERY_BROKER_URL (redis://host:port/N, a database it flushes)")
    if urlsplit(url).scheme not in {"postgres", "postgresql", "pgsql"}:
        raise SystemExit("DATABASE_URL must name a PostgreSQL database: the evening is "
                         "measured as production runs it.")
    prepare_environment(scratch)  # checks the name, creates it afresh, pops the broker's
    args.created = True
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ["CACHE_URL"] = broker
    os.environ["CACHE_KEY_PREFIX"] = args.tag
    if args.sweep_seconds:
        os.environ["JUNTA_SWEEP_INTERVAL_SECONDS"] = str(args.sweep_seconds)
    import redis

    if args.shared_redis:  # queues and cache keys of this run's own, dropped at the end
        os.environ["JUNTA_CELERY_QUEUE"] = args.tag
    else:
        redis.Redis.from_url(broker).flushdb()


def forget_keys(args: argparse.Namespace) -> None:
    """With --shared-redis, the keys this run left in Redis (its queues' and cache's)."""
    import redis

    server = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    for key in server.scan_iter(match=f"*{args.tag}*"):
        server.delete(key)


@dataclass
class Seat:
    game_id: int
    user_id: int
    cookie: str = ""  # the session's cookie, NAME=value


def make_campaigns(args: argparse.Namespace) -> tuple[list[int], list[Seat]]:
    """The running campaigns (their open phases' ids) and their seated players, campaign by
    campaign. The open phases hold no orders: the players give theirs."""
    from django.contrib.auth import get_user_model

    from bench.adjudication_storm import analyze, clone
    from bench.deadline_storm import make_campaign
    from junta.games.models import Order, Phase, Player

    gm = get_user_model().objects.create_user(email="evening-gm@junta.test", display_name="GM")
    templates = [make_campaign((n, gm.pk))[1] for n in range(args.templates)]
    phases = templates + clone(templates, args.campaigns - len(templates))
    Order.objects.filter(phase_id__in=phases).delete()
    analyze()  # the statistics a site's tables have (autovacuum's), not those of empty ones
    games = dict(Phase.objects.filter(pk__in=phases).values_list("pk", "game_id"))
    seats: dict[int, list[Seat]] = {}
    for game_id, user_id in Player.objects.filter(
            game_id__in=games.values(), membership=Player.Membership.ACTIVE).order_by(
            "game_id", "seat").values_list("game_id", "user_id"):
        seats.setdefault(game_id, []).append(Seat(game_id, user_id))
    return phases, [seat for phase in phases for seat in seats[games[phase]]]


def chosen_players(seats: list[Seat], campaigns: int, count: int) -> list[Seat]:
    """`count` seats spread over the campaigns: the first seat of every campaign, then the
    second, ..."""
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    order = [s for k in range(PLAYERS) for group in by_game.values() if k < len(group)
             for s in [group[k]]]
    return order[:count]


def log_in(seats: list[Seat]) -> None:
    """A session for each player, stored as the site stores a login (Django's session engine,
    its authentication keys), and its cookie."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    store = import_module(settings.SESSION_ENGINE).SessionStore
    users = get_user_model().objects.in_bulk([s.user_id for s in seats])
    backend = settings.AUTHENTICATION_BACKENDS[0]
    for seat in seats:
        session = store()
        user = users[seat.user_id]
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = backend
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        seat.cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def deadlines(count: int, start: float, seconds: float, sweep_seconds: float) -> list[float]:
    """When the `count` due campaigns fall due (epoch seconds), the evening starting at `start`:
    at the whole minutes inside it, when the minute sweep runs (the first whole minute after
    its start when none is); with a sweep every `sweep_seconds`, spread evenly over its
    middle fifth to three fifths."""
    if count == 0:
        return []
    if sweep_seconds:
        first, last = start + 0.2 * seconds, start + 0.6 * seconds
        return [first + (last - first) * (i + 0.5) / count for i in range(count)]
    minutes = [60.0 * m for m in range(math.ceil((start + 5) / 60),
                                       math.floor((start + seconds - 5) / 60) + 1)]
    if not minutes:
        minutes = [60.0 * math.ceil((start + 5) / 60)]
    return [minutes[i % len(minutes)] for i in range(count)]


# --- the processes ----------------------------------------------------------------------------

def spawn_celery(scratch: Path, name: str, command: list[str]) -> subprocess.Popen:
    log = open(scratch / f"{name}.log", "w")  # noqa: SIM115 - the process's, closed with it
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "junta.celery", *command],
                            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))


def ready(scratch: Path, name: str, process: subprocess.Popen, line: str) -> None:
    """Waits until the process's log says `line` (at most a minute)."""
    limit = time.monotonic() + 60
    while line not in (scratch / f"{name}.log").read_text():
        if process.poll() is not None or time.monotonic() > limit:
            raise RuntimeError(f"the {name} did not start: "
                               + (scratch / f"{name}.log").read_text()[-2000:])
        time.sleep(0.1)


_began = time.monotonic()


def say(text: str) -> None:
    """A stage of the run, on stderr (stdout has the JSON line only)."""
    print(f"[{time.monotonic() - _began:6.1f} s] {text}", file=sys.stderr, flush=True)


def stop(process: subprocess.Popen, log_path: Path) -> str:
    """Waits for the process sent TERM (a warm shutdown for the worker), killed after 60 s;
    the errors its log shows."""
    if process.poll() is None:
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return "killed after 60 s"
    log = log_path.read_text() if log_path.exists() else ""
    errors = [line for line in log.splitlines() if "ERROR/" in line or "Traceback" in line]
    return f"exit {process.returncode}" + (f"; {len(errors)} error line(s): {errors[:3]}"
                                           if errors else "")


# --- the run ----------------------------------------------------------------------------------

def run(args: argparse.Namespace, scratch: Path, outcome: dict[str, object],
        processes: list[tuple[str, subprocess.Popen]]) -> None:
    prepare(args, scratch)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections
    from django.utils import timezone

    from junta.games.models import Phase

    began = time.monotonic()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    say("migrated")
    call_command("collectstatic", interactive=False, verbosity=0)
    say("static files collected")
    phases, seats = make_campaigns(args)
    say(f"{len(phases)} campaigns made")
    players = chosen_players(seats, args.campaigns, args.players)
    log_in(players)
    rng = random.Random(args.seed)
    due = rng.sample(phases, math.ceil(args.due_share * len(phases)))
    tomorrow = timezone.now() + timedelta(days=1)
    Phase.objects.filter(pk__in=phases).update(deadline=tomorrow)
    outcome["setup_seconds"] = round(time.monotonic() - began, 1)
    connections.close_all()

    say(f"set-up: {outcome['setup_seconds']} s")
    worker = spawn_celery(scratch, "worker", [
        "worker", "--loglevel=INFO", f"--concurrency={args.concurrency}", "--without-gossip",
        "--without-mingle"])
    processes.append(("worker", worker))
    beat = spawn_celery(scratch, "beat", ["beat", "--loglevel=INFO",
                                          f"--schedule={scratch / 'celerybeat-schedule'}"])
    processes.append(("beat", beat))
    with web_server(args.web_workers) as (port, _pid):
        ready(scratch, "worker", worker, " ready.")
        ready(scratch, "beat", beat, "beat: Starting")
        say("gunicorn, the worker and beat started")
        evening = Evening(port, players, args.pace, args.seed)
        evening.warm(args.web_workers)
        say("warmed up")
        start = time.time()
        times = deadlines(len(due), start, args.seconds, args.sweep_seconds)
        at = {}
        for phase_id, moment in zip(due, times, strict=True):
            at[phase_id] = moment
            Phase.objects.filter(pk=phase_id).update(
                deadline=datetime.fromtimestamp(moment, tz=UTC))
        connections.close_all()
        load_before = os.getloadavg()[0]
        client_cpu = time.process_time()
        samples = evening.play(args.clients, args.seconds)
        # the simulated players' own CPU seconds: they share the machine with the site
        outcome["client_cpu_s"] = round(time.process_time() - client_cpu, 1)
        outcome.update(summary(samples, args.seconds, len(players) / args.pace))
        outcome["load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
        say(f"the evening is over: {outcome['requests']} requests")
        outcome.update(wait_for_results(at))
        say("the due campaigns waited for")
        outcome["worker_peak_rss_mb"] = peak_rss_mb(worker.pid)


def wait_for_results(at: dict[int, float]) -> dict[str, object]:
    """Waits until every due phase is published, or two minutes past the last deadline."""
    from django.db import connections

    from junta.games.models import PhaseResult

    limit = max(at.values(), default=time.time()) + 120
    published: dict[int, float] = {}
    while True:
        for phase_id, when in PhaseResult.objects.filter(
                phase_id__in=at, published_at__isnull=False).values_list("phase_id",
                                                                         "published_at"):
            published[phase_id] = when.timestamp()
        if len(published) == len(at) or time.time() > limit:
            break
        time.sleep(0.5)
    connections.close_all()
    lags = [max(0.0, published[p] - at[p]) for p in published]
    return {"adjudicated": len(published),
            "adjudication_lag_s": round(max(lags), 1) if lags and len(published) == len(at)
            else (None if at else 0.0),
            "due": len(at)}


def summary(samples: list[Sample], seconds: float, offered: float) -> dict[str, object]:
    """The JSON line's figures; `offered`: the requests a second the players' pace asks for
    (more than req_per_s when the site or the client threads fall behind, late_p99_ms says by
    how much)."""
    ms = [1000 * s.seconds for s in samples if s.status in EXPECTED | REFUSED]
    statuses = Counter(s.status for s in samples)
    errors = [s for s in samples if s.status not in EXPECTED | REFUSED]
    by_action: dict[str, list[float]] = {}
    for s in samples:
        by_action.setdefault(s.what, []).append(1000 * s.seconds)
    out: dict[str, object] = {
        "requests": len(samples), "req_per_s": round(len(samples) / seconds, 1),
        "p50_ms": round(percentile(ms, 50), 1) if ms else None,
        "p95_ms": round(percentile(ms, 95), 1) if ms else None,
        "p99_ms": round(percentile(ms, 99), 1) if ms else None,
        "errors": len(errors),
        "offered_per_s": round(offered, 1),
        "late_p99_ms": round(1000 * percentile([s.late for s in samples], 99), 1)
        if samples else None,
        "refused": sum(statuses[s] for s in REFUSED),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        # what the players did: how many of each, and how fast the site answered (ms)
        "actions": {what: [len(times), round(percentile(times, 50), 1),
                           round(percentile(times, 99), 1)]
                    for what, times in sorted(by_action.items(), key=lambda i: -len(i[1]))},
    }
    refusals = Counter(f"{s.what}: {s.refusal}" for s in samples if s.refusal)
    if refusals:
        out["refusals"] = dict(refusals.most_common(5))
    if errors:
        out["error_examples"] = sorted({f"{s.status} {s.method} {s.path}"
                                        for s in errors})[:5]
    return out


# --- the players ------------------------------------------------------------------------------

@dataclass
class Sample:
    what: str
    method: str
    path: str
    status: int
    seconds: float
    refusal: str = ""  # what the page said when it refused the form
    late: float = 0.0  # seconds it was sent after its time (every client thread was busy)


@dataclass
class Answer:
    status: int
    body: str
    location: str = ""


@dataclass
class Ask:
    """One request of a player: what it is for, the method, the path, the form's fields."""
    what: str
    path: str
    data: list[tuple[str, str]] | None = None
    think: bool = True  # a pause before it (a redirect followed is not)
    headers: dict[str, str] = field(default_factory=dict)


class Browser:
    """A player's browser: his cookies (the session's, then the CSRF cookie and the messages
    the site sets), one request at a time over a new connection (gunicorn's sync workers close
    each after its answer)."""

    def __init__(self, port: int, cookie: str) -> None:
        self.port = port
        name, value = cookie.split("=", 1)
        self.cookies = {name: value}

    def send(self, ask: Ask) -> tuple[Answer, float]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Accept": "text/html", **ask.headers}
        body = None
        if ask.data is not None:
            body = urlencode(ask.data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        started = time.perf_counter()
        try:
            conn.request("POST" if ask.data is not None else "GET", ask.path, body, headers)
            response = conn.getresponse()
            data = response.read()
            seconds = time.perf_counter() - started
            for header in response.headers.get_all("Set-Cookie") or []:
                self.keep(header)
            return Answer(response.status, data.decode("utf-8", "replace"),
                          response.headers.get("Location", "")), seconds
        except (OSError, http.client.HTTPException):
            return Answer(0, ""), time.perf_counter() - started
        finally:
            conn.close()

    def keep(self, header: str) -> None:
        for name, morsel in SimpleCookie(header).items():
            if morsel["max-age"] == "0" or "1970" in morsel["expires"] or not morsel.value:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = morsel.value


class Player:
    """One simulated player: his browser and his day, a generator of requests that is sent
    each answer."""

    def __init__(self, port: int, seat: Seat, rng: random.Random) -> None:
        self.browser = Browser(port, seat.cookie)
        self.game = seat.game_id
        self.rng = rng
        self.day = self.days()
        self.next: Ask = next(self.day)
        self.answer = Answer(0, "")

    def step(self) -> tuple[Sample, bool]:
        """Sends the next request; returns its sample and whether a pause comes before the
        one after."""
        ask = self.next
        answer, seconds = self.browser.send(ask)
        if answer.status in (301, 302, 303) and answer.location:
            follow = Ask(f"{ask.what} (redirect)", urlsplit(answer.location).path +
                         (f"?{urlsplit(answer.location).query}"
                          if urlsplit(answer.location).query else ""), think=False)
            self.next = follow
        else:
            self.answer = answer
            self.next = self.day.send(answer)
        refusal = ""
        if answer.status in REFUSED:
            said = ERROR.search(answer.body) or ALERT.search(answer.body)
            refusal = re.sub(r"<[^>]+>|\s+", " ", said.group(1)).strip()[:160] if said else "?"
        return (Sample(ask.what, "POST" if ask.data is not None else "GET",
                       ask.path, answer.status, seconds, refusal), self.next.think)

    def days(self) -> Generator[Ask, Answer, None]:
        """His visits, over and over: each player starts at a visit of his own (the evening
        is a moment of everyone's day, not its start)."""
        base = f"/games/{self.game}"
        talks: list[str] = []
        visits: list[Callable[[], Generator[Ask, Answer, None]]] = [
            lambda: self.page("dashboard", "/"),
            lambda: self.page("status", f"{base}/status/"),
            lambda: self.events(base),
            lambda: self.talk(base, talks),
            lambda: self.orders(base),
            lambda: self.page("status", f"{base}/status/"),
        ]
        first = self.rng.randrange(len(visits))
        visits = visits[first:] + visits[:first]
        while True:
            for visit in visits:
                yield from visit()

    def page(self, what: str, path: str) -> Generator[Ask, Answer, None]:
        yield Ask(what, path)

    def events(self, base: str) -> Generator[Ask, Answer, None]:
        page = yield Ask("events", f"{base}/events/")
        form = find_form(page.body, 'name="body"',
                         lambda f: f.has("body") and f.action == f"{base}/events/")
        if form is not None and self.rng.random() < SPEECH_SHARE:  # offered: he may speak
            form.set("body", speech(self.rng))
            yield Ask("speech", form.action, form.submission())

    def talk(self, base: str, talks: list[str]) -> Generator[Ask, Answer, None]:
        page = yield Ask("conversations", f"{base}/talk/")
        talks[:] = sorted(set(re.findall(rf'href="({base}/talk/\d+/)"', page.body)))
        start = find_form(page.body, f'action="{base}/talk/new/"',
                          lambda f: f.action == f"{base}/talk/new/")
        if start is not None and (not talks or self.rng.random() < START_SHARE):
            others = start.values("players")
            if others:
                start.tick("players", self.rng.sample(others, min(len(others),
                                                                  self.rng.randint(1, 3))))
                start.set("subject", f"A word in private {self.rng.randrange(10**6)}")
                start.set("body", speech(self.rng))
                yield Ask("conversation start", start.action, start.submission())
            return
        if not talks:
            return
        path = self.rng.choice(talks)
        page = yield Ask("conversation", path)
        poll = re.search(r'data-talk-poll="([^"]+)" data-after="(\d+)"', page.body)
        form = find_form(page.body, 'name="body"',
                         lambda f: f.has("body") and f.action in ("", path))
        if form is not None and self.rng.random() < WRITE_SHARE:
            form.set("body", speech(self.rng))
            yield Ask("conversation write", path, form.submission())
        if poll is None:
            return
        url, after = unescape(poll.group(1)), poll.group(2)
        etag = ""
        for _ in range(POLLS):
            answer = yield Ask("conversation poll", f"{url}?after={after}&read=1",
                               headers={"Accept": "application/json",
                                        **({"If-None-Match": etag} if etag else {})})
            if answer.status == 200:
                with contextlib.suppress(ValueError, KeyError):
                    after = str(json.loads(answer.body)["last"])

    def orders(self, base: str) -> Generator[Ask, Answer, None]:
        path = f"{base}/orders/"
        page = yield Ask("orders", path)
        # the page's forms as text: only the one sent is read as a browser reads it
        texts = list(form_texts(page.body, 'name="action"'))
        adds = [t for t in texts if 'name="action" value="add"' in t]
        final = next((t for t in texts if 'name="action" value="final"' in t), None)
        changes = sorted(set(re.findall(r'href="\?change=(\d+)', page.body)))
        roll = self.rng.random()
        if final is not None and changes and roll < FINAL_SHARE:
            yield Ask("orders final", path, parse_form(final).submission())
        elif changes and roll < FINAL_SHARE + CHANGE_SHARE:
            page = yield Ask("orders change form", f"{path}?change={self.rng.choice(changes)}")
            form = find_form(page.body, 'name="action" value="change"',
                             lambda f: f.value("action") == "change")
            if form is not None:
                form.vary(self.rng)
                yield Ask("orders change", path, form.submission())
        elif adds:
            form = parse_form(self.rng.choice(adds))
            form.vary(self.rng)
            yield Ask("orders add", path, form.submission())


def speech(rng: random.Random) -> str:
    words = ("the aid money", "the Presidente", "my loyal troops", "the Bank", "the palace",
             "a coup", "the budget", "the gunboat", "the radio", "the students", "the embassy")
    return " ".join(f"{rng.choice(words).capitalize()} is {rng.choice(words)}."
                    for _ in range(rng.randint(1, 6)))


class Evening:
    """The players, each one request at a time at his pace, sent by a pool of client threads
    from one schedule: the request due first goes first."""

    def __init__(self, port: int, seats: list[Seat], pace: float, seed: str) -> None:
        self.pace = pace
        self.players = [Player(port, seat, random.Random(f"{seed}-{n}"))
                        for n, seat in enumerate(seats)]
        self.rng = random.Random(seed)

    def warm(self, workers: int) -> None:
        """Every page of the day asked by as many players at once as gunicorn has workers,
        twice, unmeasured, so that each worker has loaded what it loads once."""
        def day(player: Player) -> None:
            base = f"/games/{player.game}"
            for _ in range(2):
                for path in ("/", f"{base}/status/", f"{base}/events/", f"{base}/talk/",
                             f"{base}/orders/"):
                    player.browser.send(Ask("warm", path))

        threads = [threading.Thread(target=day, args=(player,))
                   for player in self.players[:workers]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def play(self, clients: int, seconds: float) -> list[Sample]:
        """The requests answered within the `seconds` (those still under way then are not
        counted)."""
        lock = threading.Condition()
        start = time.monotonic()
        end = start + seconds
        # each player's first request somewhere in his first pause: a steady pace from the start
        queue = [(start + self.rng.uniform(0, self.pace), n) for n in range(len(self.players))]
        heapq.heapify(queue)
        samples: list[Sample] = []

        def client() -> None:
            while True:
                with lock:
                    while True:
                        now = time.monotonic()
                        if now >= end:
                            return
                        if queue and queue[0][0] <= now:
                            due, n = heapq.heappop(queue)
                            break
                        lock.wait(min(end, queue[0][0] if queue else end) - now)
                sample, pause = self.players[n].step()
                sample.late = now - due
                after = time.monotonic()
                with lock:
                    if after < end:
                        samples.append(sample)
                    heapq.heappush(queue, (after + (self.rng.expovariate(1 / self.pace)
                                                    if pause else 0.0), n))
                    lock.notify()

        threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return samples


# --- forms, read from the page as a browser reads them ------------------------------------------

# what a page says when it refuses a form: a field's message, else the page's
ERROR = re.compile(r'<(?:div|p)\b[^>]*class="error[^"]*"[^>]*>(.*?)</(?:div|p)>', re.DOTALL)
ALERT = re.compile(r'<div\b[^>]*class="message message-error[^"]*"[^>]*>(.*?)</div>', re.DOTALL)
CONDITION = re.compile(r"-if(_|$)")  # the condition's fields of an order form ("order-pay-if")
FORM = re.compile(r"<form\b.*?</form>", re.DOTALL | re.IGNORECASE)


@dataclass
class Field:
    kind: str  # an input's type, "select", "textarea"
    name: str
    value: str = ""
    checked: bool = False
    options: list[tuple[str, bool]] = field(default_factory=list)  # value, selected


@dataclass
class Form:
    action: str
    fields: list[Field] = field(default_factory=list)

    def has(self, name: str) -> bool:
        return any(f.name == name for f in self.fields)

    def value(self, name: str) -> str | None:
        return next((f.value for f in self.fields if f.name == name), None)

    def values(self, name: str) -> list[str]:
        return [f.value for f in self.fields if f.name == name]

    def set(self, name: str, value: str) -> None:
        next(f for f in self.fields if f.name == name).value = value

    def tick(self, name: str, values: list[str]) -> None:
        for f in self.fields:
            if f.name == name:
                f.checked = f.value in values

    def vary(self, rng: random.Random) -> None:
        """Choose another of the choices one list of the form offers, as a player changing
        his mind does (the form offers only what the engine allows)."""
        lists = [f for f in self.fields if f.kind == "select" and len(f.options) > 1
                 and not CONDITION.search(f.name)]  # an order's own choices, no condition
        if lists:
            chosen = rng.choice(lists)
            pick = rng.choice(chosen.options)[0]
            chosen.options = [(v, v == pick) for v, _ in chosen.options]

    def submission(self) -> list[tuple[str, str]]:
        """What the browser sends: every named control in document order; a list's selected
        choice (its first when none is), ticked boxes only, no buttons."""
        pairs = []
        for f in self.fields:
            if not f.name or f.kind in ("submit", "button", "reset", "image", "file"):
                continue
            if f.kind in ("checkbox", "radio"):
                if f.checked:
                    pairs.append((f.name, f.value or "on"))
            elif f.kind == "select":
                chosen = [v for v, selected in f.options if selected] or \
                    [v for v, _ in f.options[:1]]
                pairs += [(f.name, v) for v in chosen[-1:]]
            else:
                pairs.append((f.name, f.value))
        return pairs


class _FormReader(HTMLParser):
    def __init__(self, action: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form = Form(action)
        self._select: Field | None = None
        self._option: list | None = None
        self._text: Field | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input":
            self.form.fields.append(Field(a.get("type", "text").lower(), a.get("name", ""),
                                          a.get("value", ""), "checked" in a))
        elif tag == "select":
            self._select = Field("select", a.get("name", ""))
            self.form.fields.append(self._select)
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "", "selected" in a]
        elif tag == "textarea":
            self._text = Field("textarea", a.get("name", ""))
            self.form.fields.append(self._text)

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option[1] += data
        elif self._text is not None:
            self._text.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag in ("option", "select") and self._option is not None and self._select:
            value, text, selected = self._option
            self._select.options.append((text.strip() if value is None else value, selected))
            self._option = None
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._text = None


def form_texts(html: str, needle: str) -> Iterator[str]:
    """The page's forms holding `needle`, as HTML."""
    for match in FORM.finditer(html):
        if needle in match.group(0):
            yield match.group(0)


def parse_form(text: str) -> Form:
    head = text[:text.index(">") + 1]
    action = re.search(r'\baction="([^"]*)"', head)
    reader = _FormReader(unescape(action.group(1)) if action else "")
    reader.feed(text)
    reader.close()
    return reader.form


def find_form(html: str, needle: str, test: Callable[[Form], bool]) -> Form | None:
    """The first form of the page holding `needle` that passes `test`."""
    return next((f for f in map(parse_form, form_texts(html, needle)) if test(f)), None)


if __name__ == "__main__":
    main()
