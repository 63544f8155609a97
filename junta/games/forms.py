"""Forms for forming a campaign: create it (the GM) and join it (a player)."""

from __future__ import annotations

from datetime import time
from typing import Any, Literal

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import MaxValueValidator

from accounts.public import TimeZoneField
from junta.engine import MAX_PLAYERS, MIN_PLAYERS
from junta.games.avatars import validate_avatar
from junta.games.deadlines import DEFAULT_TIME_ZONE
from junta.games.models import MAX_NOTE, MAX_WATCH_DELAY, Game


def watch_fields() -> tuple[forms.BooleanField, forms.IntegerField, forms.BooleanField]:
    """Whether people outside the campaign may watch it, how far behind, and by link without
    an account (`junta.games.watching`): the creation form's fields and the GM's settings'."""
    return (
        forms.BooleanField(
            required=False, label="Spectators may watch",
            help_text="Anyone signed in may follow its public pages (Events, History, the "
                      "families, the map), never a secret or a conversation, and may not "
                      "post or vote."),
        forms.IntegerField(
            min_value=0, max_value=MAX_WATCH_DELAY, initial=1, required=False,
            label="Spectators' delay (published phases)",
            help_text=f"How many published phases behind the players they follow it "
                      f"(0 to {MAX_WATCH_DELAY}): 0 shows each result once published."),
        forms.BooleanField(
            required=False, label="Anyone with the watching link, without an account",
            help_text="The link is shown on your GM panel."),
    )


class CreateGameForm(forms.Form):
    name = forms.CharField(max_length=120, label="Campaign name")
    max_players = forms.TypedChoiceField(
        label="Players", coerce=int, initial=10,
        choices=[(n, f"{n} players") for n in range(MAX_PLAYERS, MIN_PLAYERS - 1, -1)],
    )
    deadline_time = forms.TimeField(
        label="Daily deadline", initial=time(22, 0),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="Each phase ends at this time of day.",
    )
    time_zone = TimeZoneField(
        initial=DEFAULT_TIME_ZONE, label="Deadline time zone",
        help_text="The deadline follows this zone's clock, daylight-saving changes included.",
    )
    review_mode = forms.ChoiceField(
        choices=Game.ReviewMode.choices, initial=Game.ReviewMode.AUTO,
        widget=forms.RadioSelect, label="Results",
    )
    join_policy = forms.ChoiceField(
        choices=Game.JoinPolicy.choices, initial=Game.JoinPolicy.APPROVAL,
        widget=forms.RadioSelect, label="Who may join",
    )
    gm_reads_talk = forms.TypedChoiceField(
        label="Private conversations", coerce=lambda v: v == "yes", initial="no",
        required=False, empty_value=None,  # not answered: private, the safe side
        choices=[("no", "Only their members read them"),
                 ("yes", "The GameMaster may read them too")],
        widget=forms.RadioSelect,
        help_text="Shown to every player before joining; it cannot change later.",
    )
    watchable, watch_delay, watch_by_link = watch_fields()
    nomination_days = forms.IntegerField(
        min_value=1, max_value=7, initial=1, required=False, label="Nominations (days)")
    election_days = forms.IntegerField(
        min_value=1, max_value=7, initial=2, required=False, label="First election (days)",
        help_text="A tied election is voted again in one more day.")
    default_days = forms.IntegerField(
        min_value=1, max_value=7, initial=1, required=False,
        label="Every other phase (days)",
        help_text="The rules' pace is one phase a day.")
    extra_bills_min = forms.IntegerField(min_value=0, max_value=14, initial=0,
                                         label="Hidden extra bills: at least")
    extra_bills_max = forms.IntegerField(
        min_value=0, max_value=14, initial=14, label="Hidden extra bills: at most",
        help_text="The money deck gets a secret number of extra bills in this range (0-14).",
    )

    def clean(self) -> dict[str, Any]:  # Any: Django's cleaned data
        super().clean()
        data = self.cleaned_data  # what Form.clean returned
        low, high = data.get("extra_bills_min"), data.get("extra_bills_max")
        if low is not None and high is not None and low > high:
            self.add_error("extra_bills_max", f"At most {high} is fewer than at least {low}.")
        return data


