"""What the campaign pipeline calls when something happened that people may want a mail about
(registered with `junta.games.hooks` in this app's `ready()`).

Called inside the pipeline's transaction; the task is queued only once that transaction has
committed (a rolled-back adjudication sends nothing), and a broker that refuses the task does
not undo the commit: the minute sweep sends any results mail that was missed.
"""

from __future__ import annotations

import logging

from django.db import transaction

from junta.games.public import PhasePublished
from junta.notify import tasks

log = logging.getLogger(__name__)


def phase_published(published: PhasePublished) -> None:
    """A phase's result has just been published (automatically or by the GM)."""
    phase_id = published.phase.pk

    def queue() -> None:
        try:
            tasks.phase_published.delay(phase_id)
        except Exception:
            log.exception("could not queue the results mails of phase %s; the sweep will",
                          phase_id)

    transaction.on_commit(queue)
