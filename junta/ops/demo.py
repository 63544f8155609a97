"""`make run`'s demo, built once on an empty database: the campaign the demo players finished
(bots played it to its end, with speeches, conversations and polls made as it went; then its
awards were voted and a conversation revealed) and the one they are playing now, mid-game,
with its talk and polls."""

from __future__ import annotations

import logging

from junta.games.public import Game, Phase, demo_campaign, finished_demo_campaign
from junta.polls.public import awards_for_first, demo_polls, polls_during_first
from junta.talk.public import demo_talk, reveal_first, talk_during_first


def _first_campaign_talk(game: Game, phase: Phase) -> None:
    talk_during_first(game, phase)
    polls_during_first(game, phase)


def build_demo() -> list[Game]:
    """The demo campaigns created now, the finished one first ([] when the database had
    campaigns already)."""
    quiet = logging.getLogger("junta.games.adjudication")
    level = quiet.level
    quiet.setLevel(logging.WARNING)  # months of demo phases need not scroll past
    try:
        finished = finished_demo_campaign(on_phase=_first_campaign_talk)
        if finished is None:
            return []
        if finished.status == Game.Status.FINISHED:
            reveal_first(finished)
            awards_for_first(finished)
        running = demo_campaign()
    finally:
        quiet.setLevel(level)
    if running is None:
        return [finished]
    demo_talk(running)
    demo_polls(running)
    return [finished, running]
