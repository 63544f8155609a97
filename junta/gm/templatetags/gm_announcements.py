"""`{% gm_announcements game %}`: the GM's public announcements, for the Events page.

Players see only this part of the audit log: the text the GM chose to announce, never the
reason or the details of an action.
"""

from __future__ import annotations

from django import template

from junta.games.models import Game
from junta.gm.selectors import announcements

register = template.Library()


@register.inclusion_tag("gm/_announcements.html")
def gm_announcements(game: Game, limit: int = 5) -> dict:
    return {"game": game, "announcements": announcements(game, limit)}
