"""The polls' rows of one campaign in its file (`junta.gm.backup`): the polls and awards, their
choices and votes. The machinery is the players' side's (`junta.games.public`: `AppArchive`,
`ArchiveTable`).
"""

from __future__ import annotations

from junta.games.public import ARCHIVE_USERS, AppArchive, ArchiveTable
from junta.polls.models import Choice, Poll, Vote

# In the order an import creates them, after the players' side's tables they refer to.
POLLS_ARCHIVE = AppArchive((
    ArchiveTable("polls", Poll, lambda g: Poll.objects.filter(game=g),
                 {"author": ARCHIVE_USERS}),
    ArchiveTable("poll_choices", Choice, lambda g: Choice.objects.filter(poll__game=g),
                 {"poll": "polls", "player": "players"}),
    ArchiveTable("poll_votes", Vote, lambda g: Vote.objects.filter(poll__game=g),
                 {"poll": "polls", "choice": "poll_choices", "voter": "players"}),
))
