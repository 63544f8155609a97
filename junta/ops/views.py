"""The staff health page (is the sweep running?) and a plain liveness probe for containers."""

from __future__ import annotations

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from .models import Heartbeat


@never_cache
def health(request: HttpRequest) -> HttpResponse:
    """Staff only; anyone else gets 404, as if the page did not exist."""
    if not (request.user.is_authenticated and request.user.is_staff):
        raise Http404
    heartbeats = list(Heartbeat.objects.all())
    sweep = next((hb for hb in heartbeats if hb.name == Heartbeat.SWEEP), None)
    context = {
        "heartbeats": heartbeats,
        "sweep": sweep,
        "sweep_stalled": sweep is None or sweep.is_stale(),
        "now": timezone.now(),
        "database_vendor": connection.vendor,
    }
    return render(request, "ops/health.html", context)


@never_cache
def liveness(request: HttpRequest) -> HttpResponse:
    """`/healthz`: 200 "ok" when the database answers. Says nothing else."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")
