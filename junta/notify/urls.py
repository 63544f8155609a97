from django.urls import path

from junta.notify import views

urlpatterns = [
    path("notifications/", views.overview, name="notify_overview"),
    path("notifications/calendar/reset/", views.reset_calendar, name="notify_calendar_reset"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="notify_unsubscribe"),
    path("notifications/push/subscribe/", views.push_subscribe, name="notify_push_subscribe"),
    path("notifications/push/events/", views.push_choices, name="notify_push_choices"),
    path("notifications/push/<int:device_id>/remove/", views.push_remove,
         name="notify_push_remove"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="notify_calendar"),
    path("games/<int:game_id>/notifications/", views.game_settings, name="game_notifications"),
    path("games/<int:game_id>/absences/", views.add_absence, name="game_absence_add"),
    path("games/<int:game_id>/absences/<int:absence_id>/delete/", views.delete_absence,
         name="game_absence_delete"),
]
