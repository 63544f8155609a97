"""`manage.py serve`: what `make run` runs. Sets up the database (and, on the first start, the
VAPID key pair of push notifications, var/vapid.pem), then runs the web server and a Celery
worker with embedded beat as child processes until Ctrl-C.

Mails and calendar feeds link to `settings.SITE_URL` (env JUNTA_SITE_URL). Unless that is set,
the children are given the address served here, so that `make run PORT=8101` (which sets it
too) or `manage.py serve --port 8101` never mails links to a port nobody listens on."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Mapping

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.games.public import Game
from junta.notify.public import ensure_vapid_key_file
from junta.ops.demo import build_demo
from junta.ops.devmail import mailbox_directory
from junta.ops.supervisor import Child, Supervisor


class Command(BaseCommand):
    help = "Migrate, create the demo accounts if needed, and run web server + worker + beat."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")
        parser.add_argument(
            "--no-worker", action="store_true", help="Run the web server only (no Celery)."
        )

    def handle(self, *args: object, host: str, port: str, no_worker: bool,
               **options: object) -> None:
        ensure_port_is_free(host, port)
        site = served_site_url(host, port, os.environ)
        os.environ["JUNTA_SITE_URL"] = site  # the children's settings read it
        settings.SITE_URL = site.rstrip("/")
        call_command("migrate", interactive=False, verbosity=0)
        call_command("createcachetable", verbosity=0)
        call_command("seed_demo")
        key_file = ensure_vapid_key_file()
        if key_file is not None:
            self.stdout.write(f"Made the VAPID key pair of push notifications: {key_file}")
        for game in build_demo():
            if game.status == Game.Status.FINISHED:
                self.stdout.write(f"Created the finished demo campaign {game.name!r} "
                                  f"({game.phases.count()} phases): its end report is at "
                                  f"{site.rstrip('/')}/games/{game.id}/report/ .")
            else:
                self.stdout.write(f"Created the demo campaign {game.name!r} in mid-game "
                                  f"({game.phases.count()} phases, a coup behind it): log in "
                                  "as any demo player.")
        python = sys.executable
        children = [
            Child("web server", [python, "manage.py", "runserver", "--noreload", f"{host}:{port}"])
        ]
        if not no_worker:
            children.append(
                Child(
                    "celery worker + beat",
                    [
                        python, "-m", "celery", "-A", "junta.celery", "worker", "-B",
                        "--loglevel=INFO", "--concurrency=2", "--queues", ",".join(worker_queues()),
                        "--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME,
                    ],
                )
            )
        self.stdout.write(
            self.style.SUCCESS(f"\nJunta is starting on http://{host}:{port}/  (Ctrl-C stops it)\n")
        )
        self.stdout.write(f"Mails and calendar feeds link to {settings.SITE_URL}/ "
                          "(set JUNTA_SITE_URL to change it).")
        self.stdout.write(development_mode(settings.DEBUG))
        mailbox = mailbox_directory()
        if mailbox is not None:
            self.stdout.write(f"Mails are not sent: each is a line here and a file in {mailbox}/, "
                              f"read at {settings.SITE_URL}/dev/mail/ (log in as the demo GM).")
        self.stdout.write("")
        code = Supervisor(children, cwd=settings.BASE_DIR).run(self.stdout)
        if code:
            sys.exit(code)


def development_mode(debug: bool) -> str:
    """What `make run` shows of errors: the site's own pages, or Django's on DJANGO_DEBUG=1."""
    if debug:
        return ("Development mode, DJANGO_DEBUG=1: errors show Django's technical pages "
                "(a traceback, every URL of the site).")
    return ("Development mode (JUNTA_DEV=1): errors show the site's own pages, as players meet "
            "them in production, and their tracebacks here; DJANGO_DEBUG=1 shows Django's "
            "technical pages instead.")


def worker_queues() -> list[str]:
    """Both queues: the mail's (the default one) and the sweep's and adjudications'."""
    return [settings.CELERY_TASK_DEFAULT_QUEUE, settings.JUNTA_ADJUDICATION_QUEUE]


def ensure_port_is_free(host: str, port: str) -> None:
    """Say plainly, before setting anything up, that another program has the port."""
    try:
        with socket.create_server((host, int(port))):
            pass
    except OSError as error:
        raise CommandError(
            f"{host}:{port} is not free ({error.strerror or error}); stop what uses it, "
            "or choose another port: make run PORT=8001"
        ) from error


def served_site_url(host: str, port: str, environ: Mapping[str, str]) -> str:
    """The address mails should link to: JUNTA_SITE_URL when set, else the one served on (a
    wildcard host is reached on the loopback address)."""
    chosen = environ.get("JUNTA_SITE_URL", "").strip()
    if chosen:
        return chosen
    if host in ("", "0.0.0.0", "::"):  # noqa: S104 - the address bound, not one to reach
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"
