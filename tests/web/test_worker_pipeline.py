"""The daily pipeline through a real worker and beat: due phases get adjudicated by
themselves, a repeated delivery changes nothing, and a worker killed mid-adjudication leaves
the phase for the next sweep, which gives the same result."""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from junta import engine
from junta.games import adjudication, repository, tasks
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Phase, PhaseResult
from tests.web.worker_processes import celery_env, send_sweep, worker

pytestmark = pytest.mark.django_db(transaction=True)


def due_phase() -> Phase:
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Clockwork", join_policy=Game.JoinPolicy.OPEN)
    for i in range(10):
        join_game(game.id, User.objects.create_user(email=f"p{i}@example.org"), f"Don {i}")
    phase = start_campaign(game.id, gm)
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    return Phase.objects.get(pk=phase.pk)


def wait_for(predicate, tmp_path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    pytest.fail("timed out; worker log:\n" + (tmp_path / "worker.log").read_text()[-3000:])


def expected_digest(phase: Phase) -> str:
    state = repository.state_before(phase)
    return engine.digest(engine.resolve(state, repository.orders_for_engine(phase)).state)


def test_beat_and_worker_adjudicate_a_due_phase_by_themselves(tmp_path):
    phase = due_phase()
    env = celery_env(tmp_path, broker=None, JUNTA_SWEEP_INTERVAL_SECONDS="1")
    with worker(env, tmp_path, beat=True):
        wait_for(lambda: PhaseResult.objects.filter(phase=phase).exists(), tmp_path)
        wait_for(lambda: Phase.objects.filter(game=phase.game, number=2).exists(), tmp_path)
    assert PhaseResult.objects.get(phase=phase).digest == expected_digest(phase)


def test_redis_worker_adjudicates_through_the_sweep(tmp_path, redis_url):
    phase = due_phase()
    env = celery_env(tmp_path, broker=redis_url, JUNTA_SWEEP_INTERVAL_SECONDS="1")
    with worker(env, tmp_path, beat=True):
        wait_for(lambda: PhaseResult.objects.filter(phase=phase).exists(), tmp_path)


def test_the_same_task_delivered_twice_gives_one_result():
    phase = due_phase()
    first = tasks.adjudicate_phase.apply(args=[phase.id]).get()
    second = tasks.adjudicate_phase.apply(args=[phase.id]).get()
    assert first.endswith("adjudicated") and second.endswith("nothing to do")
    assert PhaseResult.objects.filter(phase=phase).count() == 1
    assert Phase.objects.filter(game=phase.game).count() == 2


def test_a_worker_killed_mid_adjudication_leaves_the_phase_to_the_next_sweep(tmp_path):
    phase = due_phase()
    env = celery_env(tmp_path, broker=None, JUNTA_FAULT_ADJUDICATION_DELAY="30")
    with worker(env, tmp_path) as process:
        send_sweep(env)
        log = tmp_path / "worker.log"
        wait_for(lambda: f"adjudicating {phase}" in log.read_text(), tmp_path)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=20)
    assert not PhaseResult.objects.filter(phase=phase).exists()
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.OPEN
    assert phase.id in adjudication.due_phase_ids()
    result = adjudication.adjudicate_phase(phase.id)  # the next sweep
    assert result is not None and result.digest == expected_digest(phase)
