"""Polls during play and award polls at the end of a campaign (docs/rules.md §polls)."""

from django.apps import AppConfig


class PollsConfig(AppConfig):
    name = "junta.polls"
    label = "polls"
    verbose_name = "Polls and awards"

    def ready(self) -> None:
        from junta.games.public import clock_moments
        from junta.games.public import watch as watch_revisions
        from junta.polls.clock import closings
        from junta.polls.models import Choice, Poll, Vote

        # the Events page mentions the open polls; the polls page is drawn from all three
        watch_revisions(Poll, "game_id")
        watch_revisions(Choice, "poll__game_id")
        watch_revisions(Vote, "poll__game_id")
        clock_moments(closings)  # a poll closing at its hour leaves the open ones
