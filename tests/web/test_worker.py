"""A task sent through the real broker is run by a real worker process.

The sender and the worker are separate processes configured by environment variables only, as in
production; they share this test's database, where the task leaves its heartbeat.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.db import connection

from junta.ops.models import Heartbeat
from tests.web.worker_processes import celery_env, send_sweep, worker

needs_db = pytest.mark.django_db(transaction=True)


def wait_for_sweeps(count: int, tmp_path: Path, timeout: float = 60.0) -> Heartbeat:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        beat = Heartbeat.objects.filter(name=Heartbeat.SWEEP).first()
        if beat and beat.runs >= count:
            return beat
        time.sleep(0.25)
    log = (tmp_path / "worker.log").read_text()
    pytest.fail(f"no worker ran the sweep {count} time(s) within {timeout} s:\n{log[-3000:]}")


@needs_db
def test_filesystem_broker_task_runs_in_a_real_worker(tmp_path):
    env = celery_env(tmp_path, broker=None)  # no variable: the embedded filesystem broker
    send_sweep(env)  # queued before any worker exists: it waits in var/broker
    assert list((tmp_path / "broker" / "queue").iterdir()), "the message is not in the broker"
    assert not Heartbeat.objects.exists()
    with worker(env, tmp_path):
        wait_for_sweeps(1, tmp_path)


@needs_db
def test_embedded_beat_runs_the_sweep_by_itself(tmp_path):
    env = celery_env(tmp_path, broker=None, JUNTA_SWEEP_INTERVAL_SECONDS="1")
    with worker(env, tmp_path, beat=True):
        beat = wait_for_sweeps(2, tmp_path)
    assert beat.runs >= 2


@needs_db
def test_redis_broker_task_runs_in_a_real_worker(tmp_path, redis_url):
    env = celery_env(tmp_path, broker=redis_url)
    with worker(env, tmp_path):
        send_sweep(env)
        wait_for_sweeps(1, tmp_path)


@needs_db
def test_postgresql_is_the_database_when_configured(postgres):
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


@pytest.mark.django_db  # Celery's Django fixup closes the connections when it imports the tasks
def test_celery_task_defaults_and_the_one_beat_entry():
    """acks_late, reject_on_worker_lost, JSON only; beat sends the sweep at every minute."""
    from celery.schedules import crontab

    from junta.celery import app

    app.loader.import_default_modules()  # what a worker does at start: autodiscovers the tasks
    conf = app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.task_serializer == "json" and conf.result_serializer == "json"
    assert list(conf.accept_content) == ["json"]
    assert conf.result_accept_content in (None, ["json"])  # None: the same as accept_content
    assert list(conf.beat_schedule) == ["sweep-every-minute"]
    entry = conf.beat_schedule["sweep-every-minute"]
    assert entry["task"] == "junta.ops.tasks.sweep" and "junta.ops.tasks.sweep" in app.tasks
    assert entry["schedule"] == crontab()  # minute="*": the top of every minute


@needs_db
def test_a_worker_process_keeps_its_database_connection_from_task_to_task(monkeypatch):
    """Celery's Django fixup closed the connection after every task (each adjudication then
    connected anew); now it is kept, and closed only by Django's rule around every task: when
    older than CONN_MAX_AGE, as a web process's between requests."""
    from celery.fixups.django import DjangoWorkerFixup

    from junta.celery import app, close_old_connections
    from junta.games.tasks import adjudicate_phase

    fixup = DjangoWorkerFixup(app)  # what a worker installs: its task_prerun and task_postrun
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    connection.ensure_connection()  # its age counted from now
    kept = connection.connection

    def task() -> None:
        for around in (fixup.on_task_prerun, fixup.on_task_postrun):
            around(sender=adjudicate_phase)
            close_old_connections(task=adjudicate_phase)
        Heartbeat.objects.exists()

    task()
    task()
    assert connection.connection is kept
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    connection.close()
    connection.ensure_connection()
    fresh = connection.connection
    task()  # a connection of no age: closed, and the task's query opens another
    assert connection.connection is not fresh
