"""Manual rulings on the state the current phase starts from.

What a ruling may change, and how, is the engine's (`junta.engine.rulings`: each ruling checks
its arguments and the rules' invariants and returns the new state, or refuses with a message).
Here a ruling is only carried out: the game row and the working phase locked, the form's state
version checked, the new state stored with the board rows, `Game.state_version` bumped so that
open order forms become stale, the phase redrafted when its result waits for review, and one
audit entry written with the GM's reason and announcement.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from accounts.models import User
from junta import engine
from junta.engine import GameState, Ruling, RulingError
from junta.games import repository
from junta.games.models import AuditEntry, Order, Phase

from .common import (
    GMError,
    _audit,
    _bump,
    _check_version,
    _lock,
    _reason,
    _state_before,
    _working_phase,
)
from .review import _redraft_if_drafted

# Audit actions that change the state a phase starts from (the replay check explains a start
# state that differs from the previous result by these).
RULING_ACTIONS = ("money", "card", "location", "unit_add", "unit_remove", "fiat", "replace")


def _rule(game_id: int, by: User, action: str, reason: str, announcement: str,
          ruling: Callable[[GameState], Ruling], state_version: int | None = None
          ) -> AuditEntry:
    """Apply `ruling` (an engine ruling with its arguments) to the state the current phase
    starts from. A form with a stale `state_version` (sent twice, or opened before another
    change) is refused; so is a ruling the engine refuses, with its message."""
    reason = _reason(reason)
    with transaction.atomic():
        game = _lock(game_id, by)
        _check_version(game, state_version)
        phase = _working_phase(game)
        before = _state_before(phase)
        try:
            done = ruling(before)  # the engine's rulings return a new state, `before` intact
        except RulingError as error:
            raise GMError(str(error)) from error
        digest_before = phase.state_digest
        repository.rewrite_state_before(phase, done.state)
        repository.write_board(game, done.state)
        _bump(game)
        draft_digest = _redraft_if_drafted(game, phase)
        return _audit(game, by, action, reason=reason, announcement=announcement,
                      summary=done.summary, phase=phase.number, digest_before=digest_before,
                      digest_after=phase.state_digest, draft_digest=draft_digest,
                      broken_orders=_broken_orders(phase, before, done.state), **done.facts)


def _broken_orders(phase: Phase, before: GameState, after: GameState) -> list[str]:
    """The families whose orders in, valid before the ruling, it leaves impossible (money
    moved from a pocket they draw on, a card they play taken): their players see it on their
    Orders page; the GM is told here."""
    out = []
    for row in Order.objects.filter(phase=phase).select_related("player"):
        seat = row.player.seat
        if seat is None or not row.payload:
            continue
        orders = [engine.parse_order(dict(o)) for o in row.payload]
        if not engine.validate_orders(before, seat, orders) and \
                engine.validate_orders(after, seat, orders):
            out.append(after.name(seat))
    return out


def move_money(game_id: int, by: User, source: str, target: str, amount: int,
               reason: str = "", announcement: str = "", *, state_version: int | None = None
               ) -> AuditEntry:
    """`junta.engine.move_money`: between pockets, bank accounts and out of play."""
    return _rule(game_id, by, "money", reason, announcement,
                 lambda state: engine.move_money(state, source, target, amount), state_version)


def move_card(game_id: int, by: User, card_id: int, target: str, reason: str = "",
              announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """`junta.engine.move_card`: to a hand, into play, onto the discard or the draw pile."""
    return _rule(game_id, by, "card", reason, announcement,
                 lambda state: engine.move_card(state, card_id, target), state_version)


def set_location(game_id: int, by: User, seat: int, location: str | None, reason: str = "",
                 announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """`junta.engine.set_location`: a player's location this turn (or none)."""
    return _rule(game_id, by, "location", reason, announcement,
                 lambda state: engine.set_location(state, seat, location), state_version)


def add_unit(game_id: int, by: User, kind: str, owner: int | None, zone: int,
             armed: bool = True, reason: str = "", announcement: str = "", *,
             state_version: int | None = None) -> AuditEntry:
    """`junta.engine.add_unit`: a unit on the city map during a coup, until it ends."""
    return _rule(game_id, by, "unit_add", reason, announcement,
                 lambda state: engine.add_unit(state, kind, owner, zone, armed), state_version)


def remove_unit(game_id: int, by: User, unit_id: int, reason: str = "",
                announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """`junta.engine.remove_unit`: a unit off the city map during a coup."""
    return _rule(game_id, by, "unit_remove", reason, announcement,
                 lambda state: engine.remove_unit(state, unit_id), state_version)


def budget_by_fiat(game_id: int, by: User, allocations: dict[int, int], reason: str = "",
                   announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """`junta.engine.budget_by_fiat`: the GM's budget in place of the one voted on."""
    return _rule(game_id, by, "fiat", reason, announcement,
                 lambda state: engine.budget_by_fiat(state, allocations), state_version)
