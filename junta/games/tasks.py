"""Celery tasks for campaigns: thin wrappers around the services."""

from __future__ import annotations

import logging

from celery import shared_task

from junta.games import adjudication, practice

log = logging.getLogger(__name__)


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(name="junta.games.tasks.adjudicate_phase")  # type: ignore[untyped-decorator]
def adjudicate_phase(phase_id: int) -> str:
    """Adjudicate one due phase; a repeated delivery finds nothing to do."""
    result = adjudication.adjudicate_phase(phase_id)
    return f"phase {phase_id}: {'adjudicated' if result else 'nothing to do'}"


def queue_due_phases() -> list[int]:
    """Send every due phase to the adjudication task; returns their ids. The practice
    campaigns idle for a month are archived on the way (they have no deadline of their own)."""
    try:
        practice.archive_idle_practice()
    except Exception:  # never in the way of the deadlines
        log.exception("could not archive the idle practice campaigns")
    due = adjudication.due_phase_ids()
    for phase_id in due:
        adjudicate_phase.delay(phase_id)
    return due
