"""The development mailbox's pages (`/dev/mail/`): for staff, and only where `make run`'s
mailbox holds the mails (devmail.py); anywhere else, and for anyone else, 404 as if the pages
did not exist."""

from __future__ import annotations

from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from junta.ops import devmail

SHOWN = 200


def _directory(request: HttpRequest) -> Path:
    directory = devmail.mailbox_directory()
    if directory is None or not (request.user.is_authenticated and request.user.is_staff):
        raise Http404
    return directory


@never_cache
def mailbox(request: HttpRequest) -> HttpResponse:
    """The mails, newest first (the newest 200), those to one address with ?to=."""
    directory = _directory(request)
    to = request.GET.get("to", "").strip()
    found = devmail.mails(directory, to)
    return render(request, "ops/mailbox.html", {
        "mails": found[:SHOWN], "count": len(found), "to": to, "directory": directory,
        "shown": SHOWN})


@never_cache
def mail(request: HttpRequest, name: str) -> HttpResponse:
    found = devmail.read_mail(_directory(request), name)
    if found is None:
        raise Http404
    return render(request, "ops/mail.html", {"mail": found})
