"""`manage.py migrate_shared`: the migrations and the cache table, one machine at a time.

Every web server runs it as it starts (scripts/web-start); with several of them started at once
(`docker compose up --scale web=N`, or N machines), each takes a PostgreSQL advisory lock first,
so that the first applies what is new while the others wait, then find nothing left to do. On
SQLite (one machine only) there is no lock to take: each write transaction is serialised anyway.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

# the key of the advisory lock: any number of the site's own, the same on every machine
MIGRATION_LOCK = 0x4A554E5441  # "JUNTA"


class Command(BaseCommand):
    help = "Apply the migrations and create the cache table, one machine at a time."

    # Any: Django's command options, of many kinds
    def handle(self, *args: Any, **options: Any) -> None:
        verbosity = int(options.get("verbosity", 1))
        locking = connection.vendor == "postgresql"
        if locking:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK])
        try:
            call_command("migrate", interactive=False, verbosity=verbosity)
            call_command("createcachetable", verbosity=verbosity)
        finally:
            if locking:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK])
