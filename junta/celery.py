"""The Celery app. Settings come from Django's settings module (names prefixed CELERY_).

Embedded: the filesystem broker under var/ and a worker started with embedded beat (-B).
Production: CELERY_BROKER_URL=redis://... and one separate beat process (docker-compose.yml).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "junta.settings")

app = Celery("junta")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
