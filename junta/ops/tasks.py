"""Periodic tasks. Thin: each calls a service and returns."""

from celery import shared_task

from junta.games.public import queue_due_phases
from junta.notify.public import queue_sweep

from .models import Heartbeat


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(name="junta.ops.tasks.sweep")  # type: ignore[untyped-decorator]
def sweep() -> str:
    """Runs every minute from beat, on the adjudication queue (never behind the mail): sends
    each due phase to adjudication, queues the notification sweep for the mails due by the clock
    (reminders, digests, absences; each claimed) unless one is queued or running already,
    records the heartbeat."""
    due = queue_due_phases()
    queue_sweep()
    beat = Heartbeat.beat(Heartbeat.SWEEP, detail=f"{len(due)} phase(s) sent to adjudication")
    return f"sweep {beat.runs}: {len(due)} due"
