"""The site's pages, at the addresses they always had."""

from django.urls import path

from junta.site import campaign, dashboard, events, lobby, profile, report

urlpatterns = [
    path("", dashboard.home, name="home"),  # the dashboard once logged in
    path("accounts/profile/", profile.profile, name="profile"),
    path("games/", lobby.lobby, name="lobby"),
    path("games/<int:game_id>/", campaign.detail, name="game_detail"),
    path("games/<int:game_id>/events/", events.events, name="game_events"),
    path("games/<int:game_id>/report/", report.report, name="game_report"),
    path("games/<int:game_id>/join/", campaign.join, name="game_join"),
    path("games/<int:game_id>/invite/<str:token>/", campaign.invite, name="game_invite"),
]
