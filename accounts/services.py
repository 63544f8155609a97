"""A person's own writes to his account, in the shape of every app's writes (README, Layout):
the form has checked what he gave, the service writes it in one transaction."""

from __future__ import annotations

from django.db import transaction

from .forms import ProfileForm
from .models import User


@transaction.atomic
def save_profile(form: ProfileForm) -> User:
    """His display name and time zone, from a valid profile form whose instance is he."""
    return form.save()
