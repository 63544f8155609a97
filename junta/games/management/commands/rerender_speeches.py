"""`manage.py rerender_speeches [--game ID] [--batch N]`: render again the Markdown of every
speech, every GM announcement and every private message, and store the sanitised HTML the pages
show (`body_html`), after the Markdown extensions or the sanitising policy of
`junta.games.markdown` changed. The Markdown itself is not touched. Apps with texts of their own
register them in `junta.games.markdown.RENDERED` (the talk app, its messages)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.games.markdown import RENDERED, rerender
from junta.games.models import Game


class Command(BaseCommand):
    help = "Render every speech's, announcement's and message's Markdown again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, metavar="ID",
                            help="only this campaign's texts")
        parser.add_argument("--batch", type=int, default=500, metavar="N",
                            help="rows read and written at a time (default 500)")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        game_id, batch = options["game"], options["batch"]
        if batch < 1:
            raise CommandError("--batch must be at least 1.")
        if game_id is not None and not Game.objects.filter(pk=game_id).exists():
            raise CommandError(f"There is no campaign with id {game_id}.")
        for one, many, rows in RENDERED:
            seen, changed = rerender(rows(game_id), batch)
            self.stdout.write(f"Rendered {seen} {one if seen == 1 else many} again; "
                              f"{changed} had changed.")
