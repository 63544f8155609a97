"""A campaign's page left open stays current: `static/js/live.js` asks this JSON answer every few
seconds (`POLL_MS`) while the page is in view, and updates the page in place: the game menu's
unread count, the Status page's "Who is in" and, once the phase the page shows has its results
out, a banner saying so (reload to read them).

It answers for one viewer (a seated player or the GameMaster: 404 to anyone else, as the Status
page) exactly what his pages show him: the current phase, whether the phase his page shows
(`?phase=<id>`) is behind it and published, who is in (the families whose turn to order everyone
can see, `games.who_is_in`) and his unread private messages. It combines games and talk, so it
stands in the site layer above both.

The answer is kept in the "drawings" cache under the campaign's content revision (raised by any
change a page of it shows, a private message or a message read among them), the viewer and the
phase asked about, so a poll while nothing changed costs the session, the person, the revision
and the cache. Its ETag is a hash of the viewer and the answer itself: it changes only when what
this viewer sees changes (a number raised by another's secret orders tells him nothing), never
matches another viewer's, and `If-None-Match` with it gets a 304."""

from __future__ import annotations

import hashlib
import json
from typing import TypedDict

from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.views.decorators.http import require_GET

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import (
    Phase,
    PhaseResult,
    current_revision,
    game_for,
    phase_title,
    seat_for,
    who_is_in,
)
from junta.talk.public import unread_by_game

POLL_MS = 15_000  # how often a page in view asks (the browser tests make it shorter)
SECONDS = 3600  # an answer is rarely asked again an hour on


class PhaseLine(TypedDict):
    id: int
    label: str  # "Turn 3: Budget Vote", as the Status page heads it


class Shown(TypedDict):
    """The phase a page shows, against the campaign's current one."""
    id: int
    label: str
    changed: bool  # the campaign is in another phase now: the page is behind
    published: bool  # its results are out


class InLine(TypedDict):
    seat: int
    name: str
    orders: str  # "none", "in" or "final"


class Live(TypedDict):
    phase: PhaseLine
    shown: Shown | None
    who_is_in: list[InLine]
    unread: dict[str, int]  # the game menu's counts: "talk"


def label(phase: Phase) -> str:
    title = phase_title(phase)
    return f"Turn {phase.turn}: {title}" if phase.turn else title


def answer(request: AuthenticatedHttpRequest, game_id: int, shown_id: int | None) -> Live:
    """What the viewer's open page may show now (404 unless he is seated or the GM)."""
    game = game_for(request.user, game_id)
    seat = seat_for(game, request.user)
    phase = seat.phase
    shown: Shown | None = None
    if shown_id is not None:
        asked = game.phases.filter(pk=shown_id).first()
        if asked is not None:
            shown = {"id": asked.id, "label": label(asked), "changed": asked.id != phase.id,
                     "published": PhaseResult.objects.filter(
                         phase=asked, published_at__isnull=False).exists()}
    rows, _all_final = who_is_in(phase, seat.state)
    return {
        "phase": {"id": phase.id, "label": label(phase)},
        "shown": shown,
        "who_is_in": [{"seat": r.seat, "name": r.name, "orders": r.orders} for r in rows],
        "unread": {"talk": unread_by_game(request.user, [game.id]).get(game.id, 0)},
    }


def _shown_id(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and len(text) < 19 else None


@login_required
@require_GET
def live(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The viewer's live answer for a page of the campaign left open (see the module)."""
    shown_id = _shown_id(request.GET.get("phase"))
    revision = current_revision(game_id)
    key = None
    kept = None
    if revision is not None:
        made = json.dumps(["live", game_id, request.user.pk, shown_id, revision,
                           translation.get_language()]).encode()
        key = "live:" + hashlib.sha256(made).hexdigest()
        kept = caches["drawings"].get(key)
    if kept is None:
        body = json.dumps(answer(request, game_id, shown_id), sort_keys=True)
        mine = f"{request.user.pk}:{body}"  # never another viewer's, even were it the same
        kept = (body, '"live-' + hashlib.sha256(mine.encode()).hexdigest()[:24] + '"')
        if key is not None:
            caches["drawings"].set(key, kept, SECONDS)
    body, etag = kept
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response
