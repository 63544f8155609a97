"""Deploy checks of Junta's own, run by `manage.py check --deploy`.

Django's checks catch a short or default secret key; this one catches the placeholders that
`.env.example` ships ("change-me..."), which are long enough to pass Django's checks unnoticed.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import unquote

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Tags, Warning, register

PLACEHOLDER = "change-me"


def placeholder_settings() -> list[str]:
    """Names of the production secrets that still hold a placeholder from `.env.example`."""
    found = []
    if PLACEHOLDER in settings.SECRET_KEY:
        found.append("DJANGO_SECRET_KEY")
    for alias, database in settings.DATABASES.items():
        if PLACEHOLDER in unquote(str(database.get("PASSWORD") or "")):
            found.append(f"DATABASE_URL (password of database {alias!r})")
    for alias, mailer in getattr(settings, "MAILERS", {}).items():
        if PLACEHOLDER in str(mailer.get("OPTIONS", {}).get("password") or ""):
            found.append(f"EMAIL_HOST_PASSWORD (mailer {alias!r})")
    return found


@register(Tags.security, deploy=True)
def check_no_placeholder_secrets(app_configs: Sequence[AppConfig] | None = None,
                                  **kwargs: object) -> list[Warning]:
    return [
        Warning(
            f"{name} still holds the '{PLACEHOLDER}' placeholder from .env.example.",
            hint="Set a real value in .env; a secret key: "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'.",
            id="junta.W001",
        )
        for name in placeholder_settings()
    ]


PLACEHOLDER_SENDER = "junta@localhost"


@register(Tags.security, deploy=True)
def check_default_sender(app_configs: Sequence[AppConfig] | None = None,
                         **kwargs: object) -> list[Warning]:
    """Mail from junta@localhost is refused or marked as spam by most servers."""
    if settings.JUNTA_DEV or PLACEHOLDER_SENDER not in settings.DEFAULT_FROM_EMAIL:
        return []
    return [Warning(
        f"DEFAULT_FROM_EMAIL is left at the development default ({settings.DEFAULT_FROM_EMAIL}).",
        hint="Set DEFAULT_FROM_EMAIL in .env to an address of your domain, e.g. "
        "'Junta <junta@example.org>'.",
        id="junta.W002",
    )]
