"""`resolve(state, orders)`: one phase adjudicated, in the order of `steps.ADJUDICATION_ORDER`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import anytime, flow, steps
from .context import Context
from .events import Event
from .orders import Order, validate_order
from .phases import aftermath, budget, cabinet, coup, election, locations
from .state import GameState

if TYPE_CHECKING:
    from collections.abc import Callable

HANDLERS: dict[tuple[str, str], Callable[[Context], None]] = {
    ("nomination", "nominations"): election.nominations,
    ("election", "vote_count"): election.election_count,
    ("election", "revote_cards"): election.election_revote,
    ("special_motion", "vote_count"): election.motion_count,
    ("special_motion", "revote_cards"): election.motion_revote,
    ("cabinet", "appointment"): cabinet.appoint,
    ("budget_draw", "draws"): budget.draws,
    ("budget_proposal", "proposal"): budget.proposal,
    ("budget_vote", "vote_count"): budget.vote_count,
    ("budget_vote", "revote_cards"): budget.revote,
    ("internal_security", "seize_decision"): budget.seize_decision,
    ("locations", "locations"): locations.locations,
    ("locations", "assassinations"): locations.assassinations,
    ("locations", "banking"): locations.banking,
    ("locations", "coup_excuse"): locations.coup_excuse,
    ("locations", "rebel_only"): coup.rebel_only,
    **{(kind, step): handler for kind in ("coup", "coup_final") for step, handler in (
        ("incoming_fire", coup.incoming_fire), ("bribes", coup.bribes),
        ("transfers", coup.transfers), ("movement", coup.movement),
        ("handovers", coup.handovers), ("combat", coup.fight))},
    ("coup_final", "coup_vote"): coup.coup_vote,
    ("aftermath", "junta_vote"): aftermath.junta_vote,
    ("aftermath", "execution"): aftermath.execution,
    ("aftermath", "banking"): aftermath.banking,
}


@dataclass(frozen=True)
class Resolution:
    state: GameState
    events: list[Event]


def resolve(state: GameState, orders: dict[int, list[Order]],
            submission_order: list[int] | None = None) -> Resolution:
    """Adjudicate the current phase. `orders` maps seats to their orders; orders that are no
    longer legal are dropped with a message to their owner. `submission_order` lists seats in
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
            if errors:
                ctx.tell(seat, "order_dropped", f"An order of yours was not carried out: "
                         f"{errors[0]}", order=order.to_dict())
            else:
                kept.append(order)
        if kept:
            ctx.orders[seat] = kept
    phase = s.phase
    for step in steps.steps(phase):
        if step == "any_time":
            anytime.run(ctx, None)
        else:
            HANDLERS[(phase, step)](ctx)
        anytime.run(ctx, step)
    flow.advance(ctx)
    s.phase_number += 1
    s.save_rng(ctx.rng)
    return Resolution(s, ctx.events)
