"""What the campaign pipeline, talk and the GameMaster's announcements call when something
happened that people may want a mail or a push about (registered with `junta.games.hooks` and
`junta.talk.hooks` in this app's `ready()`).

Called inside the transaction that made the news; the task is queued only once that transaction
has committed (a rolled-back adjudication, message or announcement sends nothing), and a broker
that refuses the task does not undo the commit: the minute sweep sends any results mail that was
missed (a push lost so is not sent again: it was news only then).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

from junta.games.public import AnnouncementPosted, PhasePublished
from junta.notify import tasks
from junta.talk.public import MessagePosted

log = logging.getLogger(__name__)


def _after_commit(queue: Callable[[], object], what: str) -> None:
    def run() -> None:
        try:
            queue()
        except Exception:
            log.exception("could not queue %s", what)

    transaction.on_commit(run)


def phase_published(published: PhasePublished) -> None:
    """A phase's result has just been published (automatically or by the GM); a practice
    campaign's phases are published as its player plays them: no mail, no push."""
    if published.game.practice:
        return
    phase_id = published.phase.pk
    _after_commit(lambda: tasks.phase_published.delay(phase_id),
                  f"the results mails of phase {phase_id}; the sweep will")


def message_posted(posted: MessagePosted) -> None:
    """A private message was just posted: its push to the other members."""
    message_id = posted.message.pk
    _after_commit(lambda: tasks.push_message.delay(message_id),
                  f"the push of message {message_id}")


def announcement_posted(posted: AnnouncementPosted) -> None:
    """The GameMaster just made an announcement: its push to the players."""
    announcement_id = posted.announcement.pk
    _after_commit(lambda: tasks.push_announcement.delay(announcement_id),
                  f"the push of announcement {announcement_id}")
