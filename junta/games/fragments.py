"""What pages draw again and again from the same rows, drawn once and then read from the
"drawings" cache: the entries of the Events page (speeches, the GameMaster's announcements),
the empty order forms of the Orders page, the city's map. Each is kept under a key
(`cache_keys.content_key`) that hashes everything it is drawn from, the code and templates
(`cache_keys.site_version`) included: nothing is invalidated by hand, and a reader is only
ever served a fragment that his own drawing would give.

The Events page's entries. A campaign that talks all day changes its content revision with
every speech, so its Events page is drawn anew at nearly every visit (`page_cache`); what is on
it, though, is mostly what was there before. Each entry is kept as HTML under a key
(`cache_keys.content_key`) that hashes everything it is drawn from: the row's kind, id, time,
speaker and stored HTML (a speech's Markdown is rendered and sanitised once, when posted), the
speech it answers, whether it is new to this reader and whether he may answer it, the time zone
it is written in, and the code and templates that draw it. A new speech is one new entry to
draw; the others are read back. An entry holds nothing secret (every reader of the page reads
it), and since its key names every input of its drawing, a reader is never served an entry
drawn otherwise than his own would be."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from junta.engine import CoupView
from junta.games import citymap
from junta.games.cache_keys import content_key, site_version
from junta.games.models import Game, Phase, Speech
from junta.games.orders_page import Entry
from junta.games.selectors import EventsItem

TEMPLATE = "games/_events_item.html"
ORDER_FORM = "games/_order_form.html"
SECONDS = 24 * 3600


def entry_key(entry: EventsItem, *, may_reply: bool) -> str:
    """The cache key of an Events entry as drawn for a reader (see the module's text)."""
    item = entry.item
    # site_version: the code and templates it is drawn with (a change draws them all anew)
    made_of: list[object] = [site_version(), entry.kind, item.pk, entry.created_at.isoformat(),
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


# The Orders page's forms. A form shown empty (not sent back with messages, not changing an
# order) is a function of the engine's state the phase opened with (its digest: a GM's ruling
# rewrites it), the seat and the option, whether it is shown unfolded (the phase's likely
# order) and with the box "and mark my orders final", and the state version its hidden field
# carries. Its key names all of them, the campaign, the phase and the seat included: a seat's
# forms (its cards, its money) are only ever shown to whoever holds that seat. The page's CSRF
# token, its one part that is the reader's browser's own, is drawn as a placeholder and put in
# when the page is drawn.
_TOKEN = "csrf0placeholder0of0a0kept0order0form"


def order_form_key(game: Game, phase: Phase, seat: int, entry: Entry, state_version: int
                   ) -> str:
    return content_key("order-form", site_version(), game.id, phase.id, phase.state_digest,
                       state_version, seat, entry.option.key, entry.likely,
                       entry.and_final is not None)


def draw_order_forms(game: Game, phase: Phase, seat: int, entries: list[Entry], *,
                     state_version: int, csrf_token: str) -> None:
    """Set `drawn` on each entry shown empty: its form as `games/_order_form.html` draws it
    on the player's Orders page, from the cache when it is there (see above)."""
    empty = [e for e in entries if not e.bound and e.change is None and not e.form.is_bound]
    if not empty:
        return
    keys = [order_form_key(game, phase, seat, e, state_version) for e in empty]
    cache = caches["drawings"]
    kept = cache.get_many(keys)
    new = {key: render_to_string(ORDER_FORM, {
        "entry": e, "form": e.form, "option": e.option, "state_version": state_version,
        "csrf_token": _TOKEN}) for key, e in zip(keys, empty, strict=True) if key not in kept}
    if new:
        cache.set_many(new, SECONDS)
        kept.update(new)
    for key, e in zip(keys, empty, strict=True):
        # drawn by our own template, escaped there; the token is letters and digits
        e.drawn = mark_safe(kept[key].replace(_TOKEN, csrf_token))


# The city's map (`citymap.render_svg`), a pure function of what it is given: kept under a hash
# of all of it (the viewer's own planned orders included, when drawn over it), so that it is
# only ever read back for a drawing that would be the same.
def city_svg(coup: CoupView | None, names: Mapping[int, str], *, title: str,
             moved_in: int | None = None, battles: Sequence[citymap.Battle] = (),
             planned: SafeString | None = None) -> SafeString:
    key = content_key("city-svg", site_version(), coup, sorted(names.items()), title, moved_in,
                      [dataclasses.astuple(b) for b in battles], planned)
    cache = caches["drawings"]
    kept: str | None = cache.get(key)
    if kept is None:
        kept = str(citymap.render_svg(coup, names, moved_in=moved_in, battles=battles,
                                      title=title, planned=planned))
        cache.set(key, kept, SECONDS)
    return mark_safe(kept)  # drawn by citymap, escaped there
