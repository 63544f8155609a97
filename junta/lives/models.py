"""A family's next character, prepared while the last one lies dead, and the memory of the dead.

The living character is always the `Character` row of the highest life (games.models). A dead
player prepares his heir here, not as a new Character, so that the dead character stays the
family's face (in speeches, reports and the roster) until the engine brings the family back at
the start of the next turn; `services.sync_lives` then turns the draft into the new Character.
"""

from __future__ import annotations

from django.db import models

from junta.games.public import Character, Phase, Player


class HeirDraft(models.Model):
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="heir_draft")
    name = models.CharField(max_length=60)
    bio = models.TextField(blank=True, max_length=4000)
    avatar = models.ImageField(upload_to="avatars/%Y/%m/", blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"heir {self.name} of {self.player}"


class Obituary(models.Model):
    """How and when a character died (the public report line of the death)."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE,
                                     related_name="obituary")
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    turn = models.PositiveSmallIntegerField(default=0)
    text = models.CharField(max_length=500, blank=True)

    class Meta:
        verbose_name_plural = "obituaries"

    def __str__(self) -> str:
        return f"death of {self.character}"
