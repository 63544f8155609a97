"""Conditional GET for the API's reads, as the site's pages have it (`junta.games.page_cache`):
an answer about campaigns is a function of their content revisions, the caller (his id, name,
zone and the language he reads: the API's words, its errors and the engine's texts, are in it),
the address asked (host and query included), the code, and the clock only at the moments the
campaigns' apps register (an open phase's deadline passing: `clock` and `open` say so).

`kept_answer` (under a GET route) sends the answer with an ETag, a hash of the caller, the
address and the answer itself, so that it changes only when what he is shown changes (never
when a revision is raised by what he cannot see, another's secret orders), and answers
`If-None-Match` with it 304 Not Modified. What an answer is made of names a row in the
"drawings" cache: until when the clock leaves it true, its ETag and the answer as drawn. While
it is there, the same revisions and the moment ahead, the answer is served again from it (or
the 304) at the cost of the revision and the cache, never drawn; else it is drawn, then 304 if
its ETag is the one held. Authentication and the
rate limits run before (a 304 is counted as a call); a 404 or any error is never tagged.

A campaign's routes (a `game_id`) are made of its revision; the list of the caller's campaigns
of those of all his campaigns and those forming (`lobby_revision`)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from junta.api.auth import caller
from junta.games.public import (
    answered_not_modified,
    conditional_etag,
    current_revision,
    lobby_revision,
    not_modified,
    site_version,
    valid_until,
)

SECONDS = 3600  # an answer's row is rarely asked about again an hour on
_PENDING = "junta.api.conditional"  # request.META: what the answer being drawn is made of


def kept_answer[Answer](view: Callable[..., Answer]) -> Callable[..., Answer | HttpResponse]:
    """Conditional GET for a route's answer (see the module)."""

    @functools.wraps(view)
    def answer(request: HttpRequest, *args: object, **kwargs: object) -> Answer | HttpResponse:
        user = caller(request)
        game_id = kwargs.get("game_id")
        games: list[int]
        made_of: object
        if isinstance(game_id, int):
            made_of, games = current_revision(game_id), [game_id]
        else:
            numbers = lobby_revision(user)
            made_of, games = numbers, [game for game, _number in numbers]
        if made_of is None or request.method != "GET":
            return view(request, *args, **kwargs)
        key = "api:" + hashlib.sha256(json.dumps(
            [site_version(), request.get_host(), request.get_full_path(), user.pk,
             user.public_name, user.time_zone, translation.get_language(), made_of],
            default=str).encode()).hexdigest()
        now = timezone.now()
        kept = caches["drawings"].get(key)
        if kept is not None and now.timestamp() < kept[0]:
            _until, tag, headers, body = kept
            if not_modified(request, tag):
                return answered_not_modified(tag)
            return HttpResponse(body, headers=headers)
        request.META[_PENDING] = (key, valid_until(games, now),
                                  [user.pk, request.get_full_path(),
                                   translation.get_language()])
        return view(request, *args, **kwargs)

    return answer


def tagged(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The answer drawn, with its ETag (kept for the next ask), or 304 if the caller holds it
    already (`JuntaAPI.create_response` passes every answer here)."""
    pending = request.META.pop(_PENDING, None)
    if pending is None or response.status_code != 200:
        return response
    key, until, viewer = pending
    tag = conditional_etag(viewer, response.content)
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    if not response.cookies:  # an answer that sets a cookie is never served again
        caches["drawings"].set(key, (until, tag, dict(response.items()), response.content),
                               SECONDS)
    if not_modified(request, tag):
        return answered_not_modified(tag)
    return response
