"""The campaign page's roster: the living families, and the characters they lost."""

from __future__ import annotations

from typing import Any

from django import template

from junta.games.public import Character, Player

register = template.Library()


@register.inclusion_tag("lives/_roster.html", takes_context=True)
def family_roster(context: template.Context, game: Any, roster: list[Player]
                  ) -> dict[str, object]:
    """Each seated family with its current character (marked when lying dead), and the dead
    remembered: every past character with the life it was and how it ended."""
    request = context.get("request")
    user = getattr(request, "user", None)
    fallen = (Character.objects.filter(player__game=game, died_at__isnull=False,
                                       player__membership=Player.Membership.ACTIVE)
              .select_related("player__user", "obituary").order_by("died_at", "player__seat"))
    return {
        "game": game,
        "roster": roster,
        "fallen": list(fallen),
        "my_user_id": getattr(user, "id", None),
    }
