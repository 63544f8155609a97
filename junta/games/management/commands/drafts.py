"""`manage.py drafts GAME [--publish PHASE_NUMBER --as GM_EMAIL]`: the drafted results of a
campaign in review mode, and publishing one (the GM panel does the same in the browser)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.games import adjudication
from junta.games.models import Game, Phase


class Command(BaseCommand):
    help = "List a campaign's drafted phase results, or publish one as its GameMaster."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int, help="the campaign's id")
        parser.add_argument("--publish", type=int, metavar="PHASE_NUMBER",
                            help="publish this drafted phase")
        parser.add_argument("--as", dest="gm", metavar="GM_EMAIL",
                            help="the GameMaster's e-mail (required with --publish)")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        game = Game.objects.filter(pk=options["game"]).first()
        if game is None:
            raise CommandError(f"There is no campaign with id {options['game']}.")
        drafted = game.phases.filter(status=Phase.Status.DRAFTED).order_by("number")
        if options["publish"] is None:
            if not drafted:
                self.stdout.write(f"{game.name}: no drafted phase waits for review.")
            for draft in drafted:
                lines = len(draft.result.events)
                self.stdout.write(f"phase {draft.number} ({draft.kind}, turn {draft.turn}): "
                                  f"drafted, {lines} report lines")
            return
        phase = drafted.filter(number=options["publish"]).first()
        if phase is None:
            raise CommandError(f"Phase {options['publish']} of {game.name} is not a draft.")
        gm = get_user_model().objects.filter(email=options["gm"] or "").first()
        if gm is None or gm.id != game.gm_id:
            raise CommandError("Give --as with the e-mail of the campaign's GameMaster.")
        next_phase = adjudication.publish_draft(phase.id, gm.id)
        opened = f"; phase {next_phase.number} ({next_phase.kind}) is open" if next_phase \
            else ""
        self.stdout.write(f"Published phase {phase.number} of {game.name}{opened}.")
