"""What the other apps may use of the notifications (notify), and nothing else of it.

The apps above notify (ops, the GM panel) import from this module only (an import contract in
pyproject.toml enforces it):

- the periodic sweep that sends what is due, for ops' scheduled tasks (`queue_sweep`);
- notify's rows of a campaign in its file, for the GM panel's backups (`NOTIFY_ARCHIVE`).
"""

from __future__ import annotations

from junta.notify.archive import NOTIFY_ARCHIVE
from junta.notify.tasks import queue_sweep

__all__ = [
    "queue_sweep",
    # a campaign's file (junta.gm.backup)
    "NOTIFY_ARCHIVE",
]
