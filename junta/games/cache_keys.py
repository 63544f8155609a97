"""The cache keys of what is drawn once and kept in the "drawings" cache (a campaign's page as a
viewer saw it, a phase's report, a coup's map, the end report): each key names what is kept and
hashes everything it is drawn from, so that a change in any of those is another key and nothing
is ever invalidated by hand. Whatever is drawn is drawn in the active language (the reader's,
or a mail's recipient's): every key holds it, so that what was kept in English is never served
to a reader of Spanish."""

from __future__ import annotations

import hashlib
import json

from django.utils import translation


def content_key(kind: str, *made_of: object) -> str:
    """A cache key for something drawn once: `kind`, then a hash of everything it is drawn
    from, the active language first (any change in those is another key: nothing is ever
    invalidated by hand)."""
    made = json.dumps([translation.get_language(), *made_of], sort_keys=True,
                      default=str).encode()
    return f"{kind}:{hashlib.sha256(made).hexdigest()}"
