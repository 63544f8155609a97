"""What the other apps may use of the site's operations (ops), and nothing else of it.

The apps above ops (the GM panel, the API) import from this module only (an import contract in
pyproject.toml enforces it):

- the workers' heartbeats, which the GM panel shows (`Heartbeat`);
- the refusal of control characters in what people send (`refused_text`, `REFUSED_TEXT`,
  `refuse_control_characters`), so that the API and the backups refuse what the pages refuse;
- where the API lives (`API_PREFIX`), where the middleware answers in the API's shape.
"""

from __future__ import annotations

from junta.ops.middleware import API_PREFIX
from junta.ops.models import Heartbeat
from junta.ops.text import REFUSED_TEXT, refuse_control_characters, refused_text

__all__ = [
    "API_PREFIX", "Heartbeat", "REFUSED_TEXT", "refuse_control_characters", "refused_text",
]
