"""My legal options, my orders, and changing them: through `order_intake.submit_orders` and
`order_intake.set_final`, exactly as the Orders page does, with the engine's messages. A rejected
set leaves the earlier orders in place; a stale `state_version` is refused (409)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from junta import engine
from junta.api import access
from junta.api.auth import caller
from junta.api.campaigns import phase_out
from junta.api.conditional import kept_answer
from junta.api.errors import ApiError, Issue, not_found
from junta.api.options import Unfilled, filled, options_json
from junta.api.schemas import (
    ERRORS,
    ErrorOut,
    FinalIn,
    LastTimeIn,
    LastTimeOut,
    OptionsOut,
    OrdersIn,
    OrdersOut,
)
from junta.games.public import (
    CampaignError,
    Game,
    OrdersRejected,
    Repeat,
    Seat,
    StaleOrders,
    StaleRepeat,
    last_time,
    play_practice_on,
    problem_text,
    repeat_orders,
    set_final,
    submit_orders,
)
from junta.games.public import clock as phase_clock
from junta.ops.public import REFUSED_TEXT, refused_text

router = Router(tags=["orders"])


def _my_seat(request: HttpRequest, game_id: int) -> Seat:
    """My seat; the GM gives no orders of his own here (404, as the Orders page)."""
    seat = access.seat(caller(request), game_id)
    if seat.player is None or seat.seat is None:
        raise not_found("The GameMaster has no orders of his own in this campaign.")
    return seat


def _version(game: Game) -> int:
    return Game.objects.filter(pk=game.pk).values_list("state_version", flat=True).get()


def _open(seat: Seat) -> tuple[bool, str | None]:
    """Whether orders are taken now (the clock counts down and the engine lets me act), and
    the engine's reason when it does not."""
    barred = engine.why_no_orders(seat.state, seat.seat) if seat.seat is not None else None
    clock = phase_clock(seat.game, seat.phase)
    return clock.counting and barred is None, barred


def _orders_out(seat: Seat) -> dict[str, object]:
    order = seat.order
    options = engine.legal_options(seat.state, seat.seat) if seat.seat is not None else None
    lines = []
    for i, data in enumerate(order.payload if order else []):
        parsed = engine.parse_order(dict(data))
        option = engine.option_for(options, parsed) if options else None
        lines.append({"index": i, "order": data, "text": engine.describe_order(seat.state,
                                                                                 parsed),
                      "option": option.key if option else None})
    is_open, barred = _open(seat)
    return {"phase": phase_out(seat.phase), "state_version": _version(seat.game),
            "open": is_open, "barred": barred, "final": bool(order and order.final),
            "note_to_gm": order.note_to_gm if order else "",
            "revision": order.revision if order else 0,
            "submitted_at": order.submitted_at if order else None, "orders": lines}


@router.get("/campaigns/{int:game_id}/options", response={200: OptionsOut, **ERRORS},
            summary="My legal order options now")
@kept_answer
def options(request: HttpRequest, game_id: int) -> dict[str, object]:
    """Every order the engine lets me give now: its kind, arguments (names, shapes, allowed
    values with labels), the conditions it may carry; `notes` says what is not offered now
    and why. Send one back in PUT /orders as {"option": key, "values": {...}} or as the
    engine's order itself."""
    seat = _my_seat(request, game_id)
    assert seat.seat is not None  # _my_seat
    is_open, barred = _open(seat)
    me = seat.view.get("me")
    return {"phase": phase_out(seat.phase), "state_version": _version(seat.game),
            "open": is_open, "barred": barred,
            "owes_orders": bool(me and me["owes_orders"]),
            "final": bool(seat.order and seat.order.final),
            **options_json(engine.legal_options(seat.state, seat.seat))}


@router.get("/campaigns/{int:game_id}/orders", response={200: OrdersOut, **ERRORS},
            summary="My orders")
@kept_answer
def orders(request: HttpRequest, game_id: int) -> dict[str, object]:
    return _orders_out(_my_seat(request, game_id))


def _stale(given: int, game: Game) -> ApiError:
    return ApiError(409, f"The campaign has changed since state_version {given} (it is now "
                         f"{_version(game)}): read the options and your orders again, then "
                         "send them anew. Nothing was saved.", "state_version")


def _refused(seat: Seat, given: int, error: CampaignError) -> ApiError:
    """A refusal of the service as the API says it: stale (409), or the service's words."""
    if given != _version(seat.game):
        return _stale(given, seat.game)
    text = str(error)
    return ApiError(400, text, "note_to_gm" if "note to the GM" in text else None)


def _refused_text(value: object, where: str) -> str | None:
    """The place in `value` (an order as JSON) of a text, key or value, holding a character no
    stored text may (`junta.ops.text`), or None."""
    todo: list[tuple[object, str]] = [(value, where)]
    while todo:
        value, where = todo.pop()
        if isinstance(value, str) and refused_text(value):
            return where
        if isinstance(value, dict):
            for key, inner in value.items():
                if refused_text(str(key)):
                    return where
                todo.append((inner, f"{where}.{key}"))
        elif isinstance(value, list):
            todo += [(inner, f"{where}[{i}]") for i, inner in enumerate(value)]
    return None


