"""Show every time in the signed-in person's own zone, every word in his own language."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from .languages import is_language


class UserTimezoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        zone_name = getattr(user, "time_zone", None) if user and user.is_authenticated else None
        if zone_name:
            try:
                timezone.activate(zoneinfo.ZoneInfo(zone_name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class UserLanguageMiddleware:
    """After Django's LocaleMiddleware (the browser's cookie, then Accept-Language): the
    language a signed-in person saved in his profile wins over his browser's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        saved = getattr(user, "language", "") if user and user.is_authenticated else ""
        if saved and is_language(saved):
            translation.activate(saved)
            request.LANGUAGE_CODE = saved
        return self.get_response(request)
