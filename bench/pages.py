"""Page speed: every page of a campaign 40 days in, each against a baseline page, under gunicorn.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/junta_pages_bench \\
        python bench/pages.py [--phases 40] [--speeches 2000] [--web-workers 2]
                              [--connections 50] [--seconds 10 | --requests N] [--growth] [--keep]

1. Creates the PostgreSQL database of DATABASE_URL afresh: it is dropped first, so its name must
   contain "bench" (the benchmark refuses any other, and SQLite). Celery's broker and the cache
   are the embedded ones, in a temporary folder; no worker runs.
2. Makes one campaign through the services, as the site does: a GM and ten players
   (create_game, join_game), started (start_campaign) `--phases` days ago and played by the
   engine's bots phase by phase, each phase adjudicated at its deadline (adjudicate_phase),
   until `--phases` phases are published or the open phase's deadline is still to come (the
   campaign is 40 days in by default: about 30-40 phases, elections last two days). Meanwhile
   `--speeches` speeches are posted through the speech service (post_speech, so stored as the
   site stores them), at an even pace over those days: each phase gets its share while it is
   open, dated within it; some answer an earlier speech.
3. Counts, for each page, the database queries it takes and its size: one request through
   Django's test client in this process, same settings, after one to warm up. `--growth` counts
   them also when half the phases (or half the days) are played, and prints whether they grow.
4. Serves the database with gunicorn as production does (bench/_common.py's web_server: DEBUG
   off, `--web-workers` sync workers) under bench/bench_settings.py: junta.settings plus one page
   that only the benchmark has, the baseline (bench/baseline_urls.py: one query, a small
   template in the site's layout). Then, page after page, the baseline right before the page,
   so that each ratio compares two runs made under the same conditions: `--connections` client
   threads, each one request at a time over its own http.client connection (kept open; gunicorn's
   sync workers close it after each answer, so it reconnects), for `--seconds` seconds (or
   `--requests` requests in all), after a few requests to warm every worker.
5. Prints JSON lines: first the machine and the set-up; then one per page, {"page", "req_per_s",
   "ratio", "p50_ms", "p99_ms", "queries", "bytes"}, where ratio = the page's requests per second
   / the baseline's in the run right before it; then the baseline's own line (its runs pooled,
   req_per_s their median); with `--growth`, one line per page {"page", "queries_half",
   "queries_full", "bytes_half", "bytes_full", "queries_grow", "bytes_growth"}.

The pages are the player's Status, Orders, Events, Map and History pages of the campaign, the
lobby, all as a living player, and the GM's overview as the GM (not staff). The database is
dropped at the end unless `--keep`. With the defaults, on two cores: under a minute of set-up
(38 phases in the 40 days), then 14 runs of `--seconds` (each page and its baseline run) and
their warm-ups: about three minutes in all. The client threads share the machine with
gunicorn and PostgreSQL, as the first line's load average shows. Never run by `make test`.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

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

SETTINGS = "bench.bench_settings"
GM_EMAIL = "pages-gm@junta.test"
HOST = "127.0.0.1"
BASELINE = "baseline"
# (the name the JSON lines give the page, its URL's name, who asks for it); the URLs of the
# campaign's pages take its id, the lobby's nothing.
PAGES = [
    ("game_status", "player"),
    ("game_orders", "player"),
    ("game_events", "player"),
    ("game_map", "player"),
    ("game_history", "player"),
    ("gm_overview", "gm"),
    ("lobby", "player"),
]
NO_ARGUMENT = {"lobby"}
REPLY_SHARE = 0.25  # of the speeches answer one of the last few


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    url = check_database_url(os.environ.get("DATABASE_URL", ""))
    scratch = Path(tempfile.mkdtemp(prefix="junta-pages-"))
    try:
        run(args, scratch)
    finally:
        if args.keep:
            print(f"kept the database {database_name(url)} and {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
            try:
                drop_database(url)
            except Exception as exc:  # noqa: BLE001 - said, and the run's own outcome stands
                print(f"could not drop the database {database_name(url)}: {exc}",
                      file=sys.stderr)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--phases", type=int, default=40,
                        help="phases to play, and days the campaign has run (default 40)")
    parser.add_argument("--speeches", type=int, default=2000,
                        help="speeches posted over those days (default 2000)")
    parser.add_argument("--web-workers", type=int, default=2,
                        help="gunicorn sync workers (default 2)")
    parser.add_argument("--connections", type=int, default=50,
                        help="concurrent HTTP clients, each one request at a time (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds each page (and each baseline run) is measured (default 10)")
    parser.add_argument("--requests", type=int, default=0,
                        help="measure each page by this many requests instead of --seconds")
    parser.add_argument("--growth", action="store_true",
                        help="count each page's queries and bytes at half size too")
    parser.add_argument("--keep", action="store_true",
                        help="keep the database (and the temporary folder) afterwards")
    args = parser.parse_args(argv)
    if min(args.phases, args.web_workers, args.connections) < 1 or args.speeches < 0 \
            or args.seconds <= 0 or args.requests < 0:
        parser.error("--phases, --web-workers and --connections must be at least 1, --seconds "
                     "above 0, --speeches and --requests not negative")
    return args


# --- the database -----------------------------------------------------------------------------

def check_database_url(url: str) -> str:
    """`url` when it names a PostgreSQL database whose name contains "bench" (the benchmark
    drops it and creates it afresh), else SystemExit saying why."""
    if not url:
        raise SystemExit("bench/pages.py needs PostgreSQL: set DATABASE_URL to a database it may "
                         "drop and create afresh, whose name contains 'bench', e.g. "
                         "DATABASE_URL=postgres://postgres@127.0.0.1:5432/junta_pages_bench")
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise SystemExit(f"DATABASE_URL must name a PostgreSQL database, not {parts.scheme!r}: "
                         "the pages are measured as production serves them.")
    name = database_name(url)
    if "bench" not in name:
        raise SystemExit(f"DATABASE_URL names the database {name!r}: bench/pages.py drops it and "
                         "creates it afresh, so its name must contain 'bench' "
                         "(e.g. junta_pages_bench).")
    return url


def database_name(url: str) -> str:
    return unquote(urlsplit(url).path.lstrip("/"))


def drop_database(url: str) -> None:
    import psycopg

    with contextlib.suppress(Exception):  # Django may not be set up yet
        from django.db import connections

        connections.close_all()
    server = urlsplit(url)._replace(path="/postgres", query="").geturl()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database_name(url)}" WITH (FORCE)')


# --- the campaign -----------------------------------------------------------------------------

@dataclass
class Campaign:
    game_id: int
    gm_id: int
    user_ids: list[int]
    started: datetime
    phases: int = 0  # published
    speeches: int = 0
    finished: bool = False
    half: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # --growth's first count


def speeches_due(total: int, start: datetime, end: datetime, at: datetime) -> int:
    """How many of `total` speeches, posted at an even pace from `start` to `end`, are posted
    by `at` (all of them from `end` on)."""
    if at >= end or end <= start:
        return total
    if at <= start:
        return 0
    return round(total * ((at - start) / (end - start)))


def spread_times(start: datetime, end: datetime, count: int) -> list[datetime]:
    """`count` moments evenly inside (start, end), in order."""
    step = (end - start) / (count + 1)
    return [start + step * (i + 1) for i in range(count)]


def speech_body(rng: random.Random, n: int) -> str:
    """A speech in Markdown, as players write them: a few paragraphs, some emphasis, now and
    then a list, a quotation or a link."""
    words = ("the aid money", "the Presidente", "my loyal troops", "the Bank", "the palace",
             "the Minister of the Interior", "a coup", "the budget", "the gunboat", "the radio",
             "the people of Papayas", "my cousin the Colonel", "the students", "the embassy",
             "the harbour", "the Archbishop", "my Swiss account", "the last election")
    verbs = ("will never betray", "has always defended", "must protect", "cannot forget",
             "demands justice for", "laughs at", "knows everything about", "will vote against")

    def sentence() -> str:
        return f"{rng.choice(words).capitalize()} {rng.choice(verbs)} {rng.choice(words)}."

    paragraphs = []
    for _ in range(rng.randint(1, 4)):
        text = " ".join(sentence() for _ in range(rng.randint(1, 5)))
        style = rng.random()
        if style < 0.15:
            text = f"**{text}**"
        elif style < 0.3:
            text = f"*{text}*"
        paragraphs.append(text)
    extra = rng.random()
    if extra < 0.1:
        paragraphs.append("\n".join(f"- {sentence()}" for _ in range(rng.randint(2, 4))))
    elif extra < 0.2:
        paragraphs.insert(0, f"> {sentence()}")
    elif extra < 0.25:
        paragraphs.append(f"See [the rules](https://junta.example.org/rules/#n{n}).")
    return "\n\n".join(paragraphs)


def make_campaign(args: argparse.Namespace, growth: bool) -> Campaign:
    """The campaign, played through the services (see the module's docstring)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from junta.engine import why_no_orders
    from junta.engine.bots import bot_orders
    from junta.engine.rng import Rng
    from junta.games import adjudication
    from junta.games.campaigns import create_game, join_game, start_campaign
    from junta.games.models import Game, Phase

    User = get_user_model()
    gm = User.objects.create_user(email=GM_EMAIL, display_name="Pages GM")
    users = [User.objects.create_user(email=f"pages-{i}@junta.test",
                                      display_name=f"Player {i}") for i in range(PLAYERS)]
    game = create_game(gm, "Pages campaign", join_policy=Game.JoinPolicy.OPEN)
    Game.objects.filter(pk=game.pk).update(seed="pages-bench")
    for user, character in zip(users, CHARACTERS, strict=True):
        join_game(game.id, user, character)
    now = timezone.now()
    started = now - timedelta(days=args.phases)
    phase = start_campaign(game.id, gm, now=started)
    campaign = Campaign(game.id, gm.pk, [u.pk for u in users], started)
    bots = Rng("pages-bots")
    rng = random.Random("pages-speeches")
    speakers = [*users, gm]
    half_at = started + (now - started) / 2
    while True:
        end = min(phase.deadline, now)
        post_speeches(campaign, phase, speakers, rng,
                      speeches_due(args.speeches, started, now, end) - campaign.speeches)
        if phase.deadline > now or campaign.phases >= args.phases:
            break  # the open phase: it is today's, or the campaign has played its phases
        play_bots(phase, bots, bot_orders, why_no_orders)
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
        campaign.phases += 1
        next_phase = Phase.objects.filter(game_id=game.id, status=Phase.Status.OPEN).first()
        if next_phase is None:
            campaign.finished = True  # the bots ended the game: the pages show a finished one
            break
        phase = next_phase
        if growth and not campaign.half and (2 * campaign.phases >= args.phases
                                             or phase.opens_at >= half_at):
            campaign.half = page_sizes(campaign)  # the speeches are up to date: the first count
    if campaign.speeches < args.speeches:
        # the phases all played before the days were over (or the bots ended the game): the
        # speeches left go to the last phase
        post_speeches(campaign, phase, speakers, rng, args.speeches - campaign.speeches)
    return campaign


def post_speeches(campaign: Campaign, phase, speakers: list, rng: random.Random,  # noqa: ANN001
                  count: int) -> None:
    """`count` speeches in `phase` (the campaign's latest) through the speech service, dated
    evenly within the part of the phase not yet spoken in (up to its deadline or now)."""
    from django.utils import timezone

    from junta.games.models import Game, Speech
    from junta.games.speeches import post_speech

    if count <= 0:
        return
    game = Game.objects.get(pk=campaign.game_id)
    earlier = list(Speech.objects.filter(game=game, phase=phase)
                   .order_by("-created_at").values_list("created_at", flat=True)[:1])
    start = max([phase.opens_at, *earlier])
    end = min(phase.deadline, timezone.now())
    recent: list[int] = list(Speech.objects.filter(game=game).order_by("-created_at", "-id")
                             .values_list("pk", flat=True)[:10])
    posted = []
    for _ in range(count):
        speaker = speakers[-1] if rng.random() < 0.05 else rng.choice(speakers[:-1])
        reply_to = rng.choice(recent) if recent and rng.random() < REPLY_SHARE else None
        speech = post_speech(game, speaker, speech_body(rng, campaign.speeches), reply_to)
        campaign.speeches += 1
        posted.append(speech)
        recent = [speech.pk, *recent[:9]]
    # post_speech dates a speech now; the site would have dated these while the phase was open
    for speech, moment in zip(posted, spread_times(start, end, len(posted)), strict=True):
        speech.created_at = moment
    Speech.objects.bulk_update(posted, ["created_at"])


def viewer(campaign: Campaign) -> int:
    """The user id of the first seat whose family may act in the open phase (alive), else of
    seat 0: the player the pages are measured as."""
    from junta.engine import why_no_orders
    from junta.games import repository
    from junta.games.models import Phase, Player

    phase = Phase.objects.filter(game_id=campaign.game_id).order_by("-number").first()
    seats = dict(Player.objects.filter(game_id=campaign.game_id, membership="active")
                 .values_list("seat", "user_id"))
    if phase is not None:
        state = repository.state_before(phase)
        for seat in sorted(seats):
            if seat < len(state.players) and why_no_orders(state, seat) is None:
                return seats[seat]
    return seats.get(0, campaign.user_ids[0])


def paths(campaign: Campaign) -> dict[str, str]:
    """Each page's path (the baseline's too)."""
    from django.urls import reverse

    from bench.baseline_urls import BASELINE_URL_NAME

    out = {name: reverse(name) if name in NO_ARGUMENT else reverse(name, args=[campaign.game_id])
           for name, _who in PAGES}
    out[BASELINE] = reverse(BASELINE_URL_NAME, args=[campaign.game_id])
    return out


def logged_in(user_id: int):  # noqa: ANN201 - a django.test.Client
    """A test client logged in as the user, asking as the bench's host."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client(HTTP_HOST=HOST)
    client.force_login(get_user_model().objects.get(pk=user_id))
    return client


def page_sizes(campaign: Campaign) -> dict[str, tuple[int, int, int]]:
    """Each page's (queries, bytes, queries to draw it): one request through the test client,
    after one to warm up (the first in a process fills caches: content types, templates), as a
    browser asks (its CSRF cookie sent: a page this viewer has seen since the campaign last
    changed is served as kept, junta/games/page_cache.py); then one without the CSRF cookie,
    which is drawn."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    clients = {"player": logged_in(viewer(campaign)), "gm": logged_in(campaign.gm_id)}
    for client in clients.values():
        client.get(reverse("lobby"))  # a page with a form sets the CSRF cookie, as in a browser
    who = dict(PAGES) | {BASELINE: "player"}
    out = {}
    for name, path in paths(campaign).items():
        client = clients[who[name]]
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{name} ({path}) answered {response.status_code}, not 200")
        del client.cookies[settings.CSRF_COOKIE_NAME]
        with CaptureQueriesContext(connection) as drawing:
            client.get(path)
        out[name] = (len(queries.captured_queries), len(response.content),
                     len(drawing.captured_queries))
    return out


def browser_cookies(user_id: int) -> tuple[str, str]:
    """(the Cookie header of a browser logged in as the user: its session and its CSRF
    cookie; the same with the session only, so that every page is drawn anew)."""
    from django.conf import settings
    from django.urls import reverse

    client = logged_in(user_id)
    client.get(reverse("lobby"))  # a page with a form: the CSRF cookie is set
    session = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    csrf = f"{settings.CSRF_COOKIE_NAME}={client.cookies[settings.CSRF_COOKIE_NAME].value}"
    return f"{session}; {csrf}", session


# --- the load ---------------------------------------------------------------------------------

@dataclass
class Run:
    """One page measured: the latency of each answered request (seconds), how many failed
    (no answer, or not 200), and the wall time of the whole run."""
    seconds: list[float]
    failed: int
    wall: float

    @property
    def req_per_s(self) -> float:
        return len(self.seconds) / self.wall if self.wall > 0 else 0.0


def load(port: int, path: str, cookie: str, connections: int, seconds: float,
         requests: int) -> Run:
    """`connections` threads, each one GET of `path` at a time on its own connection: for
    `seconds`, or `requests` requests in all when it is not 0."""
    latencies: list[float] = []
    failed = 0
    lock = threading.Lock()
    issued = 0
    began = time.perf_counter()
    stop_at = began + seconds

    def loop() -> None:
        nonlocal issued, failed
        conn = http.client.HTTPConnection(HOST, port, timeout=120)
        while True:
            if requests:
                with lock:
                    if issued >= requests:
                        break
                    issued += 1
            elif time.perf_counter() >= stop_at:
                break
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers={"Cookie": cookie})
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                ok = False
            took = time.perf_counter() - started
            with lock:
                if ok:
                    latencies.append(took)
                else:
                    failed += 1
        conn.close()

    threads = [threading.Thread(target=loop) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Run(latencies, failed, time.perf_counter() - began)


def warm(port: int, path: str, cookie: str, workers: int) -> None:
    """A few requests from as many connections as there are workers, so that each worker has
    served the page (its templates compiled, its database connection open) before it counts."""
    load(port, path, cookie, workers, 0, 3 * workers)


# --- the report -------------------------------------------------------------------------------

def ratio(page_rate: float, baseline_rate: float) -> float | None:
    """The page's requests per second over the baseline's (None without a baseline rate)."""
    return round(page_rate / baseline_rate, 3) if baseline_rate > 0 else None


def page_line(page: str, run: Run, baseline_rate: float, queries: int, size: int,
              drawn: tuple[Run, int] | None = None) -> dict:
    """The JSON line of one page (milliseconds rounded to 0.1, the ratio to 0.001); with
    `drawn` (the run where each request drew the page anew, and the queries of one), its
    rate, ratio, median and queries under "drawn_"."""
    ms = [1000 * s for s in run.seconds]
    line = {
        "page": page,
        "req_per_s": round(run.req_per_s, 1),
        "ratio": ratio(run.req_per_s, baseline_rate),
        "p50_ms": round(percentile(ms, 50), 1) if ms else None,
        "p99_ms": round(percentile(ms, 99), 1) if ms else None,
        "queries": queries,
        "bytes": size,
    }
    if run.failed:
        line["failed"] = run.failed
    if drawn is not None:
        again, drawn_queries = drawn
        again_ms = [1000 * s for s in again.seconds]
        line |= {"drawn_req_per_s": round(again.req_per_s, 1),
                 "drawn_ratio": ratio(again.req_per_s, baseline_rate),
                 "drawn_p50_ms": round(percentile(again_ms, 50), 1) if again_ms else None,
                 "drawn_queries": drawn_queries}
        if again.failed:
            line["drawn_failed"] = again.failed
    return line


def baseline_line(runs: list[Run], queries: int, size: int) -> dict:
    """The baseline's JSON line: its runs' latencies pooled, req_per_s the median of their
    rates, ratio 1."""
    pooled = Run([s for r in runs for s in r.seconds], sum(r.failed for r in runs),
                 sum(r.wall for r in runs))
    line = page_line(BASELINE, pooled, pooled.req_per_s, queries, size)
    line["req_per_s"] = round(statistics.median(r.req_per_s for r in runs), 1) if runs else 0.0
    line["ratio"] = 1.0
    return line


def growth_line(page: str, half: tuple[int, ...], full: tuple[int, ...]) -> dict:
    """Whether the page's queries (served as kept, and drawn: the third number, when counted)
    or its size grow from half the campaign to all of it."""
    line = {
        "page": page,
        "queries_half": half[0], "queries_full": full[0],
        "bytes_half": half[1], "bytes_full": full[1],
        "queries_grow": full[0] > half[0],
        "bytes_growth": round(full[1] / half[1], 3) if half[1] else None,
    }
    if len(half) > 2 and len(full) > 2:
        line |= {"drawn_queries_half": half[2], "drawn_queries_full": full[2]}
        line["queries_grow"] = line["queries_grow"] or full[2] > half[2]
    return line


def emit(line: dict) -> None:
    print(json.dumps(line), flush=True)


# --- the run ----------------------------------------------------------------------------------

def run(args: argparse.Namespace, scratch: Path) -> None:
    load_before = [round(x, 2) for x in os.getloadavg()]
    began = time.monotonic()
    database = prepare_environment(scratch)  # drops and creates the database
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    import logging

    import django

    django.setup()
    # the filesystem broker's "No hostname was supplied" each time a publication queues mail
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    campaign = make_campaign(args, args.growth)
    full = page_sizes(campaign)
    where = paths(campaign)
    cookies = {"player": browser_cookies(viewer(campaign)),
               "gm": browser_cookies(campaign.gm_id)}
    connections.close_all()
    emit({
        "cpus": os.cpu_count(), "load_average_before_setup": load_before,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "setup_seconds": round(time.monotonic() - began, 1),
        "phases": campaign.phases, "days": args.phases, "speeches": campaign.speeches,
        "finished": campaign.finished, "database": database, "web_workers": args.web_workers,
        "connections": args.connections,
        "measure": f"{args.requests} requests" if args.requests else f"{args.seconds:g} s",
    })
    baseline_runs: list[Run] = []
    failed = 0
    with web_server(args.web_workers) as (port, _pid):
        base_path, base_cookie = where[BASELINE], cookies["player"][0]
        warm(port, base_path, base_cookie, args.web_workers)
        for name, who in PAGES:
            base = load(port, base_path, base_cookie, args.connections, args.seconds,
                        args.requests)
            baseline_runs.append(base)
            kept, anew = cookies[who]
            warm(port, where[name], kept, args.web_workers)
            page = load(port, where[name], kept, args.connections, args.seconds, args.requests)
            drawn = load(port, where[name], anew, args.connections, args.seconds,
                         args.requests)
            failed += base.failed + page.failed + drawn.failed
            queries, size, drawn_queries = full[name]
            emit(page_line(name, page, base.req_per_s, queries, size, (drawn, drawn_queries)))
    emit(baseline_line(baseline_runs, *full[BASELINE][:2]))
    if args.growth:
        for name, _who in [*PAGES, (BASELINE, "player")]:
            if name in campaign.half:
                emit(growth_line(name, campaign.half[name], full[name]))
    if failed:
        raise SystemExit(f"{failed} requests failed (no answer, or not 200)")


if __name__ == "__main__":
    main()
