"""The forms of polls: posting one, voting, opening the awards."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from junta.polls.models import Poll
from junta.polls.services import MAX_CHOICES, MIN_CHOICES


class PollForm(forms.Form):
    question = forms.CharField(label=_("Question"), max_length=200)
    choices = forms.CharField(
        label=_("Choices"), widget=forms.Textarea(attrs={"rows": 5}), max_length=2000,
        help_text=format_lazy(_("One choice a line, {min} to {max}."), min=MIN_CHOICES,
                              max=MAX_CHOICES))
    multiple = forms.BooleanField(required=False, label=_("Players may pick several choices"))
    anonymous = forms.BooleanField(required=False, initial=True,
                                   label=_("Anonymous: nobody ever sees who voted what"))
    live = forms.BooleanField(required=False, label=_("Show the results while the poll is open"))
    closes_at = forms.DateTimeField(
        label=_("Closes at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                      format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])

    # Any: Django's form arguments
    def __init__(self, *args: Any, zone: str = "UTC", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = zone
        self.fields["closes_at"].help_text = gettext("Your time zone: %(zone)s.") % {
            "zone": zone}

    def clean_choices(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["choices"].splitlines()]
        lines = [line for line in lines if line]
        if not MIN_CHOICES <= len(lines) <= MAX_CHOICES:
            raise forms.ValidationError(
                gettext("Write %(min)d to %(max)d choices, one a line (%(now)d now).")
                % {"min": MIN_CHOICES, "max": MAX_CHOICES, "now": len(lines)})
        if any(len(line) > 120 for line in lines):
            raise forms.ValidationError(gettext("A choice is at most 120 characters."))
        return lines

    def clean_closes_at(self) -> datetime:
        value: datetime = self.cleaned_data["closes_at"]
        wall = timezone.make_naive(value) if timezone.is_aware(value) else value
        try:
            zone = zoneinfo.ZoneInfo(self.zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            zone = zoneinfo.ZoneInfo("UTC")
        moment = timezone.make_aware(wall, zone)
        if moment <= timezone.now():
            raise forms.ValidationError(gettext("That time is already past."))
        return moment


class VoteForm(forms.Form):
    # the vote the page showed (its choices' ids): a page drawn before the vote changed in
    # another window would otherwise replace that vote without a word
    had = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, poll: Poll, mine: list[int] | None = None,
                 exclude: int | None = None, **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        self.fields["had"].initial = ",".join(str(c) for c in sorted(mine or []))
        choices = [(c.pk, c.label) for c in poll.choices.all()
                   if exclude is None or c.player_id != exclude]
        mine = mine or []
        field: forms.Field
        if poll.multiple:
            field = forms.TypedMultipleChoiceField(
                choices=choices, coerce=int, widget=forms.CheckboxSelectMultiple,
                initial=mine, label=poll.question)
        else:
            field = forms.TypedChoiceField(choices=choices, coerce=int, widget=forms.RadioSelect,
                                           initial=mine[0] if mine else None,
                                           label=poll.question)
        self.fields["choice"] = field

    def chosen(self) -> list[int]:
        value = self.cleaned_data["choice"]
        return list(value) if isinstance(value, list) else [value]

    def replacing(self) -> list[int] | None:
        """The vote the page showed (None from a page that did not say)."""
        had = self.cleaned_data.get("had")
        if had is None or "had" not in self.data:
            return None
        return [int(c) for c in had.split(",") if c.strip().isdigit()]


class AwardsForm(forms.Form):
    extra = forms.CharField(
        required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Your own awards"),
        help_text=_("Optional: one award a line, besides the standard ones."))

    def names(self) -> list[str]:
        return [line.strip()[:200] for line in self.cleaned_data["extra"].splitlines()
                if line.strip()]
