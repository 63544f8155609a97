"""A conversation's form sent by its page's script (static/js/talk.js asks for JSON): the message
sent comes back drawn as the page draws it, to be shown in place, and nothing waits for the
next page (no "sent" message left over); a refusal says why in the words the page would; one
who left meanwhile is told so, his text kept. Without the script, the same form posts as before
(tests/web/test_talk.py)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.games.models import Player
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from junta.talk.models import Message
from tests.web.talk_helpers import message_form

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def talk(campaign):  # noqa: ANN001, ANN201 - (game, conversation, Carlos, Isabel)
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    carlos, isabel = (Player.objects.get(game=game, seat=s) for s in (0, 1))
    reader = talk_access.reader_for(game, isabel.user)
    conversation = talk_services.start(reader, "The budget", [carlos], False, "Vote yes?")
    return game, conversation, carlos.user, isabel.user


def send(client, game, conversation, body: str):  # noqa: ANN001, ANN201 - a response
    form = message_form(client, game, conversation).set("body", body)
    return client.post(reverse("talk_conversation", args=[game.id, conversation.id]),
                       form.encoded(), content_type="application/x-www-form-urlencoded",
                       **JSON)


def test_a_message_sent_by_the_script_comes_back_drawn_for_the_page(talk, client):
    game, conversation, carlos, _isabel = talk
    client.force_login(carlos)
    response = send(client, game, conversation, "**Yes**, with a card.")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    message = Message.objects.get(conversation=conversation, author=carlos)
    assert data["sent"] and data["id"] == message.id
    assert data["message"] == "Your message is sent."
    assert f'id="m{message.id}"' in data["html"] and "<strong>Yes</strong>" in data["html"]
    # nothing left for the next page to say
    page = client.get(reverse("talk_conversation", args=[game.id, conversation.id]))
    assert "Your message is sent." not in page.content.decode()


def test_a_refusal_comes_back_in_the_pages_words_and_nothing_is_sent(talk, client):
    game, conversation, carlos, _isabel = talk
    client.force_login(carlos)
    response = send(client, game, conversation, "   ")
    assert response.status_code == 400
    assert json.loads(response.content) == {
        "sent": False, "errors": ["Your message: A message needs some words."]}
    assert not Message.objects.filter(author=carlos).exists()


def test_one_who_left_in_another_window_is_told_so(talk, client):
    game, conversation, carlos, _isabel = talk
    client.force_login(carlos)
    form = message_form(client, game, conversation).set("body", "Still there?")
    talk_services.leave(conversation, talk_access.reader_for(game, carlos))
    response = client.post(reverse("talk_conversation", args=[game.id, conversation.id]),
                           form.encoded(), content_type="application/x-www-form-urlencoded",
                           **JSON)
    assert response.status_code == 409
    data = json.loads(response.content)
    assert not data["sent"] and "You have left this conversation" in data["errors"][0]
