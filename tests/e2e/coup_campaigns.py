"""A campaign in Coup Phase 1 for the browser tests (tests/e2e/test_map_orders_browser.py,
tests/e2e/test_page_alert_browser.py): the 1st Brigade's General has his brigade in University
City (13) and orders on the map (the state of tests/web/map_helpers.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from junta.engine import legal_options
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game
from tests.web.campaigns import install
from tests.web.map_helpers import GENERAL_1, coup_state


def coup_campaign() -> tuple[Game, object, int]:
    """Coup Phase 1, the General's brigade in University City (13); (the game, the General's
    user, a zone his stack may move to)."""
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Papayas", join_policy=Game.JoinPolicy.OPEN)
    for i in range(10):
        join_game(game.id, User.objects.create_user(email=f"p{i}@example.org"), f"Don {i}")
    start_campaign(game.id, gm)
    state = coup_state()
    install(game, state)
    move = legal_options(state, GENERAL_1).get("move")
    assert move is not None
    to_zone = move.arg("to_zone").choices_for[13][0]  # type: ignore[union-attr]
    general = game.players.get(seat=GENERAL_1).user
    return game, general, to_zone
