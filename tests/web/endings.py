"""A campaign played to its end quickly, shared by the end report's web and browser tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from junta.engine import Catalog, PhaseKind
from junta.games import repository
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Phase
from tests.web.campaigns import advance_until, play_days, state_of

COMPETENCE = "The President's Competence Questioned"
NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Diego", "Pilar", "Tomas",
         "Rosa"]


def finish(game: Game, users: list, turn: int = 3) -> None:
    """Play with the bots to the Cabinet Appointment of `turn`, then leave three bills in the
    money deck (and no motion on the President's competence to delay the draw): the next
    Budget Draw ends the game (docs/rules.md §money-deck)."""
    start_campaign(game.id, game.gm)
    advance_until(game, users, lambda p, s: s.phase == PhaseKind.CABINET and s.turn == turn)
    for _ in range(4):
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        state = state_of(phase)
        state.money_deck = state.money_deck[-3:]
        for p in state.players:
            for cid in [c for c in p.hand if Catalog.card(c).name == COMPETENCE]:
                p.hand.remove(cid)
                state.political_discard.append(cid)
        repository.rewrite_state_before(phase, state)
        game.refresh_from_db()
        game.state_version += 1
        game.save()
        play_days(game, users, 1)
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
    raise AssertionError("the campaign did not end")


def city_zones() -> None:
    """The city's 28 zones, as migration 0003 loads them: a browser test's database was
    flushed by the transactional tests before it, and a coup's units need their zones."""
    import importlib

    from django.apps import apps

    importlib.import_module("junta.games.migrations.0003_zones").load_zones(apps, None)


def finished_campaign(seed: str = "test-10-False") -> tuple[Game, list]:
    """Ten families with a fixed seed, played by the bots to the end of turn 2 and then to the
    end of the game (`finish`); (the game, its players' users in seat order of joining)."""
    city_zones()
    User = get_user_model()
    gm = User.objects.create_user(email="gm-end@example.org")
    game = create_game(gm, "Papayas", max_players=10, join_policy=Game.JoinPolicy.OPEN)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    game.refresh_from_db()
    users = []
    for name in NAMES:
        user = User.objects.create_user(email=f"{name.lower()}-end@example.org",
                                        display_name=name)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    finish(game, users)
    return game, users
