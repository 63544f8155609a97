"""bench/signup_timing.py runs end to end at a tiny size (one sign-up of each kind, with the real
password hasher) and ends with its numbers in one JSON line."""

from __future__ import annotations

from tests.web.bench_runs import run_bench


def test_the_signup_timing_runs_end_to_end():
    line, done = run_bench("signup_timing.py", ["--runs", "1"], DATABASE_URL=None,
                           CELERY_BROKER_URL=None, CACHE_URL=None)
    assert "gap between the medians" in done.stdout
    assert (line["runs"], line["unprotected"]) == (1, False)
    for path in ("new", "registered"):
        times = line[path]
        assert 0 < times["min_ms"] <= times["median_ms"] and times["p90_ms"] > 0
    gap = line["new"]["median_ms"] - line["registered"]["median_ms"]
    assert abs(line["gap_ms"] - gap) <= 0.2
