"""When the polls of campaigns change by the clock alone, for the campaign's kept pages
(`junta.games.public.clock_moments`): a poll that closes at its hour leaves the Events page's
list of open polls and shows its results then."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from junta.games.public import NO_DAY, NO_ZONE, Clock
from junta.polls.models import Poll


def closing(game_ids: list[int], now: datetime) -> QuerySet[Any]:
    """The polls of these campaigns that close by themselves at an hour after `now`."""
    return Poll.objects.filter(game_id__in=game_ids, closed_at__isnull=True, closes_at__gt=now)


closings = Clock(closing, ("closes_at", NO_DAY, NO_DAY, NO_ZONE))
