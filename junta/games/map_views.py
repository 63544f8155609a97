"""The Map page: the city, and during a coup every unit on it (all of it public); for a seated
player, his own orders of the phase over it and, while he may order, ordering by tapping the
map (`map_orders`)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString

from accounts.public import AuthenticatedHttpRequest
from junta.engine import PublicView
from junta.games import campaign_rows, citymap, fragments, map_orders, play, selectors
from junta.games.coup_maps import fighting_of, moved_in
from junta.games.models import Game, Phase
from junta.games.page_cache import kept_for_viewer


def names_of(view: PublicView) -> dict[int, str]:
    return {p["seat"]: p["name"] for p in view.get("players", [])}


def latest_fighting(game: Game, phase: Phase | None, view: PublicView
                    ) -> tuple[list[citymap.Battle], str]:
    """During a coup, the fighting of the latest published coup phase (the one whose moves the
    arrows show), read from its public events only. One query, in a coup or not: the page
    makes the same number of queries whatever the campaign's state."""
    coup = view.get("coup")
    kept = campaign_rows.rows(game.pk)  # the latest published result is of the latest turn
    result = next(iter(play.current_turn_results(game, 1)), None) if kept is not None \
        else play.published_results(game) \
        .defer("state_after", "orders_used", "phase__state_before").first()
    # only the phase just before the one shown (or the one shown, once published): the fight
    # of an earlier coup is not this coup's
    if coup is None or phase is None or result is None \
            or result.phase.number not in (phase.number, phase.number - 1):
        return [], ""
    return fighting_of(result, names_of(view), moved_in(view, coup))


def map_context(view: PublicView, fighting: list[citymap.Battle] | None = None,
                fighting_title: str = "", planned: SafeString | None = None
                ) -> dict[str, object]:
    """What the page shows, taken from the public parts of an engine view only: the coup
    view, the families' names and the positions' holders (never the viewer's own secrets),
    and the latest coup phase's fighting (`fighting`, from public events only). The one
    exception is `planned`: the viewer's own orders of the phase (`map_orders.context`),
    drawn over the city on his page only."""
    names = names_of(view)
    coup = view.get("coup")
    fought = (fighting or []) if coup is not None else []
    context: dict[str, object] = {
        "coup": coup, "turn": view.get("turn"), "phase_title": view.get("phase_title", ""),
        "legend": citymap.legend(), "kinds": [],
        "fighting": fought,
        "fighting_title": fighting_title if coup is not None else "",
    }
    context["retreats"] = any(b.retreats for b in fought)
    if coup is None:
        context["svg"] = fragments.city_svg(None, names, title="Map of the city",
                                            planned=planned)
        context["deployment"] = citymap.deployment(view.get("positions"), names)
        return context
    shown = moved_in(view, coup)
    stacks = citymap.stacks(coup, names)
    control = coup.get("control") or {}
    context.update({
        "svg": fragments.city_svg(coup, names, moved_in=shown, battles=fought,
                                  title="Map of the city with every unit of the coup",
                                  planned=planned),
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
@kept_for_viewer
def city_map(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.game_for(request.user, game_id)
    seat = play.seat_for(game, request.user)  # 404 unless a seated player or the GM
    mine = map_orders.context(seat, seat.view.get("coup"))
    context = map_context(seat.view, *latest_fighting(game, seat.phase, seat.view),
                          planned=mine.get("planned_svg"))
    context.update(mine, game=game)
    return render(request, "games/map.html", context)
