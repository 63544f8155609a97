"""The staff health page (is the sweep running?), a plain liveness probe for containers, and the
uploads (avatars), served from wherever they are kept."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.static import serve

from .models import Heartbeat
from .storage import IMAGE_TYPES, on_filesystem, served

# An upload's name is never given to other content while the site runs (a second upload of a
# name gets a name of its own), but a deleted one may come back: kept a day by browsers and
# proxies, then asked again with its ETag.
MEDIA_MAX_AGE = 24 * 3600


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


@require_safe
def media(request: HttpRequest, path: str) -> HttpResponseBase:
    """An upload (an avatar): from MEDIA_ROOT as configured now (tests and deployments change
    it), or from the database or the bucket (JUNTA_STORAGE)."""
    if on_filesystem():
        return serve(request, path, document_root=str(settings.MEDIA_ROOT))
    if ".." in path.split("/") or path.startswith("/"):
        raise Http404
    upload = served(path)
    if upload is None:
        raise Http404
    etag = f'"{upload.etag}"'
    modified = int(upload.modified.timestamp())
    response = get_conditional_response(request, etag=etag, last_modified=modified)
    if response is None:
        inline = upload.content_type in IMAGE_TYPES
        response = HttpResponse(
            upload.content if request.method == "GET" else b"",
            content_type=upload.content_type if inline else "application/octet-stream")
        response["Content-Length"] = str(len(upload.content))
        if not inline:
            response["Content-Disposition"] = "attachment"
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    patch_cache_control(response, public=True, max_age=MEDIA_MAX_AGE)
    return response
