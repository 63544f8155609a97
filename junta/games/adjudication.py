"""Adjudicating a phase, exactly once whatever the broker does.

`adjudicate_phase(phase_id)` runs in one transaction: lock the game row (then the phase), check
the phase is still open (and due, unless the GM forces it), resolve it with the engine, write the
one PhaseResult the phase may ever have (a unique constraint backs this), then either open the
next phase (publish mode) or leave the result as a draft for the GM (review mode). A second
delivery of the same task finds the phase no longer open and does nothing; a crash rolls
everything back and the next sweep retries with the same stored state and orders, so with the
engine's seeded generator the result is the same.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from junta import engine
from junta.games import hooks, repository, revisions
from junta.games.locking import lock_phase
from junta.games.models import AuditEntry, Game, Order, Phase, PhaseResult

log = logging.getLogger(__name__)

ACTIVE_GAME_STATUSES = (Game.Status.NOMINATING, Game.Status.RUNNING)


def due_phase_ids(now: datetime | None = None) -> list[int]:
    """Open phases of active games whose deadline has passed or whose players are all final
    (never a practice campaign's: its player's final mark plays it, `practice.play_on`).

    Two queries whatever the number of campaigns (the minute sweep runs this every minute): the
    open phases, then the final orders of those not yet past their deadline."""
    now = now or timezone.now()
    open_phases = Phase.objects.filter(
        status=Phase.Status.OPEN, game__status__in=ACTIVE_GAME_STATUSES, game__practice=False
    ).values_list("id", "deadline", "owing_seats")
    due: list[int] = []
    owing: dict[int, set[int]] = {}
    for phase_id, deadline, seats in open_phases:
        if deadline <= now:
            due.append(phase_id)
        elif seats:
            owing[phase_id] = set(seats)
    if owing:
        final: dict[int, set[int]] = {}
        for phase_id, seat in Order.objects.filter(phase_id__in=owing, final=True).values_list(
                "phase_id", "player__seat"):
            if seat is not None:
                final.setdefault(phase_id, set()).add(seat)
        due.extend(pid for pid, seats in owing.items() if seats <= final.get(pid, set()))
    return sorted(due)


def is_due(phase: Phase, now: datetime) -> bool:
    return phase.deadline <= now or repository.everyone_final(phase)


def adjudicate_phase(
    phase_id: int, *, now: datetime | None = None, force: bool = False
) -> PhaseResult | None:
    """Resolve the phase if it is still open (and due, unless `force`). Returns the new result,
    or None when there was nothing to do (already resolved, paused, not yet due)."""
    now = now or timezone.now()
    with transaction.atomic():
        game, phase = lock_phase(phase_id)
        # one raise for the dozen rows written: the lock's
        with revisions.raised(game.id, by_lock=True):
            if phase.status != Phase.Status.OPEN:
                return None
            if not force and (game.status not in ACTIVE_GAME_STATUSES or not is_due(phase, now)):
                return None
            log.info("adjudicating %s", phase)
            state = repository.state_before(phase)
            orders, submitted = repository.orders_and_submission(phase)
            resolution = engine.resolve(state, orders, submitted)
            state_after = resolution.state.to_dict()  # serialised once, digested as stored
            drafted = game.review_mode == Game.ReviewMode.REVIEW and not force
            result = PhaseResult.objects.create(
                phase=phase,
                orders_used=repository.orders_as_json(orders),
                events=[repository.event_to_json(event) for event in resolution.events],
                state_after=state_after,
                digest=engine.data_digest(state_after),
                engine_version=engine.ENGINE_VERSION,
                published_at=None if drafted else now,  # `publish` below: no second write
            )
            if settings.JUNTA_FAULT_ADJUDICATION_DELAY:  # crash tests: time to kill the worker
                time.sleep(settings.JUNTA_FAULT_ADJUDICATION_DELAY)
            if drafted:
                phase.status = Phase.Status.DRAFTED
                phase.save(update_fields=["status"])
            else:
                publish(game, phase, result, now)
            log.info("adjudicated %s -> %s", phase, phase.status)
    return result


def publish(game: Game, phase: Phase, result: PhaseResult, now: datetime) -> Phase | None:
    """Make a result public and open the next phase (or finish the game). Inside the caller's
    transaction with the game locked. Returns the new phase, if any."""
    phase.status = Phase.Status.PUBLISHED
    phase.save(update_fields=["status"])
    if result.published_at != now:  # a drafted result (an adjudication stamps its own)
        result.published_at = now
        result.save(update_fields=["published_at"])
    state = repository.state_after(result)
    # read once for the board, the lives and the next phase's names
    players = repository.active_players(game, lives=True)
    repository.write_board(game, state, players)
    # the `hooks` callbacks: lives (deaths, and heirs before the next phase opens) and notify
    # (the results mails, queued for after the commit)
    hooks.phase_published(hooks.PhasePublished(game, phase, result, state, now, players))
    next_phase = None
    if engine.is_finished(state):
        game.status = Game.Status.FINISHED
        game.finished_at = now
    else:
        if game.status == Game.Status.NOMINATING and repository.campaign_running(state):
            game.status = Game.Status.RUNNING
        # the phase published is its campaign's latest, as an open or drafted phase always is
        # (a rollback supersedes it): the next one follows it (were there a later one, the
        # number, unique to the campaign, would fail the publication whole)
        next_phase = repository.open_phase(game, state, now, players, after=phase.number)
    game.state_version += 1
    game.save(update_fields=["status", "finished_at", "state_version"])
    return next_phase


def publish_draft(phase_id: int, by_user_id: int, now: datetime | None = None) -> Phase | None:
    """The GM publishes a drafted result (review mode); the next phase opens."""
    now = now or timezone.now()
    with transaction.atomic():
        game, phase = lock_phase(phase_id)
        if game.gm_id != by_user_id:
            raise PermissionError("Only the campaign's GameMaster publishes results.")
        if phase.status != Phase.Status.DRAFTED:
            return None
        with revisions.raised(game.id, by_lock=True):  # the lock raised the number
            next_phase = publish(game, phase, phase.result, now)
            AuditEntry.objects.create(game=game, actor_id=by_user_id, action="publish",
                                      data={"phase": phase.number})
        return next_phase
