"""The changes the GameMaster's panel makes to games' rows: its audit entries, the state version,
the clock (pause, resume, a deadline extended), a drafted result, the settings, a player's
orders, a rollback's superseded phase and campaign status.

The panel (`junta.gm.services`) checks who asks and whether the action is valid, and then calls
these: games' rows change through games only. Each writes what it says and nothing more; the
caller holds the transaction and the game row's lock (`junta.games.locking.lock_game`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from accounts.public import User
from junta.games.models import AuditEntry, Game, Order, Phase, PhaseResult


def record_audit(game: Game, by: User, action: str, *, reason: str, announcement: str,
                 data: dict[str, Any]) -> AuditEntry:  # Any: the entry's JSON data
    """One entry of the campaign's audit log."""
    return AuditEntry.objects.create(game=game, actor=by, action=action, reason=reason,
                                     announcement=announcement, data=data)


def bump_state_version(game: Game) -> None:
    """Open order forms carry the state version: a change makes them stale."""
    game.state_version += 1
    game.save(update_fields=["state_version"])


def stop_clock(game: Game, now: datetime) -> None:
    """The campaign pauses at `now`: no deadline passes until it runs again."""
    game.paused_from = game.status
    game.status = Game.Status.PAUSED
    game.paused_at = now
    game.save(update_fields=["status", "paused_at", "paused_from"])


def restart_clock(game: Game, open_phase: Phase | None, now: datetime) -> None:
    """The paused campaign runs again at `now`; the open phase's deadline (if any) moves by the
    length of the pause."""
    paused_at = game.paused_at
    if open_phase is not None and paused_at:
        open_phase.deadline += now - paused_at
        open_phase.save(update_fields=["deadline"])
    game.status = game.paused_from or Game.Status.RUNNING
    game.paused_at = None
    game.save(update_fields=["status", "paused_at"])


def extend_phase_deadline(phase: Phase, hours: int) -> None:
    """The phase's deadline moves `hours` later."""
    phase.deadline += timedelta(hours=hours)
    phase.save(update_fields=["deadline"])


def keep_draft(phase: Phase, result: PhaseResult | None,
               fields: dict[str, Any]) -> PhaseResult:  # Any: the result's JSON fields
    """The phase's result, unpublished: `result`, the draft it had (None: none yet), rewritten
    with `fields`; the phase waits for review."""
    if result is None:
        result = PhaseResult.objects.create(phase=phase, **fields)
    else:
        for name, value in fields.items():
            setattr(result, name, value)
        result.save(update_fields=list(fields))
    if phase.status != Phase.Status.DRAFTED:
        phase.status = Phase.Status.DRAFTED
        phase.save(update_fields=["status"])
    return result


def change_settings(game: Game, changed: dict[str, Any]) -> None:  # Any: each setting's value
    """The campaign's settings take the `changed` values, checked by the model's validation
    first (its ValidationError raised, nothing saved)."""
    for name, value in changed.items():
        setattr(game, name, value)
    game.full_clean()
    if changed:
        game.save(update_fields=list(changed))


def rewrite_orders(row: Order, payload: list[dict[str, Any]]) -> None:  # Any: orders as JSON
    """A player's orders for the phase become `payload` (the GM struck or gave one), a new
    revision of them."""
    row.payload = payload
    row.revision += 1
    if row.pk is None:
        row.save()
    else:
        row.save(update_fields=["payload", "revision", "submitted_at"])


def supersede(phase: Phase) -> None:
    """A rollback ends the current phase unresolved."""
    phase.status = Phase.Status.SUPERSEDED
    phase.save(update_fields=["status"])


def resume_after_rollback(game: Game, status: str, now: datetime) -> None:
    """After a rollback the campaign is in `status` again (kept for later if it is paused: its
    pause counts from `now`), not finished, and open order forms are stale."""
    if game.status == Game.Status.PAUSED:
        game.paused_from = status
        game.paused_at = now  # the new phase's deadline moves by the pause from now on
    else:
        game.status = status
    game.finished_at = None
    game.state_version += 1
    game.save(update_fields=["status", "paused_from", "paused_at", "finished_at",
                             "state_version"])
