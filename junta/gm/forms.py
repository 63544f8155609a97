"""The panel's forms. A ruling's form is built from the engine's offer
(`junta.engine.ruling_options`): its lists hold the engine's values and labels; the engine checks
the ruling again when it is carried out (a form only reads what was sent)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.public import TimeZoneField
from junta.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ArgOption,
    GameState,
    PhaseKind,
    RulingOption,
    Shape,
    Status,
)
from junta.games.public import EngineValue, Game, Phase, form_prefix, token, watch_fields
from junta.gm.templatetags.gm_tags import phase_title

REASON_HELP = _("Goes into the audit log, for the GM's eyes only.")
ANNOUNCE_HELP = _("Optional, in Markdown: shown to every player on the Events page.")
REASON_LABEL = _("Reason")
OPTIONAL_REASON_LABEL = _("Reason (optional)")
ANNOUNCE_LABEL = _("Announcement")
STALE_MESSAGE = _("This form is out of date: reload the page.")


def reason_field(required: bool = True, rows: int | None = 2) -> forms.CharField:
    return forms.CharField(
        max_length=4000, required=required, help_text=REASON_HELP,
        label=REASON_LABEL if required else OPTIONAL_REASON_LABEL,
        widget=forms.Textarea(attrs={"rows": rows}) if rows else forms.TextInput)


def announcement_field() -> forms.CharField:
    return forms.CharField(max_length=4000, required=False, help_text=ANNOUNCE_HELP,
                           label=ANNOUNCE_LABEL, widget=forms.Textarea(attrs={"rows": 2}))


def set_choices(form: forms.Form, name: str, choices: Sequence[tuple[str, str]]) -> None:
    """The choices of one of the form's choice fields (`form.fields` holds them as Fields)."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


def error_lines(form: forms.BaseForm) -> list[str]:
    """Each error with the label of its field ("Reason: This field is required.")."""
    lines = []
    for name, errors in form.errors.items():
        text = " ".join(str(e) for e in errors)
        if name == "__all__" or name not in form.fields or form.fields[name].widget.is_hidden:
            lines.append(text)
        else:
            lines.append(f"{form[name].label}: {text}")
    return lines


class RulingForm(forms.Form):
    """Every ruling has a reason (the audit log) and may have a public announcement. It carries
    the game's `state_version` from when the page was drawn: the services refuse a form sent
    twice, or one opened before another change."""

    state_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput, error_messages={
        "required": STALE_MESSAGE, "invalid": STALE_MESSAGE})
    reason = reason_field()
    announcement = announcement_field()

    def __init__(self, data: Mapping[str, Any] | None = None, *, prefix: str | None = None,
                 version: int | None = None, **kwargs: Any) -> None:  # Any: Django's
        super().__init__(data, prefix=prefix or self.prefix_name, **kwargs)
        self.fields["state_version"].initial = version
        # the reason and announcement come last
        for name in ("reason", "announcement"):
            self.fields[name] = self.fields.pop(name)

    prefix_name = "ruling"


def seat_choices(state: GameState, *, living: bool = False) -> list[tuple[str, str]]:
    return [(str(p.seat), f"{p.name} (seat {p.seat + 1})") for p in state.players
            if not living or p.status == Status.ALIVE]


