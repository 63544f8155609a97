"""The languages a person may read the site in, and the one he reads it in.

A person's `language` (his profile) is one of `settings.LANGUAGES`, or blank: then the site
follows his browser (the footer's switcher sets a cookie, else its Accept-Language), as it does
for a visitor. What is written to him with no browser to ask (mails, push notifications) is in
his saved language, else the site's (`settings.LANGUAGE_CODE`): `language_of`, and `speaking`
to write in it. Signing up in another language than the site's saves that one, so that his
mails come in the language he signed up in."""

from __future__ import annotations

from contextlib import AbstractContextManager

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _


def language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def is_language(code: str) -> bool:
    return code in language_codes()


def language_choices() -> list[tuple[str, str]]:
    """The profile's choices: the browser's, then each language in its own name."""
    return [("", _("As my browser asks")),
            *((code, translation.get_language_info(code)["name_local"].capitalize())
              for code in language_codes())]


def language_of(user: object) -> str:
    """The language to write to `user` in when no browser is there to ask."""
    saved = getattr(user, "language", "") or ""
    return saved if is_language(saved) else settings.LANGUAGE_CODE


def speaking(user: object) -> AbstractContextManager[None]:
    """Render what is inside in `user`'s language (a mail, a push), whoever's request or task
    it runs in."""
    return translation.override(language_of(user))
