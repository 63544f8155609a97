"""Leases: a job that must run once at a time holds a row (`models.Lease`) until it is done or
its lease expires, whichever comes first.

`acquire()` takes a free or expired lease for a new token; `renew()` lets the holder of a token
keep it (even expired, as long as nobody took it meanwhile); `release()` gives it back. Each
decision is a single INSERT (the unique name lets one caller create the row) or a single
compare-and-set UPDATE whose row count tells the caller whether it won, on SQLite and
PostgreSQL alike.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from junta.notify.models import Lease


def acquire(name: str, seconds: float, now: datetime | None = None) -> str | None:
    """A new token holding lease `name` for `seconds`, or None while someone else holds it."""
    now = now or timezone.now()
    token = uuid.uuid4().hex
    expires = now + timedelta(seconds=seconds)
    if Lease.objects.filter(name=name, expires_at__lte=now).update(holder=token,
                                                                   expires_at=expires):
        return token
    try:
        with transaction.atomic():
            Lease.objects.create(name=name, holder=token, expires_at=expires)
    except IntegrityError:  # the row exists and is held (or another caller just created it)
        return None
    return token


def renew(name: str, token: str, seconds: float, now: datetime | None = None) -> bool:
    """Extend the lease of `token` by `seconds` from now; False when it is no longer his."""
    now = now or timezone.now()
    return bool(Lease.objects.filter(name=name, holder=token).update(
        expires_at=now + timedelta(seconds=seconds)))


def release(name: str, token: str) -> None:
    """Give the lease back (nothing happens if `token` no longer holds it)."""
    Lease.objects.filter(name=name, holder=token).delete()
