"""The API itself: one NinjaAPI, its authentication (a personal token, else the session), its
rate limits, its error shape, and its routers. Mounted at /api/v1/ (junta/api/urls.py)."""

from __future__ import annotations

import json
import math
from typing import Any, NoReturn, cast

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import Throttled
from ninja.parser import Parser
from ninja.throttling import BaseThrottle

from junta.api import campaigns, conditional, errors, orders, push, talk
from junta.api.auth import BearerToken, CallerThrottle, Session, not_authenticated, wait_for


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON.")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number.")
    return value


class StrictJson(Parser):
    """JSON as its standard writes it: NaN and Infinity, which Python reads and no database
    stores, are refused, and so is a number too large for a float (1e400): 400."""

    # Any: ninja's Parser returns JSON as json.loads gives it
    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        return cast(dict[str, Any], json.loads(request.body, parse_constant=_no_constant,
                                               parse_float=_finite))


THROTTLES: list[BaseThrottle] = [CallerThrottle("burst"), CallerThrottle("sustained")]


class JuntaAPI(NinjaAPI):
    """Ninja's API, but a call refused for want of a known caller (401) is counted too, by its
    address, and past the rates answered 429 like any other: guessing tokens is limited."""

    # ninja's Exc[_E]: an exception or its class
    def on_exception(self, request: HttpRequest, exc: Exception | type[Exception]
                     ) -> HttpResponse:
        if not_authenticated(exc):
            wait = wait_for(request, THROTTLES)
            if wait is not None:
                response = super().on_exception(request, Throttled(wait=wait))
                response["Retry-After"] = str(wait)
                return response
        return super().on_exception(request, exc)

    # Any: ninja's answer data, of any shape its schemas allow
    def create_response(self, request: HttpRequest, data: Any, *, status: int | None = None,
                        temporal_response: HttpResponse | None = None) -> HttpResponse:
        """Every answer, tagged for conditional GET when its route asks for it
        (`conditional.kept_answer`)."""
        return conditional.tagged(request, super().create_response(
            request, data, status=status, temporal_response=temporal_response))


api = JuntaAPI(
    title="Junta API",
    version="1",
    description=(
        "Play a Junta campaign as its web pages do. Authenticate with a personal token "
        "(`Authorization: Bearer <token>`, made at /api/tokens/) or the site's session (unsafe "
        "methods then need the CSRF token). Errors are JSON: `{\"detail\": ..., \"field\": "
        "...}` (and `errors`, a list of such, when there are several). Past the rate limit, "
        "counted per person across all his tokens (and per address without a known token), "
        "429 with `Retry-After`."),
    urls_namespace="api-v1",
    # Swagger UI fails the site's accessibility checks (contrast, nested controls): the
    # documentation is the site's own page, drawn from the same schema (views.docs_page)
    docs_url=None,
    auth=[BearerToken(), Session()],
    throttle=THROTTLES,
    parser=StrictJson(),
)
errors.install(api)
api.add_router("", campaigns.router)
api.add_router("", talk.router)
api.add_router("", orders.router)
api.add_router("", push.router)
