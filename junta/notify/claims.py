"""Claim a mail before sending it, so that it goes at most once per person and event.

`claim()` INSERTs the Delivery row (the unique constraint on (user, kind, key) lets exactly one
caller create it); whoever did not create it stops. A mail whose sending failed (SMTP refused,
server down) is marked FAILED and, after a growing pause, may be claimed again by a
compare-and-set UPDATE on its status and attempt count: the row count tells each contender
whether it won.

Each claim is a lease: a worker killed between the claim and `mark_sent` leaves the row SENDING,
and once it has been so for JUNTA_MAIL_CLAIM_LEASE_SECONDS a later sweep claims it again the
same way. We cannot know whether the server got the first attempt, so every attempt carries the
Message-ID stored in the row when it was first claimed: a receiver that has the first one
drops the second. Once per Message-ID, then, rather than never twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from email.utils import make_msgid, parseaddr

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from junta.notify.models import Delivery


def claim_lease() -> timedelta:
    """How long a claimed mail may stay unsent before another worker may try it again."""
    return timedelta(seconds=settings.JUNTA_MAIL_CLAIM_LEASE_SECONDS)


def new_message_id() -> str:
    """A Message-ID in the sender's domain, e.g. `<170...@example.org>`."""
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "localhost"
    return make_msgid(idstring="junta", domain=domain)


def _retry_due(delivery: Delivery, now: datetime) -> bool:
    if delivery.attempts >= Delivery.MAX_ATTEMPTS:
        return False
    if delivery.status == Delivery.Status.FAILED:
        return delivery.attempted_at <= now - Delivery.retry_after(delivery.attempts)
    if delivery.status == Delivery.Status.SENDING:  # its worker died (or hangs) mid-send
        return delivery.attempted_at <= now - claim_lease()
    return False


def claim(user_id: int, game_id: int, kind: str, key: str,
          now: datetime | None = None) -> Delivery | None:
    """The Delivery row to send under, or None when the mail is someone else's (or done)."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            delivery, created = Delivery.objects.get_or_create(
                user_id=user_id, kind=kind, key=key,
                defaults={"game_id": game_id, "status": Delivery.Status.SENDING,
                          "attempted_at": now, "message_id": new_message_id()},
            )
    except IntegrityError:  # lost the race to insert (get_or_create re-reads; belt and braces)
        return None
    if created:
        return delivery
    if not _retry_due(delivery, now):
        return None
    won = Delivery.objects.filter(
        pk=delivery.pk, status=delivery.status, attempts=delivery.attempts,
    ).update(status=Delivery.Status.SENDING, attempts=F("attempts") + 1, error="",
             attempted_at=now, message_id=delivery.message_id or new_message_id())
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
    """Sent is sent, whichever attempt (a slow one past its lease, or its retry) says so."""
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.SENT, subject=subject[:200], sent_at=timezone.now())


def _still_ours(delivery: Delivery) -> QuerySet[Delivery]:
    """The row while this attempt holds the claim (not sent by a parallel attempt, and not
    claimed again after our lease ran out)."""
    return Delivery.objects.filter(pk=delivery.pk, status=Delivery.Status.SENDING,
                                   attempts=delivery.attempts)


def mark_failed(delivery: Delivery, error: str) -> None:
    _still_ours(delivery).update(status=Delivery.Status.FAILED, error=error[:500])


def mark_empty(delivery: Delivery) -> None:
    _still_ours(delivery).update(status=Delivery.Status.EMPTY)
