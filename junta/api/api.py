"""The API itself: one NinjaAPI, its authentication (a personal token, else the session), its
rate limits, its error shape, and its routers. Mounted at /api/v1/ (junta/api/urls.py)."""

from __future__ import annotations

from ninja import NinjaAPI

from junta.api import campaigns, errors, orders, talk
from junta.api.auth import BearerToken, CallerThrottle, Session

api = NinjaAPI(
    title="Junta API",
    version="1",
    description=(
        "Play a Junta campaign as its web pages do. Authenticate with a personal token "
        "(`Authorization: Bearer <token>`, made at /api/tokens/) or the site's session (unsafe "
        "methods then need the CSRF token). Errors are JSON: `{\"detail\": ..., \"field\": "
        "...}` (and `errors`, a list of such, when there are several)."),
    urls_namespace="api-v1",
    # Swagger UI fails the site's accessibility checks (contrast, nested controls): the
    # documentation is the site's own page, drawn from the same schema (views.docs_page)
    docs_url=None,
    auth=[BearerToken(), Session()],
    throttle=[CallerThrottle("burst"), CallerThrottle("sustained")],
)
errors.install(api)
api.add_router("", campaigns.router)
api.add_router("", talk.router)
api.add_router("", orders.router)
