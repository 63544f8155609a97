"""The pages a player opens daily: the Status page and the Orders page; the GM's start."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from accounts.public import AuthenticatedHttpRequest
from junta.engine import (
    CONTROL_POINTS,
    FORCE_NAMES,
    Catalog,
    StateView,
    Status,
    current_phase,
    instruction_lines,
    unit_label,
    why_no_orders,
    zone_name,
)
from junta.games import (
    campaign_rows,
    fragments,
    play,
    practice,
    report_pages,
    repository,
    rollbacks,
    selectors,
    status_info,
)
from junta.games.forms import NoteForm
from junta.games.models import Game, Phase
from junta.games.orders_page import OrdersPage
from junta.games.page_cache import kept_for_viewer
from junta.games.watching import outsider_sent_to


@login_required
@require_POST
def start(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.filter(pk=game_id, gm=request.user).first()
    if game is None:
        raise Http404
    # starting cannot be undone: the GM's panel asks first, and starts on its Confirm button
    # (a page drawn before this question, sending its one click here, starts nothing)
    return redirect(reverse("gm_start", args=[game.id]) + "?from=detail")


def _status_context(request: AuthenticatedHttpRequest, game: Game) -> dict[str, object]:
    seated = selectors.roster(game)
    seat = play.seat_for(game, request.user, seated, every_order=True)
    state, view = seat.state, seat.view
    me = view.get("me")
    roster = {p.seat: p for p in seated}
    cabinet = []
    for pos in Catalog.POSITIONS:
        holder = view["positions"].get(pos)
        who = ("vacant" if holder is None else "the President's Brother-in-Law"
               if holder == view["brother_in_law"] else state.name(holder))
        cabinet.append({"title": Catalog.TITLES[pos], "holder": who,
                        "new_weapons": view["new_weapons"] == pos})
    money = view["money"]
    # the share of the known bills drawn: full once the deck is drawn into its extra bills (a
    # <progress> is never past its max)
    percent = min(100, round(100 * money["drawn"] / money["known_total"]))
    dead = me is not None and seat.seat is not None and \
        state.players[seat.seat].status == Status.DEAD
    in_orders, all_final = status_info.who_is_in(seat.phase, state, seat.phase_orders)
    seat.phase_orders = None  # the other seats' orders, secret: never in the page's context
    return {
        "game": game, "seat": seat, "view": view, "me": me, "phase": seat.phase,
        "state": state, "roster": roster, "cabinet": cabinet, "money_percent": percent,
        "instructions": instruction_lines(state, seat.seat)
        if me and seat.seat is not None else [],
        "owes": bool(me and me["owes_orders"]),
        "dead": dead,
        "deciding": status_info.deciding(view),
        "reveal": status_info.revealed(game, view, state),
        "learned": play.learned(game, seat.seat, state.turn) if me else [],
        "location_name": Catalog.LOCATION_NAMES.get(me["location"] or "", "") if me else "",
        "exiled": me is not None and seat.seat is not None
        and state.players[seat.seat].status == Status.EXILED,
        "is_gm": game.gm_id == request.user.id,
        "winners": [state.name(w) for w in view["winners"]],
        "my_positions": [Catalog.TITLES[k] for k in me["commands"]] if me else [],
        "open": seat.phase is not None and seat.phase.status == Phase.Status.OPEN,
        "coup": _coup_context(game, view, seat.seat),
        # one truth about the phase (paused, under review, past its deadline, counting down)
        # and, for the seats whose turn to order is public only, whether their orders are in
        "clock": status_info.clock(game, seat.phase, all_final=all_final),
        "in_orders": in_orders,
        # a practice campaign: what this phase is for, the first time its kind comes up
        "lesson": practice.first_time_lesson(game, seat.phase) if me else None,
    }


def _coup_context(game: Game, view: StateView, seat: int | None
                  ) -> dict[str, object] | None:
    """During a coup: its phase, the Rebels and the First Rebel, the Foreign Intervention roll,
    the strikes left, my units and, after Coup Phase 6, who holds the control points."""
    coup = view.get("coup")
    if coup is None:
        return None
    names = {p["seat"]: p["name"] for p in view["players"]}
    try:
        map_url = reverse("game_map", args=[game.id])
    except NoReverseMatch:  # the Map page is not there (yet)
        map_url = None
    mine = [u for u in coup["units"] if seat is not None and u["owner"] == seat]
    return {
        "phase": coup["phase"],
        "rebels": [p["name"] for p in view["players"] if p["rebel"]],
        "first_rebel": _name(names, view["first_rebel"]),
        "foreign": coup["foreign"],
        "foreign_chosen": [FORCE_NAMES.get(f, f) for f in coup["foreign"]["chosen"]],
        "airstrikes_left": coup["airstrikes_left"],
        "agitator_zones": [zone_name(z) for z in coup["agitator_zones"]],
        "my_units": [unit_label(u) for u in mine],
        "control": [(zone_name(z), coup["control"][str(z)])
                    for z in CONTROL_POINTS if str(z) in coup["control"]],
        "result": coup["result"],
        "elected": _name(names, coup["elected"]),
        "map_url": map_url,
    }


def _name(names: dict[int, str], seat: int | None) -> str | None:
    return None if seat is None else names.get(seat)


@login_required
@kept_for_viewer
def status(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.game_for(request.user, game_id)
    return render(request, "games/status.html", _status_context(request, game))


@login_required
@kept_for_viewer
def orders(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The Orders page: my orders for the current phase, a form for each order the engine lets
    me give now, changing an order in place, final, a note to the GM; `?repeat=1` lists my
    orders of last time that may be given again, to confirm (nothing saved before).

    A rejected change saves nothing (the orders in stay as they were) and comes back with the
    form as submitted, each engine message next to the field it is about."""
    game = selectors.game_for(request.user, game_id)
    seat = play.seat_for(game, request.user)
    if seat.player is None or seat.seat is None:  # the GM, or a seat not yet given
        raise Http404
    page = OrdersPage(seat, change=_int(request.GET.get("change"), -1) if "change" in
                      request.GET else None, repeat="repeat" in request.GET)
    status_code = 200
    if request.method == "POST":
        outcome = page.submit(request.POST, request.user)
        if outcome.done:
            messages.success(request, outcome.message)
            played = practice.play_on(game.id) if game.practice else 0  # no deadline
            if played == 1:
                messages.info(request, "The bots gave their orders: the results are out.")
            elif played:  # on while he owed nothing (dead, or nothing asked of him)
                messages.info(request, f"The bots gave their orders: {played} phases were "
                                       "played while you owed no orders; their results are "
                                       "in the History.")
            return redirect("game_map" if outcome.to_map else "game_orders", game_id=game.id)
        status_code = 400
    state = seat.state
    if campaign_rows.rows(game.id) is None:  # drawn at a revision, its row is as it stands
        game.refresh_from_db(fields=["state_version", "status", "paused_at"])
    barred = why_no_orders(state, seat.seat)  # the engine's word: the dead may not act
    # the same truth as the Status page: orders are taken only while the clock counts down
    # (paused, past the deadline or under review, `order_intake` refuses them)
    clock = status_info.clock(game, seat.phase, all_final=seat.phase.status ==
                              Phase.Status.OPEN and repository.everyone_final(seat.phase))
    context = {
        "game": game, "seat": seat, "phase": seat.phase, "state": state,
        "state_version": game.state_version, "clock": clock,
        "open": clock.counting and barred is None,
        "dead": barred is not None,
        "final": bool(seat.order and seat.order.final),
        "note_form": page.note_form or NoteForm(
            initial={"note_to_gm": seat.order.note_to_gm if seat.order else ""}, auto_id="%s"),
        "phase_title": current_phase(state).title,
        "instructions": instruction_lines(state, seat.seat),
        **page.context(),
    }
    entries = context["entries"]
    if context["open"] and isinstance(entries, list):  # the forms shown empty: drawn once
        fragments.draw_order_forms(game, seat.phase, seat.seat, entries,
                                   state_version=game.state_version,
                                   csrf_token=get_token(request))
    return render(request, "games/orders.html", context, status=status_code)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


