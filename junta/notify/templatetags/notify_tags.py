"""The campaign page's panel of e-mail settings and absences, and the absences for the GM."""

from __future__ import annotations

from typing import Any

from django import template

from junta.notify import selectors
from junta.notify.forms import AbsenceForm

register = template.Library()


@register.inclusion_tag("notify/_campaign_panel.html", takes_context=True)
def notify_panel(context: template.Context, game: Any) -> dict[str, object]:
    """On a campaign's page: a link to my e-mail settings, my absences with a form to declare
    one (seated players), and everyone's absences (the GM)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    is_gm = game.gm_id == user.id
    member = selectors.member_of(game, user)
    seated = member is not None and member.membership == "active"
    return {
        "show": is_gm or member is not None,
        "game": game,
        "is_gm": is_gm,
        "seated": seated,
        "my_absences": selectors.my_absences(game, user) if seated else [],
        "absence_form": AbsenceForm() if seated else None,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("notify/_absences_gm.html")
def absences_for_gm(game: Any) -> dict[str, object]:
    """The campaign's current and coming absences, for its GM (campaign page and GM panel).
    Only ever rendered for the GM: the notes are meant for him."""
    return {"game": game, "rows": selectors.absences_for(game)}
