"""Personal API tokens: a person names one, sees its secret once, and sends it as
`Authorization: Bearer <secret>`. Only the secret's sha256 is kept (a stolen database gives no
usable token) and a short prefix, so that he can tell his tokens apart on the tokens page."""

from __future__ import annotations

from django.conf import settings
from django.db import models

MAX_TOKEN_NAME = 60


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=MAX_TOKEN_NAME,
                            help_text="What the token is for: a bot, a script, a phone.")
    prefix = models.CharField(max_length=16, help_text="The secret's first characters.")
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
