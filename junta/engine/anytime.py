"""Any-time actions: payments, gifts of cards, trades, discards, card plays, resignation,
exiles' returns. "Ordered with a phase's orders and resolve first in that phase's
adjudication, in seat order, unless the order ties them to a later step by a condition"
(docs/rules.md §any-time)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import catalog
from .card_plays import apply_play
from .conditions import condition_step, details
from .enums import PhaseKind, Status, Step
from .kinds import ORDER_KINDS
from .order import Order
from .order_kinds.anytime import SafePassage
from .orders import action_step, played_card
from .words import Term, gettext_noop, words

if TYPE_CHECKING:
    from .context import Context
    from .state import GameState


def parties(order: Order) -> tuple[int, ...]:
    """The other players an order deals with openly, told when it fails (its kind's
    `parties`)."""
    spec = ORDER_KINDS.get(order.kind)
    return spec.parties(order) if spec is not None else ()


def fails_where_it_acts(state: GameState, seat: int, order: Order) -> bool:
    """Whether an order refused at the deadline (`validate_order` on the phase's starting
    state: a GM ruling took the money, the card or the units since it was given) is one that
    fails where it acts, telling both sides why (its kind's `fails_where_it_acts`)."""
    spec = ORDER_KINDS.get(order.kind)
    return spec is not None and spec.fails_where_it_acts(state, seat, order)


def is_any_time(order: Order, phase: str | None = None) -> bool:
    """An order carried out on its own (its kind `acts_alone`) at the any-time step."""
    spec = ORDER_KINDS.get(order.kind)
    return spec is not None and spec.acts_alone and action_step(order, phase) == Step.ANY_TIME


def run(ctx: Context, after_step: str | None) -> None:
    """Carry out the any-time orders due now: unconditional ones at the any-time step
    (after_step None), conditional ones right after the step their condition names."""
    due = list(_by_step(ctx).get(after_step, ()))
    if after_step is None:
        names = [_card_name(order) for _, order in due]
        _first(ctx, due, names, "Wiretap")  # hears every transfer of the day
        _first(ctx, due, names, "Amnesty")  # protects an exile the Minister decides on today
        if ctx.state.coup is None or ctx.state.phase == PhaseKind.AFTERMATH:
            _exile_returns(ctx)  # during a coup exiles come back only through an embassy
    for seat, order in due:
        if not ctx.holds(order.condition):
            continue
        owner = ctx.state.players[seat]
        spec = ORDER_KINDS[order.kind]
        if not owner.active and not spec.exiles_give and not spec.party:
            ctx.failed(seat, order, "order_failed", words(gettext_noop(
                "Your order was not carried out: {seat} is {status}."), seat=owner.name,
                status=Term(owner.status)))
            continue
        spec.carry_out(ctx, seat, order)
        card = played_card(order)
        if after_step == Step.LOCATIONS and card is not None and \
                order.condition is not None and details(order.condition).get("seat") != seat:
            # played knowing where another player is: no assassin may wait for it
            # (phases/locations.py, "prior to assassination declaration")
            ctx.facts.informed_plays.append((seat, catalog.card(card).name))


def _card_name(order: Order) -> str | None:
    card = played_card(order)
    return None if card is None else catalog.card(card).name


def _by_step(ctx: Context) -> dict[str | None, list[tuple[int, Order]]]:
    """The any-time orders in seat order, by the step their condition waits for (None: no
    condition), gathered once a resolution."""
    if ctx.any_time_due is None:
        phase = ctx.state.phase
        ctx.any_time_due = {}
        for seat in sorted(ctx.orders):
            for order in ctx.orders[seat]:
                spec = ORDER_KINDS.get(order.kind)  # `is_any_time`, read once
                if spec is not None and spec.acts_alone and \
                        spec.step_of(order, phase) == Step.ANY_TIME:
                    tied = condition_step(order.condition, phase) if order.condition else None
                    ctx.any_time_due.setdefault(tied, []).append((seat, order))
    return ctx.any_time_due


def _first(ctx: Context, due: list[tuple[int, Order]], names: list[str | None],
           card_name: str) -> None:
    """Play the due plays of this card (`names`: the card each due order plays) before the
    other any-time actions."""
    if card_name not in names:
        return
    first = [i for i, name in enumerate(names) if name == card_name]
    for i in first:
        seat, order = due[i]
        if ctx.state.players[seat].active and ctx.holds(order.condition):
            apply_play(ctx, seat, order)
    for i in reversed(first):
        del due[i]
        del names[i]


def _exile_returns(ctx: Context) -> None:
    """Requests from earlier phases meet the Minister's decision: safe passage or execution.
    With no decision ordered, the exile returns safely (no execution without an order).
    (docs/rules.md §exile; docs/rulings.md §ruling-exiles)."""
    s = ctx.state
    minister = s.commander(catalog.INTERNAL_SECURITY)
    decisions = {}
    if minister is not None:
        for order in ctx.orders.get(minister, []):
            if order.kind == "safe_passage" and ctx.holds(order.condition):
                a = SafePassage.of(order)
                decisions[a["seat"]] = a["decision"]
    for seat in list(s.pending_returns):
        p = s.players[seat]
        s.pending_returns.remove(seat)
        if p.status != Status.EXILED:
            continue
        amnesty = seat in s.turn_flags.get("amnesty", [])
        if decisions.get(seat) == "execute" and not amnesty and minister is not None:
            p.status = Status.ALIVE
            ctx.kill(seat, minister, words(gettext_noop(
                "executed on returning from exile by the Minister of Internal Security")), None)
        else:
            p.status = Status.ALIVE
            # "If an Exile returns in the middle of the Turn, however, he will remain
            # positionless until the next Cabinet Appointment Phase" (cabinet.py)
            s.turn_flags.setdefault("returned_exiles", []).append(seat)
            ctx.public("returned", words(gettext_noop(
                "{seat} returns from exile under safe passage, without a position until the "
                "next Cabinet Appointment."), seat=p.name), headline=True)
