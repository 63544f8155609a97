"""Notifications for players who log in daily: e-mails, the calendar feed, absences."""

from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "junta.notify"
    label = "notify"
    verbose_name = "Notifications, calendar and absences"

    def ready(self) -> None:
        from junta.games import hooks
        from junta.notify.hooks import phase_published

        hooks.on_phase_published(phase_published)  # the results mails of each published phase

        from junta.games import revisions
        from junta.notify.models import Absence

        revisions.watch(Absence, "player__game_id")  # the campaign's pages list absences
