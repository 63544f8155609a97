"""Page speed: every page of a campaign 40 days in, each against a baseline page, under gunicorn.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/junta_pages_bench \\
        python bench/pages.py [--phases 40] [--speeches 2000] [--messages 40] [--no-end-report]
                              [--web-workers 2] [--connections 50] [--seconds 10 | --requests N]
                              [--growth] [--keep]

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
   open, dated within it, each by someone the service lets speak then (`speaker_for` and
   `why_silent`: never an exile); some answer an earlier speech. The GM asks make run's demo
   polls (`demo_polls`) as the campaign starts. Once the phases are played, the measured player
   (the first who may act and deal with the others) starts a conversation through talk's
   services with another player the rules let him deal with and the GM, `--messages` messages
   long (so the conversation has no half-size count). Unless `--no-end-report`, the same
   people then play a second campaign, played by the bots to its natural end as make run's
   finished demo campaign is (`simulate`, with that demo's talk, polls and awards; about half a
   minute on a quiet machine), for its end report.
3. Counts, for each page, the database queries it takes and its size: one request through
   Django's test client in this process, same settings, after two to warm up, as a browser
   asks (its session and CSRF cookies: a page its viewer has seen since the campaign last
   changed is served as kept, junta/games/page_cache.py); then the queries of one request
   right after the campaign changed (its content revision raised, `revisions.bump`), which
   draws the page anew. `--growth` counts them also when half the phases (or half the days)
   are played, and prints whether they grow (the dashboard's full count also has the
   conversation and the finished campaign to show, which its half count has not).
4. Serves the database with gunicorn as production does (bench/_common.py's web_server: DEBUG
   off, `--web-workers` sync workers) under bench/bench_settings.py: junta.settings plus one page
   that only the benchmark has, the baseline (bench/baseline_urls.py: one query, a small
   template in the site's layout), and the API's rate limits off. Then, page after page, the
   baseline right before the page, so that each ratio compares runs made under the same
   conditions: `--connections` client threads, each one request at a time over its own
   http.client connection (kept open; gunicorn's sync workers close it after each answer, so it
   reconnects), for `--seconds` seconds (or `--requests` requests in all), after a few requests
   to warm every worker. Each page is measured twice: kept (the same browser asking again and
   again: served from the page cache when the page is kept) and drawn (before each request the
   client raises the campaign's revision, as any change does, in a transaction of its own:
   untimed, though the rate counts it, so every request draws the page anew).
5. Prints JSON lines: first the machine and the set-up; then one per page, {"page", "req_per_s",
   "ratio", "p50_ms", "p99_ms", "queries", "bytes", "drawn_req_per_s", "drawn_ratio",
   "drawn_p50_ms", "drawn_queries"}, where ratio = the page's requests per second kept / the
   baseline's in the run right before it, drawn_ratio the same drawn; then the baseline's own
   line (its runs pooled, req_per_s their median); with `--growth`, one line per page
   {"page", "queries_half", "queries_full", "bytes_half", "bytes_full", "queries_grow",
   "bytes_growth", ...}; and last {"summary", "pages", "kept": {page: ratio}, "drawn": {page:
   ratio}, "baseline_req_per_s", "failed"}. A table of the ratios goes to stderr.

The pages (named by their URL names; the API's state is "api_campaign") are the dashboard, the
lobby, the running campaign's Families, Status, Orders, Events, Map and History pages, the
player's conversation, the polls page and the API's state of the campaign, all as that
player; the GM's overview as the GM (not staff); and the finished campaign's end report as the
same player. The database is dropped at the end unless `--keep`. With the defaults, on two
cores: about a minute and a half of set-up, then 39 runs of `--seconds` (each page kept and
drawn and its baseline run) and their warm-ups: about eight minutes in all. The client threads
share the machine with gunicorn and PostgreSQL, as the first line's load average shows. Never
run by `make test` but at a tiny size (tests/web/test_bench_pages.py).
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
from collections.abc import Callable
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
REPORT = "game_report"
# Every page measured: (the name the JSON lines give it, what it is, who asks for it). The name
# is the page's URL name (the API's state has none: "api_campaign"); the end report is the
# finished campaign's, every other campaign page the running campaign's.
PAGES = [
    ("home", "Dashboard", "player"),
    ("lobby", "Lobby", "player"),
    ("game_detail", "Families", "player"),
    ("game_status", "Status", "player"),
    ("game_orders", "Orders", "player"),
    ("game_events", "Events", "player"),
    ("game_map", "Map", "player"),
    ("game_history", "History", "player"),
    ("talk_conversation", "Conversation", "player"),
    ("polls_index", "Polls", "player"),
    ("api_campaign", "API state", "player"),
    ("gm_overview", "GM overview", "gm"),
    (REPORT, "End report", "player"),
]
NO_ARGUMENT = {"home", "lobby"}
REPLY_SHARE = 0.25  # of the speeches answer one of the last few
GM_SHARE = 0.05  # of the speeches are the GameMaster's


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
    parser.add_argument("--messages", type=int, default=40,
                        help="messages in the player's conversation (default 40)")
    parser.add_argument("--no-end-report", dest="end_report", action="store_false",
                        help="play no finished campaign, and so measure no end report (the "
                             "bots take about half a minute to play one to its end)")
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
    if min(args.phases, args.web_workers, args.connections, args.messages) < 1 \
            or args.speeches < 0 or args.seconds <= 0 or args.requests < 0:
        parser.error("--phases, --messages, --web-workers and --connections must be at least "
                     "1, --seconds above 0, --speeches and --requests not negative")
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
    conversation_id: int = 0  # the measured player's conversation
    messages: int = 0
    report_game_id: int | None = None  # the finished campaign, whose end report is measured
    report_phases: int = 0
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
    from junta.polls.public import demo_polls

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
    demo_polls(game)  # the GameMaster's polls, one open with live results, as make run's demo
    campaign = Campaign(game.id, gm.pk, [u.pk for u in users], started)
    bots = Rng("pages-bots")
    rng = random.Random("pages-speeches")
    half_at = started + (now - started) / 2
    while True:
        end = min(phase.deadline, now)
        post_speeches(campaign, phase, rng,
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
        post_speeches(campaign, phase, rng, args.speeches - campaign.speeches)
    make_conversation(campaign, args.messages, rng)
    return campaign


def speakers(game_id: int) -> list:
    """The people who may make a speech in the campaign now, as the speech service decides it
    (`speaker_for`, `why_silent`: an exile may not, the dead may), the GameMaster last."""
    from junta.games.public import Game, speaker_for, why_silent

    game = Game.objects.select_related("gm").get(pk=game_id)
    out = []
    for player in game.players.filter(membership="active").select_related("user") \
            .order_by("seat"):
        speaker = speaker_for(game, player.user)
        if speaker is not None and why_silent(game, speaker[0]) is None:
            out.append(player.user)
    return [*out, game.gm]


def post_speeches(campaign: Campaign, phase, rng: random.Random,  # noqa: ANN001
                  count: int) -> None:
    """`count` speeches in `phase` (the campaign's latest) through the speech service, each by
    someone it lets speak now (`speakers`), dated evenly within the part of the phase not yet
    spoken in (up to its deadline or now)."""
    from django.utils import timezone

    from junta.games.models import Game, Speech
    from junta.games.speeches import post_speech

    if count <= 0:
        return
    game = Game.objects.get(pk=campaign.game_id)
    *players, gm = speakers(campaign.game_id)
    earlier = list(Speech.objects.filter(game=game, phase=phase)
                   .order_by("-created_at").values_list("created_at", flat=True)[:1])
    start = max([phase.opens_at, *earlier])
    end = min(phase.deadline, timezone.now())
    recent: list[int] = list(Speech.objects.filter(game=game).order_by("-created_at", "-id")
                             .values_list("pk", flat=True)[:10])
    posted = []
    for _ in range(count):
        speaker = gm if not players or rng.random() < GM_SHARE else rng.choice(players)
        reply_to = rng.choice(recent) if recent and rng.random() < REPLY_SHARE else None
        speech = post_speech(game, speaker, speech_body(rng, campaign.speeches), reply_to)
        campaign.speeches += 1
        posted.append(speech)
        recent = [speech.pk, *recent[:9]]
    # post_speech dates a speech now; the site would have dated these while the phase was open
    for speech, moment in zip(posted, spread_times(start, end, len(posted)), strict=True):
        speech.created_at = moment
    Speech.objects.bulk_update(posted, ["created_at"])


def make_conversation(campaign: Campaign, count: int, rng: random.Random) -> None:
    """The measured player's conversation, through talk's services: with the first other
    player the rules of talk let him deal with and the GameMaster (the GameMaster alone when
    the rules silence him or everyone else), `count` messages written in turn by its members
    (each by someone talk lets write to them: `why_silent`)."""
    from django.contrib.auth import get_user_model

    from junta.games.public import Game, why_silent
    from junta.talk.public import post, reader_for, start

    game = Game.objects.select_related("gm").get(pk=campaign.game_id)
    me = reader_for(game, get_user_model().objects.get(pk=viewer(campaign)))
    assert me is not None  # the viewer is seated
    others = [] if why_silent(game, me.player) else [
        p for p in game.players.filter(membership="active").exclude(pk=me.player.pk)
        .select_related("user").order_by("seat") if why_silent(game, p) is None][:1]
    writers = [me, *(reader_for(game, p.user) for p in others), reader_for(game, game.gm)]
    talk = start(me, "Between us, about the budget", others, True, speech_body(rng, 0))
    for n in range(1, count):
        writer = writers[n % len(writers)]
        assert writer is not None
        post(talk, writer, speech_body(rng, n))
    campaign.conversation_id, campaign.messages = talk.pk, count


def make_finished(campaign: Campaign) -> None:
    """A campaign the same people finished: played by the engine's bots to its natural end (the
    money deck runs out) through the services, as `make run`'s finished demo campaign is, with
    that demo's speeches, polls and conversations made as it went, its conversation revealed
    and its awards voted; its end report is measured."""
    from django.contrib.auth import get_user_model

    from junta.games.public import Game, Phase
    from junta.games.simulation import simulate
    from junta.polls.public import awards_for_first, polls_during_first
    from junta.talk.public import reveal_first, talk_during_first

    def talk(game: Game, phase: Phase) -> None:
        talk_during_first(game, phase)
        polls_during_first(game, phase)

    User = get_user_model()
    users = [User.objects.get(pk=pk) for pk in campaign.user_ids]
    game = simulate(gm=User.objects.get(pk=campaign.gm_id), players=users,
                    name="Pages campaign, finished", days=400, seed="pages-bench-finished",
                    on_phase=talk)
    if game.status != Game.Status.FINISHED:
        raise SystemExit(f"the bots did not finish the campaign {game.name!r} in 400 days")
    reveal_first(game)
    awards_for_first(game)
    campaign.report_game_id = game.pk
    campaign.report_phases = game.phases.count()


def viewer(campaign: Campaign) -> int:
    """The player the pages are measured as: the user id of the first seat whose family may
    act in the open phase (alive, `why_no_orders`) and deal with the others (not in exile,
    `why_silent`), else the first that may act, else seat 0's."""
    from junta.engine import why_no_orders
    from junta.games import repository
    from junta.games.public import Game, why_silent

    game = Game.objects.get(pk=campaign.game_id)
    phase = game.phases.order_by("-number").first()
    players = {p.seat: p for p in game.players.filter(membership="active")}
    if phase is not None:
        state = repository.state_before(phase)
        acting = [p for seat, p in sorted(players.items())
                  if seat < len(state.players) and why_no_orders(state, seat) is None]
        talking = [p for p in acting if why_silent(game, p) is None]
        if talking or acting:
            return (talking or acting)[0].user_id
    return players[0].user_id if 0 in players else campaign.user_ids[0]


