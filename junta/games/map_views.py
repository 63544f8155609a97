"""The Map page: the city, and during a coup every unit on it (all of it public)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from junta.games import citymap, play, selectors

COUP_PHASE_KINDS = ("coup", "coup_final")


def moved_in(view: dict[str, Any], coup: dict[str, Any]) -> int | None:
    """The coup phase whose moves the map shows as arrows: while Coup Phase n is open the
    state holds the moves of phase n-1 (0 is the Rebel-Only step); after Coup Phase 6 (the
    Aftermath) those of phase 6."""
    phase = coup.get("phase")
    if not isinstance(phase, int):
        return None
    return phase - 1 if view.get("phase") in COUP_PHASE_KINDS else phase


def map_context(view: dict[str, Any]) -> dict[str, Any]:
    """What the page shows, taken from the public parts of an engine view only: the coup
    view, the families' names and the positions' holders (never the viewer's own secrets)."""
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    coup = view.get("coup")
    context: dict[str, Any] = {
        "coup": coup, "turn": view.get("turn"), "phase_title": view.get("phase_title", ""),
        "legend": citymap.legend(), "kinds": [],
    }
    if coup is None:
        context["svg"] = citymap.render_svg(None, names, title="Map of the city")
        context["deployment"] = citymap.deployment(view.get("positions"), names)
        return context
    shown = moved_in(view, coup)
    stacks = citymap.stacks(coup, names)
    control = coup.get("control") or {}
    context.update({
        "svg": citymap.render_svg(coup, names, moved_in=shown,
                                  title="Map of the city with every unit of the coup"),
        "moves_of": shown, "moves": citymap.moves(coup, shown, names),
        "rows": citymap.stacks_by_zone(coup, names), "owners": citymap.owners(coup, names),
        "unplaced": [s for s in stacks if s.zone is None],
        "kinds": sorted({(citymap.abbreviation(s.kind), s.kind) for s in stacks
                         if s.zone is not None}),
        "junta_points": sum(1 for side in control.values() if side == "junta"),
        "president_points": sum(1 for side in control.values() if side != "junta"),
        "control": sorted((int(z), side) for z, side in control.items()),
        "airstrikes_left": coup.get("airstrikes_left"),
    })
    return context


@login_required
def city_map(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.game_for(request.user, game_id)
    seat = play.seat_for(game, request.user)  # 404 unless a seated player or the GM
    context = map_context(seat.view)
    context["game"] = game
    return render(request, "games/map.html", context)
