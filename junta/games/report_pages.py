"""Each published phase's report drawn as HTML once per viewer, then read from the cache.

A published result does not change. What its report looks like for a viewer is a function of
what it is made of: the result (its digest and its events), the phase (number, turn, kind,
deadline, and the digest of the state it opened with, where a coup phase's number is read),
the viewer (a seat, the GameMaster or nobody: each sees the public lines and his own), whether
its map is drawn, how many speeches were made while it was open, the time zone its date is
written in, and the code and templates that draw it. The cache key is a hash of all of these,
so a change in any one of them draws the report anew: nothing is ever invalidated by hand, and
no viewer is ever served a report drawn for another. Once the game is over every secret is
revealed on every report: those are drawn each time."""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import TypedDict

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from junta.games import play
from junta.games.cache_keys import content_key
from junta.games.citymap import DRAWING_VERSION
from junta.games.models import Game, PhaseResult

_HERE = Path(__file__).parent
# the code and templates a report is drawn with: a change in any draws every report anew
CODE_VERSION = hashlib.sha256(b"".join(
    [DRAWING_VERSION.encode()] + [(_HERE / name).read_bytes() for name in (
        "play.py", "vote_tables.py", "coup_maps.py", "headlines.py", "report_pages.py",
        "templates/games/_report.html",
        "templates/games/_fighting.html")])).hexdigest()[:16]
SECONDS = 24 * 3600


def report_key(result: PhaseResult, viewer: int | str | None, *, maps: bool,
               speech_count: int) -> str:
    """The cache key of this result's report as `viewer` sees it (see the module's text)."""
    phase = result.phase
    return content_key(
        "report", CODE_VERSION, phase.game_id, result.pk, result.digest, result.events, viewer,
        phase.number, phase.turn, str(phase.kind), phase.deadline.isoformat(),
        phase.state_digest, maps, speech_count, timezone.get_current_timezone_name())


class DrawnReport(TypedDict):
    """A phase's report drawn for a viewer (`drawn_reports`)."""

    html: SafeString
    undone_on: datetime | None  # when a rollback undid its phase (None: it counts)


def drawn_reports(game: Game, viewer: int | str | None, results: list[PhaseResult], *,
                  reveal: bool = False, maps: bool = False, speeches: bool = False,
                  rolled_back: dict[int, datetime] | None = None) -> list[DrawnReport]:
    """For each result, in order: {"html": its report drawn for `viewer`, "undone_on": when a
    rollback undid it (None: it counts)}. With `reveal` (a finished game only) every secret
    and every order, drawn each time; with `maps` the city after each coup phase; with
    `speeches` how many speeches were made while it was open. The reports in the cache cost
    no drawing; those that are not are drawn together (`play.reports`) and kept."""
    rolled_back = rolled_back or {}
    if reveal or not results:
        drawn = play.reports(game, viewer, results, reveal=reveal, maps=maps,
                             speeches=speeches, rolled_back=rolled_back)
        return [{"html": _draw(report), "undone_on": report.undone_on} for report in drawn]
    counts = play.speech_counts(game, results) if speeches else {}
    keys = [report_key(r, viewer, maps=maps, speech_count=counts.get(r.phase_id, 0))
            for r in results]
    cache = caches["drawings"]
    kept = cache.get_many(keys)
    missing = [(key, r) for key, r in zip(keys, results, strict=True) if key not in kept]
    if missing:
        drawn = play.reports(game, viewer, [r for _key, r in missing], maps=maps,
                             rolled_back=rolled_back, counts=counts)
        new = {key: str(_draw(report))
               for (key, _r), report in zip(missing, drawn, strict=True)}
        cache.set_many(new, SECONDS)
        kept.update(new)
    return [{"html": mark_safe(kept[key]),  # drawn by our own template, escaped there
             "undone_on": rolled_back.get(r.phase.number)}
            for key, r in zip(keys, results, strict=True)]


def _draw(report: play.PhaseReport) -> SafeString:
    return mark_safe(render_to_string("games/_report.html", {"r": report}))
