"""Claim a mail before sending it, so that it goes at most once per person and event.

`claim()` INSERTs the Delivery row (the unique constraint on (user, kind, key) lets exactly one
caller create it); whoever did not create it stops. A mail whose sending failed (SMTP refused,
server down) is marked FAILED and, after a growing pause, may be claimed again by a
compare-and-set UPDATE on its status and attempt count: the row count tells each contender
whether it won. A worker killed between the claim and the SMTP conversation leaves the row
SENDING: that mail is never retried, because we cannot know whether the server got it, and
never twice is the promise.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from junta.notify.models import Delivery


def _retry_due(delivery: Delivery, now: datetime) -> bool:
    return (delivery.status == Delivery.Status.FAILED
            and delivery.attempts < Delivery.MAX_ATTEMPTS
            and delivery.attempted_at <= now - Delivery.retry_after(delivery.attempts))


def claim(user_id: int, game_id: int, kind: str, key: str,
          now: datetime | None = None) -> Delivery | None:
    """The Delivery row to send under, or None when the mail is someone else's (or done)."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            delivery, created = Delivery.objects.get_or_create(
                user_id=user_id, kind=kind, key=key,
                defaults={"game_id": game_id, "status": Delivery.Status.SENDING,
                          "attempted_at": now},
            )
    except IntegrityError:  # lost the race to insert (get_or_create re-reads; belt and braces)
        return None
    if created:
        return delivery
    if not _retry_due(delivery, now):
        return None
    won = Delivery.objects.filter(
        pk=delivery.pk, status=Delivery.Status.FAILED, attempts=delivery.attempts,
    ).update(status=Delivery.Status.SENDING, attempts=F("attempts") + 1, error="",
             attempted_at=now)
    if won != 1:
        return None
    delivery.refresh_from_db()
    return delivery


def already_claimed(kind: str, key: str, user_ids: Iterable[int],
                    now: datetime | None = None) -> set[int]:
    """Which of these people have nothing more to receive for (kind, key): their mail was sent,
    is being sent, had nothing to say, or failed and is not yet due for another attempt."""
    now = now or timezone.now()
    rows = Delivery.objects.filter(kind=kind, key=key, user_id__in=list(user_ids))
    return {row.user_id for row in rows if not _retry_due(row, now)}


def mark_sent(delivery: Delivery, subject: str) -> None:
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.SENT, subject=subject[:200], sent_at=timezone.now())


def mark_failed(delivery: Delivery, error: str) -> None:
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.FAILED, error=error[:500])


def mark_empty(delivery: Delivery) -> None:
    Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.EMPTY)
