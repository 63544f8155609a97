"""Celery tasks for campaigns: thin wrappers around the services."""

from __future__ import annotations

from celery import shared_task

from junta.games import adjudication


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(name="junta.games.tasks.adjudicate_phase")  # type: ignore[untyped-decorator]
def adjudicate_phase(phase_id: int) -> str:
    """Adjudicate one due phase; a repeated delivery finds nothing to do."""
    result = adjudication.adjudicate_phase(phase_id)
    return f"phase {phase_id}: {'adjudicated' if result else 'nothing to do'}"


def queue_due_phases() -> list[int]:
    """Send every due phase to the adjudication task; returns their ids."""
    due = adjudication.due_phase_ids()
    for phase_id in due:
        adjudicate_phase.delay(phase_id)
    return due
