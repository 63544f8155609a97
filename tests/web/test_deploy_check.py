"""`manage.py check --deploy --fail-level WARNING` is clean with the production variables."""

from __future__ import annotations

import subprocess

from tests.conftest import PYTHON, REPO, subprocess_env

PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k8Yd3v0J-production-like-secret-key-with-enough-entropy-5f1c9e2a7b",
    "DJANGO_ALLOWED_HOSTS": "junta.example.org",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://junta.example.org",
    "EMAIL_HOST": "smtp.example.org",
    "DEFAULT_FROM_EMAIL": "Junta <junta@example.org>",
    "DJANGO_SETTINGS_MODULE": "junta.settings",
}


def deploy_check(tmp_path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=subprocess_env(JUNTA_VAR_DIR=str(tmp_path), **env),
        capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = deploy_check(tmp_path, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_fails_when_debug_is_left_on(tmp_path):
    """Negative control: the same check does catch an insecure configuration."""
    result = deploy_check(tmp_path, **{**PRODUCTION, "DJANGO_DEBUG": "1"})
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr
