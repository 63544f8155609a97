"""The minute sweep under a starved worker: one notification sweep queued or running
at a time, however many minute sweeps go by, and the minute sweep and the adjudications on a
Celery queue of their own, so that they never wait behind a backlog of mail tasks."""

from __future__ import annotations

import re
import subprocess
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.utils import timezone

from junta.games.models import Phase, PhaseResult
from junta.notify import leases, notices, tasks
from junta.notify.models import Lease
from junta.ops import tasks as ops_tasks
from tests.conftest import PYTHON, REPO
from tests.web.concurrency import started_phase
from tests.web.worker_processes import celery_env, worker

SWEEP = Lease.NOTIFICATION_SWEEP
TASK = tasks.sweep_notifications  # the real task, whatever a test puts in its place


class QueuedSweeps:
    """Stands in for the notification sweep task while no worker runs: records what is queued."""

    def __init__(self) -> None:
        self.queued: list[dict] = []

    def apply_async(self, kwargs=None, **options) -> None:  # noqa: ANN001
        self.queued.append({"kwargs": kwargs or {}, **options})


@pytest.fixture
def no_worker(monkeypatch) -> QueuedSweeps:
    queued = QueuedSweeps()
    monkeypatch.setattr(tasks, "sweep_notifications", queued)
    return queued


def sweeps_run(monkeypatch) -> list[int]:
    """Count the runs of the notification sweep's body (notices.sweep)."""
    runs: list[int] = []
    monkeypatch.setattr(notices, "sweep", lambda now=None: runs.append(1) or {})
    return runs


# --- one at a time -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_second_sweep_while_one_is_in_flight_does_nothing(monkeypatch):
    second: list[str] = []
    runs: list[int] = []

    def first_sweep(now=None):  # noqa: ANN001, ANN202 - while it runs, another one comes
        runs.append(1)
        second.append(tasks.sweep_notifications.apply().get())
        second.append(tasks.sweep_notifications.apply(kwargs={"lease": "stale"}).get())
        return {}

    monkeypatch.setattr(notices, "sweep", first_sweep)
    assert tasks.sweep_notifications.apply().get() == "nothing to send"
    assert second == [tasks.IN_FLIGHT, tasks.IN_FLIGHT]
    assert runs == [1]  # the second and third returned at once
    assert not Lease.objects.filter(expires_at__gt=timezone.now()).exists()  # given back
    assert tasks.sweep_notifications.apply().get() == "nothing to send"  # the next one runs


@pytest.mark.django_db
def test_a_sweep_queued_with_the_lease_runs_under_it_and_a_stale_one_does_not(monkeypatch):
    runs = sweeps_run(monkeypatch)
    token = leases.acquire(SWEEP, 600)
    assert tasks.sweep_notifications.apply().get() == tasks.IN_FLIGHT  # held: no sweep by hand
    assert tasks.sweep_notifications.apply(kwargs={"lease": "other"}).get() == tasks.IN_FLIGHT
    assert runs == []
    assert tasks.sweep_notifications.apply(kwargs={"lease": token}).get() == "nothing to send"
    assert runs == [1] and not Lease.objects.exists()
    # a sweep whose lease ran out while it waited, and nobody took it meanwhile, may still run
    token = leases.acquire(SWEEP, 600)
    Lease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert tasks.sweep_notifications.apply(kwargs={"lease": token}).get() == "nothing to send"
    assert runs == [1, 1]


@pytest.mark.django_db
def test_many_minute_sweeps_with_the_worker_stopped_queue_one_notification_sweep(
        no_worker, monkeypatch):
    for _minute in range(30):
        ops_tasks.sweep()
    assert len(no_worker.queued) == 1, no_worker.queued
    [queued] = no_worker.queued
    assert queued["expires"] == settings.JUNTA_NOTIFY_SWEEP_LEASE_SECONDS  # dropped when stale

    # the worker comes back: the queued sweep runs, gives the lease back, the next minute queues
    runs = sweeps_run(monkeypatch)
    assert TASK.run(**queued["kwargs"]) == "nothing to send"
    assert runs == [1]
    ops_tasks.sweep()
    ops_tasks.sweep()
    assert len(no_worker.queued) == 2


@pytest.mark.django_db
def test_a_sweep_lost_in_the_queue_is_replaced_once_its_lease_runs_out(no_worker, monkeypatch):
    ops_tasks.sweep()
    lost = no_worker.queued[0]
    Lease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))  # ten minutes on
    ops_tasks.sweep()
    ops_tasks.sweep()
    assert len(no_worker.queued) == 2
    runs = sweeps_run(monkeypatch)
    assert TASK.run(**lost["kwargs"]) == tasks.IN_FLIGHT  # the late one
    assert runs == []
    assert TASK.run(**no_worker.queued[1]["kwargs"]) == "nothing to send"
    assert runs == [1]


@pytest.mark.django_db
def test_a_broker_that_refuses_the_sweep_leaves_the_lease_free(monkeypatch):
    class Refusing:
        def apply_async(self, **kwargs) -> None:  # noqa: ANN003
            raise ConnectionError("broker down")

    monkeypatch.setattr(tasks, "sweep_notifications", Refusing())
    with pytest.raises(ConnectionError):
        tasks.queue_sweep()
    assert not Lease.objects.exists()  # the next minute may queue one


# --- the real brokers --------------------------------------------------------------------------


def run_in_django(env: dict[str, str], code: str) -> None:
    result = subprocess.run([PYTHON, "manage.py", "shell", "-c", code], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def queued_files(tmp_path: Path, queue: str) -> list[Path]:
    """The messages waiting in `queue` of the filesystem broker."""
    return sorted((tmp_path / "broker" / "queue").glob(f"*.{queue}.msg"))


MINUTE_SWEEPS = "from junta.ops.tasks import sweep\nfor _ in range(30):\n    sweep()\n"


@pytest.mark.django_db(transaction=True)
def test_no_pile_up_in_the_filesystem_broker_while_the_worker_is_stopped(tmp_path):
    env = celery_env(tmp_path, broker=None)
    mail, clock = env["JUNTA_CELERY_QUEUE"], env["JUNTA_CELERY_ADJUDICATION_QUEUE"]
    run_in_django(env, MINUTE_SWEEPS)  # thirty minutes of beat, no worker
    assert len(queued_files(tmp_path, mail)) == 1
    assert Lease.objects.filter(name=SWEEP).exists()
    with worker(env, tmp_path):
        deadline = time.monotonic() + 60
        while (queued_files(tmp_path, mail) or Lease.objects.exists()) \
                and time.monotonic() < deadline:
            time.sleep(0.25)
    log = (tmp_path / "worker.log").read_text()
    assert not Lease.objects.exists(), log[-3000:]  # it ran and gave the lease back
    assert "nothing to send" in log and tasks.IN_FLIGHT not in log
    run_in_django(env, MINUTE_SWEEPS)
    assert len(queued_files(tmp_path, mail)) == 1 and not queued_files(tmp_path, clock)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_no_pile_up_in_redis_while_the_worker_is_stopped(tmp_path, redis_url):
    import redis

    broker = urlunsplit(urlsplit(redis_url)._replace(path="/9"))
    env = celery_env(tmp_path, broker=broker)
    client = redis.Redis.from_url(broker)
    try:
        run_in_django(env, MINUTE_SWEEPS)
        assert client.llen(env["JUNTA_CELERY_QUEUE"]) == 1
        assert client.llen(env["JUNTA_CELERY_ADJUDICATION_QUEUE"]) == 0
    finally:
        client.delete(env["JUNTA_CELERY_QUEUE"], env["JUNTA_CELERY_ADJUDICATION_QUEUE"])


# --- the adjudication queue --------------------------------------------------------------------


@pytest.mark.django_db  # Celery's Django fixup closes the connections when it imports the tasks
def test_the_minute_sweep_and_adjudication_go_to_their_own_queue_and_mail_to_the_default():
    from junta.celery import app

    app.loader.import_default_modules()
    clock = settings.JUNTA_ADJUDICATION_QUEUE
    assert clock != settings.CELERY_TASK_DEFAULT_QUEUE

    def queue_of(task: str) -> str:
        return app.amqp.router.route({}, task, (1,), {})["queue"].name

    assert queue_of("junta.games.tasks.adjudicate_phase") == clock
    assert queue_of("junta.ops.tasks.sweep") == clock
    for mail_task in ("junta.notify.tasks.sweep_notifications",
                      "junta.notify.tasks.phase_published"):
        assert queue_of(mail_task) == settings.CELERY_TASK_DEFAULT_QUEUE
    # a worker started without -Q (docker-compose.yml's) reads both
    assert {q.name for q in app.amqp.queues.consume_from.values()} == {
        clock, settings.CELERY_TASK_DEFAULT_QUEUE}


def test_serve_runs_a_worker_that_reads_both_queues():
    from junta.ops.management.commands.serve import worker_queues

    assert worker_queues() == [settings.CELERY_TASK_DEFAULT_QUEUE,
                               settings.JUNTA_ADJUDICATION_QUEUE]


@pytest.mark.django_db(transaction=True)
def test_adjudication_does_not_wait_behind_a_backlog_of_mail(tmp_path):
    phase = started_phase()
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    env = celery_env(tmp_path, broker=None)
    mail, clock = env["JUNTA_CELERY_QUEUE"], env["JUNTA_CELERY_ADJUDICATION_QUEUE"]
    run_in_django(env, (
        "from junta.notify.tasks import phase_published\n"
        "from junta.games.tasks import adjudicate_phase\n"
        "for _ in range(40):\n    phase_published.delay(0)\n"
        f"adjudicate_phase.delay({phase.id})\n"
    ))
    assert len(queued_files(tmp_path, mail)) == 40  # the backlog, queued first
    assert len(queued_files(tmp_path, clock)) == 1
    with worker(env, tmp_path):
        deadline = time.monotonic() + 60
        while not PhaseResult.objects.filter(phase=phase).exists() \
                and time.monotonic() < deadline:
            time.sleep(0.25)
    log = (tmp_path / "worker.log").read_text()
    assert PhaseResult.objects.filter(phase=phase).exists(), log[-3000:]
    received = re.findall(r"Task (\S+)\[[^\]]+\] received", log)
    before = received.index("junta.games.tasks.adjudicate_phase")
    assert before <= 2, received[:10]  # not the 41st
