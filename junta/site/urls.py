"""The site's pages, at the addresses they always had."""

from django.urls import path

from junta.site import (
    campaign,
    dashboard,
    events,
    javascript,
    language,
    live,
    lobby,
    profile,
    pwa,
    report,
)

urlpatterns = [
    path("", dashboard.home, name="home"),  # the dashboard once logged in
    path("accounts/profile/", profile.profile, name="profile"),
    path("language/", language.switch_language, name="set_language"),
    path("jsi18n/<str:language>/<str:version>.js", javascript.catalogue,
         name="javascript_catalog"),
    path("games/", lobby.lobby, name="lobby"),
    path("games/<int:game_id>/", campaign.detail, name="game_detail"),
    path("games/<int:game_id>/events/", events.events, name="game_events"),
    path("games/<int:game_id>/report/", report.report, name="game_report"),
    path("games/<int:game_id>/live/", live.live, name="game_live"),
    path("games/<int:game_id>/join/", campaign.join, name="game_join"),
    path("games/<int:game_id>/invite/<str:token>/", campaign.invite, name="game_invite"),
    # the installable web app: at the root, so the worker's scope is the whole site
    path("manifest.webmanifest", pwa.manifest, name="web_manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
]
