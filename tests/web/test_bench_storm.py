"""The adjudication-storm benchmark measures real campaigns: its bulk copies of a campaign played
through the services hold the same rows (new ids, new players' accounts) and adjudicate to the
very same result, so the time it measures is the time of the campaigns it copied. Both storm
benchmarks run end to end at a tiny size: the deadline storm on SQLite, the adjudication storm
on the PostgreSQL and Redis it needs (skipped without them, failed with
JUNTA_REQUIRE_SERVICES=1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bench import adjudication_storm, deadline_storm
from junta.games import adjudication
from junta.games.models import Bill, Game, Order, Phase, PhaseResult, Player, PoliticalCard
from tests.web.bench_runs import drop_database, run_bench, scratch_database_url


@pytest.mark.django_db
def test_a_copied_campaign_adjudicates_to_the_same_result(django_user_model):
    gm = django_user_model.objects.create_user(email="storm-gm@junta.test")
    _game_id, template, _users = deadline_storm.make_campaign((0, gm.pk))
    copies = adjudication_storm.clone([template], 2)
    assert len(copies) == 2 and template not in copies
    original = Phase.objects.get(pk=template).game
    for phase_id in copies:
        copy = Phase.objects.get(pk=phase_id).game
        assert copy.pk != original.pk and copy.status == original.status
        for model, field in ((Player, "game"), (PoliticalCard, "game"), (Bill, "game")):
            assert model.objects.filter(**{field: copy}).count() == \
                model.objects.filter(**{field: original}).count() > 0
        assert Order.objects.filter(phase_id=phase_id).count() == \
            Order.objects.filter(phase_id=template).count()
        assert not set(copy.players.values_list("user", flat=True)) & \
            set(original.players.values_list("user", flat=True))
    now = timezone.now() + timedelta(days=30)
    for phase_id in [template, *copies]:
        adjudication.adjudicate_phase(phase_id, now=now)
    digests = {PhaseResult.objects.get(phase_id=p).digest for p in [template, *copies]}
    assert len(digests) == 1
    assert Game.objects.count() == 3


def test_the_deadline_storm_runs_end_to_end_on_sqlite():
    """A campaign set up, the Status page timed idle and while the campaign is adjudicated;
    the last line gives the numbers the table does."""
    line, done = run_bench("deadline_storm.py", [
        "--campaigns", "1", "--requests", "4", "--workers", "1", "--clients", "1",
        "--web-workers", "1"], DATABASE_URL=None, CELERY_BROKER_URL=None, CACHE_URL=None)
    assert "Status page, 1 concurrent clients" in done.stdout and "phases/s" in done.stdout
    assert (line["campaigns"], line["phases"], line["adjudicated"], line["results"]) == \
        (1, 1, 1, 1)
    assert line["failed_requests"] == 0 and line["phases_per_s"] > 0 and line["seconds"] > 0
    assert line["idle"]["requests"] == 4
    assert 0 < line["idle"]["p50_ms"] <= line["idle"]["p95_ms"] <= line["idle"]["p99_ms"]
    storm = line["storm"]
    assert storm["requests"] >= 0 and (storm["p50_ms"] is None or storm["p50_ms"] > 0)


def test_the_adjudication_storm_runs_end_to_end(postgres, redis_url):
    """One campaign played and copied once, both due at once, adjudicated by a real Celery
    worker through the sweep; the run leaves nothing of its own in Redis."""
    import redis

    url = scratch_database_url(postgres, "storm_bench_smoke")
    client = redis.Redis.from_url(redis_url)
    before = set(client.keys("*bench-storm-*"))
    try:
        line, _done = run_bench("adjudication_storm.py", [
            "--games", "2", "--templates", "1", "--workers", "1"],
            DATABASE_URL=url, CELERY_BROKER_URL=redis_url, CACHE_URL=None)
    finally:
        drop_database(url)
    assert (line["games"], line["adjudicated"], line["failed"]) == (2, 2, 0)
    assert line["seconds"] > 0 and line["ms_per_game"] > 0 and line["queries_per_game"] > 0
    assert line["worker_cpu_ms_per_game"] > 0  # the worker's processes did the work
    assert line["worker_exit"] == "exit 0" and "error" not in line and "redis_left" not in line
    assert set(client.keys("*bench-storm-*")) == before
