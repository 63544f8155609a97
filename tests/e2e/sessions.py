"""Signing a browser in without its login form: the session cookie of a Django test client
logged in as the user, for a Playwright context. And where browser tests save screenshots."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.test import Client


def session_cookie(user, base: str) -> list[dict]:  # noqa: ANN001 - any user model instance
    """The cookie (for `context.add_cookies`) that makes the browser `user` on `base`."""
    client = Client()
    client.force_login(user)
    return [{"name": settings.SESSION_COOKIE_NAME,
             "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": base}]


def screenshot_folder(prefix: str) -> Path:
    """$JUNTA_SCREENSHOTS, or a new temporary folder named after `prefix`."""
    folder = Path(os.environ.get("JUNTA_SCREENSHOTS") or tempfile.mkdtemp(prefix=prefix))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
