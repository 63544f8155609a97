"""What a seated player sees of a running campaign: the state for display, his seat, the
current phase, his orders and what he has learned. Read-only; pages call these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404

from accounts.models import User
from junta.engine import GameState, view_for
from junta.engine.events import Event
from junta.games import repository
from junta.games.models import Game, Order, Phase, PhaseResult, Player


@dataclass
class Seat:
    game: Game
    player: Player | None  # None for the GM and spectators
    phase: Phase | None
    state: GameState | None
    view: dict[str, Any]
    order: Order | None

    @property
    def seat(self) -> int | None:
        return self.player.seat if self.player else None


def display_state(game: Game) -> tuple[Phase | None, GameState | None]:
    """The latest phase and the state players may look at: the open (or drafted) phase's
    starting state, or the final state of a finished game."""
    phase = game.phases.order_by("-number").first()
    if phase is None:
        return None, None
    if phase.status == Phase.Status.PUBLISHED:
        result = PhaseResult.objects.filter(phase=phase).select_related("phase").first()
        return phase, repository.state_after(result)
    return phase, repository.state_before(phase)


def seat_for(game: Game, user: User) -> Seat:
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    if player is None and game.gm_id != user.id:
        raise Http404
    phase, state = display_state(game)
    if state is None:
        raise Http404
    viewer: int | str | None = player.seat if player else "gm"
    order = Order.objects.filter(phase=phase, player=player).first() if player else None
    return Seat(game, player, phase, state, view_for(state, viewer), order)


def learned(game: Game, seat: int | None, turn: int) -> list[dict]:
    """Private lines of this turn's published results that this seat may read."""
    out = []
    results = PhaseResult.objects.filter(
        phase__game=game, phase__turn=turn, published_at__isnull=False,
    ).select_related("phase").order_by("-phase__number")
    for result in results:
        for data in result.events:
            event = Event.from_dict(data)
            if event.audience != "public" and event.visible_to(seat):
                out.append({"phase": result.phase, "text": event.text})
    return out


def report(result: PhaseResult, viewer: int | str | None) -> list[Event]:
    """A phase's report as `viewer` may read it: public lines and his own private lines."""
    events = [Event.from_dict(d) for d in result.events]
    return [e for e in events if e.visible_to(viewer)]


@dataclass
class PhaseReport:
    phase: Phase
    headlines: list[str]
    public: list[str]
    private: list[str]


def reports(game: Game, viewer: int | str | None, results: list[PhaseResult]
            ) -> list[PhaseReport]:
    """Readable reports of published phases: headlines, public lines, the viewer's own lines."""
    from junta.games.headlines import headline

    out = []
    for result in results:
        events = report(result, viewer)
        heads = [h for e in events if (h := headline(e, str(result.phase_id)))]
        out.append(PhaseReport(
            result.phase, heads,
            [e.text for e in events if e.audience == "public"],
            [e.text for e in events if e.audience != "public"]))
    return out


def published_results(game: Game):
    return PhaseResult.objects.filter(phase__game=game, published_at__isnull=False) \
        .select_related("phase").order_by("-phase__number")


def viewer_for(game: Game, user: User) -> int | str | None:
    """The engine viewer for this person: a seat, "gm", or None (a spectator). After the game
    ends everyone sees everything (the engine's events say so themselves)."""
    if game.gm_id == user.id:
        return "gm"
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    return player.seat if player else None
