"""The development mailbox: where `make run` (development mode, JUNTA_DEV) puts every mail when
no SMTP server is set, instead of printing it whole to the terminal.

Each mail is written to a file of its own under `var/mail/` (`20261126-204001-123456-1a2b3c4d.eml`,
its name in the order sent) and announced by one line in the terminal: to whom, its subject and the
address of the staff-only page that shows it (`/dev/mail/`, `mailbox_views`). Production never
configures this backend, and the pages answer 404 without it.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage as ParsedMail
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage
from django.urls import reverse
from django.utils import timezone

BACKEND = "junta.ops.devmail.MailboxBackend"
FILE_NAME = re.compile(r"^[0-9]{8}-[0-9]{6}-[0-9]{6}-[0-9a-f]{8}\.eml$")
logger = logging.getLogger("junta.mail")


class MailboxBackend(BaseEmailBackend):
    """Writes each mail to `directory` (OPTIONS) and logs one line about it."""

    def __init__(self, *, directory: str, **kwargs: Any) -> None:  # Any: Django's options
        super().__init__(**kwargs)
        self.directory = Path(directory)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        self.directory.mkdir(parents=True, exist_ok=True)
        for message in email_messages:
            name = f"{timezone.now():%Y%m%d-%H%M%S-%f}-{uuid.uuid4().hex[:8]}.eml"
            (self.directory / name).write_bytes(message.message().as_bytes())
            logger.info("mail to %s: %s  %s%s", ", ".join(message.recipients()),
                        message.subject, settings.SITE_URL, reverse("dev_mail", args=[name]))
        return len(email_messages)


@dataclass(frozen=True)
class Mail:
    """One mail of the mailbox as its pages show it."""
    name: str
    to: str
    subject: str
    date: datetime | None
    text: str


def mailbox_directory() -> Path | None:
    """The folder of the development mailbox, or None where mail goes elsewhere (production,
    an SMTP server, the tests' own outbox)."""
    mailer: dict[str, Any] = settings.MAILERS.get("default", {})  # Any: Django's settings
    if mailer.get("BACKEND") != BACKEND:
        return None
    return Path(mailer["OPTIONS"]["directory"])


def read_mail(directory: Path, name: str, *, body: bool = True) -> Mail | None:
    """The mail `name` (a file name the backend made), or None if there is none such."""
    path = directory / name
    if not FILE_NAME.match(name) or not path.is_file():
        return None
    with path.open("rb") as raw:
        parsed = BytesParser(policy=policy.default).parse(raw, headersonly=not body)
    assert isinstance(parsed, ParsedMail)
    text = ""
    if body:
        part = parsed.get_body(preferencelist=("plain", "html"))
        text = part.get_content() if part is not None else ""
    date = parsed["Date"].datetime if parsed["Date"] is not None else None
    return Mail(name=name, to=str(parsed["To"] or ""), subject=str(parsed["Subject"] or ""),
                date=date, text=text)


def mails(directory: Path, to: str = "") -> list[Mail]:
    """Every mail of the mailbox, newest first; with `to`, those whose To names it."""
    found = []
    names = sorted((p.name for p in directory.glob("*.eml")), reverse=True) \
        if directory.is_dir() else []
    for name in names:
        mail = read_mail(directory, name, body=False)
        if mail is not None and to.lower() in mail.to.lower():
            found.append(mail)
    return found
