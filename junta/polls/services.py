"""Posting polls, voting and closing, each in one transaction (docs/rules.md §polls).

Who may post: the GameMaster, and the seated players where the campaign allows it
(`Game.players_may_poll`). Who votes: the seated players only, once per poll (a vote may change
until the poll closes). Awards: opened by the GameMaster once the campaign is finished, voted
for another player, closed by the GameMaster.

Each write in the shape of every app's (README, Layout): the service named for it locks the row,
`check_<verb>` refuses with a `PollError`, changing nothing, `do_<verb>` writes."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

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
    """Post a poll: lock the campaign, check, post."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    labels = check_post_poll(game, user, choices, closes_at)
    return do_post_poll(game, user, question, labels, multiple=multiple, anonymous=anonymous,
                        live=live, closes_at=closes_at)


def check_post_poll(game: Game, user: User, choices: list[str], closes_at: datetime
                    ) -> list[str]:
    """Whether `user` may post this poll now (`PollError` if not): its choices' labels."""
    if not may_post(game, user):
        raise PollError(_("Only the GameMaster posts polls in this campaign, and only while it "
                          "runs.") if game.players_may_poll else
                        _("Only the GameMaster posts polls in this campaign."))
    labels = [c.strip() for c in choices if c.strip()]
    if not MIN_CHOICES <= len(labels) <= MAX_CHOICES:
        raise PollError(_("A poll has %(min)d to %(max)d choices.")
                        % {"min": MIN_CHOICES, "max": MAX_CHOICES})
    if len({c.casefold() for c in labels}) != len(labels):
        raise PollError(_("Two choices are the same."))
    if closes_at <= timezone.now():
        raise PollError(_("The closing time is already past."))
    return labels


@transaction.atomic
def do_post_poll(game: Game, user: User, question: str, labels: list[str], *, multiple: bool,
                 anonymous: bool, live: bool, closes_at: datetime) -> Poll:
    """The poll and its choices (the campaign locked by the caller)."""
    poll = Poll.objects.create(game=game, author=user, question=question.strip(),
                               multiple=multiple, anonymous=anonymous, live=live,
                               closes_at=closes_at)
    for position, label in enumerate(labels):
        Choice.objects.create(poll=poll, label=label, position=position)
    return poll


def _locked_poll(poll_id: int) -> Poll:
    poll = (Poll.objects.select_for_update(no_key=True).select_related("game")
            .filter(pk=poll_id).first())
    if poll is None:
        raise PollError(_("No such poll."))
    return poll


@transaction.atomic
def vote(poll_id: int, user: User, choice_ids: list[int],
         replacing: list[int] | None = None) -> list[Vote]:
    """Cast (or replace) the player's vote: his earlier choices in this poll are replaced.
    `replacing`, the vote the page showed, refuses (`VoteChanged`) a page drawn before the vote
    changed elsewhere."""
    poll = _locked_poll(poll_id)
    voter, choices = check_vote(poll, user, choice_ids, replacing)
    return do_vote(poll, voter, choices)


def check_vote(poll: Poll, user: User, choice_ids: list[int], replacing: list[int] | None
               ) -> tuple[Player, list[Choice]]:
    """Whether `user` may cast this vote now (`PollError` if not): his seat and his choices."""
    if poll.is_closed():
        raise PollError(_("This poll is closed: your vote was not counted."))
    voter = seat_of(poll.game, user)
    if voter is None:
        raise PollError(_("Only the campaign's seated players vote."))
    ids = list(dict.fromkeys(choice_ids))
    if not ids:
        raise PollError(_("Choose an answer."))
    if len(ids) > 1 and not poll.multiple:
        raise PollError(_("This poll takes one answer only."))
    choices = list(poll.choices.filter(pk__in=ids))
    if len(choices) != len(ids):
        raise PollError(_("That answer is not one of this poll's."))
    if any(c.player_id == voter.pk for c in choices):
        raise PollError(_("You cannot vote for yourself."))
    if replacing is not None and sorted(replacing) != sorted(
            poll.votes.filter(voter=voter).values_list("choice_id", flat=True)):
        raise VoteChanged(_("Your vote changed since this page was drawn (in another window?): "
                            "nothing was changed. It is shown as it stands; vote again if "
                            "you mean to."))
    return voter, choices


@transaction.atomic
def do_vote(poll: Poll, voter: Player, choices: list[Choice]) -> list[Vote]:
    """The voter's earlier choices in the poll replaced by these (the poll locked)."""
    for old in poll.votes.filter(voter=voter):
        old.delete()
    return [Vote.objects.create(poll=poll, choice=c, voter=voter) for c in choices]


@transaction.atomic
def close(poll_id: int, user: User) -> Poll:
    """The GameMaster (or the poll's author) closes it now."""
    poll = _locked_poll(poll_id)
    check_close(poll, user)
    return do_close(poll)


def check_close(poll: Poll, user: User) -> None:
    if user.id not in (poll.game.gm_id, poll.author_id):
        raise PollError(_("Only the GameMaster or the poll's author closes it."))
    if poll.is_closed():
        raise PollError(_("This poll is closed already."))


@transaction.atomic
def do_close(poll: Poll) -> Poll:
    poll.closed_at = timezone.now()
    poll.save(update_fields=["closed_at"])
    return poll


@transaction.atomic
def open_awards(game: Game, user: User, extra: list[str]) -> list[Poll]:
    """The GameMaster opens the standard awards (those not yet opened) and his own."""
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    names, players = check_open_awards(game, user, extra)
    return do_open_awards(game, user, names, players)


def check_open_awards(game: Game, user: User, extra: list[str]
                      ) -> tuple[list[str], list[Player]]:
    """Whether `user` may open these awards now (`PollError` if not): the awards not yet open,
    and the seated players, their choices."""
    if game.gm_id != user.id:
        raise PollError(_("Only the GameMaster opens the awards."))
    if game.status != Game.Status.FINISHED:
        raise PollError(_("Awards open once the campaign is finished."))
    existing = {q.casefold() for q in
                game.polls.filter(kind=Poll.Kind.AWARD).values_list("question", flat=True)}
    names = []
    for name in [*STANDARD_AWARDS, *(e.strip() for e in extra)]:
        if name and name.casefold() not in existing:
            existing.add(name.casefold())
            names.append(name)
    if not names:
        raise PollError(_("Those awards are open already."))
    players = list(game.players.filter(membership=Player.Membership.ACTIVE)
                   .select_related("user").prefetch_related("characters").order_by("seat"))
    if len(players) < 2:
        raise PollError(_("Awards need at least two seated players."))
    return names, players


@transaction.atomic
def do_open_awards(game: Game, user: User, names: list[str], players: list[Player]
                   ) -> list[Poll]:
    """An award poll for each name, its choices the players (the campaign locked)."""
    polls = []
    for name in names:
        poll = Poll.objects.create(game=game, author=user, kind=Poll.Kind.AWARD, question=name,
                                   anonymous=True)
        for position, player in enumerate(players):
            Choice.objects.create(poll=poll, label=player_name(player), position=position,
                                  player=player)
        polls.append(poll)
    return polls
