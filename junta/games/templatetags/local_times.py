"""Times as the site writes them: a moment in the viewer's zone with the zone named, and a
campaign's daily deadline (in the campaign's zone, with the viewer's equivalent). Plain
formatting, no query: every app's templates and mails load it."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils import timezone

from junta.games.models import Game

register = template.Library()


@register.filter
def when(value: datetime | None, fmt: str = "D j M Y, H:i") -> str:
    """"Mon 23 Nov 2026, 22:00 (America/New_York)": the time in the current zone (the viewer's,
    activated per request, or the reader's in a mail), the zone named in full."""
    if not value:
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return f"{date_filter(local, fmt)} ({timezone.get_current_timezone_name()})"


@register.filter
def daily_deadline(game: Game, now: datetime | None = None) -> str:
    """"22:00 America/New_York (04:00 the next day in Europe/Berlin)": the campaign's daily
    deadline is a rule stated in the campaign's zone; the viewer's equivalent (for the next
    deadline, daylight saving time as it will then be) follows when his zone differs."""
    rule = f"{game.deadline_time:%H:%M} {game.time_zone}"
    try:
        campaign_zone = zoneinfo.ZoneInfo(game.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return rule
    viewer_zone = timezone.get_current_timezone()
    if getattr(viewer_zone, "key", None) == campaign_zone.key:
        return rule
    here = (now or timezone.now()).astimezone(campaign_zone)
    upcoming = datetime.combine(here.date(), game.deadline_time, tzinfo=campaign_zone)
    if upcoming <= here:
        upcoming = datetime.combine(here.date() + timedelta(days=1), game.deadline_time,
                                    tzinfo=campaign_zone)
    local = upcoming.astimezone(viewer_zone)
    day = {-1: " the day before", 1: " the next day"}.get(
        (local.date() - upcoming.date()).days, "")
    if local.strftime("%H:%M") == upcoming.strftime("%H:%M") and not day:
        return rule  # another name for the same clock (today)
    return f"{rule} ({local:%H:%M}{day} in {timezone.get_current_timezone_name()})"
