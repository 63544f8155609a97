"""When the absences of campaigns change by the clock alone, for the campaign's kept pages
(`junta.games.public.clock_moments`): an absence is "away now" from the midnight its first day
starts until the midnight after its last, in its player's own zone, and is over then."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import QuerySet

from junta.games.public import NO_MOMENT, Clock, ClockRow
from junta.notify.mail import zone_named
from junta.notify.models import Absence


def not_over(game_ids: list[int], now: datetime) -> QuerySet[Any]:
    """The absences in these campaigns that may still start or end after `now` (a day
    early: the zones run ahead of UTC)."""
    return Absence.objects.filter(player__game_id__in=game_ids,
                                  ends_on__gte=now.astimezone(UTC).date() - timedelta(days=1))


def midnights(row: ClockRow, now: datetime) -> list[datetime]:
    """The midnights, in its player's zone, at which an absence starts and ends."""
    _at, first, last, zone_name = row
    assert first is not None and last is not None  # the columns of `absences`
    zone = zone_named(zone_name or "")

    def midnight(day: date) -> datetime:
        return datetime.combine(day, time(), tzinfo=zone)

    return [midnight(first), midnight(last + timedelta(days=1))]


absences = Clock(not_over, (NO_MOMENT, "starts_on", "ends_on", "player__user__time_zone"),
                 midnights)
