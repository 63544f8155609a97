"""Concurrent deliveries for the exactly-once tests (tests/web/test_concurrency.py,
tests/web/test_notify_concurrency.py): a started campaign, and one call made from several
threads at the same moment."""

from __future__ import annotations

import threading

from django.contrib.auth import get_user_model
from django.db import connections

from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Phase

WORKERS = 8


def started_phase() -> Phase:
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Race", join_policy=Game.JoinPolicy.OPEN)
    for i in range(10):
        join_game(game.id, User.objects.create_user(email=f"p{i}@example.org"), f"Don {i}")
    return start_campaign(game.id, gm)


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
