"""A campaign's pages kept as each viewer last saw them, served again until anything they are drawn
from changes, and answered 304 Not Modified to a browser that holds them already.

A page of a campaign (Status, Orders, Events, Map, History, Families, a conversation, the polls,
the GM's overview) is a function of:
- the campaign's rows, summed up by its content revision (`junta.games.revisions`: raised by
  every transaction that changes any of them, a person's name included; the lobby and the
  dashboard, of the revisions of every campaign they are drawn from);
- who asks: the person (his id, name and time zone), the language he reads (his profile's, else
  his browser's: every key of the "drawings" cache holds it, `cache_keys.content_key`) and his
  browser's CSRF secret, which the forms on the page carry;
- the address asked for, query string included (and the host, for a campaign's page: the
  Families page's invitation link names it);
- the code and templates that draw it (`SITE_VERSION`);
- the clock, only at the moments something a page shows turns: an open phase's deadline
  passing (the pages stop offering orders), a poll closing at its hour, an absence starting or
  ending (each app registers its own `Clock` with `clock_moments`: their rows are read in one
  query, once per change of the campaigns). What only counts time (the countdown to the
  deadline, how long ago) is drawn by the browser, never by the server.
The cache key is a hash of all but the clock, so nothing is ever invalidated by hand and nobody
is ever served a page drawn for another; what is kept under it carries the first of those
moments after it was drawn (at most the next full hour: `valid_until`), and is drawn anew once
it is reached.

Conditional GET: a page kept or drawn is sent with an ETag, a hash of the viewer (his id, his
browser's CSRF secret, the address, the language) and of the page as drawn (its CSRF tokens
and nonce left out, which differ at each drawing), so that it changes only when what he is
shown changes: a revision raised by what he cannot see (another's secret orders) is not told by
it.
`If-None-Match` with it gets a 304 Not Modified: at the cost of a kept page (the session, the
person, the revision, the cache) while it is kept, else once the page is drawn anew; either way
the CSRF cookie is renewed, as a drawn page renews it, and no Content-Security-Policy is sent,
so the browser keeps the one its copy's nonce goes with. Drawn each time, never kept nor
tagged: a request that is not a GET, staff's pages (they carry the site's health), a page with
messages to show, a browser without a CSRF cookie yet, and any answer that is not a plain 200
(an error, a redirect, a new cookie)."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.db.models import (
    CharField,
    DateField,
    DateTimeField,
    Expression,
    IntegerField,
    Model,
    QuerySet,
    Value,
)
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils import timezone, translation

from junta.games import revisions
from junta.games.cache_keys import content_key, site_version
from junta.games.models import Phase
from junta.games.watching import watchable_games

SECONDS = 3600  # a page is rarely read again after an hour: let the cache forget it




View = Callable[..., HttpResponseBase]
HOUR = 3600  # no drawing is trusted past the next full hour, whatever the clocks say
# A clock's rows: (when, first day, last day, zone name), each column None where it has no use.
ClockRow = tuple[datetime | None, date | None, date | None, str | None]
NO_MOMENT = Cast(Value(None), DateTimeField())  # typed: the clocks' rows are one UNION
NO_DAY = Cast(Value(None), DateField())
NO_ZONE = Cast(Value(None), CharField())


def at_itself(row: ClockRow, now: datetime) -> list[datetime]:
    """The moment of a row that holds one (its first column)."""
    return [] if row[0] is None else [row[0]]


@dataclass(frozen=True)
class Clock:
    """What makes some campaigns' pages change by the clock alone: `rows`, the rows of the
    campaigns (their ids) that hold its moments, as seen at a moment (a query, no more);
    `columns`, the four values of each (`ClockRow`: `NO_MOMENT`, `NO_DAY`, `NO_ZONE` where it
    has no use for one); `moments`, the moments a row makes. Every clock's rows are read in one
    query (`valid_until`)."""
    rows: Callable[[list[int], datetime], QuerySet[Any]]
    columns: tuple[str | Expression, str | Expression, str | Expression, str | Expression]
    moments: Callable[[ClockRow, datetime], list[datetime]] = at_itself


_CLOCKS: list[Clock] = []


def clock_moments(clock: Clock) -> None:
    """Register what makes a campaign's pages change by the clock alone (each app, when it
    loads, for what its parts of the pages show): a page is kept, and its ETag answered with
    304, only until the first such moment."""
    _CLOCKS.append(clock)


def deadlines(game_ids: list[int], now: datetime) -> QuerySet[Any]:
    """An open phase's deadline: when it passes, the pages say so and take no more orders
    (`status_info.clock`, `selectors.my_seats`)."""
    return Phase.objects.filter(game_id__in=game_ids, status=Phase.Status.OPEN,
                                deadline__gt=now)


clock_moments(Clock(deadlines, ("deadline", NO_DAY, NO_DAY, NO_ZONE)))


def valid_until(game_ids: list[int], now: datetime) -> int:
    """The Unix second until which a page of these campaigns drawn `now` stays true by the
    clock: the first registered moment after `now` (rounded down: never a second late), at
    most the next full hour. One query: every clock's rows at once."""
    until = (int(now.timestamp()) // HOUR + 1) * HOUR
    if not game_ids or not _CLOCKS:
        return until
    queries = [clock.rows(game_ids, now).order_by().values_list(
        Value(number, output_field=IntegerField()), *clock.columns)
        for number, clock in enumerate(_CLOCKS)]
    rows = queries[0].union(*queries[1:], all=True).order_by()  # no model's own order
    for number, *row in rows:
        for moment in _CLOCKS[number].moments((row[0], row[1], row[2], row[3]), now):
            if moment > now:
                until = min(until, int(moment.timestamp()))
    return until


# What differs between two drawings of one page for one browser: its forms' CSRF tokens (each
# masked afresh) and its scripts' nonce; left out of its ETag.
_DRAWN_AFRESH = re.compile(rb'(name="csrfmiddlewaretoken" value="|nonce=")[^"]*"')


def etag(viewer: object, body: bytes) -> str:
    """The ETag of `body` as drawn for `viewer` (everything that tells him from another: his id,
    his browser's CSRF secret, the address): a hash of both, so that it changes only when
    what he is shown changes (never when the campaign's revision is raised by what he cannot
    see: another's secret orders) and never matches what another was shown."""
    digest = hashlib.sha256(json.dumps(viewer, default=str).encode())
    digest.update(_DRAWN_AFRESH.sub(rb"\1", body))
    return f'"{digest.hexdigest()[:40]}"'


def not_modified(request: HttpRequest, tag: str) -> bool:
    """Whether the browser holds what `tag` names (`If-None-Match`)."""
    asked = request.headers.get("If-None-Match") or ""
    return any(tag == held.strip().removeprefix("W/") for held in asked.split(","))


def answered_not_modified(tag: str) -> HttpResponseNotModified:
    """304 for a browser that holds the page (or answer) of `tag`: without a
    Content-Security-Policy, so that the browser keeps the one its copy's nonce goes with."""
    response = HttpResponseNotModified()
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    for config in ("_csp_config", "_csp_ro_config"):  # as Django's csp_override({}) sets
        setattr(response, config, {})  # its CSP middleware adds none to this answer
    return response


CACHE_CONTROL = "private, no-cache"  # the browser may keep it, and asks each time (ETag)


def kept_for_viewer(view: View) -> View:
    """Serve a campaign page (a view taking `game_id`) from the cache when this viewer has
    seen it since anything it is drawn from last changed (see the module's text). The host
    asked is part of what it is made of: a page may carry an absolute address (the Families
    page's invitation link)."""
    def made_of(request: HttpRequest, game_id: int, *args: object, **kwargs: object
                ) -> tuple[object, list[int]] | None:
        number = revisions.current(game_id)
        setattr(request, _DRAWN_AT, number)  # noqa: B010 - not a field of HttpRequest
        return None if number is None else ((number, request.get_host()), [game_id])
    return _kept(_at_revision(view), made_of)


_DRAWN_AT = "junta_content_revision"


def _at_revision(view: View) -> View:
    """The view, drawing at the revision its key was made with: the campaign's rows are read
    back as kept at that number (`campaign_rows`; a request never keyed, as a form sent, reads
    the database)."""
    @functools.wraps(view)
    def draw(request: HttpRequest, game_id: int, *args: object, **kwargs: object
             ) -> HttpResponseBase:
        number = getattr(request, _DRAWN_AT, None)
        if number is None:
            return view(request, game_id, *args, **kwargs)
        with revisions.drawing(game_id, number):
            return view(request, game_id, *args, **kwargs)
    return draw


def kept_lobby(view: View) -> View:
    """The same for the page of a person's campaigns and those open to join: drawn from all
    of them, so kept under all of their revisions (`revisions.lobby`)."""
    return _kept(view, _person_made_of(revisions.lobby))


def kept_dashboard(view: View) -> View:
    """The same for a person's dashboard: drawn from his campaigns (their phases, his unread
    speeches and private messages, his practice campaigns) and counting those under way he
    may watch, so kept under all of their revisions (`revisions.dashboard`)."""
    return _kept(view, _person_made_of(
        lambda user: revisions.dashboard(user, watchable_games())))


def _person_made_of(numbers: Callable[[Model], list[tuple[int, int]]]
                    ) -> Callable[..., tuple[object, list[int]] | None]:
    def made_of(request: HttpRequest, *args: object, **kwargs: object
                ) -> tuple[object, list[int]] | None:
        if not isinstance(request.user, Model):  # nobody signed in: never kept
            return None
        found = numbers(request.user)
        return found, [game_id for game_id, _number in found]
    return made_of


def _kept(view: View, revision: Callable[..., tuple[object, list[int]] | None]) -> View:
    page = f"{view.__module__}.{view.__qualname__}"

    @functools.wraps(view)
    def serve(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        games: list[int] = []
        made: list[object] = []

        def made_of() -> object:
            found = revision(request, *args, **kwargs)
            if found is None:
                return None
            games.extend(found[1])
            made.append(found[0])
            return found[0]

        key = page_key(request, page, made_of)
        if key is None:
            return view(request, *args, **kwargs)
        secret = request.META["CSRF_COOKIE"]
        viewer = (request.user.pk, hashlib.sha256(secret.encode()).hexdigest(),
                  request.get_full_path(), translation.get_language())
        cache = caches["drawings"]
        now = timezone.now().timestamp()
        if request.headers.get("If-None-Match"):  # its ETag alone first: a small read
            held = cache.get(key + ":etag")
            if held is not None and now < held[0] and not_modified(request, held[1]):
                get_token(request)  # the copy's forms use the cookie: renewed, as a drawing does
                return answered_not_modified(held[1])
        kept = cache.get(key)
        if kept is not None and now < kept[2]:
            headers, body, _until, tag = kept
            get_token(request)  # the page's forms use the cookie: renewed, as a drawing does
            if not_modified(request, tag):  # its ETag's own row forgotten, not the page
                return answered_not_modified(tag)
            return _tagged(HttpResponse(body, headers=headers), tag)
        until = _kept_until(games, made[0])  # before drawing: a moment meanwhile counts
        response = view(request, *args, **kwargs)
        if not _keepable(request, response, secret):
            return response
        assert isinstance(response, HttpResponse)  # not streaming: checked just above
        tag = etag(viewer, response.content)
        cache.set_many({key: (dict(response.items()), response.content, until, tag),
                        key + ":etag": (until, tag)}, SECONDS)
        if not_modified(request, tag):  # drawn anew after a change he is not shown
            get_token(request)
            return answered_not_modified(tag)
        return _tagged(response, tag)

    return serve


def _kept_until(games: list[int], made_of: object) -> int:
    """`valid_until` for pages of `games` drawn now from what `made_of` sums up, asked of the
    clocks once per change of the campaigns: every moment they register (a deadline, a poll's
    closing hour, an absence) is a row whose change raises the revision, so while it stands and
    the moment found has not come, no other moment came before it."""
    cache = caches["drawings"]
    key = content_key("until", games, made_of)
    now = timezone.now()
    held = cache.get(key)
    if held is not None and now.timestamp() < held:
        return int(held)
    until = valid_until(games, now)
    cache.set(key, until, SECONDS)
    return until


def _tagged(response: HttpResponse, tag: str) -> HttpResponse:
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    return response


def page_key(request: HttpRequest, page: str, revision: Callable[[], object]) -> str | None:
    """The cache key of `page` as this request would draw it, `revision` summing up what it is
    drawn from (None: no such thing); None: draw it, never keep it. The clock is not in it:
    what is kept under it is kept until its clock's next moment (`valid_until`)."""
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
        hashlib.sha256(secret.encode()).hexdigest(), made_of)


def _keepable(request: HttpRequest, response: HttpResponseBase, secret: str) -> bool:
    return (isinstance(response, HttpResponse) and response.status_code == 200
            and not response.cookies
            and request.META.get("CSRF_COOKIE") == secret  # not rotated while drawing
            and not request.session.modified
            and not len(get_messages(request)))
