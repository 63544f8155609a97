"""Polls shared by the web tests: one posted by the GameMaster through the services, a vote
sent with the poll page's form as the browser does."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from junta.games.models import Game
from junta.polls import services
from junta.polls.models import Poll
from tests.web.browser_forms import forms_in, submit


def make_poll(game: Game, *, anonymous: bool = True, live: bool = False,
              multiple: bool = False) -> Poll:
    return services.post_poll(game, game.gm, "Who leads the Chamber?",
                              ["The President", "The Admiral", "Nobody"], multiple=multiple,
                              anonymous=anonymous, live=live,
                              closes_at=timezone.now() + timedelta(days=1))


def vote_through_page(client, game: Game, poll: Poll, labels: list[str]):
    url = reverse("polls_detail", args=[game.id, poll.id])
    form = next(f for f in forms_in(client.get(url).content.decode()) if "choice" in f.names())
    ids = [str(poll.choices.get(label=label).pk) for label in labels]
    form.set("choice", ids if poll.multiple else ids[0])
    return submit(client, url, form)
