"""A private iCalendar feed (RFC 5545) of one person's deadlines across his campaigns.

Written by hand: a VCALENDAR with one VEVENT per phase deadline (UID, DTSTAMP, DTSTART in UTC
with "Z", SUMMARY naming the campaign and the phase, DESCRIPTION naming the zone of the
campaign's daily deadline), text escaped (RFC 5545 3.3.11), lines ending in CRLF and folded at
75 octets (3.1) without splitting a UTF-8 character.

A deadline that moves (the GM extends it, or resumes after a pause) keeps its UID and gets a
higher SEQUENCE and a later LAST-MODIFIED, so calendar clients replace the old time rather than
keep it.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.public import User
from junta.engine import PHASE_TITLES
from junta.games.public import AuditEntry, Game, Phase, Player

# Past deadlines stay in the feed this long (calendars keep history; the feed stays small).
HISTORY = timedelta(days=60)
CRLF = "\r\n"


def escape_text(value: str) -> str:
    """TEXT value escaping: backslash, semicolon, comma and newlines."""
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def fold(line: str) -> str:
    """Fold a content line into chunks of at most 75 octets, continuation lines starting with
    one space, never cutting a multi-byte character."""
    out: list[str] = []
    current, size, limit = "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += char
        size += width
    out.append(current)
    return CRLF.join(out)


def utc_stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def my_phases(user: User, now: datetime) -> list[tuple[Phase, int | None]]:
    """Phases of the person's campaigns (as a seated player or as GM) whose deadline is still
    to come or passed less than HISTORY ago, with his seat (None for the GM); never a
    practice campaign's (it has no deadline)."""
    seats = dict(Player.objects.filter(user=user, membership=Player.Membership.ACTIVE)
                 .values_list("game_id", "seat"))
    games = Game.objects.filter(Q(gm=user) | Q(pk__in=list(seats))).exclude(practice=True)
    phases = (Phase.objects.filter(game__in=games, deadline__gte=now - HISTORY)
              .select_related("game").order_by("deadline", "id"))
    return [(phase, seats.get(phase.game_id)) for phase in phases]


def sequence(phase: Phase) -> int:
    """SEQUENCE (RFC 5545 3.8.7.4): the phase's length in whole seconds. A deadline only ever
    moves later (an extension, a pause), so each move raises it; an unmoved deadline keeps it
    from one fetch of the feed to the next."""
    return max(0, int(phase.deadline.timestamp()) - int(phase.opens_at.timestamp()))


def last_modified(phases: list[Phase]) -> dict[int, datetime]:
    """LAST-MODIFIED of each phase's event: when it opened, or the last GM action in its
    campaign while it was open (the actions that move a deadline among them), whichever is
    later. One query for the whole feed."""
    if not phases:
        return {}
    actions: dict[int, list[datetime]] = {}
    for game_id, at in AuditEntry.objects.filter(
            game_id__in={p.game_id for p in phases},
            created_at__gte=min(p.opens_at for p in phases)).values_list("game_id", "created_at"):
        actions.setdefault(game_id, []).append(at)
    return {phase.pk: max([phase.opens_at, *(at for at in actions.get(phase.game_id, ())
                                             if phase.opens_at <= at < phase.deadline)])
            for phase in phases}


def describe(phase: Phase, seat: int | None) -> tuple[str, str]:
    """SUMMARY and DESCRIPTION of a phase's deadline."""
    game = phase.game
    title = PHASE_TITLES.get(phase.kind, phase.kind.replace("_", " ").capitalize())
    turn = f"turn {phase.turn}, " if phase.turn else ""
    summary = f"{game.name}: {turn}{title} deadline"
    local = phase.deadline.astimezone(zoneinfo.ZoneInfo(game.time_zone))
    lines = [
        f"Orders for {title} in {game.name} are due at {local:%H:%M} on "
        f"{local:%A %d %B %Y} in the {game.time_zone} time zone (the campaign's deadline "
        f"zone; the start time of this event is in UTC, and your calendar shows it in yours).",
    ]
    if phase.status != Phase.Status.OPEN:
        lines.append("This phase is over.")
    elif seat is not None and seat in phase.owing_seats:
        lines.append("You owe orders in this phase.")
    elif seat is None:
        lines.append("You are the GameMaster of this campaign.")
    lines.append(f"Orders: {settings.SITE_URL}{reverse('game_orders', args=[game.id])}")
    return summary, "\n".join(lines)


def feed(user: User, now: datetime | None = None) -> str:
    """The whole .ics text for `user`."""
    now = now or timezone.now()
    host = urlsplit(settings.SITE_URL).hostname or "junta.invalid"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Junta//Campaign deadlines//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text('Junta deadlines')}",
        "X-WR-TIMEZONE:UTC",
    ]
    phases = my_phases(user, now)
    modified = last_modified([phase for phase, _ in phases])
    for phase, seat in phases:
        summary, description = describe(phase, seat)
        lines += [
            "BEGIN:VEVENT",
            f"UID:phase-{phase.pk}@{host}",
            f"DTSTAMP:{utc_stamp(now)}",
            f"SEQUENCE:{sequence(phase)}",
            f"LAST-MODIFIED:{utc_stamp(modified[phase.pk])}",
            f"DTSTART:{utc_stamp(phase.deadline)}",
            f"SUMMARY:{escape_text(summary)}",
            f"DESCRIPTION:{escape_text(description)}",
            f"URL:{settings.SITE_URL}{reverse('game_status', args=[phase.game_id])}",
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + CRLF for line in lines)
