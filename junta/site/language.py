"""The footer's language switcher: a plain form (no script) that posts the language chosen and
the page it was chosen on. Django's `set_language` keeps it in the browser's cookie and goes back
to that page; signed in, it is also saved in his profile, where it wins over any browser's.

A visitor's choice needs no CSRF token (so that every page of a visitor is not given a CSRF
cookie for it): at worst another site makes his browser read Junta in the other language. A
signed-in person's choice writes his profile: his form carries a token, checked as usual."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.public import User, is_language, save_language


@csrf_exempt
@require_POST
def switch_language(request: HttpRequest) -> HttpResponseBase:
    if isinstance(request.user, User):
        return _save_and_switch(request)
    return set_language(request)


@csrf_protect
def _save_and_switch(request: HttpRequest) -> HttpResponseBase:
    code = request.POST.get("language", "")
    if isinstance(request.user, User) and is_language(code):
        save_language(request.user, code)
    response: HttpResponse = set_language(request)
    return response
