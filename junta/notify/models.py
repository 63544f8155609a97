"""What each person wants to hear about a campaign, what has been sent, the calendar feed's
secret, and the dates a player is away.

`Delivery` is the claim that makes every mail go once: a row per (recipient, kind, key) is
inserted *before* the mail is sent, and a unique constraint lets only one worker insert it (a
claim left unsent past its lease is tried again under the same Message-ID, see `claims`).
`Lease` keeps the notification sweep to one at a time. `ConversationMail` is what the mail of
new private messages told a member of a conversation, and when. `PushDevice` is a browser that
turned push notifications on, `PushChoices` which events its person wants pushed.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from junta.games.public import Game, Player
from junta.talk.public import Member


class Kind(models.TextChoices):
    RESULTS = "results", _("Phase results")
    REMINDER = "reminder", _("Deadline reminders")
    DIGEST = "digest", _("Daily digest of new speeches")
    CAMPAIGN = "campaign", _("Start and end of the campaign, and its awards")
    ABSENCE = "absence", _("Absent players who owe orders (GameMaster)")
    MESSAGES = "messages", _("New private messages")


PLAYER_KINDS = (Kind.RESULTS, Kind.REMINDER, Kind.DIGEST, Kind.CAMPAIGN, Kind.MESSAGES)
DEFAULT_REMINDER_HOURS = 6


class Preferences(models.Model):
    """One person's choices for one campaign (a player's, or the GM's).

    A seated player gets the deadline reminders and each phase's results unless he turns them
    off (one click on the link in every mail, or the campaign's notification settings): a
    player who misses a deadline because nobody told him loses the day for everyone. The daily
    digest, the start and end mails and the mail of new private messages come only if he
    asks. The GM hears about absences
    unless he unsubscribes, and of nothing else unless he asks (`fresh`).

    A row is written when the person saves his choices (or unsubscribes), and for a seated
    player who has none when a mail he gets by default is first due (`notices.recipients`):
    a row is the person's own choice or these defaults, never anything else."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_preferences")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    results = models.BooleanField("Phase results", default=True)
    reminder = models.BooleanField("Deadline reminders", default=True)
    reminder_hours = models.PositiveSmallIntegerField(
        "Remind me this many hours before the deadline", default=DEFAULT_REMINDER_HOURS,
        validators=[MinValueValidator(1), MaxValueValidator(72)])
    digest = models.BooleanField("Daily digest of new speeches", default=False)
    campaign = models.BooleanField("Start and end of the campaign, and its awards",
                                   default=False)
    absence = models.BooleanField("Absent players who owe orders (GameMaster)", default=True)
    messages = models.BooleanField("New private messages", default=False)
    # the campaign's push notifications to his devices (`PushChoices` says which events): on
    # unless he mutes the campaign
    push = models.BooleanField("Push notifications from this campaign", default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="preferences_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"notifications of {self.user} in {self.game}"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, str(kind)))

    @classmethod
    def fresh(cls, game: Game, user_id: int) -> Preferences:
        """The defaults (unsaved) of a person who has not chosen: a player's, or for the
        campaign's GM, the news of absent players only."""
        prefs = cls(game=game, user_id=user_id)
        if game.gm_id == user_id:
            prefs.results = prefs.reminder = False
        return prefs


class Delivery(models.Model):
    """A claimed mail: inserted before sending, so a second attempt finds it and stops."""

    class Status(models.TextChoices):
        SENDING = "sending", "Claimed, being sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed (will be retried)"
        EMPTY = "empty", "Nothing to say (no mail)"

    MAX_ATTEMPTS = 6  # a failed mail is retried after 2, 4, 8, 16 and 32 minutes

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    key = models.CharField(max_length=120)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SENDING)
    attempts = models.PositiveSmallIntegerField(default=1)
    subject = models.CharField(max_length=200, blank=True)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    attempted_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    # The Message-ID header of every attempt at this mail: a retry after a worker died mid-send
    # carries the same one, so a receiver that got the first attempt drops the second.
    message_id = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key"], name="delivery_once"),
        ]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.kind} {self.key} to {self.user} ({self.status})"

    @staticmethod
    def retry_after(attempts: int) -> timedelta:
        """How long a failed mail waits before its next attempt."""
        return timedelta(minutes=2 ** attempts)


class ConversationMail(models.Model):
    """The opt-in mail of new messages (`junta.notify.conversations`) to one person in one
    conversation: when the last message it told him of was written, and when it was sent, so
    that a conversation mails him at most once an hour and never twice about the same message.
    Kept per person: when the GameMaster hands a seat over, the member's row of the conversation
    goes to the newcomer (`junta.talk.services.hand_over`), who has no such row: everything is
    new to him."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    mailed_until = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["member", "id"]
        constraints = [models.UniqueConstraint(fields=["member", "user"],
                                               name="conversation_mail_once")]

    def __str__(self) -> str:
        return f"messages of {self.member} mailed to {self.user_id} until {self.mailed_until}"


class Lease(models.Model):
    """A job that must run once at a time (the notification sweep): whoever holds the row's
    `holder` token until `expires_at` runs it; an expired lease is anyone's to take."""

    NOTIFICATION_SWEEP = "notification-sweep"

    name = models.CharField(max_length=64, unique=True)
    holder = models.CharField(max_length=64)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} held by {self.holder} until {self.expires_at:%Y-%m-%d %H:%M:%S}"


def new_calendar_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarFeed(models.Model):
    """The secret in the address of a person's calendar of deadlines (reset to revoke it)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True, default=new_calendar_token)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar of {self.user}"


class Absence(models.Model):
    """Days a player is away (inclusive, in the player's own time zone)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="absences")
    starts_on = models.DateField("Away from")
    ends_on = models.DateField("Back after")
    note = models.CharField("Note for the GameMaster", max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_on", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")),
                                   name="absence_ends_after_it_starts"),
        ]

    def __str__(self) -> str:
        return f"{self.player} away {self.starts_on} to {self.ends_on}"


class PushDevice(models.Model):
    """One browser (a phone, a laptop) a person turned push notifications on in, from his
    profile: the push service's address for it and the keys its pushes are encrypted to
    (RFC 8291). Removed by its person, or when its push service says it is gone (404, 410).

    The endpoint is where the server will send requests: it is accepted only as an https URL of
    a public host, and checked again before each push (`junta.notify.push_address`). Per
    person, not per campaign: a campaign's file (`archive`) holds none."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_devices")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=40)  # its 16-byte authentication secret, base64url
    label = models.CharField(max_length=80)  # "Chrome on Android", from its User-Agent
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.label} of {self.user}"


class PushChoices(models.Model):
    """Which events a person wants pushed to his devices (every campaign he is in, except those
    he muted: `Preferences.push`). No row: all of them, the defaults below."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="push_choices")
    results = models.BooleanField("A phase's results are published", default=True)
    messages = models.BooleanField("Someone wrote to you in a private conversation",
                                   default=True)
    reminder = models.BooleanField("The deadline is near and you owe orders", default=True)
    announcement = models.BooleanField("The GameMaster made an announcement", default=True)
    awards = models.BooleanField("The awards are open for your vote", default=True)
    updated_at = models.DateTimeField(auto_now=True)

    EVENTS = ("results", "messages", "reminder", "announcement", "awards")

    def __str__(self) -> str:
        return f"push choices of {self.user}"

    def wants(self, event: str) -> bool:
        return bool(getattr(self, event))
