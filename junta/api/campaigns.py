"""Who I am, my campaigns, a campaign's state as I may see it, and its published phases.

Everything per viewer comes from the engine's view (`view_for`, through `play.seat_for`) and
from the site's own selectors: the API decides nothing about who sees what."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Router

from junta.api import access
from junta.api.auth import caller
from junta.api.conditional import kept_answer
from junta.api.errors import not_found
from junta.api.schemas import ERRORS, CampaignItem, CampaignOut, MeOut, PhasesOut, ReportOut
from junta.games.public import (
    Game,
    Phase,
    PhaseResult,
    Player,
    history_results,
    my_games,
    my_seats,
    phase_title,
    reports,
    undone_phases,
    unread_speeches,
    who_is_in,
)
from junta.games.public import clock as phase_clock
from junta.games.public import roster as campaign_roster
from junta.talk.public import unread_by_game

router = Router(tags=["campaigns"])
PHASES_PER_PAGE = 10


def phase_out(phase: Phase) -> dict[str, object]:
    return {"number": phase.number, "kind": phase.kind, "title": phase_title(phase),
            "turn": phase.turn, "status": phase.status, "opens_at": phase.opens_at,
            "deadline": phase.deadline}


@router.get("/me", response={200: MeOut, **ERRORS}, summary="Who I am")
def me(request: HttpRequest) -> dict[str, object]:
    user = caller(request)
    return {"id": user.id, "public_name": user.public_name, "time_zone": user.time_zone}


@router.get("/campaigns", response={200: list[CampaignItem], **ERRORS}, summary="My campaigns")
@kept_answer
def campaigns(request: HttpRequest) -> list[dict[str, object]]:
    """The campaigns I run or play in (or asked to join): the current phase, whether I owe
    orders and how far mine are, and what I have not read yet."""
    user = caller(request)
    games = list(my_games(user))
    seats = my_seats(user, games)
    unread_messages = unread_by_game(user, [g.id for g in games])
    pending = set(Player.objects.filter(user=user, game__in=games,
                                        membership=Player.Membership.PENDING)
                  .values_list("game_id", flat=True))
    out = []
    for game in games:
        mine: Mapping[str, object] = seats.get(game.id, {})
        role = "gm" if game.gm_id == user.id else "pending" if game.id in pending and \
            game.id not in seats else "player"
        phase = access.latest_phase(game) if game.status != Game.Status.FINISHED else None
        out.append({
            "id": game.id, "name": game.name, "status": game.status, "role": role,
            "seat": mine.get("seat"),
            "phase": phase_out(phase) if phase else None,
            "owes_orders": bool(mine.get("owes")),
            "orders_in": bool(mine.get("orders_in")),
            "orders_final": bool(mine.get("final")),
            "unread_speeches": unread_speeches(game, user),
            "unread_messages": unread_messages.get(game.id, 0),
        })
    return out


@router.get("/campaigns/{int:game_id}", response={200: CampaignOut, **ERRORS},
            summary="A campaign as I see it")
@kept_answer
def campaign(request: HttpRequest, game_id: int) -> dict[str, object]:
    """The state as the engine lets me see it (`view`), the public roster, the phase and its
    deadline, the clock (paused, under review, past its deadline, counting down) and who of
    those whose turn is public has given orders."""
    user = caller(request)
    seat = access.seat(user, game_id)
    game, view = seat.game, seat.view
    in_orders, all_final = who_is_in(seat.phase, seat.state)
    clock = phase_clock(game, seat.phase, all_final=all_final)
    players = {p.seat: p for p in campaign_roster(game)}
    roster = [{"seat": p["seat"], "family": p["name"],
               "player": players[p["seat"]].user.public_name if p["seat"] in players else ""}
              for p in view["players"]]
    return {
        "id": game.id, "name": game.name, "status": game.status,
        "role": "gm" if seat.player is None else "player", "seat": seat.seat,
        "state_version": game.state_version,
        "phase": phase_out(seat.phase) if game.status != Game.Status.FINISHED else None,
        "clock": asdict(clock), "roster": roster,
        "who_is_in": [{"seat": i.seat, "family": i.name, "orders": i.orders}
                      for i in in_orders],
        "view": view,
    }


def _reports(member: access.Membership, results: list[PhaseResult]) -> list[dict[str, object]]:
    """Each published result as `member` may read it, as the History page has it: public
    lines and his own; once the game is over, everything revealed."""
    game = member.game
    finished = game.status == Game.Status.FINISHED
    drawn = reports(game, member.viewer, results, reveal=finished,
                    rolled_back=undone_phases(game))
    out = []
    for result, report in zip(results, drawn, strict=True):
        phase = report.phase
        out.append({
            "number": phase.number, "turn": phase.turn, "kind": phase.kind,
            "title": report.title, "published_at": result.published_at,
            "undone_on": report.undone_on, "headlines": report.headlines,
            "public": report.public, "private": report.private,
            "votes": [{"caption": t.caption, "rows": [vars(r) for r in t.rows],
                       "totals": t.totals, "outcome": t.outcome}
                      for _kind, t in report.blocks if not isinstance(t, list)],
            "revealed": [{"told_to": to, "text": text} for to, text in report.revealed],
            "orders": [{"family": f, "orders": lines} for f, lines in report.orders],
        })
    return out


@router.get("/campaigns/{int:game_id}/phases", response={200: PhasesOut, **ERRORS},
            summary="Published phases, newest first")
@kept_answer
def phases(request: HttpRequest, game_id: int, page: int = 1) -> dict[str, object]:
    """Every published phase's report, newest first, ten a page: the public lines and my own
    (every secret once the game is over). Phases a GM rollback undid carry `undone_on`."""
    member = access.membership(caller(request), game_id)
    paged = Paginator(history_results(member.game), PHASES_PER_PAGE)
    shown = paged.get_page(page)
    return {"page": shown.number, "pages": paged.num_pages, "count": paged.count,
            "phases": _reports(member, list(shown))}


@router.get("/campaigns/{int:game_id}/phases/{int:number}", response={200: ReportOut, **ERRORS},
            summary="One published phase")
@kept_answer
def phase(request: HttpRequest, game_id: int, number: int) -> dict[str, object]:
    member = access.membership(caller(request), game_id)
    result = history_results(member.game).filter(phase__number=number).first()
    if result is None:
        raise not_found("No published phase of this campaign has that number.")
    return _reports(member, [result])[0]
