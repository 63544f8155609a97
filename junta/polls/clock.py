"""When the polls of campaigns change by the clock alone, for the campaign's kept pages
(`junta.games.public.clock_moments`): a poll that closes at its hour leaves the Events page's
list of open polls and shows its results then."""

from __future__ import annotations

from datetime import datetime

from junta.polls.models import Poll


def closings(game_ids: list[int], now: datetime) -> datetime | None:
    """The first hour after `now` at which a poll of these campaigns closes by itself."""
    return (Poll.objects.filter(game_id__in=game_ids, closed_at__isnull=True, closes_at__gt=now)
            .order_by("closes_at").values_list("closes_at", flat=True).first())