def paths(campaign: Campaign) -> dict[str, str]:
    """Each page's path (the baseline's too); the conversation's once it is made, the end
    report's only with a finished campaign."""
    from django.urls import reverse

    from bench.baseline_urls import BASELINE_URL_NAME

    game = campaign.game_id
    out = {}
    for name, _what, _who in PAGES:
        if name in NO_ARGUMENT:
            out[name] = reverse(name)
        elif name == "api_campaign":
            out[name] = f"/api/v1/campaigns/{game}"  # the API's own router names no URL
        elif name == "talk_conversation":
            if campaign.conversation_id:  # made once the phases are played
                out[name] = reverse(name, args=[game, campaign.conversation_id])
        elif name == REPORT:
            if campaign.report_game_id is not None:
                out[name] = reverse(name, args=[campaign.report_game_id])
        else:
            out[name] = reverse(name, args=[game])
    out[BASELINE] = reverse(BASELINE_URL_NAME, args=[game])
    return out


def changed(campaign: Campaign, name: str) -> Callable[[], None]:
    """What makes the page's campaign change: its content revision raised, as by any change
    made to it (`junta.games.revisions.bump`, in a transaction of its own), so that the next
    request draws the page anew (the dashboard and the lobby are drawn from the running
    campaign among others)."""
    from django.db import transaction

    from junta.games.revisions import bump

    game = campaign.report_game_id if name == REPORT else campaign.game_id
    assert game is not None

    def change() -> None:
        with transaction.atomic():
            bump(game)

    return change


