"""The Status and Orders pages: what a player sees and orders each day."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from junta.engine import GameState, digest
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Order, Phase
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import play_days

pytestmark = pytest.mark.django_db


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).state_version


def test_the_gm_starts_the_campaign_from_its_page(campaign, client):
    game, users = campaign()
    client.force_login(users[0])
    assert client.post(reverse("game_start", args=[game.id])).status_code == 404
    client.force_login(game.gm)
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "Start the campaign" in page
    # the button leads to the question, which starts nothing; so does an old page's one click
    asked = client.get(re.search(r'href="([^"]*/gm/start/[^"]*)"', page).group(1).replace(
        "&amp;", "&"))
    old_click = client.post(reverse("game_start", args=[game.id]))
    assert old_click.status_code == 302 and old_click["Location"] == asked.request["PATH_INFO"] \
        + "?from=detail"
    assert asked.status_code == 200 and Game.objects.get(pk=game.pk).status == "forming"
    html = asked.content.decode()
    assert f"<title>Confirm: Start {game.name}?" in html
    assert f'href="{reverse("game_detail", args=[game.id])}"' in html  # Cancel: back here
    response = submit(client, "", form_with(html, "confirm", "yes"))
    assert response.status_code == 302 and response["Location"].endswith("/status/")
    assert Game.objects.get(pk=game.pk).status == Game.Status.NOMINATING


def test_status_page_tells_the_player_what_to_do(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "Nominations" in page and "Nominate a player for the Presidency" in page
    assert "You owe orders this phase" in page
    assert "data-countdown" in page and "America/New_York" in page
    assert "bills drawn of the known 96" in page


def test_strangers_get_404_on_the_players_pages(campaign, client, django_user_model):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(django_user_model.objects.create_user(email="nosy@example.org"))
    for name in ("game_status", "game_orders"):
        assert client.get(reverse(name, args=[game.id])).status_code == 404


def test_orders_are_added_removed_and_marked_final(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert "Nominate a candidate" in page and "Don Isabel" in page
    form = form_with(page, "option", "nominate")
    response = submit(client, url, form.set("order-nominate-candidate", "1"))
    assert response.status_code == 302
    assert "Nominate Don Isabel" in client.get(url).content.decode()
    # a choice that is not offered is refused and the saved order stays
    response = client.post(url, {"action": "add", "option": "nominate",
                                 "order-nominate-candidate": "99",
                                 "state_version": version(game)})
    assert response.status_code == 400
    assert "choose one of the options offered" in response.content.decode()
    assert Order.objects.get(player__user=users[0]).payload == [
        {"kind": "nominate", "candidate": 1}]
    # a stale form is refused with a message
    response = client.post(url, {"action": "add", "option": "decline", "state_version": 0})
    assert response.status_code == 400 and "has changed since this form" in \
        response.content.decode()
    client.post(url, {"action": "final", "state_version": version(game)})
    assert Order.objects.get(player__user=users[0]).final
    client.post(url, {"action": "not_final", "state_version": version(game)})
    client.post(url, {"action": "remove", "index": "0", "state_version": version(game),
                      "revision": Order.objects.get(player__user=users[0]).revision})
    row = Order.objects.get(player__user=users[0])
    assert row.payload == [] and not row.final


def test_a_conditional_order_on_the_same_step_is_not_offered(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)  # nomination, election, cabinet: now the budget draw
    while open_phase(game).kind != "budget_vote":
        play_days(game, users, 1)
    client.force_login(users[0])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert "is settled at the vote count (step 2 of the Budget Vote phase)" in page
    form = form_with(page, "option", "vote")
    assert "voted" not in [v for v, _, _ in form.control("order-vote-if").options]
    # posted all the same (an old page, a hand-made request): refused, nothing saved
    response = client.post(url, {"action": "add", "option": "vote", "order-vote-choice": "no",
                                 "order-vote-if": "voted", "order-vote-if_seat": "2",
                                 "order-vote-if_choice": "yes",
                                 "state_version": version(game)})
    assert response.status_code == 400
    assert "Condition: choose one of the options offered." in response.content.decode()
    assert not Order.objects.filter(player__user=users[0], phase=open_phase(game)).exists()


def test_no_page_shows_another_players_secrets(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)
    phase = open_phase(game)
    state = GameState.from_dict(phase.state_before)
    state.players[1].pocket = 987651
    state.players[1].bank = 876541
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()
    seat_of = {p.user_id: p.seat for p in game.players.all()}
    owner = next(u for u in users if seat_of[u.id] == 1)
    other = next(u for u in users if seat_of[u.id] == 0)
    client.force_login(owner)
    mine = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "987651" in mine and "876541" in mine
    client.force_login(other)
    for name in ("game_status", "game_orders", "game_detail", "game_events"):
        page = client.get(reverse(name, args=[game.id])).content.decode()
        assert "987651" not in page and "876541" not in page, name


def test_history_shows_public_reports_and_only_my_private_lines(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    for _ in range(8):  # through the budget draw (a motion or re-vote may come first)
        play_days(game, users, 1)
        if open_phase(game).kind == "budget_proposal":
            break
    assert open_phase(game).kind == "budget_proposal"
    state = GameState.from_dict(open_phase(game).state_before)
    foreign = state.positions["foreign"]
    seat_user = {p.seat: p.user for p in game.players.all()}
    bystander = next(s for s in range(10) if s not in (foreign, state.president))
    client.force_login(seat_user[foreign])
    page = client.get(reverse("game_history", args=[game.id])).content.decode()
    assert "As Foreign Minister you drew" in page and "Only you know" in page
    assert "The Foreign Minister draws" in page  # the public count
    client.force_login(seat_user[bystander])
    page = client.get(reverse("game_history", args=[game.id])).content.decode()
    assert "The Foreign Minister draws" in page
    assert "As Foreign Minister you drew" not in page and "Your budget bills" not in page
    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "Latest results" in events


def test_headlines_come_only_from_public_events():
    from junta.engine.events import Event
    from junta.games.headlines import headline

    public = Event("president", "Don Carlos is elected President.", "public", {"president": 0},
                   True)
    secret = Event("attempt_failed", "A secret attempt.", (1, 2), {}, True)
    assert "DON CARLOS" in headline(public, "1", {0: "Don Carlos"})
    assert headline(public, "1") == headline(public, "1")
    assert headline(secret, "1") is None


def test_a_cards_category_is_shown_in_words_on_the_status_page_and_in_the_api(campaign,
                                                                              client):
    """Players read "Secret Political Donation", never the identifier; the API keeps the
    identifier for programs and adds the words."""
    from junta.engine import Catalog

    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    state = GameState.from_dict(phase.state_before)
    donation = next(c.id for c in Catalog.cards() if c.category == "secret_political_donation")
    seat_of = {p.user_id: p.seat for p in game.players.all()}
    owner = users[0]
    state.players[seat_of[owner.id]].hand = [donation]
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()
    client.force_login(owner)
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert Catalog.card(donation).name in page
    assert "Secret Political Donation" in page and "secret_political_donation" not in page
    [card] = client.get(f"/api/v1/campaigns/{game.id}").json()["view"]["me"]["hand"]
    assert (card["category"], card["category_label"]) == (
        "secret_political_donation", "Secret Political Donation")
