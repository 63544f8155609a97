"""Signing a browser in without its login form: the session cookie of a Django test client
logged in as the user, for a Playwright context."""

from __future__ import annotations

from django.conf import settings
from django.test import Client


def session_cookie(user, base: str) -> list[dict]:  # noqa: ANN001 - any user model instance
    """The cookie (for `context.add_cookies`) that makes the browser `user` on `base`."""
    client = Client()
    client.force_login(user)
    return [{"name": settings.SESSION_COOKIE_NAME,
             "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": base}]
