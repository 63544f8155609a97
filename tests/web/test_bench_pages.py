"""bench/pages.py's pure parts (its JSON lines, the percentile, the speeches' pace, the database
it accepts), its speakers (only those the speech service lets speak) and its baseline page,
which only the benchmark's URLs have: the site's own (junta.urls) neither resolve nor reverse
it, and the benchmark's URL module refuses to load under the site's settings. The benchmark
itself runs end to end at a tiny size on the PostgreSQL it needs (skipped without it, failed
with JUNTA_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import importlib
import json
import random
import sys
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from bench import pages
from junta.engine import Status
from junta.games import repository
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.markdown import render_markdown
from junta.games.models import Speech
from junta.talk.models import Message
from tests.web.bench_runs import run_bench, scratch_database_url
from tests.web.campaigns import open_phase, state_of

BASELINE_PATH = "/bench/baseline/1/"


def test_the_percentile_is_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert pages.percentile(values, 50) == 50.0
    assert pages.percentile(values, 99) == 99.0
    assert pages.percentile(values, 100) == 100.0
    assert pages.percentile([7.0], 99) == 7.0
    assert pages.percentile([3.0, 1.0, 2.0], 50) == 2.0


def test_the_ratio_is_the_page_rate_over_the_baseline_rate():
    assert pages.ratio(50.0, 200.0) == 0.25
    assert pages.ratio(1.0, 3.0) == 0.333
    assert pages.ratio(10.0, 0.0) is None


def test_a_page_line_has_the_fields_in_order_rounded():
    run = pages.Run(seconds=[0.010, 0.020, 0.030, 0.040], failed=0, wall=2.0)
    line = pages.page_line("game_status", run, 8.0, queries=9, size=7691)
    assert list(line) == ["page", "req_per_s", "ratio", "p50_ms", "p99_ms", "queries", "bytes"]
    assert line == {"page": "game_status", "req_per_s": 2.0, "ratio": 0.25, "p50_ms": 20.0,
                    "p99_ms": 40.0, "queries": 9, "bytes": 7691}
    assert json.loads(json.dumps(line)) == line
    failing = pages.page_line("lobby", pages.Run([], failed=3, wall=1.0), 5.0, 7, 2000)
    assert failing["failed"] == 3
    assert (failing["req_per_s"], failing["ratio"], failing["p50_ms"]) == (0.0, 0.0, None)


def test_a_page_line_adds_the_run_that_drew_the_page_each_time():
    kept = pages.Run(seconds=[0.004] * 10, failed=0, wall=1.0)
    drawn = pages.Run(seconds=[0.010, 0.020, 0.030, 0.040], failed=2, wall=2.0)
    line = pages.page_line("game_status", kept, 20.0, 3, 7691, (drawn, 8))
    assert list(line)[:7] == ["page", "req_per_s", "ratio", "p50_ms", "p99_ms", "queries",
                              "bytes"]
    assert (line["req_per_s"], line["ratio"], line["queries"]) == (10.0, 0.5, 3)
    assert (line["drawn_req_per_s"], line["drawn_ratio"], line["drawn_p50_ms"],
            line["drawn_queries"], line["drawn_failed"]) == (2.0, 0.1, 20.0, 8, 2)


def test_the_baseline_line_pools_its_runs():
    runs = [pages.Run([0.01] * 100, 0, 1.0), pages.Run([0.02] * 300, 0, 1.0),
            pages.Run([0.03] * 200, 1, 1.0)]
    line = pages.baseline_line(runs, queries=3, size=1533)
    assert line["page"] == "baseline"
    assert (line["req_per_s"], line["ratio"], line["queries"], line["bytes"]) == (
        200.0, 1.0, 3, 1533)
    assert (line["p50_ms"], line["p99_ms"], line["failed"]) == (20.0, 30.0, 1)


def test_a_growth_line_says_whether_the_page_grows():
    line = pages.growth_line("game_history", (9, 1000), (10, 1500))
    assert line == {"page": "game_history", "queries_half": 9, "queries_full": 10,
                    "bytes_half": 1000, "bytes_full": 1500, "queries_grow": True,
                    "bytes_growth": 1.5}
    assert pages.growth_line("lobby", (7, 2000), (7, 2000))["queries_grow"] is False
    drawn_grows = pages.growth_line("game_events", (3, 900, 9), (3, 900, 10))
    assert (drawn_grows["drawn_queries_half"], drawn_grows["drawn_queries_full"],
            drawn_grows["queries_grow"]) == (9, 10, True)
    assert pages.growth_line("game_events", (3, 900, 9), (3, 900, 9))["queries_grow"] is False


def test_the_speeches_come_at_an_even_pace():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    end = start + timedelta(days=40)
    assert pages.speeches_due(2000, start, end, start) == 0
    assert pages.speeches_due(2000, start, end, start + timedelta(days=10)) == 500
    assert pages.speeches_due(2000, start, end, end) == 2000
    assert pages.speeches_due(2000, start, end, end + timedelta(days=1)) == 2000
    moments = pages.spread_times(start, start + timedelta(hours=4), 3)
    assert moments == [start + timedelta(hours=h) for h in (1, 2, 3)]


def test_speeches_are_markdown_the_site_renders():
    import random

    bodies = [pages.speech_body(random.Random("t"), n) for n in range(50)]
    assert bodies == [pages.speech_body(random.Random("t"), n) for n in range(50)]
    assert all(body.strip() and len(body) < 20000 for body in bodies)
    assert all("<p>" in str(render_markdown(body)) or "<ul>" in str(render_markdown(body))
               for body in bodies)


@pytest.mark.parametrize(("url", "why"), [
    ("", "needs PostgreSQL"),
    ("sqlite:///var/bench.sqlite3", "PostgreSQL"),
    ("postgres://postgres@127.0.0.1:5432/junta", "must contain 'bench'"),
])
def test_the_benchmark_refuses_a_database_it_must_not_drop(url, why):
    with pytest.raises(SystemExit, match=why):
        pages.check_database_url(url)


def test_the_benchmark_accepts_a_bench_database():
    url = "postgres://postgres@127.0.0.1:5432/junta_pages_bench"
    assert pages.check_database_url(url) == url
    assert pages.database_name(url) == "junta_pages_bench"


def test_main_refuses_before_touching_anything(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/junta")
    with pytest.raises(SystemExit, match="bench"):
        pages.main(["--phases", "1"])


def test_the_options_default_to_a_campaign_forty_days_in():
    args = pages.parse_args([])
    assert (args.phases, args.speeches, args.web_workers, args.connections, args.seconds,
            args.requests, args.growth, args.keep) == (40, 2000, 2, 50, 10.0, 0, False, False)
    assert (args.messages, args.end_report) == (40, True)
    assert pages.parse_args(["--no-end-report"]).end_report is False
    with pytest.raises(SystemExit):
        pages.parse_args(["--connections", "0"])


def test_the_site_has_no_baseline_page():
    with pytest.raises(Resolver404):
        resolve(BASELINE_PATH, urlconf="junta.urls")
    with pytest.raises(NoReverseMatch):
        reverse("bench_baseline", args=[1], urlconf="junta.urls")


def test_the_benchmarks_urls_refuse_to_load_into_the_site():
    sys.modules.pop("bench.baseline_urls", None)
    with pytest.raises(ImproperlyConfigured, match="must not be served by the site"):
        importlib.import_module("bench.baseline_urls")


@pytest.mark.django_db
@override_settings(ROOT_URLCONF="bench.baseline_urls")
def test_the_baseline_is_one_query_in_the_sites_layout(client):
    sys.modules.pop("bench.baseline_urls", None)
    User = get_user_model()
    gm = User.objects.create_user(email="baseline-gm@example.org")
    player = User.objects.create_user(email="baseline-player@example.org")
    game = create_game(gm, "Baseline")
    join_game(game.id, player, "Don Baseline")
    path = reverse("bench_baseline", args=[game.id])
    assert resolve(path).url_name == "bench_baseline"
    assert resolve(reverse("lobby")).url_name == "lobby"  # the site's pages are all there
    assert client.get(path).status_code == 302  # to the login page, as the site's pages
    client.force_login(player)
    client.get(path)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    page = response.content.decode()
    assert response.status_code == 200
    assert "1 player in this" in page and "Skip to content" in page  # base.html's layout
    own = [q["sql"] for q in queries.captured_queries if "games_player" in q["sql"]]
    assert len(own) == 1


def test_the_last_line_gives_every_pages_kept_and_drawn_ratio():
    kept = pages.Run([0.004] * 10, 0, 1.0)
    drawn = pages.Run([0.02] * 4, 1, 2.0)
    lines = [pages.page_line("game_status", kept, 20.0, 3, 7691, (drawn, 8)),
             pages.page_line("api_campaign", kept, 40.0, 10, 4000, (drawn, 10))]
    baseline = pages.baseline_line([pages.Run([0.01] * 20, 0, 1.0)], 3, 1500)
    line = pages.summary_line(lines, baseline)
    assert line["pages"] == ["game_status", "api_campaign"]
    assert line["kept"] == {"game_status": 0.5, "api_campaign": 0.25}
    assert line["drawn"] == {"game_status": 0.1, "api_campaign": 0.05}
    assert (line["baseline_req_per_s"], line["failed"]) == (20.0, 2)
    assert json.loads(json.dumps(line)) == line
    table = pages.table(lines).splitlines()
    assert table[1].split()[:3] == ["Status", "0.50", "0.10"]
    assert table[2].split()[:4] == ["API", "state", "0.25", "0.05"]


def test_every_page_the_issue_names_is_measured():
    names = [name for name, _what, _who in pages.PAGES]
    assert len(set(names)) == len(names)
    assert {"home", "lobby", "game_detail", "game_status", "game_orders", "game_events",
            "game_map", "game_history", "talk_conversation", "polls_index", "api_campaign",
            "gm_overview", "game_report"} == set(names)


@pytest.mark.django_db
def test_an_exile_neither_speaks_nor_talks_in_the_bench(campaign):
    """docs/rules.md §talk: "An exile may not trade or deal with anyone: he may read his
    conversations, but sends nothing until he returns, and may not make speeches". The bench
    asks the speech service who may speak, and talk's services who may write: an exile's
    seat is never chosen (it stopped the bench once, 'Comandante Rosa is in exile')."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    state = state_of(phase)
    exiles = {p.user_id for p in game.players.filter(seat__in=[0, 1])}
    for seat in (0, 1):
        state.players[seat].status = Status.EXILED
    repository.rewrite_state_before(phase, state)
    run = pages.Campaign(game.id, game.gm_id, [u.pk for u in users], phase.opens_at)
    speakers = pages.speakers(game.id)
    assert speakers[-1] == game.gm and len(speakers) == len(users) - 1
    assert not {u.pk for u in speakers} & exiles
    pages.post_speeches(run, phase, random.Random("exile"), 40)
    assert run.speeches == Speech.objects.filter(game=game).count() == 40
    assert not Speech.objects.filter(game=game, player__user_id__in=exiles).exists()
    assert pages.viewer(run) not in exiles
    pages.make_conversation(run, 6, random.Random("exile"))
    written = Message.objects.filter(conversation_id=run.conversation_id)
    assert written.count() == run.messages == 6
    assert not written.filter(author_id__in=exiles).exists()
    assert len(set(written.values_list("author_id", flat=True))) == 3  # he, another, the GM


