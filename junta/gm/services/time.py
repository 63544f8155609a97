"""Time: the GM starts the campaign, pauses and resumes its clock, extends a deadline.

Each is one transaction with the game row locked and one audit entry, which says in words what
happened to the clock ("the clock stopped in phase 4 with 3 hours to go"): in the shape of every
app's writes (README, Layout), the service locks (`lock_as_gm`), `check_<verb>` raises
`GMError`, changing nothing, `do_<verb>` writes and audits.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.timesince import timeuntil

from accounts.public import User
from junta.games.public import Game, Phase, extend_phase_deadline, restart_clock, stop_clock
from junta.games.public import start_campaign as start_running

from .common import GMError, audit, given_reason, latest_phase, lock_as_gm, still_on

MAX_EXTENSION_HOURS = 24 * 14


def _length(start: datetime, end: datetime) -> str:
    """A length of time in words ("3 hours, 12 minutes"; "0 minutes" when none)."""
    return timeuntil(end, start).replace("\xa0", " ") if end > start else "0 minutes"


@transaction.atomic
def pause(game_id: int, by: User, reason: str = "", announcement: str = "",
          now: datetime | None = None) -> Game:
    """Stop the clock: no deadline passes and no orders are taken until the GM resumes."""
    now = now or timezone.now()
    reason = given_reason(reason, required=False)
    game = lock_as_gm(game_id, by)
    check_pause(game)
    return do_pause(game, by, reason, announcement, now)


def check_pause(game: Game) -> None:
    if game.status not in (Game.Status.NOMINATING, Game.Status.RUNNING):
        raise GMError("Only a running campaign can be paused.")


@transaction.atomic
def do_pause(game: Game, by: User, reason: str, announcement: str, now: datetime) -> Game:
    """The clock stopped, and the audit entry saying where (the campaign locked)."""
    stop_clock(game, now)
    phase = latest_phase(game)
    if phase is not None and phase.status == Phase.Status.OPEN:
        summary = (f"the clock stopped in phase {phase.number} with "
                   f"{_length(now, phase.deadline)} to go")
    else:
        summary = "the clock stopped"
    audit(game, by, "pause", reason=reason, announcement=announcement, summary=summary,
           phase=phase.number if phase else None)
    return game


@transaction.atomic
def resume(game_id: int, by: User, reason: str = "", announcement: str = "",
           now: datetime | None = None) -> Game:
    """Start the clock again: the deadline of the open phase moves by the length of the
    pause."""
    now = now or timezone.now()
    reason = given_reason(reason, required=False)
    game = lock_as_gm(game_id, by)
    check_resume(game)
    return do_resume(game, by, reason, announcement, now)


def check_resume(game: Game) -> None:
    if game.status != Game.Status.PAUSED:
        raise GMError("The campaign is not paused.")


@transaction.atomic
def do_resume(game: Game, by: User, reason: str, announcement: str, now: datetime) -> Game:
    """The clock running again, the open phase's deadline moved by the pause, and the audit
    entry saying by how much (the campaign locked)."""
    paused_at = game.paused_at
    phase = latest_phase(game)
    open_phase = phase if phase is not None and phase.status == Phase.Status.OPEN else None
    restart_clock(game, open_phase, now)
    paused = _length(paused_at, now) if paused_at else "an unknown time"
    if open_phase is not None:
        summary = (f"running again after a pause of {paused}; phase {open_phase.number}'s deadline "
                   "moved by as much")
    else:
        summary = f"running again after a pause of {paused}"
    audit(game, by, "resume", reason=reason, announcement=announcement, summary=summary,
           phase=phase.number if phase else None,
           paused_seconds=int((now - paused_at).total_seconds()) if paused_at else None)
    return game


@transaction.atomic
def extend_deadline(game_id: int, by: User, hours: int, reason: str = "",
                    announcement: str = "", *, phase_number: int | None = None,
                    deadline_shown: datetime | None = None) -> Phase:
    """Move the open phase's deadline `hours` later (1 hour to 14 days). `phase_number` is the
    phase whose deadline the GM's form showed: once that phase is over (its deadline passed
    while he typed), the form is refused rather than moving the next phase's deadline; and
    `deadline_shown`, the deadline it showed: once moved since (the form sent twice, another
    window), refused rather than extending twice."""
    reason = given_reason(reason, required=False)
    game = lock_as_gm(game_id, by)
    phase = check_extend_deadline(game, hours, phase_number, deadline_shown)
    return do_extend_deadline(game, by, phase, hours, reason, announcement)


def check_extend_deadline(game: Game, hours: int, phase_number: int | None,
                          deadline_shown: datetime | None) -> Phase:
    """Whether the deadline may be extended so now (`GMError` if not): the open phase, locked."""
    if not 1 <= hours <= MAX_EXTENSION_HOURS:
        raise GMError("Extend by 1 hour to 14 days.")
    phase = latest_phase(game)
    still_on(game, phase, phase_number, Phase.Status.OPEN)
    if phase is None or phase.status != Phase.Status.OPEN:
        raise GMError("There is no open phase to extend.")
    if deadline_shown is not None and deadline_shown != phase.deadline:
        raise GMError("The deadline has moved since this page was drawn (the form was sent "
                      "twice, or from another window): nothing was done. Check it and extend "
                      "again.")
    return phase


@transaction.atomic
def do_extend_deadline(game: Game, by: User, phase: Phase, hours: int, reason: str,
                       announcement: str) -> Phase:
    """The deadline moved and the audit entry (the campaign and the phase locked)."""
    extend_phase_deadline(phase, hours)
    audit(game, by, "extend", reason=reason, announcement=announcement, hours=hours,
           phase=phase.number, summary=f"phase {phase.number}'s deadline extended by {hours} "
                                       f"hour{'s' if hours != 1 else ''}")
    return phase


def start_campaign(game_id: int, by: User, now: datetime | None = None) -> Phase:
    """Seat order is fixed and the nomination phase opens (`campaigns.start_campaign`)."""
    return start_running(game_id, by, now=now)
