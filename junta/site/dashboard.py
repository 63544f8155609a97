"""The page a person lands on after logging in: each of his campaigns with its phase, the
deadline counting down in his own zone, whether he owes orders, and what was said since he last
looked (speeches on the Events page, private messages), each linking to the campaign's Status;
unread messages all in one conversation link straight to it (one page less to read them). His
practice campaigns against the bots are marked so, and its form starts one; when campaigns under
way let him watch them, a link to their list (in the archive).

It reads both the players' side (`junta.games`) and the private conversations (`junta.talk`),
so it stands in the site layer above them; anonymous visitors get the welcome page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from junta.games.public import (
    Game,
    Phase,
    PracticeForm,
    SeatStatus,
    kept_dashboard,
    my_games,
    my_seats,
    phase_title,
    unread_speeches,
    watchable_games,
)
from junta.talk.public import unanswered_by_game, unread_by_conversation, unread_by_game

# Where a campaign comes on the dashboard: what needs the person first.
ORDER: dict[str, int] = {Game.Status.RUNNING: 0, Game.Status.NOMINATING: 0, Game.Status.PAUSED: 1,
         Game.Status.FORMING: 2, Game.Status.FINISHED: 3}


@dataclass
class Row:
    """One campaign on the dashboard."""

    game: Game
    is_gm: bool
    phase: Phase | None = None
    phase_title: str = ""
    seat: SeatStatus | None = None  # for a seated player
    unread_speeches: int = 0
    unread_messages: int = 0
    unread_in: int | None = None  # the one conversation holding them all: linked straight to
    unanswered_reveals: int = 0  # conversations he left after writing, waiting for his word
    drafted: bool = False  # the phase's result waits for the GM's review
    counting: bool = False  # a deadline counts down (running, open, not yet passed)
    notes: list[str] = field(default_factory=list)


def _latest_phases(game_ids: list[int]) -> dict[int, Phase]:
    latest = (Phase.objects.filter(game=OuterRef("game")).order_by("-number")
              .values("number")[:1])
    rows = Phase.objects.filter(game_id__in=game_ids, number=Subquery(latest))
    return {p.game_id: p for p in rows}


def rows_for(user: Any) -> list[Row]:
    """The person's campaigns, those that wait for him first. A few queries, plus one per
    campaign for its unread speeches, and one per campaign with unread messages for the
    conversations they are in."""
    games = list(my_games(user))
    seats = my_seats(user, games)
    started = [g.id for g in games if g.status != Game.Status.FORMING]
    phases = _latest_phases(started)
    messages = unread_by_game(user, started)
    unanswered = unanswered_by_game(user.id, started)
    rows = []
    for game in games:
        is_gm = game.gm_id == user.id
        seat = seats.get(game.id)
        if not is_gm and seat is None and game.status != Game.Status.FORMING:
            continue  # a player still waiting for approval in a campaign that has begun
        phase = phases.get(game.id)
        row = Row(game=game, is_gm=is_gm, phase=phase, seat=seat,
                  unread_messages=messages.get(game.id, 0),
                  unanswered_reveals=unanswered.get(game.id, 0))
        if phase is not None:
            row.phase_title = phase_title(phase)
            row.drafted = phase.status == Phase.Status.DRAFTED
            row.counting = (game.status in (Game.Status.RUNNING, Game.Status.NOMINATING)
                            and phase.status == Phase.Status.OPEN
                            and not (seat and seat["passed"]))
        if game.status != Game.Status.FORMING:
            row.unread_speeches = unread_speeches(game, user)
        if row.unread_messages:
            talks = unread_by_conversation(user, game.id)
            row.unread_in = next(iter(talks)) if len(talks) == 1 else None
        rows.append(row)
    rows.sort(key=lambda r: (ORDER.get(r.game.status, 9),
                             r.phase.deadline.timestamp() if r.phase else 0))
    return rows


@kept_dashboard
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")
    user = request.user
    # the campaigns under way he may watch (not his own): the archive lists them
    watchable = watchable_games().exclude(gm_id=user.pk).exclude(players__user_id=user.pk)
    return render(request, "site/dashboard.html", {"rows": rows_for(user),
                                                   "practice_form": PracticeForm(),
                                                   "watchable": watchable.count()})
