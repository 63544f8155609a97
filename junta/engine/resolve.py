"""`resolve(state, orders)`: one phase adjudicated, in the order of `steps.ADJUDICATION_ORDER`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import anytime, flow, steps
from .context import Context, Outcome
from .enums import PhaseKind, Step
from .events import Event
from .order import Order
from .orders import validate_order
from .phases import aftermath, budget, cabinet, coup, election, locations
from .problems import said
from .state import GameState
from .words import gettext_noop, words

if TYPE_CHECKING:
    from collections.abc import Callable

HANDLERS: dict[tuple[PhaseKind, Step], Callable[[Context], None]] = {
    (PhaseKind.NOMINATION, Step.NOMINATIONS): election.nominations,
    (PhaseKind.ELECTION, Step.VOTE_COUNT): election.election_count,
    (PhaseKind.ELECTION, Step.REVOTE_CARDS): election.election_revote,
    (PhaseKind.SPECIAL_MOTION, Step.VOTE_COUNT): election.motion_count,
    (PhaseKind.SPECIAL_MOTION, Step.REVOTE_CARDS): election.motion_revote,
    (PhaseKind.CABINET, Step.APPOINTMENT): cabinet.appoint,
    (PhaseKind.BUDGET_DRAW, Step.DRAWS): budget.draws,
    (PhaseKind.BUDGET_PROPOSAL, Step.PROPOSAL): budget.proposal,
    (PhaseKind.BUDGET_VOTE, Step.VOTE_COUNT): budget.vote_count,
    (PhaseKind.BUDGET_VOTE, Step.REVOTE_CARDS): budget.revote,
    (PhaseKind.INTERNAL_SECURITY, Step.SEIZE_DECISION): budget.seize_decision,
    (PhaseKind.LOCATIONS, Step.LOCATIONS): locations.locations,
    (PhaseKind.LOCATIONS, Step.ASSASSINATIONS): locations.assassinations,
    (PhaseKind.LOCATIONS, Step.BANKING): locations.banking,
    (PhaseKind.LOCATIONS, Step.COUP_EXCUSE): locations.coup_excuse,
    (PhaseKind.LOCATIONS, Step.REBEL_ONLY): coup.rebel_only,
    **{(kind, step): handler for kind in (PhaseKind.COUP, PhaseKind.COUP_FINAL)
       for step, handler in (
           (Step.INCOMING_FIRE, coup.incoming_fire), (Step.BRIBES, coup.bribes),
           (Step.TRANSFERS, coup.transfers), (Step.MOVEMENT, coup.movement),
           (Step.HANDOVERS, coup.handovers), (Step.COMBAT, coup.fight))},
    (PhaseKind.COUP_FINAL, Step.COUP_VOTE): coup.coup_vote,
    (PhaseKind.AFTERMATH, Step.JUNTA_VOTE): aftermath.junta_vote,
    (PhaseKind.AFTERMATH, Step.EXECUTION): aftermath.execution,
    (PhaseKind.AFTERMATH, Step.BANKING): aftermath.banking,
}


@dataclass(frozen=True)
class Resolution:
    state: GameState
    events: list[Event]
    outcomes: tuple[Outcome, ...] = ()  # what became of each order whose condition held


def resolve(state: GameState, orders: dict[int, list[Order]],
            submission_order: list[int] | None = None) -> Resolution:
    """Adjudicate the current phase. `orders` maps seats to their orders; orders that are no
    longer legal are dropped with a message to their owner (a payment, a gift or a trade the
    owner can no longer deliver goes on to fail where it acts, told to both sides).
    `submission_order` lists seats in
    the order they first submitted orders (it names the First Rebel). The input state is not
    changed."""
    if state.finished:
        raise ValueError("the game is over")
    s = state.copy()
    ctx = Context(s, {}, s.rng(), list(submission_order or []))
    for seat in sorted(orders):
        kept = []
        for order in orders[seat]:
            errors = validate_order(state, seat, order)
            if errors and not anytime.fails_where_it_acts(state, seat, order):
                ctx.failed(seat, order, "order_dropped", words(gettext_noop(
                    "An order of yours was not carried out: {problem}"), problem=said(errors[0])),
                    order=order.to_dict())
            else:
                kept.append(order)
        if kept:
            ctx.orders[seat] = kept
    phase = s.phase
    for step in steps.steps(phase):
        if step == Step.ANY_TIME:
            anytime.run(ctx, None)
        else:
            HANDLERS[(phase, step)](ctx)
        anytime.run(ctx, step)
    flow.advance(ctx)
    s.phase_number += 1
    s.save_rng(ctx.rng)
    return Resolution(s, ctx.events, tuple(ctx.outcomes))
