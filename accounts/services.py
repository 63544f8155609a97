"""A person's own writes to his account, in the shape of every app's writes (README, Layout):
the form has checked what he gave, the service writes it in one transaction."""

from __future__ import annotations

from django.db import transaction

from .forms import ProfileForm
from .languages import is_language
from .models import User


@transaction.atomic
def save_profile(form: ProfileForm) -> User:
    """His display name, time zone and language, from a valid profile form whose instance is
    he."""
    return form.save()


@transaction.atomic
def save_language(user: User, code: str) -> None:
    """The language he chose in the footer's switcher ("" for his browser's)."""
    if code and not is_language(code):
        raise ValueError(f"{code!r} is not one of the site's languages")
    User.objects.filter(pk=user.pk).update(language=code)
    user.language = code
