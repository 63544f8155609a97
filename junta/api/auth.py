"""Who is calling, and how often: a personal API token (`Authorization: Bearer <secret>`) or the
site's own session (for its pages' scripts: unsafe methods then need the CSRF token, as Django
asks of any form); and the rate each caller may call at (settings.JUNTA_API_RATES), counted per
token, or per person for the session."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.security import HttpBearer, SessionAuth
from ninja.throttling import SimpleRateThrottle

from accounts.models import User
from junta.api import tokens
from junta.api.errors import ApiError

TOKEN_ATTR = "junta_api_token"


class BearerToken(HttpBearer):
    """A personal token. One sent and not found (unknown, revoked) is refused at once with 401:
    never a fall back to the session."""

    def authenticate(self, request: HttpRequest, token: str) -> User:
        found = tokens.find(token.strip())
        if found is None:
            raise ApiError(401, "This API token is unknown or has been revoked.",
                           "Authorization")
        setattr(request, TOKEN_ATTR, found)
        return found.user


class Session(SessionAuth):
    """The site's session, with Django's CSRF check on unsafe methods."""

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = request.user
        return user if user.is_authenticated and user.is_active else None


def caller(request: HttpRequest) -> User:
    """The person the request comes from (authentication has run)."""
    user = getattr(request, "auth", None)
    if not isinstance(user, User):
        raise ApiError(401, "Not signed in.", "Authorization")
    return user


class CallerThrottle(SimpleRateThrottle):
    """Ninja's rate counting, keyed by token (or by person for the session), with its rate read
    from settings at each request (so that a deployment or a test changes it)."""

    def __init__(self, scope: str) -> None:  # the rate is read per request, not here
        self.scope = scope
        self.rate = None
        self.num_requests, self.duration = None, None

    def allow_request(self, request: HttpRequest) -> bool:
        self.rate = settings.JUNTA_API_RATES.get(self.scope or "")
        if not self.rate:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        token = getattr(request, TOKEN_ATTR, None)
        user = getattr(request, "auth", None)
        if token is not None:
            ident = f"token-{token.pk}"
        elif isinstance(user, User):
            ident = f"user-{user.pk}"
        else:
            ident = f"ip-{self.get_ident(request)}"
        return f"junta-api-throttle-{self.scope}-{ident}"
