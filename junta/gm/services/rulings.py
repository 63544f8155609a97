"""Manual rulings on the state the current phase starts from.

What a ruling may change, and how, is the engine's: `junta.engine.ruling_options` says which
rulings the state admits and with which values, and `junta.engine.rule` carries one out as
offered (each ruling checks its arguments and the rules' invariants and returns the new state,
or refuses with messages keyed by argument). Here a ruling is only carried out: the game row and
the working phase locked, the form's state version checked, the new state stored with the board
rows, `Game.state_version` bumped so that open order forms become stale, the phase redrafted
when its result waits for review, and one audit entry written with the GM's reason and
announcement.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction

from accounts.public import User
from junta import engine
from junta.engine import GameState, Problem, Ruling, RulingError
from junta.games.public import (
    AuditEntry,
    Game,
    Order,
    Phase,
    bump_state_version,
    rewrite_state_before,
    write_board,
)
from junta.gm.actions import PAGE_RULINGS

from .common import (
    GMError,
    audit,
    check_version,
    given_reason,
    lock_as_gm,
    sound_state_before,
    working_phase,
)
from .review import redraft_if_drafted


class RulingRefused(GMError):
    """The engine refuses a ruling: `problems` are its messages keyed by the ruling's argument
    (`junta.engine.Problem.arg`; None for the ruling as a whole), for the form's fields."""

    def __init__(self, message: str, problems: tuple[Problem, ...]) -> None:
        super().__init__(message)
        self.problems = problems


@transaction.atomic
def _rule(game_id: int, by: User, action: str, reason: str, announcement: str,
          ruling: Callable[[GameState], Ruling], state_version: int | None = None
          ) -> AuditEntry:
    """Apply `ruling` (an engine ruling with its arguments) to the state the current phase
    starts from. A form with a stale `state_version` (sent twice, or opened before another
    change) is refused; so is a ruling the engine refuses, with its messages."""
    reason = given_reason(reason)
    game = lock_as_gm(game_id, by)
    phase, before, done = check_rule(game, ruling, state_version)
    return do_rule(game, by, action, phase, before, done, reason, announcement)


def check_rule(game: Game, ruling: Callable[[GameState], Ruling], state_version: int | None
               ) -> tuple[Phase, GameState, Ruling]:
    """Whether the ruling may be carried out now (`GMError`, `RulingRefused` if not): the
    working phase, locked, the state it starts from and the engine's ruling on it."""
    check_version(game, state_version)
    phase = working_phase(game)
    before = sound_state_before(phase)
    try:
        done = ruling(before)  # the engine's rulings return a new state, `before` intact
    except RulingError as error:
        raise RulingRefused(str(error), error.problems) from error
    return phase, before, done


@transaction.atomic
def do_rule(game: Game, by: User, action: str, phase: Phase, before: GameState, done: Ruling,
            reason: str, announcement: str) -> AuditEntry:
    """The ruled state stored with the board, the phase redrafted when it waits for review,
    the audit entry with the orders the ruling broke (the campaign and the phase locked)."""
    digest_before = phase.state_digest
    rewrite_state_before(phase, done.state)
    write_board(game, done.state)
    bump_state_version(game)
    draft_digest = redraft_if_drafted(game, phase)
    return audit(game, by, action, reason=reason, announcement=announcement,
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


# values: the ruling's arguments, as the engine's `rule` takes them (Any values there)
def rule(game_id: int, by: User, kind: str, values: Mapping[str, Any], reason: str = "",
         announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """The ruling `kind` of the Rulings page with `values` (its arguments by name), carried out
    by the engine as `junta.engine.ruling_options` offers it (`junta.engine.rule`)."""
    if kind not in PAGE_RULINGS:
        raise GMError(f"There is no ruling {kind!r} on the Rulings page.")
    return _rule(game_id, by, kind, reason, announcement,
                 lambda state: engine.rule(state, kind, values), state_version)


# --- each ruling by name, for callers that know which ----------------------------------------

def move_money(game_id: int, by: User, source: str, target: str, amount: int,
               reason: str = "", announcement: str = "", *, state_version: int | None = None
               ) -> AuditEntry:
    """Between pockets, bank accounts and out of play."""
    return rule(game_id, by, "money", {"source": source, "target": target, "amount": amount},
                reason, announcement, state_version=state_version)


def move_card(game_id: int, by: User, card_id: int, target: str, reason: str = "",
              announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """To a hand, into play, onto the discard or the draw pile."""
    return rule(game_id, by, "card", {"card": card_id, "target": target}, reason,
                announcement, state_version=state_version)


def set_location(game_id: int, by: User, seat: int, location: str | None, reason: str = "",
                 announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """A player's location this turn (or none)."""
    return rule(game_id, by, "location", {"seat": seat, "location": location}, reason,
                announcement, state_version=state_version)


def add_unit(game_id: int, by: User, kind: str, owner: int | None, zone: int,
             armed: bool | None = None, reason: str = "", announcement: str = "", *,
             state_version: int | None = None) -> AuditEntry:
    """A unit of one of the rules' kinds on the city map during a coup, until it ends."""
    return rule(game_id, by, "unit_add", {"kind": kind, "owner": owner, "zone": zone,
                                          "armed": armed},
                reason, announcement, state_version=state_version)


def remove_unit(game_id: int, by: User, unit_id: int, reason: str = "",
                announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """A unit off the city map during a coup."""
    return rule(game_id, by, "unit_remove", {"unit": unit_id}, reason, announcement,
                state_version=state_version)


def budget_by_fiat(game_id: int, by: User, allocations: dict[int, int], reason: str = "",
                   announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """The GM's budget in place of the one voted on."""
    return rule(game_id, by, "fiat", {"allocations": allocations}, reason, announcement,
                state_version=state_version)
