"""The demo of `make run`: its accounts (a GameMaster and ten players, one password for all),
the name of its campaign, and the touches the demos of talk and polls give its rows (a speech
backdated, players allowed to poll), since games' rows change through games only.

`manage.py seed_demo` (junta.ops) creates the accounts on an empty database; `simulation.
demo_campaign` then plays a campaign with them. Both read the data here, so the players' side
needs nothing from the ops package. `manage.py simulate`'s bot accounts are made the same way
(`demo_account`), so that anyone can log in as them.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from junta.games.models import Game, Phase, Speech

if TYPE_CHECKING:
    from accounts.public import User

DEMO_PASSWORD = "junta-demo-2026"
DEMO_GM = ("gm@junta.test", "El Gamemaster")
DEMO_PLAYERS = [
    ("carlos@junta.test", "Carlos"),
    ("isabel@junta.test", "Isabel"),
    ("miguel@junta.test", "Miguel"),
    ("lucia@junta.test", "Lucia"),
    ("rafael@junta.test", "Rafael"),
    ("elena@junta.test", "Elena"),
    ("diego@junta.test", "Diego"),
    ("pilar@junta.test", "Pilar"),
    ("tomas@junta.test", "Tomas"),
    ("rosa@junta.test", "Rosa"),
]
DEMO_CAMPAIGN = "Republica de los Papayas (demo)"
# played to its end before the running one began: its end report, awards and archive entry
DEMO_FINISHED_CAMPAIGN = "The First Republic (finished demo)"


def demo_account(email: str, name: str, *, staff: bool = False) -> User:
    """An account one logs into with DEMO_PASSWORD, its address verified: created, or made so
    (an account left without a password by an earlier `simulate` gets the demo password; one
    that has a password keeps it)."""
    user = get_user_model().objects.filter(email=email).first()
    if user is None:
        user = get_user_model().objects.create_user(
            email=email, password=DEMO_PASSWORD, display_name=name,
            is_staff=staff, is_superuser=staff)
    elif not user.has_usable_password():
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    EmailAddress.objects.update_or_create(
        user=user, email=email, defaults={"verified": True, "primary": True})
    return user


def let_players_poll(game: Game) -> None:
    """The demo campaign lets its players post polls of their own (polls' demo)."""
    Game.objects.filter(pk=game.pk).update(players_may_poll=True)


def backdate_speech(speech: Speech, phase: Phase, at: datetime) -> None:
    """The demo's speech as made during `phase`, at `at` (talk's demo)."""
    Speech.objects.filter(pk=speech.pk).update(phase=phase, created_at=at)
