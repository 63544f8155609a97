"""A form sent twice (a double click, a resend after a slow answer) makes one speech, one
announcement, one conversation and one message: the second answers as the first did. The
same text sent again later is a new one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.games.models import Announcement, Speech
from junta.games.speeches import RESENT_WITHIN
from junta.talk.models import Conversation, Message
from tests.web.browser_forms import csrf_browser, forms_in, submit

pytestmark = pytest.mark.django_db


def form_holding(html: str, name: str):  # noqa: ANN201 - a browser_forms.Form
    found = [f for f in forms_in(html) if name in f.names()]
    assert found, name
    return found[0]


def test_a_speech_and_an_announcement_sent_twice_are_made_once(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    carlos = csrf_browser(users[0])
    url = reverse("game_events", args=[game.id])
    form = form_holding(carlos.get(url).content.decode(), "reply_to") \
        .type_text("body", "Viva la junta!")
    first, second = submit(carlos, url, form), submit(carlos, url, form)
    assert first.status_code == second.status_code == 302
    assert Speech.objects.filter(body="Viva la junta!").count() == 1

    gm = csrf_browser(game.gm)
    announce = reverse("gm_announce", args=[game.id])
    form = form_holding(gm.get(announce).content.decode(), "announce-body") \
        .type_text("announce-body", "Martial law tonight.")
    assert submit(gm, announce, form).status_code == submit(gm, announce, form).status_code
    assert Announcement.objects.filter(body="Martial law tonight.").count() == 1

    # the same words a while later are meant: a second speech
    said = Speech.objects.get()
    said.created_at -= RESENT_WITHIN + timedelta(seconds=1)
    said.save()
    form = form_holding(carlos.get(url).content.decode(), "reply_to") \
        .type_text("body", "Viva la junta!")
    assert submit(carlos, url, form).status_code == 302
    assert Speech.objects.filter(body="Viva la junta!").count() == 2


def test_a_conversation_and_a_message_sent_twice_are_made_once(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    carlos = csrf_browser(users[0])
    isabel = game.players.get(user=users[1])
    page = carlos.get(reverse("talk_index", args=[game.id])).content.decode()
    start = next(f for f in forms_in(page)
                 if f.attrs.get("action") == reverse("talk_start", args=[game.id]))
    start.set("players", [str(isabel.pk)]).set("subject", "A deal").set("body", "Twelve MP?")
    submit(carlos, "", start)
    submit(carlos, "", start)
    talk = Conversation.objects.get(game=game)
    assert talk.messages.count() == 1
    url = reverse("talk_conversation", args=[game.id, talk.id])
    reply = form_holding(carlos.get(url).content.decode(), "body").set("body", "Fifteen.")
    submit(carlos, url, reply)
    submit(carlos, url, reply)
    assert list(Message.objects.filter(conversation=talk).values_list("body", flat=True)
                .order_by("id")) == ["Twelve MP?", "Fifteen."]
    # another subject, or other people, with the same first words: a new conversation
    start.set("subject", "Another deal")
    submit(carlos, "", start)
    assert Conversation.objects.filter(game=game).count() == 2