def test_the_bench_runs_end_to_end_at_a_tiny_size(postgres):
    """Two days of a campaign, each page measured kept and drawn against the baseline by a
    few requests; the last line gives every page's two ratios (the end report's campaign is
    left out: the bots take half a minute to finish one)."""
    line, done = run_bench("pages.py", [
        "--phases", "2", "--speeches", "8", "--messages", "3", "--requests", "3",
        "--connections", "1", "--web-workers", "1", "--no-end-report"],
        DATABASE_URL=scratch_database_url(postgres, "pages_bench_smoke"))
    measured = [name for name, _what, _who in pages.PAGES if name != pages.REPORT]
    assert line["pages"] == measured and line["failed"] == 0
    assert set(line["kept"]) == set(line["drawn"]) == set(measured)
    assert all(ratio > 0 for ratio in [*line["kept"].values(), *line["drawn"].values()])
    assert line["baseline_req_per_s"] > 0
    lines = [json.loads(text) for text in done.stdout.splitlines()]
    setup, *each, baseline, _summary = lines
    assert (setup["speeches"], setup["messages"], setup["finished_campaign_phases"]) == \
        (8, 3, None)
    assert [page["page"] for page in each] == measured
    for page in each:
        assert page["queries"] > 0 and page["drawn_queries"] > 0 and page["bytes"] > 0
        assert page["ratio"] == line["kept"][page["page"]]
    assert (baseline["page"], baseline["ratio"]) == ("baseline", 1.0)
    assert "Status" in done.stderr and "API state" in done.stderr  # the table, for people
