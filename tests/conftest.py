"""Shared test helpers.

Tests that need PostgreSQL or Redis ask for the `postgres` or `redis_url` fixture. They skip when
the service is not configured, unless JUNTA_REQUIRE_SERVICES=1 (as CI sets), where they fail.
"""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

# The helper modules the tests share (tests/web/campaigns.py, tests/engine/coup_states.py, ...)
# get pytest's assertion rewriting, as the test modules and conftest.py files do.
pytest.register_assert_rewrite("tests.e2e", "tests.engine", "tests.web")

REPO = Path(__file__).resolve().parent.parent
REQUIRE_SERVICES = os.environ.get("JUNTA_REQUIRE_SERVICES", "") == "1"
# Passwords in tests are hashed with a fast hasher: production's PBKDF2 costs about 0.7 s of CPU
# a password, which made the account tests the slowest of the suite. The production setting is
# checked by tests/web/test_settings.py; tests that time or count hashing set their own hasher.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def compile_translations() -> None:
    """The .mo files Django reads, compiled from the .po files of every catalogue tree
    (settings.LOCALE_PATHS: the site's locale/ and the engine's) where older (`make test`
    compiles them too; a bare pytest run needs them as well), before Django loads any."""
    from django.conf import settings

    for po in (po for folder in settings.LOCALE_PATHS
               for po in sorted(Path(folder).glob("*/LC_MESSAGES/*.po"))):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    compile_translations()

    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS
    # Push notifications are available in the tests (a VAPID key of this run's own), so that
    # the profile's push panel is on the pages the browser tests check; tests/web/test_push.py
    # sets its own key, or none.
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    settings.JUNTA_VAPID_PRIVATE_KEY = base64.urlsafe_b64encode(
        key.to_bytes(32, "big")).rstrip(b"=").decode()
    # What is drawn once (maps, reports) is kept in this process's memory in the tests, even
    # with Redis: each web test starts with it empty (tests/web/conftest.py), which must never
    # empty a Redis database that the broker shares.
    settings.CACHES = {**settings.CACHES, "drawings": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "junta-test-drawings"}}


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: only when the tests run in workers
def pytest_xdist_setupnodes(config: pytest.Config, specs: list) -> None:
    """Each worker starts with a var folder, Celery queues and cache keys of its own
    (tests/workers.py)."""
    from tests.workers import worker_environment

    for spec in specs:
        spec.env.update(worker_environment(os.environ, spec.id, REPO))


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`-n N` alone (xdist's "load"): the tests in order, a module that shares a fixture in one
    worker (tests/workers.py). Another `--dist` is xdist's own."""
    if config.getvalue("dist") != "load":
        return None
    from tests.workers import scheduler

    return scheduler(config, log)


def service_missing(reason: str) -> None:
    """Fail when CI requires the services, else skip with the reason."""
    if REQUIRE_SERVICES:
        pytest.fail(f"JUNTA_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture
def postgres(settings) -> dict:
    """The PostgreSQL database of DATABASE_URL (the test database while a test runs)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        service_missing("DATABASE_URL does not name a PostgreSQL database")
    return db


@pytest.fixture
def redis_url(settings) -> str:
    """CELERY_BROKER_URL when it is a reachable Redis."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        service_missing("CELERY_BROKER_URL does not name a Redis server")
    parts = urlsplit(url)
    if not port_open(parts.hostname or "127.0.0.1", parts.port or 6379):
        service_missing(f"Redis at {parts.hostname}:{parts.port or 6379} does not answer")
    return url


def subprocess_env(**overrides: str | None) -> dict[str, str]:
    """The environment for a child Django/Celery process: this one's, with overrides
    (None removes a variable)."""
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for Playwright in this process only
    env.setdefault("PYTHONPATH", str(REPO))
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


PYTHON = sys.executable


def stop_process(process: subprocess.Popen) -> None:
    """A child process ended: asked to stop (TERM), killed if it has not after 20 seconds."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
