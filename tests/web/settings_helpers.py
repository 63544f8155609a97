"""The settings a fresh process gets from its environment variables (and nothing else of this
one's), shared by the settings' tests (tests/web/test_settings.py) and the mailbox's
(tests/web/test_dev_mailbox.py)."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import PYTHON, REPO, subprocess_env

CONFIG_VARS = (
    "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS", "EMAIL_HOST", "JUNTA_VAR_DIR", "JUNTA_DEV",
)

PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "user": db.get("USER"),
    "host": db.get("HOST"), "port": db.get("PORT"), "options": db.get("OPTIONS"),
    "broker": settings.CELERY_BROKER_URL, "cache": settings.CACHES["default"]["BACKEND"],
    "email": settings.MAILERS["default"]["BACKEND"], "debug": settings.DEBUG,
    "dev": settings.JUNTA_DEV, "hosts": settings.ALLOWED_HOSTS,
    "secure": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE,
               settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS],
    "storage": settings.STORAGES["staticfiles"]["BACKEND"],
    "finders": getattr(settings, "WHITENOISE_USE_FINDERS", None),
    "broker_in": settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in"),
    "hasher": settings.PASSWORD_HASHERS[0],
}, default=str))
"""


def load_settings(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    """A process that loads the settings with only `env` set (JUNTA_VAR_DIR: `tmp_path`) and
    prints them as JSON."""
    clean = {name: None for name in CONFIG_VARS}
    clean.update({"DJANGO_SETTINGS_MODULE": "junta.settings", "JUNTA_VAR_DIR": str(tmp_path)})
    clean.update(env)
    return subprocess.run(
        [PYTHON, "-c", PRINT_SETTINGS], cwd=REPO, env=subprocess_env(**clean),
        capture_output=True, text=True, timeout=60,
    )


def settings_with(tmp_path, **env: str) -> dict:
    result = load_settings(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
