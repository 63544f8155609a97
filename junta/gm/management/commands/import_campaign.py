"""`manage.py import_campaign FILE [--as-new] [--name NAME] [--keep-on-mismatch]`: restore a
campaign written by `export_campaign` (FILE `-` reads standard input), then replay it (see
`junta.gm.backup`). Exits non-zero, naming the first phase that differs, when the replay does
not give the stored digests; the import is then undone unless --keep-on-mismatch. A phase an
older engine adjudicated that resolves otherwise today, the rules having changed since, is no
failure: the report lists it with what the engine changed since."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.gm import backup


class Command(BaseCommand):
    help = "Restore a campaign from an export_campaign file and check it by replay."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the export (- for standard input)")
        parser.add_argument("--as-new", action="store_true",
                            help="import under a new id, even if the campaign exists here")
        parser.add_argument("--name", default="", help="the imported campaign's new name")
        parser.add_argument("--keep-on-mismatch", action="store_true",
                            help="keep the campaign even if its replay differs (exit 1 still)")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        try:
            if options["file"] == "-":
                data = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    data = json.load(handle)
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from error
        try:
            imported = backup.import_campaign(
                data, as_new=options["as_new"], name=options["name"] or None,
                keep_on_mismatch=options["keep_on_mismatch"])
        except backup.BackupError as error:
            raise CommandError(str(error)) from error
        game = imported.game
        self.stdout.write(f"Imported campaign {game.pk} {game.name!r} "
                          f"({game.players.count()} players, {game.phases.count()} phases).")
        if imported.created_users:
            self.stdout.write(f"Created {len(imported.created_users)} accounts without a "
                              f"password (they set one by resetting it): "
                              f"{', '.join(imported.created_users)}.")
        verification = imported.verification
        summary = verification.summary()
        if not imported.ok:
            raise CommandError(f"{summary} (the campaign was kept: --keep-on-mismatch).")
        self.stdout.write(self.style.SUCCESS(summary))
        for note in verification.notes:  # the phases an older engine adjudicated
            self.stdout.write(f"{note[0].upper()}{note[1:]}.")
        for version, changes in verification.changelog:
            self.stdout.write(f"Engine {version} changed: {changes}")
