"""`manage.py simulate --games N --players 10 [--days D] [--seed S]`: campaigns played by
random bots through the services and the real adjudication pipeline."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from junta.games.simulation import simulate_many


class Command(BaseCommand):
    help = "Create campaigns played by random bots through the real pipeline."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--players", type=int, default=10)
        parser.add_argument("--days", type=int, default=20,
                            help="how many days of history to play before leaving it open")
        parser.add_argument("--seed", default=None,
                            help="base seed: campaign i gets SEED-i (default: from the clock)")

    def handle(self, *args, **options) -> None:
        if not 6 <= options["players"] <= 10:
            raise CommandError("A campaign has 6 to 10 players.")
        if options["games"] < 1 or options["days"] < 1:
            raise CommandError("Simulate at least one game over at least one day.")
        for game in simulate_many(options["games"], options["players"], options["days"],
                                  seed=options["seed"]):
            phases = game.phases.count()
            self.stdout.write(f"{game.name} (id {game.id}): {phases} phases, status "
                              f"{game.get_status_display()}")
