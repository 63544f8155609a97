"""Exactly-once adjudication under concurrent deliveries, on PostgreSQL (row locks)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

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


def in_threads(target) -> list:
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
    assert not errors, errors
    return out


def test_the_race_exists_without_the_lock(postgres):
    """Negative control: eight deliveries that only read the status all see an open phase, so
    a check without the row lock would adjudicate the phase eight times."""
    phase = started_phase()
    seen = in_threads(lambda: Phase.objects.get(pk=phase.id).status)
    assert seen == [Phase.Status.OPEN] * WORKERS


def test_eight_deliveries_give_one_result(postgres):
    phase = started_phase()
    later = phase.deadline + timedelta(minutes=1)
    results = in_threads(lambda: adjudication.adjudicate_phase(phase.id, now=later))
    assert len([r for r in results if r is not None]) == 1
    assert PhaseResult.objects.filter(phase=phase).count() == 1
    assert Phase.objects.filter(game=phase.game).count() == 2
    assert connection.vendor == "postgresql"
