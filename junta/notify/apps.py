"""Notifications for players who log in daily: e-mails, the calendar feed, absences."""

from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "junta.notify"
    label = "notify"
    verbose_name = "Notifications, calendar and absences"
