"""Forms for a character: the living one's bio and avatar, or the heir of a dead one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from junta.games.public import MAX_AVATAR_BYTES, validate_avatar


class AvatarField(forms.FileField):
    """An optional avatar, checked by decoding it (PNG, JPEG, GIF or WebP, at most 1 MB)."""

    def __init__(self, **kwargs: Any) -> None:  # Any: Django's field arguments
        kwargs.setdefault("required", False)
        kwargs.setdefault("label", _("Avatar"))
        kwargs.setdefault("help_text", format_lazy(
            _("Optional. PNG, JPEG, GIF or WebP, at most {size} MB."),
            size=MAX_AVATAR_BYTES // 1024 // 1024))
        kwargs.setdefault("widget", forms.ClearableFileInput(
            attrs={"accept": "image/png,image/jpeg,image/gif,image/webp"}))
        super().__init__(**kwargs)

    # Django's signature: the upload (or the initial file, False, None), Any in django-stubs
    def clean(self, data: Any, initial: Any | None = None) -> Any:
        upload = super().clean(data, initial)
        if upload and hasattr(upload, "size") and upload is not initial:
            extension = validate_avatar(upload)
            upload.name = f"avatar.{extension}"
        return upload


class CharacterForm(forms.Form):
    name = forms.CharField(max_length=60, required=False, label=_("Name"),
                           help_text=_("Can change only until the campaign starts."))
    bio = forms.CharField(required=False, max_length=4000, label=_("Biography"),
                          widget=forms.Textarea(attrs={"rows": 5}))
    avatar = AvatarField()

    def __init__(self, *args: Any, forming: bool = False,
                 **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        if not forming:
            del self.fields["name"]


class HeirForm(forms.Form):
    name = forms.CharField(max_length=60, label=_("Your new character's name"),
                           help_text=_("Who returns to public life for your family next turn."))
    bio = forms.CharField(required=False, max_length=4000, label=_("Biography"),
                          widget=forms.Textarea(attrs={"rows": 5}))
    avatar = AvatarField()
