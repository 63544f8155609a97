"""Celery worker processes for the worker tests (tests/web/test_worker.py,
tests/web/test_worker_pipeline.py): the environment a child process gets, a worker (and beat)
run for the length of a `with` block, and a sweep sent from a separate process."""

from __future__ import annotations

import subprocess
import uuid
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

from tests.conftest import PYTHON, REPO, stop_process, subprocess_env


def database_url_of_this_test() -> str:
    """A DATABASE_URL naming the database this test uses (the test database)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{db.get('HOST') or ''}{port}/{db['NAME']}"


def celery_env(tmp_path: Path, broker: str | None, **extra: str) -> dict[str, str]:
    queue = f"test-{uuid.uuid4().hex[:12]}"
    return subprocess_env(
        DATABASE_URL=database_url_of_this_test(),
        CELERY_BROKER_URL=broker,
        JUNTA_VAR_DIR=str(tmp_path),
        JUNTA_CELERY_QUEUE=queue,
        JUNTA_CELERY_ADJUDICATION_QUEUE=f"{queue}-adjudication",
        DJANGO_SETTINGS_MODULE="junta.settings",
        **extra,
    )


def worker_queues(env: dict[str, str]) -> list[str]:
    """The queues of a worker: the mail's (the default) and the sweep's and adjudications'."""
    return [env["JUNTA_CELERY_QUEUE"], env["JUNTA_CELERY_ADJUDICATION_QUEUE"]]


@contextmanager
def worker(env: dict[str, str], tmp_path: Path, beat: bool = False,
           queues: list[str] | None = None):
    """A worker reading `queues` (both of them unless told)."""
    argv = [PYTHON, "-m", "celery", "-A", "junta.celery", "worker", "--pool=solo",
            "--loglevel=INFO", "--without-mingle", "--without-gossip",
            "-Q", ",".join(queues or worker_queues(env))]
    if beat:
        argv += ["-B", "--schedule", str(tmp_path / "beat-schedule")]
    log = (tmp_path / "worker.log").open("w")
    process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        stop_process(process)
        log.close()


def send_sweep(env: dict[str, str]) -> None:
    result = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c",
         "from junta.ops.tasks import sweep; sweep.delay()"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
