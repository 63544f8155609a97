"""Celery tasks for notifications: thin wrappers around `notices`. Every task may run twice
(acks_late: a worker lost mid-task is redelivered); the claims make the second run send
nothing that the first one sent."""

from __future__ import annotations

from celery import shared_task

from junta.notify import notices


def _summary(outcomes) -> str:  # noqa: ANN001 - a Counter
    return ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items())) or "nothing to send"


@shared_task(name="junta.notify.tasks.phase_published", acks_late=True)
def phase_published(phase_id: int) -> str:
    """Queued after the commit that published a phase: its results, and the end of the
    campaign when it was the last one."""
    return f"phase {phase_id}: {_summary(notices.send_results(phase_id))}"


@shared_task(name="junta.notify.tasks.sweep_notifications", acks_late=True)
def sweep_notifications() -> str:
    """Queued by the minute sweep: reminders, digests, starts, absences, late results."""
    return _summary(notices.sweep())


def queue_sweep() -> None:
    """Called from the beat sweep (junta.ops.tasks.sweep)."""
    sweep_notifications.delay()
