"""Which campaigns a caller may read through the API: those he runs or has a seat in. Anything
else (another campaign, one that does not exist) is the same 404, so that the answer never
tells a campaign's existence to someone outside it."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404

from accounts.public import User
from junta.api.errors import not_found
from junta.games.public import Game, Phase, Player, Seat, seat_for


@dataclass(frozen=True)
class Membership:
    game: Game
    player: Player | None  # None for the GameMaster

    @property
    def role(self) -> str:
        return "gm" if self.player is None else "player"

    @property
    def seat(self) -> int | None:
        return self.player.seat if self.player else None

    @property
    def viewer(self) -> int | str | None:
        """The engine's viewer: his seat, or "gm"."""
        return "gm" if self.player is None else self.player.seat


def membership(user: User, game_id: int) -> Membership:
    """The caller's place in the campaign: its GameMaster or a seated player; else 404."""
    game = Game.objects.select_related("gm").filter(pk=game_id).first()
    if game is None:
        raise not_found()
    if game.gm_id == user.id:
        return Membership(game, None)
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    if player is None:
        raise not_found()
    return Membership(game, player)


def seat(user: User, game_id: int) -> Seat:
    """His seat with the phase shown, its state and his view (`play.seat_for`); 404 before the
    campaign starts (there is nothing to show yet) and outside it."""
    member = membership(user, game_id)
    try:
        return seat_for(member.game, user)
    except Http404:
        raise not_found("This campaign has not started: it has no phase yet.") from None


def latest_phase(game: Game) -> Phase | None:
    return game.phases.order_by("-number").first()
