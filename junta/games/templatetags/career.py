"""A person's career on his profile: how many campaigns he played, finished and won.

The profile belongs to `accounts`, which knows nothing of campaigns; its template loads this
tag. A campaign is won by the families first by Swiss bank at its end (docs/rules.md §end:
pocket money does not count), ties included: whoever held the seat when the game ended wins
it. Two queries, whatever the number of campaigns. (Awards voted by the players are listed by
the polls app on each end report; they are not counted here.)"""

from __future__ import annotations

from typing import TypedDict

from django import template
from django.contrib.auth.models import AnonymousUser
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from accounts.public import User
from junta.games import end_report
from junta.games.models import Game, PhaseResult, Player
from junta.games.rollbacks import undone

register = template.Library()


class CareerLine(TypedDict):
    """A finished campaign in the record: its game, the family, its place ("" for one who
    left before the end), its Swiss bank and how many families were ranked."""
    game: Game
    family: str
    place: str
    bank: int
    won: bool
    of: int


class Career(TypedDict):
    played: int
    finished: int
    won: int
    wins: list[Game]
    record: list[CareerLine]


def career(user: User | AnonymousUser | None) -> Career:
    """{"played", "finished", "won", "wins": [games won], "record": [one line per finished
    campaign: its game, the family, its place ("" for one who left before the end), its Swiss
    bank and how many families were ranked]} for `user`."""
    if user is None or not user.is_authenticated:
        return {"played": 0, "finished": 0, "won": 0, "wins": [], "record": []}
    seats = list(Player.objects.filter(  # practice against the bots is no career
        user=user, seat__isnull=False, game__practice=False,
        membership__in=[Player.Membership.ACTIVE, Player.Membership.REPLACED])
        .values_list("game_id", "seat", "membership"))
    played = {game_id for game_id, _seat, _m in seats}
    at_end = {game_id: seat for game_id, seat, membership in seats
              if membership == Player.Membership.ACTIVE}
    last = (PhaseResult.objects.filter(phase__game=OuterRef("pk"), published_at__isnull=False)
            .exclude(undone()).order_by("-phase__number").values("state_after__players")[:1])
    finished = list(Game.objects.filter(pk__in=played, status=Game.Status.FINISHED,
                                        practice=False)
                    .annotate(final_players=Subquery(last)).order_by("-finished_at", "-pk"))
    record: list[CareerLine] = []
    for game in finished:
        ranked = end_report.ranking(getattr(game, "final_players", None) or [])
        mine = next((r for r in ranked if r.seat == at_end.get(game.pk)), None)
        record.append({"game": game, "family": mine.name if mine else "",
                       "place": mine.label if mine else "", "bank": mine.bank if mine else 0,
                       "won": mine is not None and mine.place == 1, "of": len(ranked)})
    wins = [line["game"] for line in record if line["won"]]
    return {"played": len(played), "finished": len(finished), "won": len(wins), "wins": wins,
            "record": record}


@register.simple_tag
def career_stats(user: User | AnonymousUser | None) -> SafeString:
    return render_to_string("games/_career.html", dict(career(user)))
