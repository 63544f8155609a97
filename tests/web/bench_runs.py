"""Running a benchmark of bench/ end to end, at a tiny size, as its smoke test does: a child
process from the repository's root, its last line of output read as JSON."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from urllib.parse import quote, unquote, urlsplit

import psycopg

from tests.conftest import PYTHON, REPO, subprocess_env


def run_bench(script: str, args: list[str], timeout: float = 300,
              **env: str | None) -> tuple[dict, subprocess.CompletedProcess[str]]:
    """bench/`script` run with `args` (the environment this process's, with `env` applied: None
    removes a variable); (its last line of output, parsed, and the finished process). Fails,
    with the end of its output, when it exits otherwise than 0 or its last line is not a JSON
    object."""
    done = subprocess.run([PYTHON, f"bench/{script}", *args], cwd=REPO,
                          env=subprocess_env(**env), capture_output=True, text=True,
                          timeout=timeout)
    said = f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, said
    lines = done.stdout.strip().splitlines()
    assert lines, said
    last = json.loads(lines[-1])
    assert isinstance(last, dict), said
    return last, done


def scratch_database_url(database: Mapping[str, str], suffix: str) -> str:
    """The URL of a database on the PostgreSQL server of Django's `database` settings, named
    after it with `suffix` (which must say "bench": the benches drop their database and create it
    afresh, and refuse any other name)."""
    assert "bench" in suffix
    user = quote(database["USER"] or "postgres")
    password = f":{quote(database['PASSWORD'])}" if database.get("PASSWORD") else ""
    host = database["HOST"] or "127.0.0.1"
    port = database["PORT"] or 5432
    return f"postgres://{user}{password}@{host}:{port}/{database['NAME']}_{suffix}"


def drop_database(url: str) -> None:
    """Drop the scratch database (a bench that stopped half-way may leave it)."""
    parts = urlsplit(url)
    server = parts._replace(path="/postgres").geturl()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{unquote(parts.path.lstrip("/"))}" WITH (FORCE)')
