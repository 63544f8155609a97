"""bench/evening.py end to end, tiny: two campaigns, ten players for a few seconds, one
campaign due meanwhile, through gunicorn, a Celery worker, beat, PostgreSQL and Redis. Its one
JSON line is checked for its fields, no error and the due campaign adjudicated; the speed
itself is the benchmark's to measure, never this test's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import urlsplit

from tests.conftest import REPO, subprocess_env

FIELDS = ["players", "campaigns", "seconds", "requests", "req_per_s", "p50_ms", "p95_ms",
          "p99_ms", "errors", "adjudicated", "adjudication_lag_s"]


def test_a_tiny_evening_prints_its_line(postgres, redis_url):
    # a database of the benchmark's own beside the tests' (it drops and creates it)
    url = urlsplit(os.environ["DATABASE_URL"])
    name = f"{url.path.lstrip('/') or 'junta'}_evening_bench_{os.getpid()}"
    bench_url = url._replace(path=f"/{name}").geturl()
    done = subprocess.run(
        [sys.executable, "bench/evening.py", "--players", "10", "--campaigns", "2",
         "--templates", "1", "--seconds", "5", "--pace", "0.5", "--due-share", "0.5",
         "--sweep-seconds", "1", "--clients", "4", "--web-workers", "2", "--concurrency", "1",
         "--database-url", bench_url, "--broker-url", redis_url, "--shared-redis"],
        cwd=REPO, env=subprocess_env(DJANGO_SETTINGS_MODULE=None, JUNTA_VAR_DIR=None),
        capture_output=True, text=True, timeout=300)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    line = json.loads(lines[-1])
    assert list(line)[:len(FIELDS)] == FIELDS
    assert (line["players"], line["campaigns"], line["seconds"]) == (10, 2, 5.0)
    assert line["requests"] > 0 and line["req_per_s"] > 0, line
    assert 0 < line["p50_ms"] <= line["p95_ms"] <= line["p99_ms"], line
    assert line["errors"] == 0, line
    assert line["due"] == 1 and line["adjudicated"] == 1, line
    assert line["adjudication_lag_s"] is not None and line["adjudication_lag_s"] >= 0, line
    assert line["worker_exit"].startswith("exit 0") and "error" not in line["worker_exit"], line
