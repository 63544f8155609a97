"""The custom user: logs in by e-mail, has a display name and a home time zone."""

from __future__ import annotations

from typing import ClassVar

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from .timezones import DEFAULT_TIME_ZONE, is_valid_time_zone


def validate_time_zone(value: str) -> None:
    if not is_valid_time_zone(value):
        raise ValidationError(
            _("%(value)r is not an IANA time zone name such as Europe/Madrid."),
            params={"value": value})


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **extra: object) -> User:
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: object) -> User:
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: object) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        if not (extra["is_staff"] and extra["is_superuser"]):
            raise ValueError("A superuser must have is_staff and is_superuser set.")
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    """A person. Game identities (characters) belong to campaigns, not to this row."""

    # Django's documented way to drop an inherited field; the stubs type the fields as str.
    username = None  # type: ignore[assignment]
    first_name = None  # type: ignore[assignment]
    last_name = None  # type: ignore[assignment]
    email = models.EmailField(_("e-mail address"), unique=True)
    display_name = models.CharField(
        max_length=60, blank=True, help_text=_("How other people on the site see you.")
    )
    time_zone = models.CharField(
        max_length=64,
        default=DEFAULT_TIME_ZONE,
        validators=[validate_time_zone],
        help_text=_("Every date and time on the site is shown in this zone."),
    )
    # one of settings.LANGUAGES, or blank: as his browser asks (accounts.languages)
    language = models.CharField(max_length=8, blank=True, default="")

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    # Creates users by e-mail: not the UserManager[User] (username first) the stubs expect.
    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment]

    class Meta:
        ordering = ["email"]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        """The display name, or the part of the e-mail before the @ (never the whole address)."""
        return self.display_name or self.email.split("@", 1)[0]

    def get_full_name(self) -> str:
        return self.public_name

    def get_short_name(self) -> str:
        return self.public_name
