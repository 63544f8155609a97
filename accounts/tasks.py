"""The Celery task that sends allauth's mails (confirmation, "an account already exists",
password reset, ...), so that no request waits on the SMTP server.

The account adapter (accounts/adapter.py) renders the mail in the request, where allauth's
templates and links need it, and queues it here as plain JSON data (`message_data`). The sign-up
of a new address and of a registered one thus both queue one task and answer alike; sending
inline would give away, by the response time, which addresses have an account.

Every task may run twice (acks_late: a worker lost mid-send is redelivered); the Message-ID is
fixed when the mail is rendered, so a receiver drops the second copy.
"""

from __future__ import annotations

import smtplib
from email.utils import make_msgid
from typing import TypedDict

from celery import shared_task
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.mail.utils import DNS_NAME


class MailData(TypedDict):
    """A mail as JSON, as Celery carries it to `send_mail_task`."""
    subject: str
    body: str
    content_subtype: str
    from_email: str
    to: list[str]
    cc: list[str]
    bcc: list[str]
    reply_to: list[str]
    headers: dict[str, str]
    alternatives: list[list[str]]  # [content, mimetype]


def message_data(message: EmailMessage) -> MailData:
    """The mail as JSON-ready data for `send_mail_task` (no attachments: allauth has none)."""
    if message.attachments:
        raise ValueError("account mails with attachments cannot be queued")
    headers = dict(message.extra_headers)
    if not any(name.lower() == "message-id" for name in headers):
        headers["Message-ID"] = make_msgid(domain=DNS_NAME)
    alternatives = getattr(message, "alternatives", [])
    return {
        "subject": str(message.subject),  # a lazy text (none of allauth's is) as plain text
        "body": str(message.body),
        "content_subtype": message.content_subtype,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": headers,
        "alternatives": [[alt.content, alt.mimetype] for alt in alternatives],
    }


def build_message(data: MailData) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        data["subject"], data["body"], data["from_email"], data["to"],
        cc=data["cc"], bcc=data["bcc"], reply_to=data["reply_to"], headers=data["headers"],
        alternatives=[(content, mimetype) for content, mimetype in data["alternatives"]],
    )
    message.content_subtype = data["content_subtype"]
    return message


# celery has no type information: its decorator leaves the task untyped (Any)
@shared_task(  # type: ignore[untyped-decorator]
    name="accounts.tasks.send_mail_task",
    acks_late=True,
    # a refused connection or a temporary SMTP error: try again later, not never
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=30,
    retry_backoff_max=600,
    max_retries=6,
)
def send_mail_task(data: MailData) -> str:
    """Send one mail rendered by the account adapter."""
    build_message(data).send()
    return f"sent {data['subject']!r} to {len(data['to'])} recipient(s)"