class OfferedRulingForm(RulingForm):
    """One of the engine's rulings on offer now (`junta.engine.ruling_options`) as a form, its
    prefix the ruling's kind ("money"): a list for each argument with the engine's values and
    labels (never free text for what the engine names), a number box within the engine's
    bounds, one box per row of a table (a budget's players), a text box for what the GM
    writes (a name). `values()` reads a valid form back in the engine's terms; `place` puts
    each of the engine's messages next to the field of the argument it is about."""

    def __init__(self, option: RulingOption, data: Mapping[str, Any] | None = None, *,
                 version: int | None = None, **kwargs: Any) -> None:  # Any: Django's
        super().__init__(data, prefix=option.kind, version=version, **kwargs)
        self.option = option
        self._tokens: dict[str, dict[str, EngineValue]] = {}  # field name -> token -> value
        self._rows: dict[str, list[tuple[EngineValue, str]]] = {}  # a table's arg -> fields
        start = option.defaults()
        for arg in option.args:
            self._add_arg(arg, start.get(arg.name))
        for text in option.texts:
            self.fields[text.name] = forms.CharField(
                label=text.label, max_length=text.max_length, required=text.required,
                help_text=text.help)
        for name in ("reason", "announcement"):  # the GM's own fields come last
            self.fields[name] = self.fields.pop(name)

    def _add_arg(self, arg: ArgOption, initial: EngineValue) -> None:
        if arg.shape is Shape.ONE:
            tokens = {token(c.value): c.value for c in arg.choices}
            listed = [(token(c.value), c.label) for c in arg.choices]
            if arg.blank is not None:
                tokens[""] = None
                listed.insert(0, ("", arg.blank))
            self._tokens[arg.name] = tokens
            message = f"{arg.label}: %(value)s is not among the options offered now."
            self.fields[arg.name] = forms.TypedChoiceField(
                label=arg.label, choices=listed, coerce=tokens.__getitem__, empty_value=None,
                required=arg.blank is None, initial=token(initial), help_text=arg.help,
                error_messages={"invalid_choice": message,
                                "required": f"{arg.label}: choose one of the options offered."})
        elif arg.shape is Shape.NUMBER:
            self.fields[arg.name] = self._number(arg, arg.label, initial, arg.required)
        elif arg.shape is Shape.TABLE:
            cells = initial or {}
            rows = self._rows.setdefault(arg.name, [])
            for key in arg.keys:
                name = f"{arg.name}_{token(key.value)}"
                self.fields[name] = self._number(arg, key.label, cells.get(key.value), False)
                rows.append((key.value, name))
        else:  # pragma: no cover - the engine offers no other shape of ruling argument
            raise ValueError(f"a ruling argument of shape {arg.shape}")

    @staticmethod
    def _number(arg: ArgOption, label: str, initial: EngineValue, required: bool
                ) -> forms.IntegerField:
        low = arg.minimum if arg.minimum is not None else 0
        top = f" to {arg.maximum}" if arg.maximum is not None else " or more"
        message = f"{label}: give a whole number from {low}{top}."
        return forms.IntegerField(
            label=label, min_value=arg.minimum, max_value=arg.maximum, required=required,
            initial=initial, help_text=arg.help if label == arg.label else "",
            error_messages={key: message for key in ("invalid", "required", "min_value",
                                                     "max_value")})

    def values(self) -> dict[str, EngineValue]:
        """The ruling's arguments by name, as the engine takes them."""
        data = self.cleaned_data
        out: dict[str, EngineValue] = {}
        for arg in self.option.args:
            if arg.name in self._rows:
                out[arg.name] = {key: data[name] for key, name in self._rows[arg.name]
                                 if data.get(name)}
            else:
                out[arg.name] = data.get(arg.name)
        for text in self.option.texts:
            out[text.name] = data.get(text.name, "")
        return out

    def place(self, problems: Sequence[str]) -> None:
        """Each of the engine's messages (`junta.engine.Problem`) next to its argument's
        field; about a table (a budget) or the ruling as a whole, on top of the form."""
        for problem in problems:
            arg = getattr(problem, "arg", None)
            self.add_error(arg if arg in self.fields else None, str(problem))


class AnnulForm(RulingForm):
    prefix_name = "annul"
    seat = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    revision = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class GMOrderForm(RulingForm):
    """The GM's own fields on an order he gives for a player (one of the player's order forms,
    `junta.games.order_forms.OrderForm`): the reason, the announcement and the game's
    `state_version`. Each option's form has a prefix of its own (`gm_prefix`), so the ids of
    the page's many forms differ."""

    prefix_name = "gm-order"


def gm_prefix(key: str) -> str:
    """The prefix of the GM's order form for option `key`: "gm-order-pay" (the player's own
    is "order-pay")."""
    return "gm-" + form_prefix(key)


def gm_fields_prefix(key: str) -> str:
    """The prefix of the GM's own fields on that form: "gm-order-pay-ruling"."""
    return gm_prefix(key) + "-ruling"


class PhaseField(forms.IntegerField):
    """The phase a form was drawn for (hidden): sent again once the campaign has moved on, the
    services refuse it."""

    def __init__(self) -> None:
        super().__init__(min_value=1, widget=forms.HiddenInput, error_messages={
            "required": STALE_MESSAGE, "invalid": STALE_MESSAGE})


