"""The forms of private conversations: start one, write in one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from junta.games.public import MultilineField, Player
from junta.talk.models import MAX_MESSAGE, MAX_SUBJECT

BODY_HELP = _("Markdown: **bold**, *italic*, > quotes, - lists. Nothing said here is verified.")


class MessageForm(forms.Form):
    body = MultilineField(
        label=_("Your message"), max_length=MAX_MESSAGE,
        widget=forms.Textarea(attrs={"rows": 4}), help_text=BODY_HELP,
        error_messages={"required": _("A message needs some words."),
                        "max_length": _("Your message is %(show_value)s characters long; the "
                                        "limit is %(limit_value)s. Nothing was sent.")},
    )


if TYPE_CHECKING:  # django-stubs' type argument: Django's field takes none at run time
    _PlayerField = forms.ModelMultipleChoiceField[Player]
else:
    _PlayerField = forms.ModelMultipleChoiceField


class PlayerChoices(_PlayerField):
    def label_from_instance(self, obj: Player) -> str:
        character = obj.character
        return character.name if character else obj.user.public_name


class StartForm(forms.Form):
    """Start a conversation: with whom (the other seated players, the GameMaster), a subject,
    the first message. The GameMaster's own form has no "with the GameMaster" box."""

    players = PlayerChoices(
        queryset=Player.objects.none(), required=False, label=_("With"),
        widget=forms.CheckboxSelectMultiple,
    )
    with_gm = forms.BooleanField(required=False, label=_("The GameMaster"))
    subject = forms.CharField(max_length=MAX_SUBJECT, label=_("Subject"),
                              error_messages={"required": _("Give the conversation a subject.")})
    body = MultilineField(
        label=_("First message"), max_length=MAX_MESSAGE,
        widget=forms.Textarea(attrs={"rows": 4}), help_text=BODY_HELP,
        error_messages={"required": _("A message needs some words.")},
    )

    def __init__(self, *args: Any, players: list[Player], gm_form: bool = False,
                 **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, PlayerChoices)
        field.queryset = Player.objects.filter(pk__in=[p.pk for p in players]) \
            .select_related("user").prefetch_related("characters").order_by("seat")
        if gm_form:
            del self.fields["with_gm"]

    def clean(self) -> dict[str, Any]:  # Any: Django's cleaned data
        data = super().clean() or {}
        if "players" in data and not data.get("players") and not data.get("with_gm") \
                and "with_gm" in self.fields:
            self.add_error("players",
                           gettext("Choose at least one other player, or the GameMaster."))
        if "players" in data and not data.get("players") and "with_gm" not in self.fields:
            self.add_error("players", gettext("Choose at least one player."))
        return data
