"""Refusing control characters at the edge, before any view, session or database sees them.

A NUL byte cannot be stored in a PostgreSQL text column (and other control characters have no
business in a name, a speech or an order), so a request that carries one in its address, its
query, a cookie or a form field is answered 400 with a message and changes nothing. Tab, line
feed and carriage return are allowed in form fields (a speech has lines); nowhere in an address.
The models refuse them too (`junta.ops.text.refuse_control_characters`), for what does not come
through a request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.template.loader import render_to_string

from junta.ops.text import CONTROL, FIELD_CONTROL

# The JSON API's paths, answered in its shape: {"detail": ..., "field": ...} (junta/api/errors.py)
API_PREFIX = "/api/v1/"
MESSAGE = ("Your request holds a control character (such as a NUL byte) in {where}. Junta does "
           "not take those: nothing was saved. Remove it and send again.")


def _bad(texts: Iterable[str], pattern: re.Pattern[str]) -> bool:
    return any(pattern.search(text) for text in texts)


def where_control_characters(request: HttpRequest) -> str | None:
    """Where in `request` a control character is, in words, or None when there is none."""
    if _bad([request.path], CONTROL):
        return "its address"
    if _bad((text for key in request.GET for text in [key, *request.GET.getlist(key)]),
            CONTROL):
        return "its address (the query)"
    if _bad((text for pair in request.COOKIES.items() for text in pair), CONTROL):
        return "a cookie"
    if request.method == "POST" and _bad(
            (text for key in request.POST for text in [key, *request.POST.getlist(key)]),
            FIELD_CONTROL):
        return "a form field"
    return None


class ControlCharacterMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = where_control_characters(request)
        if where is not None and request.path.startswith(API_PREFIX):
            return JsonResponse({"detail": MESSAGE.format(where=where), "field": None},
                                status=400)
        if where is not None:
            return HttpResponseBadRequest(render_to_string("400.html", {
                "message": MESSAGE.format(where=where)}))
        return self.get_response(request)
