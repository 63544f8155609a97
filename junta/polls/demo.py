"""Polls and awards for `make run`'s demo campaigns: two polls asked while the finished campaign
was played (`polls_during_first`), its awards voted and mostly closed (`awards_for_first`: one
is left open, and Carlos has not voted in it yet), and polls on the running campaign's Events
page (`demo_polls`), one of them open with live results.

The votes are drawn from a random generator of their own, seeded by the poll's question, so
every `make run` shows the same results."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from junta.games.public import Game, Phase, Player, let_players_poll
from junta.games.public import raised as revision_raised
from junta.polls import services
from junta.polls.models import Choice, Poll, Vote

# (phase number, question, choices, several answers, anonymous, live results)
FIRST_POLLS: list[tuple[int, str, list[str], bool, bool, bool]] = [
    (20, "Which office is the most dangerous to hold?",
     ["El Presidente", "The Minister of the Interior", "The Chief of the Air Force",
      "The Admiral of the Navy"], False, True, False),
    (50, "Which rumours do you believe?",
     ["The Bank is empty", "The Palace guard is for sale", "El Presidente has a double",
      "The Navy has no boats"], True, False, True),
]

# the GameMaster's own award, beside the standard ones; left open in the demo
GM_AWARD = "The golden cigar (most style)"
# the families the players favour for an award, by seat (the rest of the votes are spread)
FAVOURITES = {"Best speech": 7, "Most treacherous": 4, "Best schemer": 6, "Most loyal": 1}

LIVE_POLLS: list[tuple[str, list[str], bool, bool, bool, int]] = [
    # (question, choices, several answers, anonymous, live results, closes in days: < 0 closed)
    ("Should the Chamber sit on Sundays?",
     ["Yes: the Republic never rests", "No: Sunday is for parades", "Only during a coup"],
     False, True, True, 2),
    ("Who fired the first shot of the coup?",
     ["The 1st Brigade", "The Navy", "The Palace guard", "Nobody will ever know"],
     False, True, False, -3),
]


def polls_during_first(game: Game, phase: Phase) -> None:
    """The finished demo campaign's polls asked during `phase`, as the bots play it."""
    for number, question, choices, multiple, anonymous, live in FIRST_POLLS:
        if number == phase.number:
            _poll(game, phase.opens_at + timedelta(hours=3), question, choices,
                  multiple=multiple, anonymous=anonymous, live=live,
                  closes_at=phase.opens_at + timedelta(days=2))


def awards_for_first(game: Game) -> None:
    """The finished demo campaign's awards: the standard ones and the GameMaster's own,
    opened the day after the end; every player has voted in each, except Carlos in the
    GameMaster's own; the standard ones are closed a week later, that one is still open."""
    if game.status != Game.Status.FINISHED or game.polls.filter(kind=Poll.Kind.AWARD).exists():
        return
    ended = game.finished_at or timezone.now()
    polls = services.open_awards(game, game.gm, [GM_AWARD])
    voters = _voters(game)
    with transaction.atomic(), revision_raised(game.id):
        for poll in polls:
            choices = list(poll.choices.all())
            draw = random.Random(f"demo:{poll.question}")
            favourite = FAVOURITES.get(poll.question)
            for voter in voters:
                if poll.question == GM_AWARD and voter.seat == 0:
                    continue  # Carlos has not voted yet: the visitor may
                others = [c for c in choices if c.player_id != voter.pk]
                picked = next((c for c in others if c.player is not None
                               and c.player.seat == favourite), None)
                if picked is None or draw.random() < 0.4:
                    picked = draw.choice(others)
                services.vote(poll.id, voter.user, [picked.id])
            opened = ended + timedelta(days=1)
            Poll.objects.filter(pk=poll.pk).update(created_at=opened)
            Vote.objects.filter(poll=poll).update(created_at=opened + timedelta(hours=5))
            if poll.question != GM_AWARD:
                services.close(poll.id, game.gm)
                Poll.objects.filter(pk=poll.pk).update(closed_at=ended + timedelta(days=8))


def demo_polls(game: Game) -> None:
    """The running demo campaign's polls (once): one open with live results, one closed; its
    players may post their own."""
    if game.polls.exists():
        return
    let_players_poll(game)
    now = timezone.now()
    for question, choices, multiple, anonymous, live, days in LIVE_POLLS:
        asked = now - timedelta(days=abs(days) + 2)
        _poll(game, asked, question, choices, multiple=multiple, anonymous=anonymous,
              live=live, closes_at=now + timedelta(days=days))


def _voters(game: Game) -> list[Player]:
    return list(game.players.filter(membership=Player.Membership.ACTIVE)
                .select_related("user").order_by("seat"))


def _poll(game: Game, asked: datetime, question: str, choices: list[str], *, multiple: bool,
          anonymous: bool, live: bool, closes_at: datetime) -> None:
    """The GameMaster's poll, asked at `asked` and answered by the players (one in four
    abstains), closing at `closes_at` (in the past for a closed one)."""
    with transaction.atomic(), revision_raised(game.id):  # the backdating below included
        poll = services.post_poll(game, game.gm, question, choices, multiple=multiple,
                                  anonymous=anonymous, live=live,
                                  closes_at=timezone.now() + timedelta(days=1))
        options = list(poll.choices.all())
        draw = random.Random(f"demo:{question}")
        for voter in _voters(game):
            if draw.random() < 0.25:
                continue
            picked: list[Choice] = (draw.sample(options, draw.randint(1, 2)) if multiple
                                    else [draw.choice(options)])
            services.vote(poll.id, voter.user, [c.id for c in picked])
        Poll.objects.filter(pk=poll.pk).update(created_at=asked, closes_at=closes_at)
        Vote.objects.filter(poll=poll).update(created_at=asked + timedelta(hours=4))
