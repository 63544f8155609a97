"""Deadlines, docs/rules.md §timing: "The game moves one phase a day. Each phase has a deadline
(by default 22:00 New York time; each campaign sets its own time and time zone)"."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from junta.games.deadlines import local_deadline, phase_deadline

NY = ZoneInfo("America/New_York")


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_default_is_22_00_new_york_the_next_day():
    # Opens 22:05 New York on 10 March 2026 (EDT starts 8 March): closes 22:00 on 11 March.
    opens = datetime(2026, 3, 10, 22, 5, tzinfo=NY)
    deadline = phase_deadline(opens, 1)
    assert deadline.astimezone(NY) == datetime(2026, 3, 11, 22, 0, tzinfo=NY)
    assert deadline == utc(2026, 3, 12, 2, 0)


def test_two_day_election_closes_on_the_second_evening():
    opens = datetime(2026, 6, 1, 22, 1, tzinfo=NY)
    assert phase_deadline(opens, 2).astimezone(NY) == datetime(2026, 6, 3, 22, 0, tzinfo=NY)


def test_a_phase_opened_early_still_gets_a_full_evening():
    """A phase that closes early because everyone is final opens the next one in the afternoon;
    its deadline is not the same evening but the next one (at least 12 hours)."""
    opens = datetime(2026, 6, 1, 15, 0, tzinfo=NY)
    assert phase_deadline(opens, 1).astimezone(NY) == datetime(2026, 6, 2, 22, 0, tzinfo=NY)
    morning = datetime(2026, 6, 1, 8, 0, tzinfo=NY)
    assert phase_deadline(morning, 1).astimezone(NY) == datetime(2026, 6, 1, 22, 0, tzinfo=NY)


def test_wall_clock_time_survives_daylight_saving_changes():
    # Across the November fall-back (1 Nov 2026) the deadline stays 22:00 local: UTC moves.
    before = phase_deadline(datetime(2026, 10, 30, 22, 5, tzinfo=NY), 1)
    after = phase_deadline(datetime(2026, 10, 31, 22, 5, tzinfo=NY), 2)
    assert before == utc(2026, 11, 1, 2, 0)  # 22:00 EDT on 31 October
    assert after == utc(2026, 11, 3, 3, 0)  # 22:00 EST on 2 November
    assert after.astimezone(NY).hour == 22


def test_nonexistent_and_ambiguous_local_times():
    # 02:30 does not exist in New York on 8 March 2026: it falls at 03:30 EDT.
    gap = local_deadline(datetime(2026, 3, 8).date(), time(2, 30), NY)
    assert gap == utc(2026, 3, 8, 7, 30)
    # 01:30 happens twice on 1 November 2026: the first (EDT) is taken.
    fold = local_deadline(datetime(2026, 11, 1).date(), time(1, 30), NY)
    assert fold == utc(2026, 11, 1, 5, 30)


def test_each_game_sets_its_own_time_and_zone():
    opens = utc(2026, 7, 1, 12, 0)
    deadline = phase_deadline(opens, 1, at=time(20, 30), zone_name="Europe/Madrid")
    assert deadline == utc(2026, 7, 2, 18, 30)  # 20:30 CEST; 1 July 20:30 is under 12 h away


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        phase_deadline(datetime(2026, 1, 1), 1)
    with pytest.raises(ValueError, match="at least one day"):
        phase_deadline(utc(2026, 1, 1), 0)
