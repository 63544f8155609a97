"""Settings come from environment variables only."""

from __future__ import annotations

import socket
import subprocess

from tests.conftest import PYTHON, REPO, subprocess_env
from tests.web.settings_helpers import CONFIG_VARS, load_settings, settings_with


def test_no_variables_gives_embedded_sqlite_filesystem_broker_and_the_mailbox(tmp_path):
    got = settings_with(tmp_path)
    assert got["engine"] == "django.db.backends.sqlite3"
    assert got["name"] == str(tmp_path / "junta.sqlite3")
    assert got["options"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in got["options"]["init_command"]
    assert got["broker"] == "filesystem://"
    assert got["broker_in"] == str(tmp_path / "broker" / "queue")
    assert got["cache"] == "django.core.cache.backends.db.DatabaseCache"
    assert got["email"] == "junta.ops.devmail.MailboxBackend"  # var/mail/, read at /dev/mail/
    # development mode, with Django's technical pages off: the pages players meet
    assert (got["debug"], got["dev"]) == (False, True)
    # the tests hash with a fast hasher (tests/conftest.py); the site itself does not
    assert got["hasher"] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"


def test_database_url_gives_postgresql_and_redis_broker_gives_redis_cache(tmp_path):
    got = settings_with(
        tmp_path,
        DATABASE_URL="postgres://junta:s%40cret@db.internal:5433/papayas?sslmode=require",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/3",
    )
    assert got["engine"] == "django.db.backends.postgresql"
    assert (got["name"], got["user"], got["host"], got["port"]) == (
        "papayas", "junta", "db.internal", "5433"
    )
    assert got["options"] == {"sslmode": "require"}
    assert got["broker"] == "redis://127.0.0.1:6379/3"
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_sqlite_url_with_absolute_path(tmp_path):
    got = settings_with(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path}/other.sqlite3")
    assert got["engine"] == "django.db.backends.sqlite3"
    assert got["name"] == str(tmp_path / "other.sqlite3")


def run_settings_expecting_error(tmp_path, **env: str) -> str:
    result = load_settings(tmp_path, **env)
    assert result.returncode != 0
    return result.stderr


def test_unknown_database_scheme_is_refused_with_a_clear_message(tmp_path):
    err = run_settings_expecting_error(tmp_path, DATABASE_URL="mysql://root@localhost/junta")
    assert "DATABASE_URL scheme 'mysql' is not supported" in err


def test_production_without_secret_key_is_refused(tmp_path):
    err = run_settings_expecting_error(tmp_path, DJANGO_DEBUG="0")
    assert "DJANGO_SECRET_KEY must be set" in err
    err = run_settings_expecting_error(tmp_path, DJANGO_DEBUG="0", JUNTA_DEV="0")
    assert "DJANGO_SECRET_KEY must be set" in err


def test_development_mode_serves_plain_http_with_debug_off_and_debug_only_when_asked(tmp_path):
    """`make run` (JUNTA_DEV=1, set by manage.py serve): DEBUG off, a development key, local
    hosts, no secure cookie, HSTS or HTTPS redirect, static files from their folders, even with
    DJANGO_DEBUG=0 in the environment; Django's technical pages only with DJANGO_DEBUG=1."""
    plain = [False, False, False, 0]
    for env in ({"JUNTA_DEV": "1"}, {"JUNTA_DEV": "1", "DJANGO_DEBUG": "0"}, {}):
        got = settings_with(tmp_path, **env)
        assert (got["debug"], got["dev"], got["secure"]) == (False, True, plain), env
        assert got["hosts"] == ["localhost", "127.0.0.1", "[::1]"]
        assert got["storage"] == "django.contrib.staticfiles.storage.StaticFilesStorage"
        assert got["finders"] is True
    got = settings_with(tmp_path, DJANGO_DEBUG="1")
    assert (got["debug"], got["dev"], got["secure"]) == (True, True, plain)


def test_production_keeps_its_hardening(tmp_path):
    got = settings_with(tmp_path, DJANGO_DEBUG="0", DJANGO_SECRET_KEY="k" * 50,
                        DJANGO_ALLOWED_HOSTS="junta.example.org")
    assert (got["debug"], got["dev"]) == (False, False)
    assert got["secure"] == [True, True, True, 60 * 60 * 24 * 365]
    assert got["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert got["finders"] is None


def test_cache_url_overrides_the_cache_and_a_filesystem_broker_keeps_the_database_cache(tmp_path):
    got = settings_with(tmp_path, CACHE_URL="redis://127.0.0.1:6379/5")
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert got["broker"] == "filesystem://"
    assert settings_with(tmp_path)["cache"] == "django.core.cache.backends.db.DatabaseCache"


SERVICE_TESTS = [
    "tests/web/test_worker.py::test_redis_broker_task_runs_in_a_real_worker",
    "tests/web/test_worker.py::test_postgresql_is_the_database_when_configured",
]


def run_service_tests(tmp_path, **env: str | None) -> tuple[int, str]:
    clean = {name: None for name in CONFIG_VARS}
    clean.update({"JUNTA_VAR_DIR": str(tmp_path), "JUNTA_REQUIRE_SERVICES": None})
    clean.update(env)
    result = subprocess.run(
        [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", *SERVICE_TESTS],
        cwd=REPO, env=subprocess_env(**clean), capture_output=True, text=True, timeout=300,
    )
    return result.returncode, result.stdout + result.stderr


def test_service_tests_skip_without_services_and_fail_when_ci_requires_them(tmp_path):
    """make test on a laptop skips what needs PostgreSQL/Redis; CI's JUNTA_REQUIRE_SERVICES=1
    turns a missing (or silent) service into a failure."""
    code, output = run_service_tests(tmp_path / "a")
    assert code == 0 and "2 skipped" in output, output

    code, output = run_service_tests(tmp_path / "b", JUNTA_REQUIRE_SERVICES="1")
    assert code == 1 and "2 errors" in output and "skipped" not in output, output
    assert "JUNTA_REQUIRE_SERVICES=1 but CELERY_BROKER_URL does not name a Redis server" in output
    assert "JUNTA_REQUIRE_SERVICES=1 but DATABASE_URL does not name a PostgreSQL" in output

    with socket.socket() as sock:  # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        silent = sock.getsockname()[1]
    code, output = run_service_tests(tmp_path / "c", JUNTA_REQUIRE_SERVICES="1",
                                     CELERY_BROKER_URL=f"redis://127.0.0.1:{silent}/0")
    assert code == 1, output
    assert f"Redis at 127.0.0.1:{silent} does not answer" in output, output
