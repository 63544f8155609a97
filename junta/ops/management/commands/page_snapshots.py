"""`manage.py page_snapshots record DIR` and `manage.py page_snapshots compare DIR_A DIR_B`: prove
that a change of the code changed nothing a person sees (junta/ops/snapshots.py).

`record` builds, in a new SQLite database under a temporary folder (migrations applied, the
clock fixed, the secrets seeded), the demo campaigns exactly as `make run` does and a campaign
of bots 40 days in (`manage.py simulate`'s, seed "page-snapshots"); then writes into DIR the
stored states of every campaign loaded, written again and replayed (states/), and every page
of the site as each viewer sees it (pages/). It runs in a child process of its own, so that
nothing of this one's settings (its database, its mail, its cache) is touched, and exits 1 when
a state does not load back, a phase replays otherwise or a page raised an exception.

`compare` says what differs between two recordings (each file only one has, and a unified diff
excerpt of each file that differs) and exits 1 when anything does.
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import override_settings

from junta.games.public import demo_account
from junta.ops import snapshots
from junta.ops.demo import build_demo

SIMULATED_DAYS = 40
OUTSIDER = ("watcher@junta.test", "Watcher")
# What the child's settings read from the environment is dropped, then set as `make run` would
# (JUNTA_DEV) with the child's own folder; the API's rate limits are lifted (hundreds of
# answers a minute for each viewer).
DROPPED_PREFIXES = ("JUNTA_", "DJANGO_", "CELERY_", "EMAIL_")
DROPPED = {"DATABASE_URL", "CACHE_URL", "CACHE_KEY_PREFIX", "DEFAULT_FROM_EMAIL"}


class Command(BaseCommand):
    help = "Record every stored state and every page of a fresh demo site, or compare two."

    def add_arguments(self, parser: CommandParser) -> None:
        verbs = parser.add_subparsers(dest="verb", required=True)
        record = verbs.add_parser("record", help="build the demo site afresh and record it in DIR")
        record.add_argument("directory", help="where to write (made empty first)")
        record.add_argument("--days", type=int, default=SIMULATED_DAYS,
                            help=f"days of the bots' campaign (default {SIMULATED_DAYS})")
        record.add_argument("--keep", action="store_true",
                            help="keep the temporary folder with the database (its path printed)")
        inside = verbs.add_parser("inside", help="(record's child process: do not call)")
        inside.add_argument("directory")
        inside.add_argument("--days", type=int, default=SIMULATED_DAYS)
        diff = verbs.add_parser("compare", help="what differs between two recordings")
        diff.add_argument("first")
        diff.add_argument("second")
        diff.add_argument("--lines", type=int, default=40,
                          help="lines of unified diff shown per file (default 40)")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        if options["verb"] == "compare":
            self.compare(Path(options["first"]), Path(options["second"]), options["lines"])
        elif options["verb"] == "record":
            self.record(Path(options["directory"]), options["days"], options["keep"])
        else:
            self.inside(Path(options["directory"]), options["days"])

    def compare(self, first: Path, second: Path, lines: int) -> None:
        for folder in (first, second):
            meta = folder / snapshots.META
            if not meta.is_file():
                raise CommandError(f"{folder} is no recording (it has no {snapshots.META}).")
            if not json.loads(meta.read_text(encoding="utf-8")).get("complete"):
                self.stderr.write(f"{folder} is a recording cut short: it lacks pages.")
        report = snapshots.compare(first, second, excerpt=lines)
        for line in report:
            self.stdout.write(line)
        count = sum(1 for line in report if not line.startswith("    "))
        if count:
            raise CommandError(f"{count} files differ between {first} and {second}.")
        self.stdout.write(self.style.SUCCESS(
            f"{len(snapshots.files_of(first))} files, all equal."))

    def record(self, out: Path, days: int, keep: bool) -> None:
        began = time.monotonic()
        if out.exists() and any(out.iterdir()) and not (out / snapshots.META).is_file():
            raise CommandError(f"{out} is not empty and holds no recording: choose another.")
        scratch = Path(tempfile.mkdtemp(prefix="junta-snapshots-"))
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(DROPPED_PREFIXES) and k not in DROPPED}
        env |= {"DJANGO_SETTINGS_MODULE": "junta.settings", "JUNTA_DEV": "1",
                "JUNTA_VAR_DIR": str(scratch), "JUNTA_SITE_URL": "http://127.0.0.1:8000",
                "JUNTA_API_RATE": "1000000/min", "JUNTA_API_BURST": "1000000/s",
                "PYTHONHASHSEED": "0", "TZ": "UTC"}
        command = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"),
                   "page_snapshots", "inside", str(out.resolve()), "--days", str(days)]
        try:
            code = subprocess.call(command, cwd=settings.BASE_DIR, env=env)
        finally:
            if keep:
                self.stdout.write(f"kept {scratch}")
            else:
                shutil.rmtree(scratch, ignore_errors=True)
        self.stdout.write(f"record took {time.monotonic() - began:.0f} s")
        if code:
            raise CommandError(f"the recording found problems (exit {code}); see above.")

    def inside(self, out: Path, days: int) -> None:
        if not os.environ.get("JUNTA_VAR_DIR"):
            raise CommandError("`inside` is record's child process: run `record` instead.")
        logging.getLogger("django.request").setLevel(logging.CRITICAL)  # kept in the files
        logging.getLogger("kombu").setLevel(logging.ERROR)
        logging.getLogger("junta").setLevel(logging.WARNING)  # months of phases adjudicated
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        (out / snapshots.META).write_text('{"complete": false}\n', encoding="utf-8")
        began = time.monotonic()
        randomness = snapshots.Randomness()
        # a fast hasher: the accounts' passwords are never shown (PBKDF2 would take a
        # second of each account)
        with snapshots.fixed_clock(), randomness.installed(), override_settings(
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            call_command("migrate", interactive=False, verbosity=0)
            call_command("createcachetable", verbosity=0)
            call_command("seed_demo", stdout=io.StringIO())
            build_demo()
            call_command("simulate", games=1, players=10, days=days, seed=snapshots.SEED,
                         stdout=io.StringIO())
            demo_account(*OUTSIDER)
            built = time.monotonic()
            self.stdout.write(f"built the site in {built - began:.0f} s")
            problems = snapshots.record_states(out)
            stated = time.monotonic()
            self.stdout.write(f"loaded and replayed the states in {stated - built:.0f} s")
            recording = snapshots.record_pages(out, randomness)
            self.stdout.write(f"asked for {recording.pages} pages in "
                              f"{time.monotonic() - stated:.0f} s: "
                              + ", ".join(f"{n} answered {s}"
                                          for s, n in sorted(recording.statuses.items())))
        for line in problems + recording.errors:
            self.stderr.write(line)
        (out / snapshots.META).write_text(json.dumps({
            "complete": True, "seconds": round(time.monotonic() - began), "pages": recording.pages,
            "statuses": {str(s): n for s, n in sorted(recording.statuses.items())},
            "problems": problems, "errors": recording.errors,
        }, indent=1) + "\n", encoding="utf-8")
        if problems or recording.errors:
            sys.exit(1)

