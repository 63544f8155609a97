"""Posting polls, voting and closing, each in one transaction (docs/rules.md §polls).

Who may post: the GameMaster, and the seated players where the campaign allows it
(`Game.players_may_poll`). Who votes: the seated players only, once per poll (a vote may change
until the poll closes). Awards: opened by the GameMaster once the campaign is finished, voted
for another player, closed by the GameMaster."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.public import User
from junta.games.public import Game, Player
from junta.polls.models import Choice, Poll, Vote

MIN_CHOICES = 2
MAX_CHOICES = 10
STANDARD_AWARDS = ("Best speech", "Most treacherous", "Best death", "Best schemer",
                   "Most loyal")


class PollError(Exception):
    """A refused action, with a message for the person who tried it."""


class VoteChanged(PollError):
    """The vote changed after the page that sent this one was drawn: nothing was done."""


def seat_of(game: Game, user: User) -> Player | None:
    if not user.is_authenticated:
        return None
    return game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()


def may_post(game: Game, user: User, seated: bool | None = None) -> bool:
    """Whether `user` may post a poll now; `seated`, whether he has a seat, when the caller
    knows it already (else it is read)."""
    if game.status in (Game.Status.FORMING, Game.Status.FINISHED):
        return False
    if game.gm_id == user.id:
        return True
    if not game.players_may_poll:
        return False
    return seated if seated is not None else seat_of(game, user) is not None


def player_name(player: Player) -> str:
    character = player.character
    return character.name if character else player.user.public_name


@transaction.atomic
def post_poll(game: Game, user: User, question: str, choices: list[str], *, multiple: bool,
              anonymous: bool, live: bool, closes_at: datetime) -> Poll:
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if not may_post(game, user):
        raise PollError("Only the GameMaster posts polls in this campaign"
                        + (", and only while it runs." if game.players_may_poll else "."))
    labels = [c.strip() for c in choices if c.strip()]
    if not MIN_CHOICES <= len(labels) <= MAX_CHOICES:
        raise PollError(f"A poll has {MIN_CHOICES} to {MAX_CHOICES} choices.")
    if len({c.casefold() for c in labels}) != len(labels):
        raise PollError("Two choices are the same.")
    if closes_at <= timezone.now():
        raise PollError("The closing time is already past.")
    poll = Poll.objects.create(game=game, author=user, question=question.strip(),
                               multiple=multiple, anonymous=anonymous, live=live,
                               closes_at=closes_at)
    for position, label in enumerate(labels):
        Choice.objects.create(poll=poll, label=label, position=position)
    return poll


@transaction.atomic
def vote(poll_id: int, user: User, choice_ids: list[int],
         replacing: list[int] | None = None) -> list[Vote]:
    """Cast (or replace) the player's vote: his earlier choices in this poll are replaced.
    `replacing`, the vote the page showed, refuses (`VoteChanged`) a page drawn before the vote
    changed elsewhere."""
    poll = (Poll.objects.select_for_update(no_key=True).select_related("game")
            .filter(pk=poll_id).first())
    if poll is None:
        raise PollError("No such poll.")
    if poll.is_closed():
        raise PollError("This poll is closed: your vote was not counted.")
    voter = seat_of(poll.game, user)
    if voter is None:
        raise PollError("Only the campaign's seated players vote.")
    ids = list(dict.fromkeys(choice_ids))
    if not ids:
        raise PollError("Choose an answer.")
    if len(ids) > 1 and not poll.multiple:
        raise PollError("This poll takes one answer only.")
    choices = list(poll.choices.filter(pk__in=ids))
    if len(choices) != len(ids):
        raise PollError("That answer is not one of this poll's.")
    if any(c.player_id == voter.pk for c in choices):
        raise PollError("You cannot vote for yourself.")
    earlier = list(poll.votes.filter(voter=voter))
    if replacing is not None and sorted(replacing) != sorted(v.choice_id for v in earlier):
        raise VoteChanged("Your vote changed since this page was drawn (in another window?): "
                          "nothing was changed. It is shown as it stands; vote again if you "
                          "mean to.")
    for old in earlier:
        old.delete()
    return [Vote.objects.create(poll=poll, choice=c, voter=voter) for c in choices]


@transaction.atomic
def close(poll_id: int, user: User) -> Poll:
    """The GameMaster (or the poll's author) closes it now."""
    poll = (Poll.objects.select_for_update(no_key=True).select_related("game")
            .filter(pk=poll_id).first())
    if poll is None:
        raise PollError("No such poll.")
    if user.id not in (poll.game.gm_id, poll.author_id):
        raise PollError("Only the GameMaster or the poll's author closes it.")
    if poll.is_closed():
        raise PollError("This poll is closed already.")
    poll.closed_at = timezone.now()
    poll.save(update_fields=["closed_at"])
    return poll


@transaction.atomic
def open_awards(game: Game, user: User, extra: list[str]) -> list[Poll]:
    """The GameMaster opens the standard awards (those not yet opened) and his own."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if game.gm_id != user.id:
        raise PollError("Only the GameMaster opens the awards.")
    if game.status != Game.Status.FINISHED:
        raise PollError("Awards open once the campaign is finished.")
    existing = {q.casefold() for q in
                game.polls.filter(kind=Poll.Kind.AWARD).values_list("question", flat=True)}
    names = []
    for name in [*STANDARD_AWARDS, *(e.strip() for e in extra)]:
        if name and name.casefold() not in existing:
            existing.add(name.casefold())
            names.append(name)
    if not names:
        raise PollError("Those awards are open already.")
    players = list(game.players.filter(membership=Player.Membership.ACTIVE)
                   .select_related("user").prefetch_related("characters").order_by("seat"))
    if len(players) < 2:
        raise PollError("Awards need at least two seated players.")
    polls = []
    for name in names:
        poll = Poll.objects.create(game=game, author=user, kind=Poll.Kind.AWARD, question=name,
                                   anonymous=True)
        for position, player in enumerate(players):
            Choice.objects.create(poll=poll, label=player_name(player), position=position,
                                  player=player)
        polls.append(poll)
    return polls
