"""Forms: notification preferences for a campaign, and declaring days away."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils import timezone

from junta.notify.models import Absence, Preferences

MAX_ABSENCE_DAYS = 60

if TYPE_CHECKING:  # django-stubs' type arguments: Django's ModelForm takes none at run time
    _PreferencesForm = forms.ModelForm[Preferences]
    _AbsenceForm = forms.ModelForm[Absence]
else:
    _PreferencesForm = _AbsenceForm = forms.ModelForm


class PreferencesForm(_PreferencesForm):
    class Meta:
        model = Preferences
        fields = ["results", "reminder", "reminder_hours", "digest", "campaign", "messages",
                  "absence"]
        help_texts = {
            "results": "After each phase: the public report and your own private lines.",
            "reminder": "Only when you owe orders and have not marked them final.",
            "reminder_hours": "1 to 72 hours.",
            "digest": "Once a day, the speeches of the day before (none on a quiet day).",
            "campaign": "When the campaign begins and when it ends.",
            "messages": "New messages in your private conversations: at most one mail an "
                        "hour for each conversation, none for what you have read.",
            "absence": "When a player who owes orders is away during the phase.",
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
