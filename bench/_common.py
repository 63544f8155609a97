"""What the benchmarks share: the scratch environment and its database, the bots' orders for a
phase, gunicorn started as production starts it, and the nearest-rank percentile.

Imported as `bench._common` by the scripts of this folder (each puts the repository on sys.path
first); never run by `make test`.
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent

PLAYERS = 10
CHARACTERS = ["Generalissimo Carlos", "Dona Isabel", "Colonel Miguel", "Senora Lucia",
              "Don Rafael", "Madame Elena", "Captain Diego", "Dona Pilar", "Professor Tomas",
              "Comandante Rosa"]


def prepare_environment(scratch: Path) -> str:
    """Every setting the set-up, the pool and gunicorn share; returns the database's name."""
    env = os.environ
    env["DJANGO_SETTINGS_MODULE"] = "junta.settings"
    env["JUNTA_VAR_DIR"] = str(scratch)
    env["DJANGO_DEBUG"] = "0"
    env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    env["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    env["DJANGO_SECURE_SSL_REDIRECT"] = "0"
    env["DJANGO_LOG_LEVEL"] = "WARNING"
    for name in ("CELERY_BROKER_URL", "CACHE_URL", "JUNTA_FAULT_ADJUDICATION_DELAY"):
        env.pop(name, None)
    url = env.get("DATABASE_URL", "")
    if not url:
        return (f"SQLite {scratch / 'junta.sqlite3'} (no DATABASE_URL). SQLite serialises "
                "writers: the adjudications wait for each other, so these are not "
                "PostgreSQL's numbers")
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise SystemExit("DATABASE_URL must name a PostgreSQL database (or be unset: SQLite).")
    name = unquote(parts.path.lstrip("/"))
    if "bench" not in name:
        raise SystemExit(f"DATABASE_URL names {name!r}: the benchmark drops and recreates its "
                         "database, so the name must contain 'bench' (e.g. junta_bench).")
    import psycopg

    server = parts._replace(path="/postgres", query="").geturl()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
        version = conn.execute("SHOW server_version").fetchone()
    return f"PostgreSQL {version[0] if version else '?'}, database {name} (created afresh)"


def play_bots(phase, rng, bot_orders, why_no_orders) -> None:  # noqa: ANN001 - imported late
    """Every seat with something to order gives the bots' orders for `phase`, final (the
    others give none, as most players do when they have nothing to order)."""
    from datetime import timedelta

    from junta.games import order_intake, repository
    from junta.games.models import Game

    state = repository.state_before(phase)
    version = Game.objects.values_list("state_version", flat=True).get(pk=phase.game_id)
    seats = {p.seat: p.user for p in phase.game.players.filter(membership="active")
             .select_related("user")}
    for seat in range(len(state.players)):
        if why_no_orders(state, seat):
            continue  # the dead do not act
        orders = [o.to_dict() for o in bot_orders(state, seat, rng)]
        if not orders:
            continue
        order_intake.submit_orders(phase.id, seats[seat], orders, state_version=version,
                              final=True, now=phase.opens_at + timedelta(minutes=5))


@contextlib.contextmanager
def web_server(workers: int):  # noqa: ANN201 - a context manager: (port, gunicorn's pid)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "junta.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--log-level", "warning"],
        cwd=REPO, env=dict(os.environ))
    try:
        waited = time.monotonic()
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if server.poll() is not None or time.monotonic() - waited > 60:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.1)
        yield port, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered), math.ceil(p / 100 * len(ordered))) - 1)]


def _with_children(pid: int) -> set[int]:
    """`pid` and its children (a Celery worker's pool processes), as /proc lists them."""
    pids = {pid}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                pids.add(int(stat.parent.name))
    return pids


def cpu_seconds(pid: int) -> float | None:
    """The processor time (user and system) the process `pid` and its living children used so
    far: unlike the clock, hardly changed by other jobs on the machine. None when /proc does
    not tell. Read it before stopping the process."""
    ticks = []
    for each in _with_children(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            ticks.append(int(fields[11]) + int(fields[12]))  # utime, stime
    return sum(ticks) / os.sysconf("SC_CLK_TCK") if ticks else None


def peak_rss_mb(pid: int) -> float | None:
    """The highest resident memory (Linux's VmHWM) the process `pid` or any of its children
    reached so far, in MB: a Celery worker's pool processes are its children. None when /proc
    does not tell (not Linux, or the process is gone). Read it before stopping the process."""
    peaks = []
    for each in _with_children(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
    return round(max(peaks), 1) if peaks else None
