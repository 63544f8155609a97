"""Revealing a conversation after the end with everyone's consent (docs/rules.md §talk):
"nobody's words are shown without his agreement". A member who wrote and left is asked too and
agrees from the Talk page; until he does, his words appear on no page anyone else reads (the
revealed conversations, the History, the end report, the API). A writer who can no longer
answer (replaced by the GameMaster) is not waited for: his messages stay hidden, counted."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from junta.api import tokens
from junta.games import revisions
from junta.games.campaigns import start_campaign
from junta.games.models import Game
from junta.talk.models import Conversation, Member
from tests.web.browser_forms import forms_in, submit
from tests.web.endings import finish
from tests.web.talk_helpers import seat_of, send, start_through_form

pytestmark = pytest.mark.django_db

SECRET = "LEFT-WRITER-MARKER-5813: I sold the Navy to the Embassy"


def three_talk(client, game: Game, users: list, first: str) -> tuple[Conversation, str]:
    """Carlos starts a conversation with Isabel and Miguel through the page's form; (it, its
    page's address)."""
    carlos, isabel, miguel = users[:3]
    client.force_login(carlos)
    start_through_form(client, game, [seat_of(game, isabel), seat_of(game, miguel)],
                       "A deal", first)
    talk = Conversation.objects.get(game=game)
    return talk, reverse("talk_conversation", args=[game.id, talk.id])


def agree(client, game: Game, talk: Conversation, page: str):
    """Send the "Agree to show it to everyone" form of `page` (a conversation, or the list of
    conversations where one who left finds it) as the browser does."""
    action = reverse("talk_reveal", args=[game.id, talk.id])
    text = client.get(page).content.decode()
    form = next(f for f in forms_in(text) if f.attrs.get("action") == action)
    return submit(client, page, form)


def public_pages(client, game: Game, talk: Conversation, reader) -> str:
    """What a signed-in player who was not in it reads of it, in pages and in the API, and what
    a visitor without an account reads of the end report."""
    client.logout()
    shown = [client.get(reverse("game_report", args=[game.id])).content.decode()]
    client.force_login(reader)
    for name in ("talk_revealed", "game_history", "game_report", "talk_index"):
        response = client.get(reverse(name, args=[game.id]))
        assert response.status_code == 200, name
        shown.append(response.content.decode())
    auth = {"Authorization": f"Bearer {tokens.create(reader, 'reveal').secret}"}
    base = f"/api/v1/campaigns/{game.id}/conversations"
    shown.append(client.get(base, headers=auth).content.decode())
    messages = client.get(f"{base}/{talk.id}/messages", headers=auth)
    assert messages.status_code == 404
    shown.append(messages.content.decode())
    return html.unescape("".join(shown))


def test_one_who_wrote_and_left_is_asked_and_nothing_of_his_shows_until_he_agrees(campaign,
                                                                                   client):
    game, users = campaign()
    carlos, isabel, miguel, lucia = users[:4]
    finish(game, users)  # after the end everyone still talks, and may leave
    talk, page = three_talk(client, game, users, "Who sold the Navy?")
    client.force_login(miguel)
    assert send(client, game, talk, SECRET).status_code == 302
    assert client.post(reverse("talk_leave", args=[game.id, talk.id])).status_code == 302
    for member in (carlos, isabel):  # those still in it agree
        client.force_login(member)
        assert agree(client, game, talk, page).status_code == 302
    assert "LEFT-WRITER-MARKER" not in public_pages(client, game, talk, lucia)
    talk.refresh_from_db()
    assert talk.revealed_at is None
    client.force_login(isabel)
    assert "Waiting for: Don Miguel (who left it)" in client.get(page).content.decode()

    client.force_login(miguel)  # he reads it no more; his dashboard leads him to the Talk page
    index = reverse("talk_index", args=[game.id])
    assert client.get(page).status_code == 404
    dashboard = client.get(reverse("home")).content.decode()
    assert (f'<a href="{index}#left-talks">1 conversation you left waits for your word before '
            "it is revealed") in dashboard
    listing = client.get(index).content.decode()
    assert "Conversations you left" in listing and "1 message of yours" in listing
    assert "LEFT-WRITER-MARKER" not in listing and "Who sold the Navy?" not in listing
    answer = agree(client, game, talk, index)
    assert answer["Location"] == index + "#left-talks"
    assert "Everyone agreed" in client.get(answer["Location"]).content.decode()
    assert Member.objects.get(conversation=talk, user=miguel).agrees_to_reveal
    assert "#left-talks" not in client.get(reverse("home")).content.decode()
    shown = public_pages(client, game, talk, lucia)
    assert SECRET in shown and "Who sold the Navy?" in shown and "stay hidden" not in shown


def test_the_words_of_a_replaced_player_stay_hidden_and_the_page_says_so(campaign, client,
                                                                         django_user_model):
    """A player the GameMaster replaced can no longer answer: the others do not wait for him,
    and the revealed conversation counts his messages without showing them. So it does for a
    writer who had not agreed when a conversation was revealed under the former rule."""
    from junta.gm import services as gm_services

    game, users = campaign(players=6)
    carlos, isabel, miguel, lucia = users[:4]
    start_campaign(game.id, game.gm)
    talk, page = three_talk(client, game, users, "Twelve MP?")
    client.force_login(isabel)
    send(client, game, talk, SECRET)
    send(client, game, talk, "And not a word to Lucia.")
    client.force_login(miguel)
    send(client, game, talk, "Agreed, not a word.")
    newcomer = django_user_model.objects.create_user(email="nuevo-reveal@example.org")
    gm_services.replace_player(game.id, game.gm, seat_of(game, isabel).pk, newcomer.email,
                               "Don Nuevo", reason="Isabel moved away")
    with revisions.raised(game.id):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    for member in (carlos, newcomer):
        client.force_login(member)
        agree(client, game, talk, page)
    talk.refresh_from_db()
    assert talk.revealed_at is None  # Miguel, still in it, has not agreed
    client.force_login(miguel)
    agree(client, game, talk, page)
    talk.refresh_from_db()
    assert talk.revealed_at is not None  # Isabel is not waited for
    client.force_login(lucia)
    shown = html.unescape(client.get(reverse("talk_revealed", args=[game.id])).content
                          .decode())
    assert "Twelve MP?" in shown and "Agreed, not a word." in shown
    assert "LEFT-WRITER-MARKER" not in shown and "not a word to Lucia" not in shown
    assert ("2 messages of Don Isabel, who did not agree to reveal them, stay hidden (the "
            "GameMaster replaced him before the end).") in shown

    with revisions.raised(game.id):  # a bulk update sends no signal
        Member.objects.filter(conversation=talk, user=miguel).update(agrees_to_reveal=False)
    shown = html.unescape(client.get(reverse("talk_revealed", args=[game.id])).content
                          .decode())  # revealed before he agreed, as the former rule did
    assert "Agreed, not a word." not in shown and "Twelve MP?" in shown
    assert "1 message of Don Miguel, who did not agree to reveal it, stays hidden." in shown
