"""The demo campaign of `make run` has talk: speeches over its past phases and private
conversations, so that a newcomer sees a living game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from junta.games.campaigns import start_campaign
from junta.games.models import Speech
from junta.talk.demo import CONVERSATIONS, SPEECHES, demo_talk
from junta.talk.models import Conversation
from tests.web.campaigns import play_days

pytestmark = pytest.mark.django_db


def test_the_demo_campaign_talks(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm, now=timezone.now() - timedelta(days=6))
    play_days(game, users, 4)  # in the past, as the demo's: its talk is backdated there
    demo_talk(game)
    said = list(Speech.objects.filter(game=game).order_by("created_at"))
    assert len(said) == len(SPEECHES)
    assert said[0].phase.number < said[-1].phase.number  # spread over the campaign
    assert Conversation.objects.filter(game=game).count() == len(CONVERSATIONS)
    demo_talk(game)  # once only
    assert Speech.objects.filter(game=game).count() == len(SPEECHES)

    isabel = users[1]  # in the first conversation, which Carlos started: unread for her
    client.force_login(isabel)
    page = client.get(reverse("talk_index", args=[game.id])).content.decode()
    assert "The Foreign Minister&#x27;s draw" in page and "unread" in page
    assert "Tanks at dawn?" not in page
    client.force_login(game.gm)
    assert "A question about the rules" in client.get(
        reverse("talk_index", args=[game.id])).content.decode()