class JoinGameForm(forms.Form):
    character_name = forms.CharField(
        max_length=60, label="Your first character's name",
        help_text="Who you play in the Republic, e.g. Generalissimo Ramon Cortez.",
    )
    bio = forms.CharField(
        required=False, max_length=4000, label="A short biography",
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    avatar = forms.FileField(
        required=False, label="Avatar",
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/png,image/jpeg,image/gif,image/webp"}
        ),
        help_text="Optional. PNG, JPEG, GIF or WebP, at most 1 MB.",
    )

    def clean_avatar(self) -> UploadedFile[bytes] | Literal[False] | None:
        upload = self.cleaned_data.get("avatar")
        if upload:
            extension = validate_avatar(upload)
            upload.name = f"avatar.{extension}"
        return upload


class MultilineField(forms.CharField):
    """Text from a textarea: a browser sends each line break as CRLF, but counts it as one
    character against the textarea's maxlength, so line breaks are stored as LF before the
    length is checked (a note that fit in the box fits in the database)."""

    def to_python(self, value: object) -> str | None:
        text = super().to_python(value)
        return text.replace("\r\n", "\n").replace("\r", "\n") if text else text


class SpeechForm(forms.Form):
    body = MultilineField(
        label="Your speech", max_length=20000,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="Markdown: **bold**, *italic*, > quotes, - lists, [links](https://...).",
    )
    reply_to = forms.IntegerField(required=False, widget=forms.HiddenInput)


class AnnouncementForm(forms.Form):
    """The GameMaster's free announcement: narration or news, shown on the Events page among
    the speeches, marked as his."""

    body = MultilineField(
        label="Your announcement", max_length=20000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Markdown, as in speeches. Every player reads it on the Events page, marked "
                  "as the GameMaster's.",
    )


class NoteForm(forms.Form):
    """The note to the GM on the Orders page: private, kept with the player's orders."""

    note_to_gm = MultilineField(
        required=False, max_length=MAX_NOTE, label="Anything the GM should know (private)",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=f"Only the GameMaster reads it. At most {MAX_NOTE:,} characters.",
        error_messages={"max_length": "Your note is %(show_value)s characters long; the limit "
                        "is %(limit_value)s. Shorten it: nothing was saved."},
    )


class AndFinalForm(forms.Form):
    """On each of the Orders page's forms that adds an order: the box that marks the orders
    final with it, in one step (`order_intake.change_orders` does both or neither)."""

    and_final = forms.BooleanField(required=False, label="and mark my orders final")


class RepeatForm(forms.Form):
    """The confirmation of the same orders as last time on the Orders page (docs/rules.md
    §repeat-orders): hidden, what the list shown was drawn from (the plan's token, the
    revision of the orders it was drawn beside, the game's state version), so that the service
    refuses it once any of them changed."""

    last_time = forms.CharField(max_length=80, widget=forms.HiddenInput)
    revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    state_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class ReplayStepForm(forms.Form):
    """The replay's slider (a GET form: the step to show, counted from 1)."""

    step = forms.IntegerField(label="Step", min_value=1, required=False)  # a range: no "required"

    def __init__(self, *args: Any, steps: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["step"]
        assert isinstance(field, forms.IntegerField)
        field.max_value = steps
        field.validators.append(MaxValueValidator(steps))
        field.widget = forms.NumberInput(attrs={
            "type": "range", "min": 1, "max": steps, "step": 1, "data-replay-slider": ""})


class PracticeForm(forms.Form):
    """The dashboard's start of a practice campaign against the bots: his family's name and
    how many bot families (`practice.start_practice` checks both again)."""

    family = forms.CharField(max_length=60, label="Your family's name")
    bots = forms.TypedChoiceField(
        label="Bot families", coerce=int, initial=6,
        choices=[(n, str(n)) for n in range(5, 10)])
    style = forms.ChoiceField(label="The bots play", initial="current",
                              choices=Game._meta.get_field("bot_style").choices or [])


class ConfirmForm(forms.Form):
    """A confirmation that asks nothing more than the button: abandoning or restarting a
    practice campaign (the page says what happens first)."""

    confirm = forms.BooleanField(widget=forms.HiddenInput, initial=True)
