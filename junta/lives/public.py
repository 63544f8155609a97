"""What the other apps may use of the families' lives (lives), and nothing else of it.

The apps above lives (the GM panel) import from this module only (an import contract in
pyproject.toml enforces it):

- the service that makes the families' lives follow a state restored by a rollback
  (`restore_lives`): lives' rows change through lives' services only;
- lives' rows of a campaign in its file, for the GM panel's backups (`LIVES_ARCHIVE`).
"""

from __future__ import annotations

from junta.lives.archive import LIVES_ARCHIVE
from junta.lives.services import restore_lives

__all__ = [
    "restore_lives",
    # a campaign's file (junta.gm.backup)
    "LIVES_ARCHIVE",
]
