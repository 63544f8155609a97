"""allauth's account adapter: every mail of allauth is rendered in the request and sent by a
Celery task (accounts.tasks), never over SMTP inside the request.

Together with the sign-up form (accounts.signup), this makes the sign-up of a registered
address (allauth, with ACCOUNT_PREVENT_ENUMERATION on, sends that address an "account already
exists" mail instead) do the same work as that of a new one: one password hash, one mail
queued, the same answer. Its response time no longer tells which addresses have an account.

A mail is written in its recipient's language: the one his account saved, else the language of
the request that asks for it (the person at the browser who signed up or forgot his password).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.contrib.sites.shortcuts import get_current_site
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import translation

from .languages import is_language
from .models import User
from .tasks import message_data, send_mail_task


def queue_mail(message: EmailMessage) -> None:
    """Queue `message` for a worker once the current transaction (if any) has committed: a
    rolled-back request sends nothing. A broker that refuses the task fails the request, on
    every path alike, rather than leaving someone waiting for a mail that never comes."""
    data = message_data(message)
    transaction.on_commit(lambda: send_mail_task.delay(data))


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth is untyped (Any)
    # Any: allauth's context for its mail templates
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # allauth's own send_mail, with the last step (message.send()) handed to Celery
        request = allauth_context.request
        ctx = {"request": request, "email": email, "current_site": get_current_site(request)}
        ctx.update(context)
        with translation.override(recipient_language(email)):
            queue_mail(self.render_mail(template_prefix, email, ctx))


def recipient_language(email: str) -> str | None:
    """The language his account saved (one query, whether the address has an account or not),
    else the request's."""
    saved = User.objects.filter(email__iexact=email).values_list("language", flat=True).first()
    return saved if saved and is_language(saved) else translation.get_language()
