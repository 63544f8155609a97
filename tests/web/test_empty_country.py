"""The Status and Orders pages of an empty country: every living family in exile, none asking
to return (docs/rulings.md §ruling-empty-country, docs/rules.md §empty-country). Each exile's
Status page says what he can do and when the game ends; asked from the Orders page as a
browser does, the return is granted and the Chamber sits; left alone, the game ends at the
deadline and the Bank decides."""

from __future__ import annotations

import pytest
from django.urls import reverse

from junta.engine import Status
from junta.engine import catalog as cat
from junta.games import adjudication
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Player
from tests.engine.helpers import in_phase
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import install, open_phase, state_of

pytestmark = pytest.mark.django_db

DONA = 3
LINE = ("Nobody is left in the country: no President can be elected, and with no Minister of "
        "Internal Security to decide, an exile who asks to return now comes home safely. If no "
        "exile asks by this phase&#x27;s deadline, the game ends and the family with the most "
        "money in the Bank wins.")


def empty_country(campaign):  # noqa: ANN001, ANN201 - the fixture; a Game
    """A campaign at turn 2's Cabinet phase with every family abroad and Dona the richest."""
    game, _ = campaign(players=6)
    start_campaign(game.id, game.gm)
    s = in_phase("cabinet", players=6, turn=2)
    for p in s.players:
        p.status = Status.EXILED
    s.positions = {pos: None for pos in [cat.PRESIDENT, *cat.CABINET]}
    s.players[DONA].bank = 7
    install(game, s)
    return game


def page(client, game, name: str) -> str:  # noqa: ANN001 - the test client, a Game
    user = Player.objects.get(game=game, seat=DONA).user
    client.force_login(user)
    response = client.get(reverse(name, args=[game.id]))
    assert response.status_code == 200
    return response.content.decode()


def test_an_exile_is_told_the_country_is_empty_and_the_game_ends_at_the_deadline(
        campaign, client):
    game = empty_country(campaign)
    status = page(client, game, "game_status")
    assert "You are in exile" in status and LINE in status
    assert "#empty-country" in status
    phase = open_phase(game)
    dona = state_of(phase).name(DONA)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "Everything revealed" in page(client, game, "game_status")
    events = page(client, game, "game_events")
    assert "Nobody is left in the country to govern it" in events
    assert f"{dona} wins with 7 MP in the Bank" in events
    assert dona in page(client, game, "game_report")  # the end report tells the story


def test_an_exile_who_asks_to_return_from_the_orders_page_comes_home_and_the_chamber_sits(
        campaign, client):
    game = empty_country(campaign)
    url = reverse("game_orders", args=[game.id])
    response = submit(client, url, form_with(page(client, game, "game_orders"), "option",
                                             "return_from_exile"))
    assert response.status_code == 302
    phase = open_phase(game)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    phase = open_phase(game)
    assert phase.kind == "election" and game.status != Game.Status.FINISHED
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert state_of(open_phase(game)).players[DONA].status == Status.ALIVE
    assert LINE not in page(client, game, "game_status")
