"""Private conversations: two or more people of a campaign (its players, and its GameMaster
when he is asked in), their messages, and how far each member has read.

Who may read what is decided in `junta.talk.access`, never in a page: members read their
conversations; the GameMaster reads the others only where the campaign allows it
(`Game.gm_reads_talk`); once the game is over, a conversation everyone asked agreed to reveal
is public, with the words of those who agreed only (`junta.talk.consent`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from junta.games.public import Game, Player, render_markdown

MAX_MESSAGE = 10000  # characters of Markdown in one message
MAX_SUBJECT = 120


class Conversation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="conversations")
    subject = models.CharField(max_length=MAX_SUBJECT)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_message_at = models.DateTimeField(null=True, blank=True)
    # Set after the end, once its members and those who left after writing in it have agreed
    # (`junta.talk.consent`): the History then shows it to everyone.
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-last_message_at", "-id"]
        indexes = [models.Index(fields=["game", "-last_message_at"], name="talk_game_latest")]

    def __str__(self) -> str:
        return f"{self.subject} ({self.game})"


class Member(models.Model):
    """One person in one conversation: a seated player (`player` set) or the campaign's
    GameMaster (`player` empty). `read_until` is when the last message he has seen was
    written (a time, not an id, so that it means the same after a backup is restored)."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE,
                                     related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="conversation_memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="conversation_memberships")
    name = models.CharField(max_length=60, help_text="How the others see him here.")
    read_until = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    agrees_to_reveal = models.BooleanField(default=False)  # after the end: his words may be shown

    class Meta:
        ordering = ["conversation", "id"]
        constraints = [models.UniqueConstraint(fields=["conversation", "user"],
                                               name="talk_member_once")]

    def __str__(self) -> str:
        return f"{self.name} in {self.conversation_id}"

    @property
    def is_gm(self) -> bool:
        return self.player_id is None


class Message(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE,
                                     related_name="messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="+")
    author_name = models.CharField(max_length=60)
    body = models.TextField(max_length=MAX_MESSAGE)  # the Markdown the author wrote
    body_html = models.TextField(blank=True, editable=False)  # sanitised once, at posting
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conversation", "id"]

    def __str__(self) -> str:
        return f"message {self.pk} in {self.conversation_id}"

    def render(self) -> None:
        self.body_html = str(render_markdown(self.body))
