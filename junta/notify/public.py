"""What the other apps may use of the notifications (notify), and nothing else of it.

The apps above notify (ops, the GM panel) import from this module only (an import contract in
pyproject.toml enforces it):

- the models, for the GM panel's backups (`Preferences`, `Delivery`, `Absence`);
- the periodic sweep that sends what is due, for ops' scheduled tasks (`queue_sweep`);
- how a time is written for a reader, in his zone named in full (`when`), which the GM panel's
  messages use as the pages do (a template filter today: it moves with the site's tags).
"""

from __future__ import annotations

from junta.notify.models import Absence, Delivery, Preferences
from junta.notify.tasks import queue_sweep
from junta.notify.templatetags.notify_tags import when

__all__ = [
    "Absence", "Delivery", "Preferences", "queue_sweep", "when",
]
