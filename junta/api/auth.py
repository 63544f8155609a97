"""Who is calling, and how often: a personal API token (`Authorization: Bearer <secret>`) or the
site's own session (for its pages' scripts: unsafe methods then need the CSRF token, as Django
asks of any form); and the rate each caller may call at (settings.JUNTA_API_RATES), counted per
person (all his tokens and his session together), and per address for the calls that are not
authenticated (no token, an unknown or revoked one): the address as Django sees it
(REMOTE_ADDR), never a header the client may write (X-Forwarded-For)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer, SessionAuth
from ninja.throttling import BaseThrottle, SimpleRateThrottle

from accounts.public import User
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

    def authenticate(self, request: HttpRequest, key: str | None
                     ) -> AbstractBaseUser | AnonymousUser | None:
        user = request.user
        return user if user.is_authenticated and user.is_active else None


def caller(request: HttpRequest) -> User:
    """The person the request comes from (authentication has run)."""
    user = getattr(request, "auth", None)
    if not isinstance(user, User):
        raise ApiError(401, "Not signed in.", "Authorization")
    return user


class CallerThrottle(SimpleRateThrottle):
    """Ninja's rate counting, keyed by person (whichever of his tokens, or his session, he
    calls with) or, for a call not authenticated, by address; its rate read from settings at
    each request (so that a deployment or a test changes it)."""

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

    def get_ident(self, request: HttpRequest) -> str | None:
        """The address the request comes from as Django sees it: X-Forwarded-For is the
        client's to write (a new one at each call would be a new count)."""
        return request.META.get("REMOTE_ADDR")

    def get_cache_key(self, request: HttpRequest) -> str | None:
        user = getattr(request, "auth", None)
        ident = f"user-{user.pk}" if isinstance(user, User) else f"ip-{self.get_ident(request)}"
        return throttle_key(self.scope or "", ident)


def throttle_key(scope: str, ident: str) -> str:
    """The cache key of one rate's count for a person ("user-3") or an address ("ip-...")."""
    return f"junta-api-throttle-{scope}-{ident}"


def not_authenticated(exc: Exception | type[Exception]) -> bool:
    """Whether `exc` refuses a call for want of a known caller (no token, or an unknown or
    revoked one): 401."""
    return isinstance(exc, AuthenticationError) or (isinstance(exc, ApiError)
                                                    and exc.status == 401)


def wait_for(request: HttpRequest, throttles: Sequence[BaseThrottle]) -> int | None:
    """Count a call that was not authenticated against its address: None while within every
    rate, else the seconds to wait (Retry-After)."""
    waits = [t.wait() for t in throttles if not t.allow_request(request)]
    if not waits:
        return None
    return max(math.ceil(w or 1) for w in waits)