def logged_in(user_id: int):  # noqa: ANN201 - a django.test.Client
    """A test client logged in as the user, asking as the bench's host."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client(HTTP_HOST=HOST)
    client.force_login(get_user_model().objects.get(pk=user_id))
    return client


def page_sizes(campaign: Campaign) -> dict[str, tuple[int, int, int]]:
    """Each page's (queries, bytes, queries to draw it): one request through the test client,
    after two to warm up (the first in a process fills caches: content types, templates), as a
    browser asks (its CSRF cookie sent: a page this viewer has seen since the campaign last
    changed is served as kept, junta/games/page_cache.py); then one after the campaign changed
    (`changed`), which draws it anew."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    clients = {"player": logged_in(viewer(campaign)), "gm": logged_in(campaign.gm_id)}
    for client in clients.values():
        client.get(reverse("lobby"))  # a page with a form sets the CSRF cookie, as in a browser
    who = {name: asker for name, _what, asker in PAGES} | {BASELINE: "player"}
    out = {}
    for name, path in paths(campaign).items():
        client = clients[who[name]]
        client.get(path)
        client.get(path)  # a page whose first view writes (Events: what he has read) is kept next
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{name} ({path}) answered {response.status_code}, not 200")
        if name != BASELINE:
            changed(campaign, name)()
        with CaptureQueriesContext(connection) as drawing:
            client.get(path)
        out[name] = (len(queries.captured_queries), len(response.content),
                     len(drawing.captured_queries))
    return out


