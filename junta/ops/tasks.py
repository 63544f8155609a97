"""Periodic tasks. Thin: each calls a service and returns."""

from celery import shared_task

from .models import Heartbeat


@shared_task(name="junta.ops.tasks.sweep")
def sweep() -> str:
    """Runs every minute from beat: sends each due phase to adjudication, records the heartbeat."""
    from junta.games.tasks import queue_due_phases

    due = queue_due_phases()
    beat = Heartbeat.beat(Heartbeat.SWEEP, detail=f"{len(due)} phase(s) sent to adjudication")
    return f"sweep {beat.runs}: {len(due)} due"
