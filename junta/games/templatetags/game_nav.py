"""The game menu's question: does the reader hold a seat in this campaign?"""

from __future__ import annotations

from django import template

from junta.games.models import Game
from junta.games.selectors import seated

register = template.Library()


@register.simple_tag(takes_context=True)
def holds_seat(context: template.Context, game: Game) -> bool:
    """Whether the signed-in reader is seated in `game`: the Orders tab is for seats (the GM
    has his own panel). A page that has the reader's seat in its context asks no query."""
    user = context.get("user")
    if user is None or not user.is_authenticated or game.gm_id == user.id:
        return False
    seat: object = context.get("seat")  # a play.Seat, or whatever else a page calls "seat"
    if hasattr(seat, "player") and getattr(seat, "game", None) == game:
        return seat.player is not None
    return seated(game, user) is not None
