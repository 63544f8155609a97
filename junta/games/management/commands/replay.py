"""`manage.py replay GAME`: re-run every phase from the stored orders and compare digests."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.games.models import Game
from junta.games.replay import changelog_for, replay_game


class Command(BaseCommand):
    help = "Re-run every adjudicated phase of a campaign and compare the state digests."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int, help="the campaign's id")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        game = Game.objects.filter(pk=options["game"]).first()
        if game is None:
            raise CommandError(f"There is no campaign {options['game']}.")
        lines = replay_game(game)
        bad = [line for line in lines if not line.ok]
        for line in lines:
            mark = "ok  " if line.ok else "DIFF"
            self.stdout.write(f"{mark} phase {line.phase_number:>3} {line.kind:<18} "
                              f"{line.stored[:12]} {line.replayed[:12]}  {line.text}")
        if bad:
            raise CommandError(f"{len(bad)} of {len(lines)} phases replay differently.")
        changed = [line for line in lines if line.stands_changed]
        for version, changes in changelog_for(lines):
            self.stdout.write(f"Engine {version} changed: {changes}")
        self.stdout.write(self.style.SUCCESS(
            f"{game.name}: all {len(lines)} phases replay to the same digests." if not changed
            else f"{game.name}: {len(lines) - len(changed)} of {len(lines)} phases replay to "
            f"the same digests; {len(changed)} adjudicated by an older engine differ, the "
            "rules having changed since, and stand."))