class RollbackForm(forms.Form):
    current_phase = PhaseField()
    to_phase = forms.TypedChoiceField(coerce=int, label=_("Back to the start of phase"))
    reason = reason_field()
    announcement = announcement_field()

    def __init__(self, *args: Any, phases: list[Phase] | None = None, current: int | None = None,
                 **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        self.fields["current_phase"].initial = current
        set_choices(self, "to_phase", [
            (str(p.number), f"{p.number}: "
             + (gettext("turn %(turn)s") % {"turn": p.turn} + ", " if p.turn else "")
             + phase_title(p.kind)) for p in (phases or [])])


class TimeForm(forms.Form):
    """Pause and resume (prefixes "pause" and "resume", so their ids differ)."""

    reason = reason_field(required=False, rows=None)
    announcement = announcement_field()


class ExtendForm(TimeForm):
    phase = PhaseField()  # the deadline the GM read: once that phase is over, refused
    # ... and that deadline itself: once it has moved (the form sent twice, another window),
    # refused too
    deadline = forms.DateTimeField(widget=forms.HiddenInput, required=False)
    hours = forms.IntegerField(min_value=1, max_value=24 * 14, initial=24, label=_("Hours"))

    field_order = ["phase", "deadline", "hours", "reason", "announcement"]

    def __init__(self, *args: Any, phase: int | None = None, deadline: datetime | None = None,
                 **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        self.fields["phase"].initial = phase
        self.fields["deadline"].initial = deadline.isoformat() if deadline else None


class AdjudicateForm(forms.Form):
    phase = PhaseField()
    reason = reason_field(required=False, rows=None)

    # Any: Django's form arguments
    def __init__(self, *args: Any, phase: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["phase"].initial = phase


class ReplaceForm(forms.Form):
    email = forms.EmailField(label=_("The newcomer's e-mail address"),
                             help_text=_("The newcomer needs an account on the site."))
    character_name = forms.CharField(
        max_length=60, required=False, label=_("Character name"),
        help_text=_("Leave empty to play on as the same character."))
    reason = reason_field(rows=None)
    announcement = forms.CharField(max_length=4000, required=False, help_text=ANNOUNCE_HELP,
                                   label=ANNOUNCE_LABEL)


class PublishForm(forms.Form):
    phase = PhaseField()
    announcement = announcement_field()

    # Any: Django's form arguments
    def __init__(self, *args: Any, phase: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["phase"].initial = phase


class SettingsForm(forms.Form):
    """The campaign's settings (`services.update_settings` says which may change when)."""

    review_mode = forms.ChoiceField(choices=Game.ReviewMode.choices, widget=forms.RadioSelect,
                                    label=_("Results"))
    deadline_time = forms.TimeField(
        label=_("Daily deadline"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    time_zone = TimeZoneField(label=_("Deadline time zone"),
                              help_text=_("New deadlines follow this zone's clock."))
    nomination_days = forms.IntegerField(min_value=1, max_value=7, label=_("Nominations (days)"))
    election_days = forms.IntegerField(min_value=1, max_value=7,
                                       label=_("First election (days)"))
    default_days = forms.IntegerField(min_value=1, max_value=7, label=_("Every other phase (days)"))
    min_hours = forms.IntegerField(
        min_value=0, max_value=72, label=_("Shortest phase (hours)"),
        help_text=_("A new phase never closes sooner than this after it opens."))
    players_may_poll = forms.BooleanField(
        required=False, label=_("Players may post polls"),
        help_text=_("Otherwise only you post them; the players always vote."))
    archived_publicly = forms.BooleanField(
        required=False, label=_("List in the archive when finished"),
        help_text=_("Once the campaign is over, its end report is listed in the archive of "
                    "finished campaigns and may be read by anyone with its link, without an "
                    "account."))
    watchable, watch_delay, watch_by_link = watch_fields()
    join_policy = forms.ChoiceField(choices=Game.JoinPolicy.choices, widget=forms.RadioSelect,
                                    label=_("Who may join"), required=False)
    max_players = forms.TypedChoiceField(
        coerce=int, label=_("Players"), required=False,
        choices=[(n, format_lazy(_("{n} players"), n=n))
                 for n in range(MAX_PLAYERS, MIN_PLAYERS - 1, -1)])
    extra_bills_min = forms.IntegerField(min_value=0, max_value=14, required=False,
                                         label=_("Hidden extra bills: at least"))
    extra_bills_max = forms.IntegerField(min_value=0, max_value=14, required=False,
                                         label=_("Hidden extra bills: at most"))

    # the settings as the page showed them: a page drawn before another window saved would
    # otherwise set back every setting that window changed
    drawn = forms.CharField(required=False, widget=forms.HiddenInput)

    FORMING_ONLY = ("join_policy", "max_players", "extra_bills_min", "extra_bills_max")
    STALE = _("The settings changed since this page was drawn (in another window?): nothing "
              "was saved. They are shown below as they stand now; make your change again.")

    def __init__(self, data: Mapping[str, Any] | None = None, *, game: Game, **kwargs: Any
                 ) -> None:  # Any: Django's form arguments
        days = game.phase_days or {}
        initial = {
            "review_mode": game.review_mode, "deadline_time": game.deadline_time,
            "time_zone": game.time_zone, "min_hours": game.min_hours,
            "players_may_poll": game.players_may_poll,
            "archived_publicly": game.archived_publicly,
            "watchable": game.watchable, "watch_delay": game.watch_delay,
            "watch_by_link": game.watch_by_link,
            "nomination_days": game.days_for(PhaseKind.NOMINATION),
            "election_days": game.days_for(PhaseKind.ELECTION),
            "default_days": int(days.get("default", 1)),
            "join_policy": game.join_policy, "max_players": game.max_players,
            "extra_bills_min": game.extra_bills_min, "extra_bills_max": game.extra_bills_max,
        }
        self.now_drawn = hashlib.sha256(repr(sorted(initial.items())).encode()).hexdigest()[:20]
        super().__init__(data, initial={**initial, "drawn": self.now_drawn}, **kwargs)
        if game.status != Game.Status.FORMING:
            for name in self.FORMING_ONLY:
                del self.fields[name]

    def stale(self) -> bool:
        """Whether the form was drawn from settings that have changed since."""
        return self.is_bound and self.data.get("drawn") != self.now_drawn

    def changes(self) -> dict[str, Any]:  # Any: Django's cleaned data
        data = dict(self.cleaned_data)
        data.pop("drawn", None)
        days = {PhaseKind.NOMINATION.value: data.pop("nomination_days"),  # plain JSON keys
                PhaseKind.ELECTION.value: data.pop("election_days"),
                "default": data.pop("default_days")}
        data["phase_days"] = days
        return {k: v for k, v in data.items() if v is not None and v != ""}