def browser_cookie(user_id: int) -> str:
    """The Cookie header of a browser logged in as the user: its session and its CSRF
    cookie."""
    from django.conf import settings
    from django.urls import reverse

    client = logged_in(user_id)
    client.get(reverse("lobby"))  # a page with a form: the CSRF cookie is set
    session = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    csrf = f"{settings.CSRF_COOKIE_NAME}={client.cookies[settings.CSRF_COOKIE_NAME].value}"
    return f"{session}; {csrf}"


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
         requests: int, before: Callable[[], None] | None = None) -> Run:
    """`connections` threads, each one GET of `path` at a time on its own connection: for
    `seconds`, or `requests` requests in all when it is not 0. With `before`, each thread calls
    it before each of its requests (untimed, but within the run's wall time: its rate counts
    it), on a database connection of its own."""
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
            if before is not None:
                before()
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
        if before is not None:
            from django.db import connection

            connection.close()  # this thread's

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


def summary_line(lines: list[dict], baseline: dict) -> dict:
    """The last line: every page's kept and drawn ratios (None: not measured), the baseline's
    rate, and how many requests failed."""
    return {
        "summary": "ratios to the baseline page",
        "pages": [line["page"] for line in lines],
        "kept": {line["page"]: line["ratio"] for line in lines},
        "drawn": {line["page"]: line.get("drawn_ratio") for line in lines},
        "baseline_req_per_s": baseline["req_per_s"],
        "failed": sum(line.get("failed", 0) + line.get("drawn_failed", 0)
                      for line in [*lines, baseline]),
    }


