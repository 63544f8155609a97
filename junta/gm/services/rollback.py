"""Rollback to the start of an earlier phase, and the replay check. The rollback is in the shape of
every app's writes (README, Layout): the reason, the lock as the GM, `check_rollback`
(`GMError`, changing nothing), `do_rollback`."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.public import User
from junta.engine import GameState
from junta.games.public import (
    Game,
    Phase,
    campaign_running,
    open_phase,
    resume_after_rollback,
    supersede,
    write_board,
)
from junta.gm.checks import CampaignCheck, check_campaign
from junta.lives.public import restore_lives

from .common import (
    GMError,
    NotTheGM,
    audit,
    given_reason,
    latest_phase,
    lock_as_gm,
    moved_on,
    sound_state_before,
)


@transaction.atomic
def rollback(game_id: int, by: User, to_phase: int, reason: str = "", announcement: str = "",
             now: datetime | None = None, *, current_phase: int | None = None) -> Phase:
    """Go back to the start of an earlier phase: a new phase opens with that phase's starting
    state; the current phase is marked superseded. Nothing is deleted: every earlier phase keeps
    its orders and result; the phases from the target up to the new one count as undone (the
    audit entry's `to_phase` and `new_phase`: `junta.games.rollbacks.undone`). The families' lives
    follow the restored state (`junta.lives.services.restore_lives`). `current_phase` is the
    phase that was current when the GM's form was opened: sent again after the rollback (or
    after the phase moved on), it is refused rather than opening another phase."""
    now = now or timezone.now()
    reason = given_reason(reason)
    game = lock_as_gm(game_id, by)
    current, target, state = check_rollback(game, to_phase, current_phase)
    return do_rollback(game, by, current, target, state, reason, announcement, now)


def check_rollback(game: Game, to_phase: int, current_phase: int | None
                   ) -> tuple[Phase, Phase, GameState]:
    """Whether the campaign may go back to that phase now (`GMError` if not, its state's
    digest checked too): the current phase, locked, the target and its starting state."""
    current = latest_phase(game)
    if current is None:
        raise GMError("The campaign has not started: there is nothing to roll back.")
    if current_phase is not None and current.number != current_phase:
        raise moved_on(game, current_phase)
    target = game.phases.filter(number=to_phase).first()
    if target is None:
        raise GMError(f"There is no phase {to_phase} in this campaign.")
    if target.number >= current.number:
        raise GMError(f"Roll back to an earlier phase: phase {current.number} is the current "
                      "one.")
    return current, target, sound_state_before(target)


@transaction.atomic
def do_rollback(game: Game, by: User, current: Phase, target: Phase, state: GameState,
                reason: str, announcement: str, now: datetime) -> Phase:
    """The current phase superseded, the lives restored, a new phase opened with the target's
    starting state, the board and the clock, the audit entry (the campaign and the phase
    locked)."""
    superseded = None
    if current.status in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        supersede(current)
        superseded = current.number
    # the lives first: the new phase's state takes the families' names from them
    restore_lives(game, state)  # deaths after the target undone, later heirs back to drafts
    new = open_phase(game, state, now)
    status = Game.Status.RUNNING if campaign_running(state) else \
        Game.Status.NOMINATING
    resume_after_rollback(game, status, now)
    write_board(game, state)
    audit(game, by, "rollback", reason=reason, announcement=announcement,
           to_phase=target.number, kind=target.kind, turn=target.turn, new_phase=new.number,
           superseded=superseded, digest=target.state_digest)
    return new


def replay_check(game_id: int, by: User) -> CampaignCheck:
    """Run the replay and the chain check (see `junta.gm.checks`) and note it in the log."""
    game = Game.objects.get(pk=game_id)
    if game.gm_id != by.pk:
        raise NotTheGM("Only the campaign's GameMaster can do this.")
    report = check_campaign(game)
    with transaction.atomic():
        audit(game, by, "replay_check", phases=len(report.replay), ok=report.ok,
               failures=[line.phase_number for line in report.replay if not line.ok],
               changed=[line.phase_number for line in report.changed],
               breaks=[line.number for line in report.chain if not line.ok])
    return report
