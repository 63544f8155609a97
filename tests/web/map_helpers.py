"""A campaign in Coup Phase 1 whose 1st Brigade's General (seat 2) orders on the map, shared
by the Map page's tests (tests/web/test_map_orders.py), the page alert's (tests/web/
test_page_alert.py) and the browser's (tests/e2e/coup_campaigns.py)."""

from __future__ import annotations

import json
import re
from typing import Any

from junta.engine import GameState, resolve
from junta.engine import Order as EngineOrder
from junta.games.campaigns import start_campaign
from tests.engine.helpers import in_phase
from tests.web.campaigns import install, version

GENERAL_1, ADMIRAL = 2, 5  # the standard cabinet of tests.engine.helpers.in_phase


def users_by_seat(game) -> dict:  # noqa: ANN001 - a Game
    return {p.seat: p.user for p in game.players.all()}


def coup_state() -> GameState:
    """Coup Phase 1: the 1st Brigade's General (seat 2) moved his brigade from its barracks
    (15) into University City (13) at the Rebel-Only step."""
    state = in_phase("locations")
    state.coup_excuse = True
    state = resolve(state, {GENERAL_1: [EngineOrder("rebel_move",
                                                    {"from_zone": 15, "to_zone": 13})]},
                    [GENERAL_1]).state
    assert state.phase == "coup" and state.coup["phase"] == 1
    return state


def coup_campaign(campaign) -> tuple[Any, dict, GameState]:  # noqa: ANN001 - the fixture's value
    """A campaign made by the `campaign` fixture's factory, started and put in `coup_state`;
    (the game, its users by seat, the state)."""
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    state = coup_state()
    install(game, state)
    return game, users_by_seat(game), state


def move_post(game, to_zone: int, **extra: str) -> dict[str, Any]:  # noqa: ANN001
    """What the Orders page's form posts for the General's move from University City (13)."""
    return {"action": "add", "option": "move", "order-move-from_zone": "13",
            "order-move-to_zone": str(to_zone), "state_version": version(game), **extra}


MAP_ORDERS_DATA = re.compile(
    r'<script id="map-orders-data" type="application/json">(.*?)</script>', re.S)


def embedded(page: str) -> dict[str, Any] | None:
    """The options the Map page embeds for its script (`map_orders.context`), or None."""
    found = MAP_ORDERS_DATA.search(page)
    return json.loads(found.group(1)) if found else None
