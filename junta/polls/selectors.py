"""What a viewer sees of a campaign's polls: the results only once they may show (after closing,
or live), and the voters' names only in a named poll, never in an anonymous one or an award
(docs/rules.md §polls)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F
from django.utils import timezone

from accounts.public import User
from junta.games.public import Game, Player
from junta.polls.models import Choice, Poll, Vote
from junta.polls.services import player_name


@dataclass
class Line:
    choice_id: int
    label: str
    count: int = 0
    voters: list[str] = field(default_factory=list)  # empty in an anonymous poll
    winner: bool = False


@dataclass
class Shown:
    poll: Poll
    closed: bool
    results: list[Line] | None  # None while hidden
    voters: int  # how many players voted (no names)
    mine: list[int]  # the viewer's own choices

    @property
    def winners(self) -> list[str]:
        """The most chosen answers once the poll is closed (none before, none without votes)."""
        return [line.label for line in self.results or [] if line.winner]


def shown(poll: Poll, me: Player | None) -> Shown:
    now = timezone.now()
    closed = poll.is_closed(now)
    votes = list(Vote.objects.filter(poll=poll).values_list("choice_id", "voter_id"))
    mine = [c for c, v in votes if me is not None and v == me.pk]
    results = None
    if poll.results_visible(now):
        lines = {c.pk: Line(c.pk, c.label) for c in poll.choices.all()}
        names: dict[int, str] = {}
        if not poll.anonymous:
            players = (Player.objects.filter(pk__in={v for _c, v in votes})
                       .select_related("user").prefetch_related("characters"))
            names = {p.pk: player_name(p) for p in players}
        for choice_id, voter_id in votes:
            line = lines[choice_id]
            line.count += 1
            if not poll.anonymous:
                line.voters.append(names[voter_id])
        results = list(lines.values())
        top = max((line.count for line in results), default=0)
        for line in results:
            line.winner = closed and top > 0 and line.count == top
    return Shown(poll, closed, results, len({v for _c, v in votes}), mine)


def open_polls(game: Game, voter: Player | None) -> list[tuple[Poll, bool]]:
    """The campaign's polls and awards open now, the first to close first, each with whether
    `voter` has voted in it: two queries."""
    polls = list(game.polls.filter(closed_at__isnull=True).exclude(closes_at__lte=timezone.now())
                 .order_by(F("closes_at").asc(nulls_last=True), "id"))
    mine = set(Vote.objects.filter(poll__in=polls, voter=voter).values_list("poll_id", flat=True)
               ) if voter is not None and polls else set()
    return [(poll, poll.pk in mine) for poll in polls]


def award_results(game: Game) -> list[dict[str, object]]:
    """The closed awards with their counts, most votes first (no voter's name)."""
    polls = list(game.polls.filter(kind=Poll.Kind.AWARD, closed_at__isnull=False)
                 .order_by("id").prefetch_related("choices"))
    counts = {(row["choice_id"]): row["n"] for row in
              Vote.objects.filter(poll__in=polls).values("choice_id").annotate(n=Count("id"))}
    out = []
    for poll in polls:
        lines = sorted(((c.label, counts.get(c.pk, 0)) for c in poll.choices.all()),
                       key=lambda pair: -pair[1])
        lines = [pair for pair in lines if pair[1] > 0]
        top = lines[0][1] if lines else 0
        out.append({"poll": poll, "lines": lines,
                    "winners": [label for label, n in lines if n == top]})
    return out


def open_awards(game: Game) -> int:
    """How many of the campaign's awards are still open to votes."""
    return game.polls.filter(kind=Poll.Kind.AWARD, closed_at__isnull=True).count()


def award_progress(game: Game) -> list[tuple[Poll, int, bool]]:
    """The campaign's awards in the order they were opened, each with how many players have
    voted in it and whether it is closed: one query, for the GameMaster's overview."""
    polls = (game.polls.filter(kind=Poll.Kind.AWARD)
             .annotate(voters=Count("votes__voter", distinct=True)).order_by("id"))
    return [(poll, int(getattr(poll, "voters", 0)), poll.closed_at is not None)
            for poll in polls]


def awards_won(user: User) -> list[tuple[Game, str]]:
    """(campaign, award) for every closed award the person won (ties share it), for his
    profile: the awards' choices name players, and he won when his had the most votes."""
    choices = (Choice.objects.filter(poll__kind=Poll.Kind.AWARD, poll__closed_at__isnull=False,
                                     player__user=user)
               .select_related("poll__game"))
    out = []
    for choice in choices:
        counts = dict(Vote.objects.filter(poll=choice.poll).values_list("choice_id")
                      .annotate(n=Count("id")).values_list("choice_id", "n"))
        mine = counts.get(choice.pk, 0)
        if mine and mine == max(counts.values()):
            out.append((choice.poll.game, choice.poll.question))
    return out
