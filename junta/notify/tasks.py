"""Celery tasks for notifications: thin wrappers around `notices`. Every task may run twice
(acks_late: a worker lost mid-task is redelivered); the claims make the second run send
nothing that the first one sent. The notification sweep runs one at a time (a lease row)."""

from __future__ import annotations

import logging
from collections import Counter

from celery import shared_task
from django.conf import settings

from junta.notify import leases, notices, push
from junta.notify.models import Lease

log = logging.getLogger(__name__)


def _summary(outcomes: Counter[str]) -> str:
    return ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items())) or "nothing to send"


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(  # type: ignore[untyped-decorator]
    name="junta.notify.tasks.phase_published", acks_late=True)
def phase_published(phase_id: int) -> str:
    """Queued after the commit that published a phase: its results (mails and pushes), and the
    end of the campaign when it was the last one."""
    outcomes = notices.send_results(phase_id)
    try:
        outcomes += push.results(phase_id)
    except Exception:  # the mails went out: a retry of the task would not send them twice,
        log.exception("the pushes of phase %s failed", phase_id)  # but keep them apart
        outcomes["push errors"] += 1
    return f"phase {phase_id}: {_summary(outcomes)}"


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(  # type: ignore[untyped-decorator]
    name="junta.notify.tasks.push_message", acks_late=True)
def push_message(message_id: int) -> str:
    """Queued after the commit that posted a private message: its push."""
    return f"message {message_id}: {_summary(push.message(message_id))}"


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(  # type: ignore[untyped-decorator]
    name="junta.notify.tasks.push_announcement", acks_late=True)
def push_announcement(announcement_id: int) -> str:
    """Queued after the commit that made a GM announcement: its push."""
    return f"announcement {announcement_id}: {_summary(push.announcement(announcement_id))}"


SWEEP_LEASE = Lease.NOTIFICATION_SWEEP
IN_FLIGHT = "another notification sweep is in flight: nothing to do"


def sweep_lease_seconds() -> int:
    return settings.JUNTA_NOTIFY_SWEEP_LEASE_SECONDS


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(  # type: ignore[untyped-decorator]
    name="junta.notify.tasks.sweep_notifications", acks_late=True)
def sweep_notifications(lease: str | None = None) -> str:
    """Queued by the minute sweep: reminders, digests, starts, absences, late results.

    One at a time: it runs under the lease that `queue_sweep` took for it (`lease`, its token),
    or a free one; a sweep that finds another in flight (one that was queued after this one
    waited past its lease, or one sent by hand) returns at once."""
    seconds = sweep_lease_seconds()
    token = lease if lease and leases.renew(SWEEP_LEASE, lease, seconds) else None
    token = token or leases.acquire(SWEEP_LEASE, seconds)
    if token is None:
        return IN_FLIGHT
    try:
        return _summary(notices.sweep())
    finally:
        leases.release(SWEEP_LEASE, token)


def queue_sweep() -> bool:
    """Called from the beat sweep (junta.ops.tasks.sweep): queue a notification sweep unless
    one is queued or running already. A starved worker thus finds one sweep waiting, not one
    per minute; a sweep that neither ran nor finished within its lease (lost message, killed
    worker) no longer counts, and expires in the queue too. False when none was queued."""
    seconds = sweep_lease_seconds()
    token = leases.acquire(SWEEP_LEASE, seconds)
    if token is None:
        return False
    try:
        sweep_notifications.apply_async(kwargs={"lease": token}, expires=seconds)
    except Exception:
        leases.release(SWEEP_LEASE, token)  # not queued: the next minute tries again
        raise
    return True
