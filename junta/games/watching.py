"""Spectators ("watchers"): people outside a campaign following its public pages some phases
behind the players. The one place that says who may watch and what he sees; the watching
pages (`watch_views`) read it and decide nothing themselves.

A GM makes a campaign watchable (at creation or later, `Game.watchable`) with a delay of 0 to
`MAX_WATCH_DELAY` published phases (`Game.watch_delay`): a watcher sees the published phases
that count (not those a rollback undid) except the latest `watch_delay` of them, and the
state after the last one he may see, as the engine shows it to a spectator (`view_for(state,
None)`: the public view, never a secret). Never the open phase's state, never the speeches
made while a later phase was open (they would tell its events), no polls, no conversations,
no orders. Signed in (anyone), or without an account by the campaign's watching link when the
GM chose so (`Game.watch_by_link`, its secret `watch_token`). A campaign not watchable is 404
to all but its members on these pages."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.urls import reverse

from accounts.public import User
from junta.engine import GameState, StateView, view_for
from junta.games import repository
from junta.games.models import MAX_WATCH_DELAY, Game, PhaseResult, Speech
from junta.games.play import history_results, published_results
from junta.games.selectors import seated

__all__ = ["MAX_WATCH_DELAY", "Watch", "is_member", "last_phase_seen_by", "last_watched_phase",
           "outsider_sent_to", "watch_for", "watchable_games"]


@dataclass
class Watch:
    """A watcher's seat: the campaign, the link's key he came by ("" signed in), the latest
    published result he may see (None: none yet) and the state after it with his view of it
    (a spectator's)."""
    game: Game
    key: str
    last: PhaseResult | None
    state: GameState | None
    view: StateView | None

    def results(self) -> QuerySet[PhaseResult]:
        """The published results he may read (History: those a rollback undid too, marked),
        newest first."""
        if self.last is None:
            return history_results(self.game).none()
        return history_results(self.game).filter(phase__number__lte=self.last.phase.number)

    def speeches(self) -> QuerySet[Speech]:
        """The speeches made while a phase he may see was open, newest first."""
        if self.last is None:
            return Speech.objects.none()
        return (self.game.speeches.filter(phase__number__lte=self.last.phase.number)
                .select_related("reply_to").defer("body", "reply_to__body",
                                                  "reply_to__body_html")
                .order_by("-created_at", "-id"))


def _last_watched_result(game: Game) -> PhaseResult | None:
    """The latest published result that counts, `watch_delay` of them behind (one query)."""
    found = list(published_results(game)[game.watch_delay:game.watch_delay + 1])
    return found[0] if found else None


def last_watched_phase(game: Game) -> int | None:
    """The number of the last published phase a watcher of `game` may see (its delay behind
    the latest that counts); None when there is none yet, or the campaign is not watchable."""
    if not game.watchable:
        return None
    result = _last_watched_result(game)
    return result.phase.number if result else None


def is_member(game: Game, user: User | None) -> bool:
    """The campaign's GM or one of its seated players."""
    if user is None or not user.is_authenticated:
        return False
    return game.gm_id == user.pk or seated(game, user) is not None


def last_phase_seen_by(game: Game, user: User | None) -> int | None:
    """The number of the last published phase this person may see of `game`: every one for
    its members (and for everyone once it is over), the watchers' for anyone else of a
    watchable campaign, None for the rest (and before any is published)."""
    if game.status == Game.Status.FINISHED or is_member(game, user):
        latest = published_results(game).values_list("phase__number", flat=True).first()
        return latest
    return last_watched_phase(game)


def outsider_sent_to(game: Game, user: User, page: str) -> str | None:
    """The address a person outside a campaign under way (started, not over) is sent to from
    its members' `page` ("events", "history", "families": the campaign's page), which show
    every published phase: the watching page when the campaign is watchable, else 404
    (`Http404`). None: he may read the members' page (a member, or the campaign is forming
    or over)."""
    if game.status in (Game.Status.FORMING, Game.Status.FINISHED) or is_member(game, user):
        return None
    if not game.watchable:
        raise Http404
    return reverse(f"watch_{page}", args=[game.id])


def watch_for(request: HttpRequest, game_id: int, key: str = "") -> Watch:
    """The watcher's seat in the campaign (404 unless it is watchable and started; by `key`,
    only when the GM lets anyone with the link watch, and with its own token). The caller sees
    to a signed-in person when there is no key."""
    game = Game.objects.select_related("gm").filter(pk=game_id).first()
    if game is None or not game.watchable or game.status == Game.Status.FORMING:
        raise Http404
    if key and not (game.watch_by_link and secrets.compare_digest(key, game.watch_token)):
        raise Http404
    last = _last_watched_result(game)
    state = repository.state_after(last) if last else None
    return Watch(game, key, last, state, view_for(state, None) if state else None)


def watchable_games() -> QuerySet[Game]:
    """The campaigns anyone signed in may watch now: watchable, under way (started, not over),
    newest first."""
    return (Game.objects.filter(watchable=True).exclude(
        status__in=(Game.Status.FORMING, Game.Status.FINISHED)).select_related("gm")
        .order_by("-started_at", "-pk"))
