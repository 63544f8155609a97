"""`manage.py rerender_speeches [--game ID] [--batch N]`: render every speech's Markdown again
and store the sanitised HTML the pages show (`Speech.body_html`), after the Markdown extensions
or the sanitising policy of `junta.games.markdown` changed. The speeches themselves (their
Markdown) are not touched."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from junta.games.models import Game, Speech


def rerender(game_id: int | None = None, batch: int = 500) -> tuple[int, int]:
    """(speeches read, speeches whose HTML changed), in batches by id: each batch is read,
    rendered and written in one transaction, so that memory stays flat however long the talk."""
    speeches = Speech.objects.all() if game_id is None else Speech.objects.filter(game_id=game_id)
    seen = changed = 0
    last = 0
    while True:
        with transaction.atomic():
            rows = list(speeches.filter(pk__gt=last).order_by("pk")
                        .only("pk", "body", "body_html")[:batch])
            if not rows:
                break
            stale = []
            for speech in rows:
                before = speech.body_html
                speech.render()
                if speech.body_html != before:
                    stale.append(speech)
            Speech.objects.bulk_update(stale, ["body_html"])
        seen += len(rows)
        changed += len(stale)
        last = rows[-1].pk
    return seen, changed


class Command(BaseCommand):
    help = "Render every speech's Markdown again and store its sanitised HTML."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", type=int, metavar="ID",
                            help="only this campaign's speeches")
        parser.add_argument("--batch", type=int, default=500, metavar="N",
                            help="speeches read and written at a time (default 500)")

    def handle(self, *args, **options) -> None:
        game_id, batch = options["game"], options["batch"]
        if batch < 1:
            raise CommandError("--batch must be at least 1.")
        if game_id is not None and not Game.objects.filter(pk=game_id).exists():
            raise CommandError(f"There is no campaign with id {game_id}.")
        seen, changed = rerender(game_id, batch)
        self.stdout.write(f"Rendered {seen} speech{'es' if seen != 1 else ''} again; "
                          f"{changed} had changed.")
