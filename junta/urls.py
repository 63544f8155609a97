"""URLs: the site's pages, allauth under /accounts/, the staff health page and Django's admin."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path, re_path

from junta.api import errors as api_errors
from junta.games import rules_views
from junta.ops import mailbox_views
from junta.ops import views as ops_views

# allauth's way to send the admin's login through its own (a method replaced on the instance)
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]
admin.site.site_header = "Junta site administration"

# Django's error pages, in the API's JSON shape under /api/v1/ (a body too large, no such path)
handler400 = api_errors.bad_request
handler404 = api_errors.page_not_found

urlpatterns = [
    path("", include("junta.site.urls")),  # the dashboard once logged in, the lobby...
    path("accounts/", include("allauth.urls")),
    path("games/", include("junta.games.urls")),
    path("rules/", rules_views.rules, name="rules"),
    path("", include("junta.notify.urls")),
    path("", include("junta.lives.urls")),
    path("games/<int:game_id>/gm/", include("junta.gm.urls")),
    path("games/<int:game_id>/talk/", include("junta.talk.urls")),
    path("games/<int:game_id>/polls/", include("junta.polls.urls")),
    path("api/", include("junta.api.urls")),  # the JSON API (v1/) and the tokens page
    path("staff/health/", ops_views.health, name="staff_health"),
    path("healthz", ops_views.liveness, name="liveness"),
    # make run's mailbox (development mode only: 404 wherever mail goes out for real)
    path("dev/mail/", mailbox_views.mailbox, name="dev_mailbox"),
    path("dev/mail/<str:name>/", mailbox_views.mail, name="dev_mail"),
    path("admin/", admin.site.urls),
    # Uploaded avatars: small public images, served by Django itself (no separate media server)
    # from wherever JUNTA_STORAGE keeps them (junta/ops/storage.py).
    re_path(r"^media/(?P<path>.+)$", ops_views.media, name="media"),
]
