"""Rendering and sending one notification: plain text and HTML from templates, in the
recipient's own time zone and language (whoever's request or task sends it), with a signed
unsubscribe link that needs no login.

`deliver()` is the only way a notification leaves: it claims the mail first (see `claims`), then
builds it, then sends it by the configured mailer (SMTP from the environment, or the console).
"""

from __future__ import annotations

import email.message
import email.policy
import logging
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.public import User, speaking
from junta.games.public import Game
from junta.notify import claims
from junta.notify.models import Kind, Preferences

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "junta.notify.unsubscribe"
SUBJECT_PREFIX = "[Junta] "


def site_url(path: str) -> str:
    """An absolute link for a mail (mails have no request to build one from)."""
    return f"{settings.SITE_URL}{path}"


def unsubscribe_token(prefs: Preferences, kind: str) -> str:
    """A signed (preferences, kind) pair: whoever holds it may turn that kind of mail off."""
    return signing.dumps({"p": prefs.pk, "k": str(kind)}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """(preferences id, kind) from a token; raises signing.BadSignature when tampered with."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(data, dict) or data.get("k") not in Kind.values \
            or not isinstance(data.get("p"), int):
        raise signing.BadSignature("not an unsubscribe token")
    return data["p"], data["k"]


def unsubscribe_url(prefs: Preferences, kind: str) -> str:
    return site_url(reverse("notify_unsubscribe", args=[unsubscribe_token(prefs, kind)]))


# Headers whose value is one <URL> that must reach the reader as it is: RFC 2369 and 8058 allow
# no encoded-words in them, which is what the 78-column folding of email.policy.SMTP (the policy
# Django's SMTP backend serialises with) makes of a long signed link.
UNFOLDED_HEADERS = frozenset({"list-unsubscribe", "list-unsubscribe-post"})
MAX_LINE = 998  # RFC 5322 2.1.1: the hard limit of a line in a message


class ListHeaderPolicy(email.policy.EmailPolicy):
    """The policy it is given (SMTP's, the default...), except that the List-Unsubscribe headers
    are written on one line of up to 998 octets instead of being folded into encoded-words."""

    @classmethod
    def based_on(cls, policy: email.policy.Policy | None) -> email.policy.Policy | None:
        if isinstance(policy, cls) or not isinstance(policy, email.policy.EmailPolicy):
            return policy
        return cls(**vars(policy))  # every setting of `policy` (linesep, utf8...) kept

    def _unfolded(self, name: str) -> bool:
        return name.lower() in UNFOLDED_HEADERS and 0 < (self.max_line_length or 0) < MAX_LINE

    def _wide(self) -> email.policy.EmailPolicy:
        return email.policy.EmailPolicy(**{**vars(self), "max_line_length": MAX_LINE})

    def fold(self, name: str, value: str) -> str:
        # typeshed leaves EmailPolicy.fold's return unannotated (Any): it is the folded str
        if self._unfolded(name):
            return cast(str, self._wide().fold(name, value))
        return cast(str, super().fold(name, value))

    def fold_binary(self, name: str, value: str) -> bytes:
        if self._unfolded(name):
            return self._wide().fold_binary(name, value)
        return super().fold_binary(name, value)


class NotificationMessage(EmailMultiAlternatives):
    """A notification: whatever policy the mailer serialises with, List-Unsubscribe goes out as
    a plain `<https://...>`."""

    def message(self, *, policy: email.policy.Policy | None = email.policy.default
                ) -> email.message.EmailMessage:
        return super().message(policy=ListHeaderPolicy.based_on(policy))


def user_zone(user: User) -> zoneinfo.ZoneInfo:
    return zone_named(user.time_zone)


def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """A person's zone by its name (the site's when he chose none, UTC when it is unknown)."""
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


@dataclass
class Mail:
    """A notification ready to render: templates `notify/mail/<template>.txt` and `.html`."""

    template: str
    subject: str
    context: dict[str, object] = field(default_factory=dict)


def render(mail: Mail, user: User, prefs: Preferences, kind: str,
           message_id: str = "") -> EmailMultiAlternatives:
    """The message for one person, every time in his own zone (named in the text). With a
    `message_id` (its claim's), every attempt at the same mail carries the same one."""
    link = unsubscribe_url(prefs, kind)
    zone = user_zone(user)
    context = {
        **mail.context,
        "recipient": user,
        "zone_name": zone.key,
        "unsubscribe_url": link,
        "settings_url": site_url(reverse("game_notifications", args=[prefs.game_id])),
        "kind_label": Kind(kind).label,
        "site_url": settings.SITE_URL,
    }
    with timezone.override(zone):
        text = render_to_string(f"notify/mail/{mail.template}.txt", context)
        html = render_to_string(f"notify/mail/{mail.template}.html", context)
    message = NotificationMessage(
        subject=SUBJECT_PREFIX + " ".join(mail.subject.split()),  # one line, whatever names hold
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
            **({"Message-ID": message_id} if message_id else {}),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


SENT, EMPTY, SKIPPED, FAILED = "sent", "empty", "skipped", "failed"


def deliver(user: User, game: Game, kind: str, key: str, prefs: Preferences,
            build: Callable[[], Mail | None], now: datetime | None = None) -> str:
    """Claim (user, kind, key), build the mail and send it. Returns SENT; EMPTY when `build`
    had nothing to say; SKIPPED when the mail was already claimed; FAILED when sending failed
    (the claim is released for a later retry). A worker killed in between leaves the claim to
    run out its lease (see `claims`): a later sweep sends it again, with the same Message-ID."""
    delivery = claims.claim(user.pk, game.pk, kind, key, now)
    if delivery is None:
        return SKIPPED
    try:
        with speaking(user):  # subject and body in his language, not the sender's
            mail = build()
            if mail is None:
                claims.mark_empty(delivery)
                return EMPTY
            message = render(mail, user, prefs, kind, delivery.message_id)
        message.send()
    except Exception as error:  # any failure releases the claim for a retry
        log.warning("mail %s %s to user %s failed: %s", kind, key, user.pk, error)
        claims.mark_failed(delivery, f"{type(error).__name__}: {error}")
        return FAILED
    claims.mark_sent(delivery, mail.subject)
    log.info("mail %s %s sent to user %s", kind, key, user.pk)
    return SENT
