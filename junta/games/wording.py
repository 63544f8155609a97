"""What the engine says, in the reader's language.

The engine writes each event as `Words`: a message id (its English text with named
placeholders) and typed parameters (names, numbers, cards, places, zones, positions, terms). A
page says it in the active language: the message and the data names through the translation
catalogue, the numbers as the language writes them; a player's name as the engine wrote it.

A message that names nothing (most of the engine's refusals of an order) is its own message
id: it is translated as it stands. So is the text of an event of a campaign played before the
engine wrote words (their stored results have no "words"): a fallback at read time, so no
stored result is rewritten, and a line the catalogue does not hold reads in its stored English.
An event whose translation does not fit its parameters (a placeholder misspelt in the
catalogue) reads in English too, rather than as an error page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext

from junta.engine import Event, Words


def _number(n: int) -> str:
    return number_format(n)


def say(words: Words | None, english: str) -> str:
    """`words` in the active language; `english` (the stored text) when there are none or
    the translation does not fit them."""
    if words is None:
        return gettext(english) if english else english
    try:
        return words.say(gettext, _number)
    except (KeyError, IndexError, ValueError):
        return english


def event_text(event: Event) -> str:
    """An engine event's line, in the reader's language."""
    return say(event.words, event.text)


def stored_event_text(event: Mapping[str, Any]) -> str:  # Any: JSON as the engine wrote it
    """A stored event's line (`PhaseResult.events`), in the reader's language."""
    stored = event.get("words")
    return say(Words.from_dict(stored) if stored else None, str(event.get("text") or ""))


def problem_text(problem: str) -> str:
    """An engine message about an order (`Problem`, or a plain text), in the reader's
    language."""
    return say(getattr(problem, "words", None), str(problem))
