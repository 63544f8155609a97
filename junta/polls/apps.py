"""Polls during play and award polls at the end of a campaign (docs/rules.md §polls)."""

from django.apps import AppConfig


class PollsConfig(AppConfig):
    name = "junta.polls"
    label = "polls"
    verbose_name = "Polls and awards"

    def ready(self) -> None:
        from junta.games import revisions
        from junta.polls.models import Choice, Poll, Vote

        # the Events page mentions the open polls; the polls page is drawn from all three
        revisions.watch(Poll, "game_id")
        revisions.watch(Choice, "poll__game_id")
        revisions.watch(Vote, "poll__game_id")
