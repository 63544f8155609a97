"""The Orders page's "and mark my orders final" box on each form that adds an order: the order
added and the orders marked final in one step, or neither (`order_intake.change_orders`
validates the whole set once): valid, both are done and the message says both; refused, the
form comes back as it was sent, the box still ticked, and the page says the orders are not
final either. Posted as the browser posts the page's forms."""

from __future__ import annotations

import pytest
from django.urls import reverse

from junta.engine import GameState
from junta.engine import catalog as cat
from junta.games.campaigns import start_campaign
from junta.games.models import Game
from junta.games.models import Order as OrderRow
from tests.engine.option_states import ADMIRAL, FARM, budget_vote
from tests.web.browser_forms import form_with, forms_in, submit
from tests.web.campaigns import install

pytestmark = pytest.mark.django_db


def card(state: GameState, seat: int, name: str) -> str:
    return str(next(c for c in state.players[seat].hand if cat.card(c).name == name))


def farm_in_a_budget_vote(campaign, client):  # noqa: ANN001, ANN201 - fixtures; (game, phase, url, state)
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    state = budget_vote()
    phase = install(game, state)
    client.force_login(game.players.get(seat=FARM).user)
    return game, phase, reverse("game_orders", args=[game.id]), state


def vote_form(client, url: str, ballot: str, *, final: bool):  # noqa: ANN001, ANN201
    form = form_with(client.get(url).content.decode(), "option", "vote")
    form.set("order-vote-choice", "yes").set("order-vote-cards", [ballot])
    form.control("and_final").checked = final
    return form


def row(game: Game) -> OrderRow:
    return OrderRow.objects.get(phase__game=game, player__seat=FARM)


def test_a_vote_with_a_card_added_and_final_in_one_step(campaign, client):
    game, _phase, url, state = farm_in_a_budget_vote(campaign, client)
    ballot = card(state, FARM, "Ballot Stuffers")
    response = submit(client, url, vote_form(client, url, ballot, final=True))
    assert response.status_code == 302
    saved = row(game)
    assert saved.final
    assert saved.payload == [{"kind": "vote", "choice": "yes", "cards": [int(ballot)]}]
    page = client.get(url).content.decode()
    assert "Order added. Your orders are final." in page
    # final now: an order added keeps them final, so the forms offer the box no more
    assert not any("and_final" in f.names() for f in forms_in(page))


def test_the_box_left_empty_adds_the_order_only(campaign, client):
    game, _phase, url, state = farm_in_a_budget_vote(campaign, client)
    ballot = card(state, FARM, "Ballot Stuffers")
    assert submit(client, url, vote_form(client, url, ballot, final=False)).status_code == 302
    assert not row(game).final
    assert "Order added." in client.get(url).content.decode()


def test_a_refused_set_is_not_final_and_the_form_comes_back_ticked(campaign, client):
    """The card the ballot plays is already given away: the whole set is refused, so the vote
    is not added and nothing is final; the gift stays as it was."""
    game, _phase, url, state = farm_in_a_budget_vote(campaign, client)
    ballot = card(state, FARM, "Ballot Stuffers")
    gift = form_with(client.get(url).content.decode(), "option", "give_card")
    gift.set("order-give-card-to", str(ADMIRAL)).set("order-give-card-card", ballot)
    assert submit(client, url, gift).status_code == 302
    before = row(game).payload
    response = submit(client, url, vote_form(client, url, ballot, final=True))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Your orders in are unchanged, and not final." in page
    assert "A card can be used once." in page
    saved = row(game)
    assert saved.payload == before and not saved.final
    sent = form_with(page, "option", "vote")
    assert sent.control("and_final").checked
    assert [c.value for c in sent.controls if c.name == "order-vote-cards" and c.checked] \
        == [ballot]
    assert "<title>Error: Not saved:" in page


def test_the_gm_giving_an_order_has_no_such_box(campaign, client):
    game, _phase, _url, _state = farm_in_a_budget_vote(campaign, client)
    client.force_login(game.gm)
    page = client.get(reverse("gm_rulings", args=[game.id]) + f"?order_for={FARM}")
    assert page.status_code == 200
    forms = forms_in(page.content.decode())
    assert any("option" in f.names() for f in forms)  # the player's forms, as the GM gives them
    assert not any("and_final" in f.names() for f in forms)
