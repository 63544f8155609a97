"""The Celery app. Settings come from Django's settings module (names prefixed CELERY_).

Embedded: the filesystem broker under var/ and a worker started with embedded beat (-B).
Production: CELERY_BROKER_URL=redis://... and one separate beat process (docker-compose.yml).

A worker process keeps its database connection from task to task, as a web process keeps its
own from request to request: around every task, Django's `close_old_connections` closes it
only when it is older than CONN_MAX_AGE or broken (`CELERY_DB_REUSE_MAX` keeps Celery's own
Django fixup from closing it after every task: each adjudication then connected to PostgreSQL
anew, 13 ms a connection on a busy two-core machine on 2026-11-28, besides the server's work).
"""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django import db

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "junta.settings")

app = Celery("junta")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def close_old_connections(task: Any = None, **kwargs: Any) -> None:  # Any: Celery's
    """Around a worker's task (not one run in the caller's process, `apply`: its connection
    is the caller's, maybe in a transaction)."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    db.close_old_connections()


task_prerun.connect(close_old_connections)
task_postrun.connect(close_old_connections)
