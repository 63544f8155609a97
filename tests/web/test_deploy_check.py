"""`manage.py check --deploy --fail-level WARNING` is clean with the production variables of
`.env.example` once its placeholders are replaced, and not before."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import PYTHON, REPO, subprocess_env

REAL_SECRETS = {
    "DJANGO_SECRET_KEY": "k8Yd3v0J-production-like-secret-key-with-enough-entropy-5f1c9e2a7b",
    "POSTGRES_PASSWORD": "Xq7-database-password",
    "DATABASE_URL": "postgres://junta:Xq7-database-password@db:5432/junta",
    "EMAIL_HOST_PASSWORD": "Zt4-smtp-password",
}

# Variables of this process that would leak into the child and are not part of the production set.
NOT_PRODUCTION = ("CELERY_BROKER_URL", "CACHE_URL", "JUNTA_REQUIRE_SERVICES", "DATABASE_TEST_NAME")


def env_example_production() -> dict[str, str]:
    """The active (uncommented) lines of .env.example: its production part."""
    env = {}
    for line in (REPO / ".env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key] = value
    assert env["DJANGO_DEBUG"] == "0", "the production part of .env.example must turn DEBUG off"
    return env


def production_env(tmp_path, **overrides: str) -> dict[str, str]:
    return subprocess_env(**{
        **{name: None for name in NOT_PRODUCTION},
        **env_example_production(),
        "JUNTA_VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "junta.settings",
        **overrides,
    })


def deploy_check(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = deploy_check(production_env(tmp_path, **REAL_SECRETS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_fails_while_env_example_placeholders_are_left(tmp_path):
    """The example's secrets are long enough for Django's own checks; Junta's catches them."""
    result = deploy_check(production_env(tmp_path))
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert output.count("junta.W001") == 3, output
    for name in ("DJANGO_SECRET_KEY", "DATABASE_URL", "EMAIL_HOST_PASSWORD"):
        assert name in output


def test_check_deploy_fails_when_debug_is_left_on(tmp_path):
    """Negative control: the same check does catch an insecure configuration."""
    result = deploy_check(production_env(tmp_path, **REAL_SECRETS, DJANGO_DEBUG="1"))
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr


PRINT_SECURITY = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "debug": s.DEBUG, "csp": s.SECURE_CSP, "middleware": s.MIDDLEWARE,
    "session_secure": s.SESSION_COOKIE_SECURE, "csrf_secure": s.CSRF_COOKIE_SECURE,
    "hsts": s.SECURE_HSTS_SECONDS, "ssl_redirect": s.SECURE_SSL_REDIRECT,
    "proxy_header": s.SECURE_PROXY_SSL_HEADER, "hosts": s.ALLOWED_HOSTS,
    "mailer": s.MAILERS["default"]["BACKEND"], "db": s.DATABASES["default"]["ENGINE"],
    "broker": s.CELERY_BROKER_URL, "cache": s.CACHES["default"]["BACKEND"],
}, default=str))
"""


def test_production_settings_turn_on_csp_secure_cookies_hsts_and_the_real_services(tmp_path):
    compose_web = {"JUNTA_TRUST_X_FORWARDED_PROTO": "1"}  # docker-compose.yml's web service
    result = subprocess.run([PYTHON, "-c", PRINT_SECURITY], cwd=REPO, capture_output=True,
                            text=True, timeout=60,
                            env=production_env(tmp_path, **REAL_SECRETS, **compose_web))
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["debug"] is False
    assert "django.middleware.csp.ContentSecurityPolicyMiddleware" in got["middleware"]
    assert got["csp"]["default-src"] == ["'self'"]
    assert got["csp"]["object-src"] == ["'none'"]
    assert got["session_secure"] is True and got["csrf_secure"] is True
    assert got["hsts"] >= 31_536_000 and got["ssl_redirect"] is True
    assert got["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert got["hosts"] == ["junta.example.org"]
    assert got["mailer"] == "django.core.mail.backends.smtp.EmailBackend"
    assert got["db"] == "django.db.backends.postgresql"
    assert got["broker"] == "redis://redis:6379/0"
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_check_deploy_warns_while_the_sender_is_left_at_localhost(tmp_path):
    """With DEBUG off, the development sender junta@localhost is caught."""
    env = production_env(tmp_path, **REAL_SECRETS)
    env.pop("DEFAULT_FROM_EMAIL", None)
    result = deploy_check(env)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "junta.W002" in output and "DEFAULT_FROM_EMAIL" in output
