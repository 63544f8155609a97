"""docker-compose.yml: Docker cannot run here, so the file is read, and the very commands of its
web, worker and beat services are run against the local PostgreSQL and Redis with the production
part of .env.example."""

from __future__ import annotations

import http.client
import re
import socket
import subprocess
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import yaml

from tests.conftest import PYTHON, REPO, subprocess_env

COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())


def production_env_from_example() -> dict[str, str]:
    env = {}
    for line in (REPO / ".env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key] = value
    return env


def test_compose_has_its_seven_services_and_exactly_one_beat():
    services = COMPOSE["services"]
    assert set(services) == {"db", "redis", "web", "worker", "adjudicator", "beat",
                             "backup"}  # backup: pg_dump
    beats = [name for name, svc in services.items() if "beat" in " ".join(svc.get("command", []))]
    assert beats == ["beat"]
    assert services["beat"]["deploy"]["replicas"] == 1
    for name in ("worker", "adjudicator"):
        assert "-B" not in services[name]["command"]  # no second, embedded beat
    assert services["web"]["command"] == ["scripts/web-start"]
    for name in ("web", "worker", "adjudicator", "beat"):
        assert services[name]["env_file"] == ".env"
    for name in ("worker", "adjudicator", "beat"):
        assert services[name]["depends_on"]["web"]["condition"] == "service_healthy"
    example = production_env_from_example()
    assert example["DATABASE_URL"].startswith("postgres://junta:")
    assert example["DATABASE_URL"].endswith("@db:5432/junta")
    assert example["CELERY_BROKER_URL"] == "redis://redis:6379/0"
    assert example["DJANGO_DEBUG"] == "0"
    assert example["JUNTA_STORAGE"] == "database"  # every machine finds every avatar


def test_the_adjudicator_reads_the_adjudications_and_the_worker_the_rest():
    """The queues each worker reads, as compose gives them, are the settings' own."""
    for env, mail, adjudication in (
            ({}, "junta", "junta-adjudication"),
            ({"JUNTA_CELERY_QUEUE": "site"}, "site", "site-adjudication"),
            ({"JUNTA_CELERY_QUEUE": "site", "JUNTA_CELERY_ADJUDICATION_QUEUE": "deadlines"},
             "site", "deadlines")):
        for name, queue in (("worker", mail), ("adjudicator", adjudication)):
            argv = service_argv(name, env)
            assert argv[argv.index("-Q") + 1] == queue, (name, env)


def documented_variables() -> set[str]:
    text = (REPO / ".env.example").read_text()
    names = set()
    for line in text.splitlines():
        stripped = line.lstrip("# ").strip()
        if "=" in stripped and stripped.split("=", 1)[0].isupper():
            names.add(stripped.split("=", 1)[0])
    return names


def test_every_environment_variable_the_settings_and_scripts_read_is_documented():
    source = (REPO / "junta" / "settings.py").read_text()
    read = set(re.findall(r"os\.environ(?:\.get)?[\(\[]\"([A-Z_]+)\"", source))
    read |= set(re.findall(r"env_(?:bool|list)\(\"([A-Z_]+)\"", source))
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG"} <= read, "the pattern missed"
    healthcheck = (REPO / "scripts" / "healthcheck").read_text()
    from_scripts = set(re.findall(r"os\.environ\.get\(\"([A-Z_]+)\"", healthcheck))
    from_scripts |= set(re.findall(r"\$\{([A-Z_]+)", (REPO / "scripts" / "web-start").read_text()))
    assert {"JUNTA_BIND", "GUNICORN_WORKERS"} <= from_scripts, "the pattern missed"
    missing = (read | from_scripts) - documented_variables()
    assert not missing, f"not in .env.example: {sorted(missing)}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def compose_database(postgres, redis_url):
    """A scratch PostgreSQL database for the production commands, dropped afterwards."""
    name = f"junta_compose_{uuid.uuid4().hex[:8]}"
    admin = dict(host=postgres["HOST"] or None, port=postgres["PORT"] or None,
                 user=postgres["USER"] or None, password=postgres["PASSWORD"] or None,
                 dbname="postgres", autocommit=True)
    with psycopg.connect(**admin) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    auth = postgres["USER"] + (f":{postgres['PASSWORD']}" if postgres["PASSWORD"] else "")
    url = f"postgres://{auth}@{postgres['HOST'] or '127.0.0.1'}:{postgres['PORT'] or 5432}/{name}"
    yield url, {**admin, "dbname": name}
    with psycopg.connect(**admin) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def interpolated(text: str, env: dict[str, str]) -> str:
    """Compose's `${NAME:-default}` (defaults nested too) as it reads them from .env."""
    while match := re.search(r"\$\{([A-Z_]+):-([^${}]*)\}", text):
        text = text[:match.start()] + (env.get(match[1]) or match[2]) + text[match.end():]
    return text


def service_argv(name: str, env: dict[str, str]) -> list[str]:
    argv = [interpolated(part, env) for part in COMPOSE["services"][name]["command"]]
    return [PYTHON if part == "python" else part for part in argv]


def test_compose_commands_run_against_postgresql_and_redis(tmp_path, compose_database, redis_url):
    db_url, db_params = compose_database
    port = free_port()
    broker = urlunsplit(urlsplit(redis_url)._replace(path="/9"))
    env = subprocess_env(**{
        **production_env_from_example(),
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": broker,
        "CACHE_URL": None,
        "JUNTA_VAR_DIR": str(tmp_path),
        "JUNTA_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "JUNTA_CELERY_QUEUE": f"compose-{uuid.uuid4().hex[:8]}",
        "JUNTA_SWEEP_INTERVAL_SECONDS": "1",
        "PYTHON": PYTHON,
    })
    processes = []
    try:
        for name in ("web", "worker", "adjudicator", "beat"):
            log = (tmp_path / f"{name}.log").open("w")
            argv = service_argv(name, env)
            if name == "beat":
                argv = [a.replace("/var/lib/junta", str(tmp_path)) for a in argv]
            processes.append(subprocess.Popen(argv, cwd=REPO, env=env, stdout=log,
                                              stderr=subprocess.STDOUT))
            if name == "web":
                wait_healthy(env, tmp_path)
                check_production_responses(port)
        runs = wait_for_sweep(db_params, tmp_path)
        assert runs >= 2
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def get(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Host": "junta.example.org", **headers})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def check_production_responses(port: int) -> None:
    """gunicorn with the production settings: HTTPS only, CSP, HSTS, secure cookies."""
    plain = get(port, "/accounts/login/")
    assert plain.status == 301
    assert plain.getheader("Location") == "https://junta.example.org/accounts/login/"
    page = get(port, "/accounts/login/", **{"X-Forwarded-Proto": "https"})
    assert page.status == 200
    csp = page.getheader("Content-Security-Policy") or ""
    for directive in ("default-src 'self'", "script-src 'self'", "object-src 'none'",
                      "frame-ancestors 'none'"):
        assert directive in csp, csp
    assert page.getheader("Strict-Transport-Security") == (
        "max-age=31536000; includeSubDomains; preload"
    )
    cookies = page.headers.get_all("Set-Cookie") or []
    csrf = [cookie for cookie in cookies if cookie.startswith("csrftoken=")]
    assert csrf and "Secure" in csrf[0], cookies
    stranger = get(port, "/", Host="evil.example.net", **{"X-Forwarded-Proto": "https"})
    assert stranger.status == 400  # ALLOWED_HOSTS


def wait_healthy(env: dict[str, str], tmp_path: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        check = subprocess.run([PYTHON, "scripts/healthcheck"], cwd=REPO, env=env,
                               capture_output=True, text=True)
        if check.returncode == 0:
            return
        time.sleep(1)
    pytest.fail("web never became healthy:\n" + (tmp_path / "web.log").read_text()[-3000:])


def wait_for_sweep(db_params: dict, tmp_path: Path) -> int:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with psycopg.connect(**db_params) as conn:
            row = conn.execute("SELECT runs FROM ops_heartbeat WHERE name = 'sweep'").fetchone()
        if row and row[0] >= 2:
            return row[0]
        time.sleep(1)
    logs = "\n".join((tmp_path / f"{n}.log").read_text()[-1500:]
                     for n in ("adjudicator", "beat"))
    pytest.fail("the beat/adjudicator pair never swept twice:\n" + logs)
