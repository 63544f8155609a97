"""`manage.py simulate --games N --players 10 [--days D] [--seed S]`: campaigns played by
random bots through the services and the real adjudication pipeline. It prints the bots'
logins (the demo password, addresses verified), to look at a campaign as its GM or a player."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from junta.games.demo import DEMO_PASSWORD
from junta.games.models import Game, Player
from junta.games.simulation import simulate_many


class Command(BaseCommand):
    help = "Create campaigns played by random bots through the real pipeline."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--players", type=int, default=10)
        parser.add_argument("--days", type=int, default=20,
                            help="how many days of history to play before leaving it open")
        parser.add_argument("--seed", default=None,
                            help="base seed: campaign i gets SEED-i (default: from the clock)")

    def handle(self, *args: object, **options: Any) -> None:  # Any: argparse's values
        if not 6 <= options["players"] <= 10:
            raise CommandError("A campaign has 6 to 10 players.")
        if options["games"] < 1 or options["days"] < 1:
            raise CommandError("Simulate at least one game over at least one day.")
        games = simulate_many(options["games"], options["players"], options["days"],
                              seed=options["seed"])
        for game in games:
            phases = game.phases.count()
            self.stdout.write(f"{game.name} (id {game.id}): {phases} phases, status "
                              f"{game.get_status_display()}")
        self.write_logins(games[0])

    def write_logins(self, game: Game) -> None:
        """The same accounts play every simulated campaign: the GM and the players."""
        self.stdout.write(f"\nLogins (password for all: {DEMO_PASSWORD}) at "
                          f"{settings.SITE_URL}/accounts/login/")
        self.stdout.write(f"  GameMaster: {game.gm.email}")
        for player in game.players.filter(membership=Player.Membership.ACTIVE).select_related(
                "user").order_by("user__email"):
            self.stdout.write(f"  player     {player.user.email}")
