"""What the other apps may use of the polls, and nothing else of them.

The apps above polls (notify, ops, the GM panel) import from this module only (an import contract
in pyproject.toml enforces it):

- the polls' model, for notify's mails about a new poll (`Poll`);
- the awards at a campaign's end, for the GM panel's page (`STANDARD_AWARDS`, `award_progress`);
- the demo's polls, for ops' demo campaigns;
- the polls' rows of a campaign in its file, for the GM panel's backups (`POLLS_ARCHIVE`).
"""

from __future__ import annotations

from junta.polls.archive import POLLS_ARCHIVE
from junta.polls.demo import awards_for_first, demo_polls, polls_during_first
from junta.polls.models import Poll
from junta.polls.selectors import award_progress
from junta.polls.services import STANDARD_AWARDS

__all__ = [
    "Poll", "STANDARD_AWARDS", "award_progress", "awards_for_first",
    "demo_polls", "polls_during_first",
    # a campaign's file (junta.gm.backup)
    "POLLS_ARCHIVE",
]
