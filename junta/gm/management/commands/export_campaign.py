"""`manage.py export_campaign GAME [-o FILE]`: one campaign as one JSON file (see
`junta.gm.backup`); without -o (or with -o -) the JSON goes to standard output."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.gm import backup


class Command(BaseCommand):
    help = "Write everything needed to restore one campaign to a JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int, help="the campaign's id")
        parser.add_argument("-o", "--output", default="-", metavar="FILE",
                            help="the file to write (default: standard output)")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        try:
            data = backup.export_campaign(options["game"])
        except backup.BackupError as error:
            raise CommandError(str(error)) from error
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
        if options["output"] == "-":
            self.stdout.write(text, ending="")
            return
        target = Path(options["output"])
        # written beside the target and renamed: a half-written export never has its name
        handle, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=".export-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        counts = ", ".join(f"{len(data[t.key])} {t.key.replace('_', ' ')}"
                           for t in backup.TABLES)
        self.stderr.write(f"Exported campaign {data['game']['id']} {data['game']['name']!r} "
                          f"to {target}: {counts}.")
