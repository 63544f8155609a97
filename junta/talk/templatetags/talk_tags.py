"""The game menu's count of the reader's unread private messages in a campaign."""

from __future__ import annotations

from typing import Any

from django import template

from junta.games.public import Game
from junta.talk import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def talk_unread(context: template.Context, game: Game) -> int:
    """Messages others wrote in the reader's conversations of `game` since he last read them
    (one query)."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return 0
    return selectors.unread_in_game(user, game.id)


@register.simple_tag(takes_context=True)
def talk_unread_by_game(context: template.Context, games: list[Any]) -> dict[int, int]:
    """Unread messages per campaign for a list of campaigns (or of (campaign, ...) pairs, as
    the lobby holds them): one query, however many campaigns."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return {}
    ids = [(g[0] if isinstance(g, tuple | list) else g).id for g in games]
    return selectors.unread_by_game(user, ids)


@register.filter
def unread_of(counts: dict[int, int], game: Game) -> int:
    """`counts|unread_of:game`: the campaign's count from `talk_unread_by_game`."""
    return counts.get(game.id, 0) if counts else 0
