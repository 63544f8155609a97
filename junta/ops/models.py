"""Heartbeats: the time each periodic job last ran, so a stalled worker or beat is noticed."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone


class Heartbeat(models.Model):
    """One row per periodic job; `beat()` upserts it each time the job runs."""

    SWEEP = "sweep"

    name = models.CharField(max_length=64, unique=True)
    last_seen = models.DateTimeField()
    runs = models.PositiveBigIntegerField(default=0)
    detail = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} at {self.last_seen:%Y-%m-%d %H:%M:%S} UTC"

    @classmethod
    def beat(cls, name: str, detail: str = "") -> Heartbeat:
        """Record that job `name` ran now (one UPDATE, or an INSERT the first time)."""
        now = timezone.now()
        updated = cls.objects.filter(name=name).update(
            last_seen=now, runs=models.F("runs") + 1, detail=detail
        )
        if not updated:
            cls.objects.get_or_create(
                name=name, defaults={"last_seen": now, "runs": 1, "detail": detail}
            )
        return cls.objects.get(name=name)

    def is_stale(self, now: datetime | None = None) -> bool:
        """True when the job has not run within JUNTA_SWEEP_STALE_AFTER_SECONDS."""
        now = now or timezone.now()
        limit = timedelta(seconds=settings.JUNTA_SWEEP_STALE_AFTER_SECONDS)
        return now - self.last_seen > limit


class StoredFile(models.Model):
    """An upload (an avatar) kept in the database, where every machine of the site reads it
    (`JUNTA_STORAGE=database`, `junta.ops.storage.DatabaseStorage`)."""

    name = models.CharField(max_length=255, unique=True)
    content = models.BinaryField()
    size = models.PositiveIntegerField()
    content_type = models.CharField(max_length=100)
    digest = models.CharField(max_length=64)  # SHA-256 of the content (hex): its ETag
    modified = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.size} bytes)"
