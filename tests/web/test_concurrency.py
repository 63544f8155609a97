"""Exactly-once adjudication under concurrent deliveries, on PostgreSQL (row locks)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection

from junta.games import adjudication
from junta.games.models import Phase, PhaseResult
from tests.web.concurrency import in_threads, started_phase

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_race_shows_with_the_lock_taken_out(postgres, monkeypatch):
    """Negative control: with `lock_phase` replaced by plain reads, several deliveries
    adjudicate the same phase (the unique result row then fails all but one of them)."""
    phase = started_phase()
    later = phase.deadline + timedelta(minutes=1)

    def unlocked(phase_id: int):
        p = Phase.objects.get(pk=phase_id)
        time.sleep(0.3)  # every delivery reads the phase as open before any commits
        return p.game, p

    monkeypatch.setattr(adjudication, "lock_phase", unlocked)
    outcomes = in_threads(lambda: adjudication.adjudicate_phase(phase.id, now=later),
                          allow_errors=True)
    attempts = [o for o in outcomes if o is not None]
    assert len(attempts) > 1
    assert any(isinstance(o, IntegrityError) for o in attempts)


def test_eight_deliveries_give_one_result(postgres):
    phase = started_phase()
    later = phase.deadline + timedelta(minutes=1)
    results = in_threads(lambda: adjudication.adjudicate_phase(phase.id, now=later))
    assert len([r for r in results if r is not None]) == 1
    assert PhaseResult.objects.filter(phase=phase).count() == 1
    assert Phase.objects.filter(game=phase.game).count() == 2
    assert connection.vendor == "postgresql"
