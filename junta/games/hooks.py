"""What other apps do when the pipeline publishes a phase (or the GameMaster makes an
announcement), without this package importing them.

The players' side sits below the lives and notify packages: they read its models and services,
it never imports theirs. Each registers a callback here in its `AppConfig.ready()`, and
`adjudication.publish` calls every callback with a `PhasePublished`, inside its transaction
with the game row locked, after the board rows are written and before the next phase opens
(lives: deaths and heirs, so that the next phase's state carries the heir's name; notify: the
results mails, queued for after the commit). A callback that raises rolls the publication back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from junta.engine import GameState
from junta.games.models import Announcement, Game, Phase, PhaseResult, Player


@dataclass(frozen=True)
class PhasePublished:
    game: Game
    phase: Phase  # the phase just published
    result: PhaseResult
    state: GameState  # the state after the phase
    now: datetime
    # the campaign's active players in seat order, each family's lives read with them
    # (`repository.active_players`); a life added through `player.characters` is read again
    players: list[Player]


_callbacks: list[Callable[[PhasePublished], None]] = []


def on_phase_published(callback: Callable[[PhasePublished], None]) -> None:
    """Call `callback` each time a phase is published (once, however often it registers)."""
    if callback not in _callbacks:
        _callbacks.append(callback)


def phase_published(published: PhasePublished) -> None:
    for callback in _callbacks:
        callback(published)


@dataclass(frozen=True)
class AnnouncementPosted:
    game: Game
    announcement: Announcement


_announcement_callbacks: list[Callable[[AnnouncementPosted], None]] = []


def on_announcement_posted(callback: Callable[[AnnouncementPosted], None]) -> None:
    """Call `callback` each time the GameMaster makes an announcement (`speeches.
    do_post_announcement` calls it inside its transaction, once the announcement is saved;
    notify queues its push for after the commit)."""
    if callback not in _announcement_callbacks:
        _announcement_callbacks.append(callback)


def announcement_posted(posted: AnnouncementPosted) -> None:
    for callback in _announcement_callbacks:
        callback(posted)
