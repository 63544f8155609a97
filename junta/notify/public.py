"""What the other apps may use of the notifications (notify), and nothing else of it.

The apps above notify (ops, the GM panel) import from this module only (an import contract in
pyproject.toml enforces it):

- the periodic sweep that sends what is due, for ops' scheduled tasks (`queue_sweep`);
- notify's rows of a campaign in its file, for the GM panel's backups (`NOTIFY_ARCHIVE`);
- what the profile page (site) shows of push notifications (`push_panel`, `PushChoicesForm`),
  the key file `manage.py serve` (ops) writes on its first start (`ensure_vapid_key_file`), and
  a person's devices for the API (`push_panel`, `remove_push_device`).
"""

from __future__ import annotations

from junta.notify.archive import NOTIFY_ARCHIVE
from junta.notify.forms import PushChoicesForm
from junta.notify.selectors import push_panel
from junta.notify.services import remove_push_device
from junta.notify.tasks import queue_sweep
from junta.notify.vapid import ensure_key_file as ensure_vapid_key_file

__all__ = [
    "queue_sweep",
    # the profile's push notifications (junta.site.profile), the key file (junta.ops serve)
    "PushChoicesForm", "ensure_vapid_key_file", "push_panel",
    # a person's devices through the API (junta.api.push)
    "remove_push_device",
    # a campaign's file (junta.gm.backup)
    "NOTIFY_ARCHIVE",
]
