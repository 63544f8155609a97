"""When the absences of campaigns change by the clock alone, for the campaign's kept pages
(`junta.games.public.clock_moments`): an absence is "away now" from the midnight its first day
starts until the midnight after its last, in its player's own zone, and is over then."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from junta.notify.mail import user_zone
from junta.notify.models import Absence


def absences(game_ids: list[int], now: datetime) -> datetime | None:
    """The first midnight after `now` at which an absence in these campaigns starts or ends."""
    moments = []
    for absence in (Absence.objects.filter(
            player__game_id__in=game_ids,
            ends_on__gte=now.astimezone(UTC).date() - timedelta(days=1))
            .select_related("player__user")):
        zone = user_zone(absence.player.user)

        def midnight(day: date) -> datetime:
            return datetime.combine(day, time(), tzinfo=zone)  # noqa: B023 - used at once

        moments += [midnight(absence.starts_on), midnight(absence.ends_on + timedelta(days=1))]
    return min((moment for moment in moments if moment > now), default=None)