def table(lines: list[dict]) -> str:
    """The ratios for people: a row a page."""
    titles = {name: what for name, what, _who in PAGES}
    rows = [f"{'page':<14}{'kept':>8}{'drawn':>8}{'queries':>9}{'drawn q.':>9}{'bytes':>10}"]
    for line in lines:
        rows.append(f"{titles.get(line['page'], line['page']):<14}"
                    f"{_cell(line['ratio'])}{_cell(line.get('drawn_ratio'))}"
                    f"{line['queries']:>9}{line.get('drawn_queries', ''):>9}{line['bytes']:>10,}")
    return "\n".join(rows)


def _cell(ratio: float | None) -> str:
    return f"{ratio:>8.2f}" if ratio is not None else f"{'-':>8}"


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
    # the filesystem broker's "No hostname was supplied" each time a publication queues mail;
    # the finished campaign's months of phases need not scroll past
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    logging.getLogger("junta.games.adjudication").setLevel(logging.WARNING)
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    campaign = make_campaign(args, args.growth)
    if args.end_report:
        make_finished(campaign)
    full = page_sizes(campaign)
    where = paths(campaign)
    cookies = {"player": browser_cookie(viewer(campaign)), "gm": browser_cookie(campaign.gm_id)}
    connections.close_all()
    emit({
        "cpus": os.cpu_count(), "load_average_before_setup": load_before,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "setup_seconds": round(time.monotonic() - began, 1),
        "phases": campaign.phases, "days": args.phases, "speeches": campaign.speeches,
        "finished": campaign.finished, "messages": campaign.messages,
        "finished_campaign_phases": campaign.report_phases if args.end_report else None,
        "database": database, "web_workers": args.web_workers,
        "connections": args.connections,
        "measure": f"{args.requests} requests" if args.requests else f"{args.seconds:g} s",
    })
    baseline_runs: list[Run] = []
    lines: list[dict] = []
    with web_server(args.web_workers) as (port, _pid):
        base_path, base_cookie = where[BASELINE], cookies["player"]
        warm(port, base_path, base_cookie, args.web_workers)
        for name, _what, who in PAGES:
            if name not in where:
                continue  # the end report, without a finished campaign
            base = load(port, base_path, base_cookie, args.connections, args.seconds,
                        args.requests)
            baseline_runs.append(base)
            cookie = cookies[who]
            warm(port, where[name], cookie, args.web_workers)
            page = load(port, where[name], cookie, args.connections, args.seconds,
                        args.requests)
            drawn = load(port, where[name], cookie, args.connections, args.seconds,
                         args.requests, before=changed(campaign, name))
            queries, size, drawn_queries = full[name]
            lines.append(page_line(name, page, base.req_per_s, queries, size,
                                   (drawn, drawn_queries)))
            emit(lines[-1])
    baseline = baseline_line(baseline_runs, *full[BASELINE][:2])
    emit(baseline)
    if args.growth:
        for name in [*(name for name, _what, _who in PAGES), BASELINE]:
            if name in campaign.half and name in full:
                emit(growth_line(name, campaign.half[name], full[name]))
    summary = summary_line(lines, baseline)
    print(table(lines), file=sys.stderr, flush=True)
    emit(summary)
    if summary["failed"]:
        raise SystemExit(f"{summary['failed']} requests failed (no answer, or not 200)")


if __name__ == "__main__":
    main()
