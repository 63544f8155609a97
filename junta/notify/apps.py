"""Notifications for players who log in daily: e-mails, the calendar feed, absences."""

from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "junta.notify"
    label = "notify"
    verbose_name = "Notifications, calendar and absences"

    def ready(self) -> None:
        from junta.games.public import clock_moments, on_announcement_posted, on_phase_published
        from junta.games.public import watch as watch_revisions
        from junta.notify.hooks import announcement_posted, message_posted, phase_published
        from junta.talk.public import on_message_posted

        on_phase_published(phase_published)  # the results mails and pushes of each phase
        on_message_posted(message_posted)  # the push of a new private message
        on_announcement_posted(announcement_posted)  # the push of a GM announcement

        from junta.notify.clock import absences
        from junta.notify.models import Absence

        watch_revisions(Absence, "player__game_id")  # the campaign's pages list absences
        clock_moments(absences)  # an absence starts and ends at midnight, in its zone
