"""Talk through its pages as a browser uses them, shared by the web tests: a conversation
started with the form of the conversations page, a message sent with the conversation's form."""

from __future__ import annotations

from django.urls import reverse

from junta.games.models import Game, Player
from junta.talk.models import Conversation
from tests.web.browser_forms import Form, forms_in, submit


def seat_of(game: Game, user) -> Player:
    return game.players.get(user=user, membership=Player.Membership.ACTIVE)


def start_through_form(client, game: Game, players: list[Player], subject: str, body: str,
                       with_gm: bool = False):
    """Open the conversations page and send its form as the browser does."""
    page = client.get(reverse("talk_index", args=[game.id]))
    assert page.status_code == 200
    form = next(f for f in forms_in(page.content.decode())
                if f.attrs.get("action") == reverse("talk_start", args=[game.id]))
    if players:
        form.set("players", [str(p.pk) for p in players])
    if with_gm:
        form.control("with_gm").checked = True  # a box without a value: the browser sends "on"
    form.set("subject", subject).set("body", body)
    return submit(client, "", form)


def message_form(client, game: Game, talk: Conversation) -> Form:
    url = reverse("talk_conversation", args=[game.id, talk.id])
    return next(f for f in forms_in(client.get(url).content.decode()) if "body" in f.names())


def send(client, game: Game, talk: Conversation, body: str):
    url = reverse("talk_conversation", args=[game.id, talk.id])
    return submit(client, url, message_form(client, game, talk).set("body", body))
