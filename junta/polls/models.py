"""A poll of a campaign (or an award, voted at the end), its choices and the players' votes
(docs/rules.md §polls)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

from junta.games.public import Game, Player


class Poll(models.Model):
    class Kind(models.TextChoices):
        POLL = "poll", "Poll"
        AWARD = "award", "Award"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="polls")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.POLL)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="polls")
    question = models.CharField(max_length=200)
    multiple = models.BooleanField(default=False)
    anonymous = models.BooleanField(default=True)
    live = models.BooleanField(default=False)  # results shown while it is open
    closes_at = models.DateTimeField(null=True, blank=True)  # None: until the GM closes it
    closed_at = models.DateTimeField(null=True, blank=True)  # closed by hand
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.question

    def is_closed(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.closed_at is not None or (self.closes_at is not None and self.closes_at <= now)

    def results_visible(self, now: datetime | None = None) -> bool:
        """Results show after closing, or while open only for a live poll (never an award)."""
        return self.is_closed(now) or (self.live and self.kind == Poll.Kind.POLL)


class Choice(models.Model):
    poll = models.ForeignKey(Poll, on_delete=models.CASCADE, related_name="choices")
    label = models.CharField(max_length=120)
    position = models.PositiveSmallIntegerField(default=0)
    # an award's choice is a seated player (no one votes for himself)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="+")

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.label


class Vote(models.Model):
    poll = models.ForeignKey(Poll, on_delete=models.CASCADE, related_name="votes")
    choice = models.ForeignKey(Choice, on_delete=models.CASCADE, related_name="votes")
    voter = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="poll_votes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["choice", "voter"],
                                               name="one_vote_per_choice")]

    def __str__(self) -> str:
        return f"a vote in poll {self.poll_id}"