HISTORY_PHASES_PER_PAGE = 10


@login_required
@kept_for_viewer
def history(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Every past phase, newest first, ten a page: its public report and my own private lines,
    how many speeches were made while it was open (linked to them on the Events page, which
    pages them), and for a coup the map after each phase. Once the game is over, every secret
    line and every order as well. The phases a GM rollback undid stay, under a banner saying
    they no longer count. A fixed number of queries, and a size that does not grow with the
    talk, per page."""
    game = selectors.game_for(request.user, game_id)
    if watching := outsider_sent_to(game, request.user, "history"):
        return redirect(watching)  # an outsider of a campaign under way watches it, or 404
    viewer = play.viewer_for(game, request.user)
    page = Paginator(play.history_results(game), HISTORY_PHASES_PER_PAGE).get_page(
        request.GET.get("page"))
    finished = game.status == Game.Status.FINISHED
    reports = report_pages.drawn_reports(game, viewer, list(page), reveal=finished, maps=True,
                                         speeches=True, rolled_back=rollbacks.undone_phases(game))
    return render(request, "games/history.html", {
        "game": game, "page": page, "finished": finished, "groups": undone_groups(reports)})


class _UndoneGroup(TypedDict):
    undone_on: datetime | None
    reports: list[report_pages.DrawnReport]


def undone_groups(reports: list[report_pages.DrawnReport]) -> list[_UndoneGroup]:
    """The reports (`report_pages.drawn_reports`) in runs: each run of phases undone by the
    same rollback goes under one banner; the phases that count stand alone (`undone_on`
    None)."""
    groups: list[_UndoneGroup] = []
    for report in reports:
        if groups and groups[-1]["undone_on"] is not None \
                and groups[-1]["undone_on"] == report["undone_on"]:
            groups[-1]["reports"].append(report)
        else:
            groups.append({"undone_on": report["undone_on"], "reports": [report]})
    return groups
