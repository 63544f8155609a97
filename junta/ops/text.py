"""Control characters: refused in every text the site stores (the edge refuses them in requests,
`junta.ops.middleware`; the API in the JSON it reads, `junta.api.schemas`; the models before
saving, `refuse_control_characters`). A lone surrogate (half of a UTF-16 pair, which JSON may
carry as "\\ud800") is refused with them: it is no character, and no page, database or mail can
hold it."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

# Every C0 control character and DEL (and a lone surrogate): never in an address, a query or a
# cookie.
CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
# In a form field or a stored text, lines and tabs are text: every other C0 character, DEL and a
# lone surrogate.
FIELD_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
# Said of a text that holds one (the API's answer names the field it is in).
REFUSED_TEXT = ("This text holds a control character (such as a NUL byte) or a lone surrogate "
                "(half of a UTF-16 pair, such as \"\\ud800\"). Junta does not take those: "
                "nothing was saved. Remove it and send again.")


def refused_text(text: str) -> bool:
    """Whether `text` holds a character no stored text may (lines and tabs are text)."""
    return FIELD_CONTROL.search(text) is not None


# The project's own apps, whose text fields are checked before each save.
APPS = {"accounts", "api", "games", "gm", "lives", "notify", "ops", "polls", "talk"}


def refuse_control_characters(sender: type[models.Model], instance: models.Model,
                              **kwargs: Any) -> None:  # Any: the signal's arguments (Django)
    """A `pre_save` receiver: no text field of the project's models keeps a control character
    (a NUL cannot even be stored in PostgreSQL). Raises `ValidationError` naming the field."""
    if sender._meta.app_label not in APPS:
        return
    for field in sender._meta.concrete_fields:
        if isinstance(field, (models.CharField, models.TextField)):
            value = getattr(instance, field.attname)
            if isinstance(value, str) and refused_text(value):
                raise ValidationError(
                    f"{sender.__name__}.{field.name} may not hold a control character (such "
                    "as a NUL byte) or a lone surrogate.", code="control_character")
