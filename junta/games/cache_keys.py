"""The cache keys of what is drawn once and kept in the "drawings" cache (a campaign's page as a
viewer saw it, a phase's report, a coup's map, the end report): each key names what is kept and
hashes everything it is drawn from, so that a change in any of those is another key and nothing
is ever invalidated by hand. Whatever is drawn is drawn in the active language (the reader's,
or a mail's recipient's): every key holds it, so that what was kept in English is never served
to a reader of Spanish."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.utils import translation

_SOURCES = ("junta", "accounts", "templates", "static", "locale")  # locale: the translations


@functools.cache
def site_version() -> str:
    """A hash of the code, templates and static files the site runs (read once a process)."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for top in _SOURCES:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def content_key(kind: str, *made_of: object) -> str:
    """A cache key for something drawn once: `kind`, then a hash of everything it is drawn
    from, the active language first (any change in those is another key: nothing is ever
    invalidated by hand)."""
    made = json.dumps([translation.get_language(), *made_of], sort_keys=True,
                      default=str).encode()
    return f"{kind}:{hashlib.sha256(made).hexdigest()}"
