"""The families' lives' rows of one campaign in its file (`junta.gm.backup`): the heirs being
prepared (their avatars travel inside the file) and the obituaries. The machinery is the
players' side's (`junta.games.public`: `AppArchive`, `ArchiveTable`).
"""

from __future__ import annotations

from junta.games.public import AppArchive, ArchiveTable
from junta.lives.models import HeirDraft, Obituary

# In the order an import creates them, after the players' side's tables they refer to.
LIVES_ARCHIVE = AppArchive((
    ArchiveTable("heir_drafts", HeirDraft, lambda g: HeirDraft.objects.filter(player__game=g),
                 {"player": "players"}),
    ArchiveTable("obituaries", Obituary,
                 lambda g: Obituary.objects.filter(character__player__game=g),
                 {"character": "characters", "phase": "phases"}),
))
