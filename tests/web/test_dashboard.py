"""The dashboard a person lands on after logging in: each of his campaigns with its phase, the
deadline counting down in his zone, whether he owes orders, unread speeches and messages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from junta.games import speeches
from junta.games.campaigns import start_campaign
from junta.games.models import Game
from junta.gm.services import update_settings
from junta.talk import access, services

pytestmark = pytest.mark.django_db


def card_of(page: str, game: Game) -> str:
    """The dashboard's card of one campaign."""
    cards = re.findall(r'<li class="card dashboard-row">(.*?)</li>', page, re.S)
    return next(c for c in cards if f">{game.name}</a>" in c)


def test_anonymous_visitors_get_the_welcome_page(client):
    page = client.get(reverse("home")).content.decode()
    assert "Sign up" in page and "Your campaigns" not in page


def test_a_player_sees_what_waits_for_him_in_each_campaign(campaign, client):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel = users[:2]
    client.force_login(carlos)
    page = client.get(reverse("home")).content.decode()
    card = card_of(page, game)
    assert reverse("game_status", args=[game.id]) in card
    assert "Nominations" in card or "nomination" in card.lower()
    assert "data-countdown" in card
    assert "You owe orders this phase" in card
    assert "No unread messages" in card
    client.get(reverse("game_events", args=[game.id]))  # he reads the Events page
    card = card_of(client.get(reverse("home")).content.decode(), game)
    assert "Events: nothing new" in card

    isabel_reader = access.reader_for(game, isabel)
    assert isabel_reader is not None
    services.start(isabel_reader, "A deal", [game.players.get(user=carlos)], False, "Hello")
    speeches.post_speech(game, isabel, "People of the Republic!")
    card = card_of(client.get(reverse("home")).content.decode(), game)
    assert "1 unread private message" in card and "1 new on the Events page" in card

    game.status, game.paused_from = Game.Status.PAUSED, game.status
    game.save(update_fields=["status", "paused_from"])
    card = card_of(client.get(reverse("home")).content.decode(), game)
    assert "data-countdown" not in card and "Paused" in card
    assert "You owe orders" not in card


def test_the_gm_sees_his_campaigns_and_a_forming_one(campaign, client, django_user_model):
    game, _users = campaign(players=6)
    start_campaign(game.id, game.gm)
    forming = Game.objects.create(name="Next season", gm=game.gm)
    client.force_login(game.gm)
    page = client.get(reverse("home")).content.decode()
    assert "You are the GameMaster" in card_of(page, game)
    assert "Forming" in card_of(page, forming)
    assert page.index("Papayas") < page.index("Next season")  # the running one first
    nobody = django_user_model.objects.create_user(email="new@example.org")
    client.force_login(nobody)
    assert "You are in no campaign yet" in client.get(reverse("home")).content.decode()


def test_the_lobby_counts_unread_messages_and_links_to_status(campaign, client):
    """The lobby names each campaign's unread private messages, and a started campaign's name
    opens its Status page, for its players and its GameMaster alike."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel = users[:2]
    reader = access.reader_for(game, isabel)
    assert reader is not None
    services.start(reader, "A deal", [game.players.get(user=carlos)], True, "Hello")
    for person, unread in ((carlos, "1 unread private message"), (game.gm, "1 unread")):
        client.force_login(person)
        page = client.get(reverse("lobby")).content.decode()
        assert unread in page
        assert f'<h3><a href="{reverse("game_status", args=[game.id])}">' in page
    client.force_login(isabel)  # she wrote it
    assert "unread" not in client.get(reverse("lobby")).content.decode()


def test_unread_messages_in_one_conversation_link_straight_to_it(campaign, client):
    """A player's day starts here: messages all in one conversation open it in one tap; in
    several, the list of conversations."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel, miguel = users[:3]
    me = game.players.get(user=carlos)
    first = services.start(access.reader_for(game, isabel), "A deal", [me], False, "Hello")
    client.force_login(carlos)
    card = card_of(client.get(reverse("home")).content.decode(), game)
    assert f'<a href="{reverse("talk_conversation", args=[game.id, first.id])}">' \
           '<strong>1 unread private message</strong>' in card
    services.start(access.reader_for(game, miguel), "Another", [me], False, "Psst")
    card = card_of(client.get(reverse("home")).content.decode(), game)
    assert f'<a href="{reverse("talk_index", args=[game.id])}"><strong>2 unread private ' \
           'messages</strong>' in card


def test_the_dashboard_leads_to_the_campaigns_he_may_watch(campaign, client):
    """Campaigns under way their GM made watchable (not his own) are named from his dashboard,
    linked to their list in the archive (`junta.games.watching`)."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    outsider = get_user_model().objects.create_user(email="onlooker@example.org")
    client.force_login(outsider)
    assert "Watch a campaign" not in client.get(reverse("home")).content.decode()
    update_settings(game.id, game.gm, {"watchable": True})
    page = client.get(reverse("home")).content.decode()
    link = f'<a href="{reverse("game_archive")}#watch-h">1 campaign you may watch</a>'
    assert "Watch a campaign" in page and link in page
    archive = client.get(reverse("game_archive")).content.decode()
    assert 'id="watch-h"' in archive and reverse("watch_families", args=[game.id]) in archive
    client.force_login(users[0])  # his own campaign is on his dashboard already
    assert "Watch a campaign" not in client.get(reverse("home")).content.decode()
