"""Exactly-once adjudication under concurrent deliveries, on PostgreSQL (row locks)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, connections

from junta.games import adjudication, running
from junta.games.campaigns import create_game, join_game
from junta.games.models import Game, Phase, PhaseResult

pytestmark = pytest.mark.django_db(transaction=True)
WORKERS = 8


def started_phase() -> Phase:
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Race", join_policy=Game.JoinPolicy.OPEN)
    for i in range(10):
        join_game(game.id, User.objects.create_user(email=f"p{i}@example.org"), f"Don {i}")
    return running.start_campaign(game.id, gm)


def in_threads(target, allow_errors: bool = False) -> list:
    barrier = threading.Barrier(WORKERS)
    out: list = []
    errors: list = []

    def run() -> None:
        try:
            barrier.wait()
            out.append(target())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if allow_errors:
        return out + errors
    assert not errors, errors
    return out


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
