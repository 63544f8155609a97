"""The request a signed-in view handles, for the type checker."""

from __future__ import annotations

from django.http import HttpRequest

from .models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is signed in: the annotation of views behind `login_required`
    (or a check of their own), so that `request.user` is a `User` rather than possibly an
    `AnonymousUser`. Never instantiated: Django passes its own request object."""

    user: User
