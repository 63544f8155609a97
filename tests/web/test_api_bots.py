"""A whole campaign played by six bot clients (the fewest the game takes: a whole campaign,
with fewer requests in each phase than ten) through the JSON API alone (scripts/junta_bot.py),
on the real pipeline: each phase the bots read their options and send their orders, final, with
their personal tokens; the minute sweep's query finds the phase due (everyone final) and the
adjudication task publishes it. The campaign must end, with every phase replaying."""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import pytest
from django.test import Client, override_settings

from junta.api import tokens
from junta.games import adjudication, tasks
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase
from junta.games.replay import replay_game
from tests.conftest import REPO

# thousands of requests: the revision guard would read every row around each (the API's requests
# are guarded in tests/web/test_api.py)
pytestmark = [pytest.mark.django_db, pytest.mark.no_revision_guard]
API = "/api/v1"
RATES = {"burst": "100000/min", "sustained": "100000/min"}  # the bots ask fast


def bot_module() -> Any:
    spec = importlib.util.spec_from_file_location("junta_bot", REPO / "scripts" / "junta_bot.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def through_client(secret: str):  # noqa: ANN201 - the bot's Transport
    """The bot's transport over Django's test client: the same requests an HTTP client makes,
    with the token, without a network."""
    client = Client()
    headers = {"Authorization": f"Bearer {secret}"}

    def call(method: str, path: str, body: Any = None) -> tuple[int, Any]:
        response = client.generic(method, API + path, json.dumps(body) if body is not None
                                  else "", content_type="application/json", headers=headers)
        return response.status_code, json.loads(response.content or b"null")
    return call


def test_six_bot_clients_play_a_whole_campaign_through_the_api(campaign, eager_celery):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    junta_bot = bot_module()
    bots = [junta_bot.Bot(through_client(tokens.create(user, "bot").secret), game.id,
                          seed=f"bot-{i}") for i, user in enumerate(users)]
    with override_settings(JUNTA_API_RATES=RATES):
        for _ in range(400):
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            for bot in bots:
                bot.turn()
            due = tasks.queue_due_phases()  # everyone final: the sweep finds it due
            if not due:  # a phase nobody owes orders in waits for its deadline
                phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
                adjudication.adjudicate_phase(phase.id, now=phase.deadline)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED, game.phases.count()
        assert all(bot.finished() for bot in bots)
    sent = sum(len(bot.log) for bot in bots)
    assert sent > 6 * 20, sent  # they played, phase after phase
    assert game.phases.count() > 40
    assert all(line.ok for line in replay_game(game))