# items: the request's JSON (Any values, as pydantic reads them); out: the engine's orders as
# JSON (`Order.to_dict`), as order_intake.submit_orders takes them
def _engine_orders(seat: Seat, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each item read as the engine's order (an option filled in is built by the engine, then
    read as any order), each problem with its place in the list."""
    assert seat.seat is not None
    out, issues = [], []
    options_now = None
    for i, item in enumerate(items):
        refused = _refused_text(item, f"orders[{i}]")
        if refused is not None:
            issues.append(Issue(REFUSED_TEXT, refused))
            continue
        try:
            if "option" in item:
                options_now = options_now or engine.legal_options(seat.state, seat.seat)
                item = filled(seat.state, options_now, item).to_dict()
            out.append(engine.parse_order(item).to_dict())
        except (Unfilled, engine.OrderError) as error:
            issues.append(Issue(str(error), f"orders[{i}]" + (f".{error.arg}" if error.arg
                                                               else "")))
    if issues:
        raise ApiError(400, issues)
    return out


@router.put("/campaigns/{int:game_id}/orders", response={200: OrdersOut, 409: ErrorOut, **ERRORS},
            summary="Replace my orders for the current phase")
def replace_orders(request: HttpRequest, game_id: int, payload: OrdersIn) -> dict[str, object]:
    """The whole list, validated by the engine as one set; on any problem nothing is saved
    (each message with the order and argument it concerns: "orders[2].amount")."""
    user = caller(request)
    seat = _my_seat(request, game_id)
    if payload.state_version != _version(seat.game):
        raise _stale(payload.state_version, seat.game)
    items = _engine_orders(seat, payload.orders)
    try:
        submit_orders(seat.phase.id, user, items, state_version=payload.state_version,
                      note_to_gm=payload.note_to_gm, final=payload.final,
                      revision=payload.revision)
    except StaleOrders:
        raise ApiError(409, f"My orders changed after revision {payload.revision} (on the "
                            "Orders page, or by another program): read them again and send the "
                            "list anew. Nothing was saved.", "revision") from None
    except OrdersRejected as rejected:
        raise ApiError(400, [_issue(p) for p in rejected.errors]) from None
    except CampaignError as error:
        raise _refused(seat, payload.state_version, error) from None
    if seat.game.practice:  # no deadline: the bots order and the phase is played at once
        play_practice_on(game_id)
    return _orders_out(access.seat(user, game_id))


def _issue(problem: str) -> Issue:
    """An engine message with the order (and argument) it is about."""
    orders = getattr(problem, "orders", ())
    arg = getattr(problem, "arg", None)
    if not orders:
        return Issue(problem_text(problem), "orders")
    return Issue(problem_text(problem), f"orders[{orders[0]}]" + (f".{arg}" if arg else ""))


@router.post("/campaigns/{int:game_id}/orders/final", response={200: OrdersOut, **ERRORS},
             summary="Mark my orders final, or open them again")
def final(request: HttpRequest, game_id: int, payload: FinalIn) -> dict[str, object]:
    user = caller(request)
    seat = _my_seat(request, game_id)
    try:
        set_final(seat.phase.id, user, payload.final)
    except CampaignError as error:
        raise ApiError(400, str(error)) from None
    if seat.game.practice:  # no deadline: the bots order and the phase is played at once
        play_practice_on(game_id)
    return _orders_out(access.seat(user, game_id))




@router.get("/campaigns/{int:game_id}/orders/last-time", response={200: LastTimeOut, **ERRORS},
            summary="My orders of last time, as they may be given again now")
@kept_answer
def last_time_plan(request: HttpRequest, game_id: int) -> dict[str, object]:
    """The same orders as last time (docs/rules.md §repeat-orders), as the Orders page lists
    them: of my orders of the last phase of the kind this one repeats, those the engine lets me
    give again beside my orders in (`kept`, added after them on confirm) and those left out
    with why. Saves nothing: POST …/orders/last-time with the token to confirm."""
    seat = _my_seat(request, game_id)
    assert seat.player is not None and seat.seat is not None  # _my_seat
    current = [engine.parse_order(dict(o)) for o in (seat.order.payload if seat.order else [])]
    last = last_time(seat.phase, seat.player, seat.state, current)
    return {"from_phase": phase_out(last.row.phase) if last else None,
            "token": last.token if last else None,
            "revision": seat.order.revision if seat.order else 0,
            "state_version": _version(seat.game),
            "kept": [{"order": o.to_dict(), "text": t}
                     for o, t in zip(last.plan.kept, last.plan.texts, strict=True)]
            if last else [],
            "left_out": [{"text": d.text, "reason": d.reason} for d in last.plan.dropped]
            if last else []}


@router.post("/campaigns/{int:game_id}/orders/last-time",
             response={200: OrdersOut, 409: ErrorOut, **ERRORS},
             summary="Give my orders of last time again, as the plan read kept them")
def confirm_last_time(request: HttpRequest, game_id: int, payload: LastTimeIn
                      ) -> dict[str, object]:
    """Adds the orders the plan (GET …/orders/last-time) kept after my orders in, through the
    same service as the Orders page, which checks everything again: once my orders, the game or
    the plan changed since it was read, nothing is saved (409); the engine's refusals, 400."""
    user = caller(request)
    seat = _my_seat(request, game_id)
    if payload.state_version != _version(seat.game):
        raise _stale(payload.state_version, seat.game)
    try:
        repeat_orders(seat.phase.id, user, Repeat(payload.token, payload.revision),
                      state_version=payload.state_version)
    except (StaleOrders, StaleRepeat) as stale:
        raise ApiError(409, f"{stale} (GET …/orders/last-time)", "token") from None
    except OrdersRejected as rejected:
        raise ApiError(400, [_issue(p) for p in rejected.errors]) from None
    except CampaignError as error:
        raise _refused(seat, payload.state_version, error) from None
    return _orders_out(access.seat(user, game_id))
