"""A campaign's pages kept as each viewer last saw them, served again until anything they are drawn
from changes.

A page of a campaign (Status, Orders, Events, Map, History, the GM's overview) is a function of:
- the campaign's rows, summed up by its content revision (`junta.games.revisions`: raised by
  every transaction that changes any of them, a person's name included);
- who asks: the person (his id, name and time zone) and his browser's CSRF secret, which the
  forms on the page carry;
- the address asked for, query string included;
- the clock, for what a page says about time (an absence under way, a deadline passed): the
  current minute;
- the code and templates that draw it (`SITE_VERSION`).
The cache key is a hash of all of these, so nothing is ever invalidated by hand and nobody is
ever served a page drawn for another. Drawn each time, never kept: a request that is not a GET,
staff's pages (they carry the site's health), a page with messages to show, a browser without a
CSRF cookie yet, and any answer that is not a plain 200 (an error, a redirect, a new cookie)."""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.csrf import get_token

from junta.games import revisions
from junta.games.cache_keys import content_key

SECONDS = 3600  # a page is rarely read again after an hour: let the cache forget it
_SOURCES = ("junta", "accounts", "templates", "static")


@functools.cache
def site_version() -> str:
    """A hash of the code, templates and static files the site runs (read once a process)."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for top in _SOURCES:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


View = Callable[..., HttpResponseBase]


def kept_for_viewer(view: View) -> View:
    """Serve a campaign page (a view taking `game_id`) from the cache when this viewer has
    seen it since anything it is drawn from last changed (see the module's text)."""
    return _kept(view, lambda request, game_id, *args, **kwargs: revisions.current(game_id))


def kept_lobby(view: View) -> View:
    """The same for the page of a person's campaigns and those open to join: drawn from all
    of them, so kept under all of their revisions (`revisions.lobby`)."""
    return _kept(view, lambda request, *args, **kwargs: revisions.lobby(request.user))


def _kept(view: View, revision: Callable[..., object]) -> View:
    page = f"{view.__module__}.{view.__qualname__}"

    @functools.wraps(view)
    def serve(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        key = page_key(request, page, lambda: revision(request, *args, **kwargs))
        if key is None:
            return view(request, *args, **kwargs)
        cache = caches["drawings"]
        kept = cache.get(key)
        secret = request.META["CSRF_COOKIE"]
        if kept is not None:
            headers, body = kept
            get_token(request)  # the page's forms use the cookie: renewed, as a drawing does
            return HttpResponse(body, headers=headers)
        response = view(request, *args, **kwargs)
        if _keepable(request, response, secret):
            assert isinstance(response, HttpResponse)  # not streaming: checked just above
            cache.set(key, (dict(response.items()), response.content), SECONDS)
        return response

    return serve


def page_key(request: HttpRequest, page: str, revision: Callable[[], object]) -> str | None:
    """The cache key of `page` as this request would draw it, `revision` summing up what it is
    drawn from (None: no such thing); None: draw it, never keep it."""
    user = getattr(request, "user", None)
    secret = request.META.get("CSRF_COOKIE")
    if (request.method != "GET" or user is None or not user.is_authenticated or user.is_staff
            or not secret or len(get_messages(request))):
        return None
    made_of = revision()
    if made_of is None:
        return None
    return content_key(
        "page", site_version(), page, request.get_full_path(), user.pk,
        getattr(user, "public_name", ""), getattr(user, "time_zone", ""),
        hashlib.sha256(secret.encode()).hexdigest(), made_of, int(time.time() // 60))


def _keepable(request: HttpRequest, response: HttpResponseBase, secret: str) -> bool:
    return (isinstance(response, HttpResponse) and response.status_code == 200
            and not response.cookies
            and request.META.get("CSRF_COOKIE") == secret  # not rotated while drawing
            and not request.session.modified
            and not len(get_messages(request)))
