"""Notifications for players who log in daily: e-mails, the calendar feed, absences."""

from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "junta.notify"
    label = "notify"
    verbose_name = "Notifications, calendar and absences"

    def ready(self) -> None:
        from junta.games.public import on_phase_published
        from junta.games.public import watch as watch_revisions
        from junta.notify.hooks import phase_published

        on_phase_published(phase_published)  # the results mails of each published phase

        from junta.notify.models import Absence

        watch_revisions(Absence, "player__game_id")  # the campaign's pages list absences
