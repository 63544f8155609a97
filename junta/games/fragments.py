"""The entries of the Events page (speeches, the GameMaster's announcements) drawn once, then
read from the "drawings" cache.

A campaign that talks all day changes its content revision with every speech, so its Events
page is drawn anew at nearly every visit (`page_cache`); what is on it, though, is mostly what
was there before. Each entry is kept as HTML under a key (`cache_keys.content_key`) that hashes
everything it is drawn from: the row's kind, id, time, speaker and stored HTML (a speech's
Markdown is rendered and sanitised once, when posted), the speech it answers, whether it is new
to this reader and whether he may answer it, the time zone it is written in, and the code and
templates that draw it. A new speech is one new entry to draw; the others are read back. An
entry holds nothing secret (every reader of the page reads it), and since its key names every
input of its drawing, a reader is never served an entry drawn otherwise than his own would be."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from junta.games.cache_keys import content_key
from junta.games.models import Speech
from junta.games.selectors import EventsItem

_HERE = Path(__file__).parent
TEMPLATE = "games/_events_item.html"
# the code and templates an entry is drawn with: a change in any draws every entry anew
CODE_VERSION = hashlib.sha256(b"".join((_HERE / name).read_bytes() for name in (
    "fragments.py", "templates/games/_events_item.html",
    "templatetags/local_times.py"))).hexdigest()[:16]
SECONDS = 24 * 3600


def entry_key(entry: EventsItem, *, may_reply: bool) -> str:
    """The cache key of an Events entry as drawn for a reader (see the module's text)."""
    item = entry.item
    made_of: list[object] = [CODE_VERSION, entry.kind, item.pk, entry.created_at.isoformat(),
                             entry.new, timezone.get_current_timezone_name()]
    if isinstance(item, Speech):
        reply_to = item.reply_to
        made_of += [item.game_id, item.speaker, item.body_html, may_reply, item.reply_to_id,
                    reply_to.speaker if reply_to is not None else None]
    else:  # the GM's announcement, or his action's
        made_of += [item.game_id, getattr(item, "body_html", None),
                    getattr(item, "announcement_html", None)]
    return content_key("events-entry", *made_of)


def drawn_entries(entries: list[EventsItem], *, may_reply: bool) -> list[SafeString]:
    """Each entry's HTML, in order, as `games/_events_item.html` draws it for this reader
    (`may_reply`: the page shows him the links to answer a speech). Those in the cache cost
    no drawing; the others are drawn and kept."""
    if not entries:
        return []
    keys = [entry_key(entry, may_reply=may_reply) for entry in entries]
    cache = caches["drawings"]
    kept = cache.get_many(keys)
    new = {key: render_to_string(TEMPLATE, {"entry": entry, "may_reply": may_reply})
           for key, entry in zip(keys, entries, strict=True) if key not in kept}
    if new:
        cache.set_many(new, SECONDS)
        kept.update(new)
    return [mark_safe(kept[key]) for key in keys]  # drawn by our own template, escaped there
