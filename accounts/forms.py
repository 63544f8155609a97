"""Forms for the profile and for allauth's sign-up (which adds the display name)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .languages import is_language, language_choices
from .models import User
from .timezones import DEFAULT_TIME_ZONE, time_zone_choices

if TYPE_CHECKING:  # django-stubs' type argument: Django's ModelForm takes none at run time
    _ModelForm = forms.ModelForm[User]
else:
    _ModelForm = forms.ModelForm


class TimeZoneField(forms.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:  # Any: Django's field arguments
        kwargs.setdefault("label", _("Time zone"))
        kwargs.setdefault(
            "help_text", _("Deadlines and every other time on the site are shown in this zone.")
        )
        super().__init__(choices=time_zone_choices, **kwargs)


class LanguageField(forms.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:  # Any: Django's field arguments
        kwargs.setdefault("label", _("Language"))
        kwargs.setdefault("help_text", _(
            "The site, your e-mails and your notifications are written in this language."))
        super().__init__(choices=language_choices, required=False, **kwargs)


class SignupForm(forms.Form):
    """Extra fields on allauth's sign-up form (allauth adds e-mail and password)."""

    display_name = forms.CharField(
        max_length=60,
        required=False,
        label=_("Display name"),
        help_text=_("Optional. How other people on the site see you."),
    )
    time_zone = TimeZoneField(initial=DEFAULT_TIME_ZONE)

    def signup(self, request: HttpRequest, user: User) -> None:
        user.display_name = self.cleaned_data.get("display_name", "")
        user.time_zone = self.cleaned_data["time_zone"]
        # signed up in another language than the site's: his mails come in that one
        reading = translation.get_language() or ""
        if is_language(reading) and reading != settings.LANGUAGE_CODE:
            user.language = reading
        user.save(update_fields=["display_name", "time_zone", "language"])


class ProfileForm(_ModelForm):
    time_zone = TimeZoneField()
    language = LanguageField()

    class Meta:
        model = User
        fields = ["display_name", "time_zone", "language"]
        labels = {"display_name": _("Display name")}
