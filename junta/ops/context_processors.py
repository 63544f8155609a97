"""Tell staff on every page when the minute sweep has stopped."""

from __future__ import annotations

from django.http import HttpRequest

from .models import Heartbeat


def sweep_status(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated and user.is_staff):
        return {}
    sweep = Heartbeat.objects.filter(name=Heartbeat.SWEEP).first()
    return {"sweep_stalled": sweep is None or sweep.is_stale(), "sweep_heartbeat": sweep}
