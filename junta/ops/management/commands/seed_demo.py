"""`manage.py seed_demo`: on an empty database, create the demo accounts (a GM and ten players)
and print their logins. On a database that has them, print the logins again. The accounts are
`junta.games.demo`'s."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from junta.games.public import DEMO_GM, DEMO_PASSWORD, DEMO_PLAYERS, demo_account


class Command(BaseCommand):
    help = "Create the demo GM and ten demo players when the database has no users."

    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        if not User.objects.exists():
            with transaction.atomic():
                demo_account(*DEMO_GM, staff=True)
                for email, name in DEMO_PLAYERS:
                    demo_account(email, name)
            self.stdout.write(self.style.SUCCESS("Created the demo accounts."))
        if User.objects.filter(email=DEMO_GM[0]).exists():
            self.stdout.write(f"\nDemo logins (password for all: {DEMO_PASSWORD})")
            self.stdout.write(f"  GameMaster (site staff too): {DEMO_GM[0]}")
            for email, name in DEMO_PLAYERS:
                self.stdout.write(f"  player {name:<8} {email}")
            self.stdout.write("  In Spanish: choose Español in the footer of any page (signed in,"
                              " it is saved in the profile), or ask for Spanish in the browser")
        else:
            self.stdout.write("The database has users already; no demo accounts were created.")
