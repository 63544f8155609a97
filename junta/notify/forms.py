"""Forms: notification preferences for a campaign, declaring days away, a device's push
subscription (as the browser gives it) and the events pushed."""

from __future__ import annotations

import binascii
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric import ec
from django import forms
from django.utils import timezone

from junta.notify import push_address
from junta.notify.models import Absence, Preferences, PushChoices
from junta.notify.vapid import b64url_decode

MAX_ABSENCE_DAYS = 60

if TYPE_CHECKING:  # django-stubs' type arguments: Django's ModelForm takes none at run time
    _PreferencesForm = forms.ModelForm[Preferences]
    _AbsenceForm = forms.ModelForm[Absence]
    _PushChoicesForm = forms.ModelForm[PushChoices]
else:
    _PreferencesForm = _AbsenceForm = _PushChoicesForm = forms.ModelForm


class PreferencesForm(_PreferencesForm):
    class Meta:
        model = Preferences
        fields = ["results", "reminder", "reminder_hours", "digest", "campaign", "messages",
                  "absence", "push"]
        help_texts = {
            "results": "After each phase: the public report and your own private lines.",
            "reminder": "Only when you owe orders and have not marked them final.",
            "reminder_hours": "1 to 72 hours.",
            "digest": "Once a day, the speeches of the day before (none on a quiet day).",
            "campaign": "When the campaign begins and when it ends.",
            "messages": "New messages in your private conversations: at most one mail an "
                        "hour for each conversation, none for what you have read.",
            "absence": "When a player who owes orders is away during the phase.",
            "push": "To the devices you turned notifications on in, from your profile (which "
                    "events: there too). Off: this campaign pushes you nothing.",
        }
        widgets = {"reminder_hours": forms.NumberInput(attrs={"min": 1, "max": 72})}

    def __init__(self, *args: Any, is_gm: bool = False,
                 **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        if not is_gm:
            del self.fields["absence"]


class AbsenceForm(_AbsenceForm):
    class Meta:
        model = Absence
        fields = ["starts_on", "ends_on", "note"]
        labels = {"ends_on": "Back after (the last day away)"}
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        help_texts = {"note": "Optional: who plays for you, or how to reach you."}

    def __init__(self, *args: Any, today: date | None = None,
                 **kwargs: Any) -> None:  # Any: Django's form arguments
        """`today`: the date in the player's own zone (absences are whole days there); by
        default in the current zone, the viewer's during a request."""
        super().__init__(*args, **kwargs)
        self.today = today

    def clean(self) -> dict[str, Any]:  # Any: Django's cleaned data
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returned
        start, end = data.get("starts_on"), data.get("ends_on")
        if start and end:
            if end < start:
                self.add_error("ends_on", "The last day away comes before the first.")
            elif end - start > timedelta(days=MAX_ABSENCE_DAYS):
                self.add_error("ends_on", f"Declare at most {MAX_ABSENCE_DAYS} days at a time.")
            elif end < (self.today or timezone.localdate()):
                self.add_error("ends_on", "That absence is already over.")
        return data


P256_POINT = 65  # an uncompressed P-256 public key: 0x04, then x and y (RFC 8291)
AUTH_SECRET = 16  # the browser's authentication secret


def _base64url(value: str, what: str) -> bytes:
    try:
        return b64url_decode(value)
    except (binascii.Error, ValueError) as error:
        raise forms.ValidationError(f"{what} is not base64url.") from error


class PushSubscriptionForm(forms.Form):
    """A browser's push subscription, as its `PushSubscription.toJSON()` gives it (`endpoint`,
    `keys.p256dh`, `keys.auth`, flattened by the view). The endpoint is checked public
    (`push_address`), resolving its host; the keys are checked to be what RFC 8291 needs."""

    endpoint = forms.CharField(max_length=push_address.MAX_ENDPOINT, strip=False)
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=40)

    def clean_endpoint(self) -> str:
        endpoint: str = self.cleaned_data["endpoint"]
        try:
            push_address.check(endpoint)
        except push_address.UnsafeEndpoint as error:
            raise forms.ValidationError(str(error)) from error
        return endpoint

    def clean_p256dh(self) -> str:
        value: str = self.cleaned_data["p256dh"]
        raw = _base64url(value, "The key p256dh")
        if len(raw) != P256_POINT or raw[0] != 4:
            raise forms.ValidationError(
                f"The key p256dh must be an uncompressed P-256 point ({P256_POINT} bytes).")
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError as error:
            raise forms.ValidationError("The key p256dh is not a point of P-256.") from error
        return value

    def clean_auth(self) -> str:
        value: str = self.cleaned_data["auth"]
        if len(_base64url(value, "The secret auth")) != AUTH_SECRET:
            raise forms.ValidationError(f"The secret auth must be {AUTH_SECRET} bytes.")
        return value

    def first_error(self) -> str:
        for field, errors in self.errors.items():
            return f"{field}: {errors[0]}" if field != "__all__" else str(errors[0])
        return "The subscription is not valid."


class PushChoicesForm(_PushChoicesForm):
    """Which events are pushed to the person's devices."""

    class Meta:
        model = PushChoices
        fields = list(PushChoices.EVENTS)
