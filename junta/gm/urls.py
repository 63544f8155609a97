"""The panel's URLs, under /games/<game_id>/gm/ (included from junta/urls.py)."""

from django.urls import path

from junta.gm import views

urlpatterns = [
    path("", views.overview, name="gm_overview"),
    path("players/", views.players, name="gm_players"),
    path("time/", views.time_page, name="gm_time"),
    path("review/", views.review, name="gm_review"),
    path("rulings/", views.rulings, name="gm_rulings"),
    path("everything/", views.everything, name="gm_everything"),
    path("board/", views.board, name="gm_board"),
    path("history/", views.history, name="gm_history"),
    path("audit/", views.audit, name="gm_audit"),
    path("announce/", views.announce, name="gm_announce"),
    path("settings/", views.settings, name="gm_settings"),
    # actions (POST)
    path("start/", views.start, name="gm_start"),
    path("players/<int:player_id>/approve/", views.approve, name="gm_approve"),
    path("players/<int:player_id>/remove/", views.remove, name="gm_remove"),
    path("players/<int:player_id>/replace/", views.replace, name="gm_replace"),
    path("time/pause/", views.pause, name="gm_pause"),
    path("time/resume/", views.resume, name="gm_resume"),
    path("time/extend/", views.extend, name="gm_extend"),
    path("time/adjudicate/", views.adjudicate, name="gm_adjudicate"),
    path("review/publish/", views.publish, name="gm_publish"),
    path("review/redraft/", views.redraft, name="gm_redraft"),
    path("orders/annul/", views.annul, name="gm_annul"),
    path("orders/add/", views.add_order, name="gm_add_order"),
    path("rulings/<slug:kind>/", views.rule, name="gm_rule"),
    path("history/rollback/", views.rollback, name="gm_rollback"),
    path("history/replay/", views.replay, name="gm_replay"),
]
