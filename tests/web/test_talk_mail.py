"""The opt-in mail of new private messages (docs/rules.md §talk): members who asked for it hear
of what others wrote, at most once a conversation an hour, never about what they have read or
were told of already; nobody else ever gets a word of a conversation by mail."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from junta.games.campaigns import start_campaign
from junta.notify import notices
from junta.notify.models import Preferences
from junta.talk import access, services
from junta.talk.models import Conversation

pytestmark = pytest.mark.django_db

SECRET = "MAIL-TALK-MARKER-2207: the Navy is for sale"


def reader(game, user):
    found = access.reader_for(game, user)
    assert found is not None
    return found


def test_members_who_asked_hear_of_new_messages_once_an_hour(campaign, mailbox, client):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel, miguel = users[:3]
    for person in (isabel, miguel):  # both ask; Miguel is not in the conversation
        Preferences.objects.create(user=person, game=game, messages=True)
    talk = services.start(reader(game, carlos), "The Navy", [game.players.get(user=isabel)],
                          False, SECRET)
    now = timezone.now()
    notices.sweep(now)
    [mail] = mailbox.to(isabel.email)
    assert "MAIL-TALK-MARKER-2207" in mail.text and "The Navy" in mail.subject
    assert f"https://junta.test{reverse('talk_conversation', args=[game.id, talk.id])}" \
        in mail.text
    assert "MAIL-TALK-MARKER" not in mail.subject
    assert not mailbox.to(carlos.email) and not mailbox.to(miguel.email)  # his own; not his
    assert all("MAIL-TALK-MARKER" not in m.text for m in mailbox.received
               if m.to[0] != isabel.email)

    services.post(talk, reader(game, carlos), "And the Admiral too.")
    notices.sweep(now + timedelta(minutes=10))  # within the hour: nothing
    assert len(mailbox.to(isabel.email)) == 1
    notices.sweep(now + timedelta(minutes=61))
    second = mailbox.to(isabel.email)[-1]
    assert "And the Admiral too." in second.text
    assert "MAIL-TALK-MARKER" not in second.text  # told already
    notices.sweep(now + timedelta(hours=3))  # nothing new
    assert len(mailbox.to(isabel.email)) == 2

    services.post(talk, reader(game, carlos), "Read this on the site.")
    client.force_login(isabel)
    client.get(reverse("talk_conversation", args=[game.id, talk.id]))  # she reads it
    notices.sweep(now + timedelta(hours=5))
    assert len(mailbox.to(isabel.email)) == 2


def test_no_mail_unless_asked_nor_after_leaving(campaign, mailbox):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel, miguel = users[:3]
    Preferences.objects.create(user=miguel, game=game, messages=True)
    talk = services.start(reader(game, carlos), "Three of us",
                          [game.players.get(user=isabel), game.players.get(user=miguel)],
                          False, SECRET)
    services.leave(Conversation.objects.get(pk=talk.pk), reader(game, miguel))
    notices.sweep(timezone.now())
    assert not [m for m in mailbox.received if "MAIL-TALK-MARKER" in m.text]


def test_the_mail_can_be_asked_for_on_the_settings_page(campaign, client):
    game, users = campaign(players=6)
    client.force_login(users[0])
    page = client.get(reverse("game_notifications", args=[game.id])).content.decode()
    assert "New private messages" in page and "at most one mail an hour" in page
