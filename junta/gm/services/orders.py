"""The orders of the current phase: the GM strikes one, or gives one for a player. In the shape
of every app's writes (README, Layout): the reason, the lock as the GM, `check_<verb>`
(`GMError`, changing nothing), `do_<verb>` (the orders, the redraft, the audit entry)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from accounts.public import User
from junta import engine
from junta.engine import GameState
from junta.games.public import Game, Order, Phase, Player, bump_state_version, rewrite_orders
from junta.gm.selectors import describe

from .common import (
    GMError,
    audit,
    check_version,
    given_reason,
    lock_as_gm,
    player_seat,
    seat_name,
    sound_state_before,
    working_phase,
)
from .review import redraft_if_drafted


def _order_row(phase: Phase, seat: int) -> Order | None:
    return Order.objects.select_for_update(no_key=True).filter(
        phase=phase, player__seat=seat, player__membership=Player.Membership.ACTIVE).first()


@transaction.atomic
def annul_order(game_id: int, by: User, seat: int, index: int, reason: str = "",
                announcement: str = "", *, state_version: int | None = None,
                revision: int | None = None) -> Order:
    """Strike one order from a player's orders for the current phase (redrafted if the phase
    waits for review). `state_version` and `revision` are what the GM's form showed: a form
    sent twice, or a player's orders changed since, is refused (the index would point at
    another order)."""
    reason = given_reason(reason)
    game = lock_as_gm(game_id, by)
    phase, row = check_annul_order(game, seat, index, state_version=state_version,
                                   revision=revision)
    return do_annul_order(game, by, phase, row, seat, index, reason, announcement)


def check_annul_order(game: Game, seat: int, index: int, *, state_version: int | None,
                      revision: int | None) -> tuple[Phase, Order]:
    """Whether that order may be struck now (`GMError` if not): the working phase and the
    player's orders, locked."""
    check_version(game, state_version)
    phase = working_phase(game)
    row = _order_row(phase, seat)
    if row is not None and revision is not None and row.revision != revision:
        raise GMError(f"Seat {seat + 1}'s orders changed since this page was opened: nothing "
                      "was done. Check them and annul again.")
    if row is None or not 0 <= index < len(row.payload):
        raise GMError(f"Seat {seat + 1} has no order number {index + 1} in phase "
                      f"{phase.number}.")
    return phase, row


@transaction.atomic
def do_annul_order(game: Game, by: User, phase: Phase, row: Order, seat: int, index: int,
                   reason: str, announcement: str) -> Order:
    """The order struck, the phase redrafted when it waits for review, the audit entry (the
    campaign, the phase and the orders locked)."""
    state = sound_state_before(phase)
    payload = list(row.payload)
    struck = payload.pop(index)
    rewrite_orders(row, payload)
    bump_state_version(game)
    digest = redraft_if_drafted(game, phase)
    audit(game, by, "annul", reason=reason, announcement=announcement, phase=phase.number,
           seat=seat, order=struck, draft_digest=digest,
           summary=f"{state.name(seat)}'s order {index + 1}: {describe(state, struck)}")
    return row


class GMOrderRefused(GMError):
    """The engine refuses an order the GM gives for a player. `problems` are its keyed messages
    (`junta.engine.Problem`: `.arg` names the argument, `.orders` the positions in the list
    checked); `index` is where the new order stood in that list (after the player's own)."""

    def __init__(self, message: str, problems: Sequence[str], index: int) -> None:
        super().__init__(message)
        self.problems = list(problems)
        self.index = index


@transaction.atomic
# order: an engine Order, or its dict as JSON (Any values, as the engine reads them)
def add_order(game_id: int, by: User, seat: int, order: engine.Order | dict[str, Any],
              reason: str = "",
              announcement: str = "", *, state_version: int | None = None) -> Order:
    """Give an order for a player: an engine `Order` (the panel builds it with the player's
    own order forms), or its dict as the engine reads it. The engine checks it against the
    phase's state together with the player's other orders; a refusal is `GMOrderRefused`, with
    the engine's messages keyed by argument."""
    reason = given_reason(reason)
    game = lock_as_gm(game_id, by)
    checked = check_add_order(game, seat, order, state_version=state_version)
    return do_add_order(game, by, checked, reason, announcement)


@dataclass(frozen=True)
class GivenOrder:
    """An order the GM gives, checked: the phase, the state it starts from, the seat, its
    player and his orders' row (None: none yet), the order and the player's orders with it."""
    phase: Phase
    state: GameState
    seat: int
    player: Player
    row: Order | None
    parsed: engine.Order
    given: list[engine.Order]


def check_add_order(game: Game, seat: int, order: Any, *, state_version: int | None
                    ) -> GivenOrder:
    """Whether the GM may give that order for the seat now (`GMError`, `GMOrderRefused` if
    not). Any: an engine `Order` or its dict, as `add_order` takes it."""
    check_version(game, state_version)
    phase = working_phase(game)
    if isinstance(order, engine.Order):
        parsed = order
    elif isinstance(order, dict):
        try:
            parsed = engine.parse_order(dict(order))
        except engine.OrderError as exc:
            raise GMError(str(exc)) from exc
    else:
        raise GMError("An order is given with its form, not as text.")
    state = sound_state_before(phase)
    player_seat(state, seat)
    player = game.players.filter(seat=seat, membership=Player.Membership.ACTIVE).first()
    if player is None:
        raise GMError(f"Nobody sits at seat {seat + 1}.")
    row = _order_row(phase, seat)
    current = [engine.parse_order(dict(item)) for item in (row.payload if row else [])]
    given = engine.arranged([*current, parsed])  # with a condition: before the fallback
    problems = engine.validate_orders(state, seat, given)
    if problems:
        raise GMOrderRefused("The engine refuses this order for " + seat_name(state, seat)
                             + ": " + "; ".join(problems), problems,
                             next(i for i, o in enumerate(given) if o is parsed))
    return GivenOrder(phase, state, seat, player, row, parsed, given)


@transaction.atomic
def do_add_order(game: Game, by: User, checked: GivenOrder, reason: str,
                 announcement: str) -> Order:
    """The player's orders with the GM's, the phase redrafted when it waits for review, the
    audit entry (the campaign, the phase and the orders locked)."""
    phase, state, seat, parsed = checked.phase, checked.state, checked.seat, checked.parsed
    row = checked.row
    if row is None:
        row = Order(phase=phase, player=checked.player, revision=0, payload=[])
    rewrite_orders(row, [o.to_dict() for o in checked.given])
    bump_state_version(game)
    digest = redraft_if_drafted(game, phase)
    audit(game, by, "order", reason=reason, announcement=announcement, phase=phase.number,
           seat=seat, order=parsed.to_dict(), draft_digest=digest,
           summary=f"for {state.name(seat)}: {describe(state, parsed.to_dict())}")
    return row
