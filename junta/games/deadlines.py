"""When a phase's deadline falls.

Every campaign has a daily deadline time in an IANA zone (22:00 America/New_York by default). A
phase that lasts N days ends at that local time on the N-th day after it opens, where day 1 is
the first occurrence of the daily time at least `min_hours` after the opening (so a phase that
opens at 21:50 because everyone finished early does not close ten minutes later). Local times
are resolved in the zone on the day itself, so daylight-saving changes keep the wall-clock time;
a daily time that does not exist on a spring-forward night falls an hour later, and one that
happens twice on a fall-back night is the first of the two.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

DEFAULT_DEADLINE_TIME = time(22, 0)
DEFAULT_TIME_ZONE = "America/New_York"
DEFAULT_MIN_HOURS = 12


def local_deadline(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The instant (UTC) when the wall clock in `zone` shows `at` on `day`.

    Nonexistent local times (spring forward) are moved forward by the gap; ambiguous ones (fall
    back) take the first occurrence.
    """
    naive = datetime.combine(day, at)
    first = naive.replace(tzinfo=zone, fold=0)
    as_utc = first.astimezone(UTC)
    # A round trip that changes the wall time means the time does not exist that day.
    if as_utc.astimezone(zone).replace(tzinfo=None) != naive:
        later = naive.replace(tzinfo=zone, fold=1).astimezone(UTC)
        as_utc = max(as_utc, later)
    return as_utc


def phase_deadline(
    opens_at: datetime,
    days: int,
    *,
    at: time = DEFAULT_DEADLINE_TIME,
    zone_name: str = DEFAULT_TIME_ZONE,
    min_hours: int = DEFAULT_MIN_HOURS,
) -> datetime:
    """The deadline (UTC) of a phase opening at `opens_at` (aware) and lasting `days` days."""
    if opens_at.tzinfo is None:
        raise ValueError("opens_at must be timezone-aware")
    if days < 1:
        raise ValueError(f"a phase lasts at least one day, not {days}")
    zone = ZoneInfo(zone_name)
    earliest = opens_at + timedelta(hours=min_hours)
    day = earliest.astimezone(zone).date()
    first = local_deadline(day, at, zone)
    if first < earliest:
        day += timedelta(days=1)
    return local_deadline(day + timedelta(days=days - 1), at, zone)
