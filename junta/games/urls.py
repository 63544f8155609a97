from django.urls import path

from junta.games import (
    map_views,
    play_views,
    practice_views,
    replay_views,
    report_views,
    views,
    watch_views,
)

urlpatterns = [
    path("new/", views.create, name="game_create"),
    path("practice/new/", practice_views.start, name="practice_start"),
    path("<int:game_id>/practice/abandon/", practice_views.abandon, name="practice_abandon"),
    path("<int:game_id>/practice/restart/", practice_views.restart, name="practice_restart"),
    path("archive/", report_views.archive, name="game_archive"),
    path("<int:game_id>/status/", play_views.status, name="game_status"),
    path("<int:game_id>/orders/", play_views.orders, name="game_orders"),
    path("<int:game_id>/start/", play_views.start, name="game_start"),
    path("<int:game_id>/history/", play_views.history, name="game_history"),
    path("<int:game_id>/map/", map_views.city_map, name="game_map"),
    path("<int:game_id>/replay/", replay_views.replay, name="game_replay"),
    path("<int:game_id>/replay/<int:number>/", replay_views.replay_step,
         name="game_replay_step"),
    path("<int:game_id>/players/<int:player_id>/approve/", views.approve, name="game_approve"),
]

# The watching pages (spectators), each at two addresses: for a signed-in watcher, and by the
# GM's watching link (the same view, with the link's key).
_WATCHING = [("", watch_views.families, "watch_families"),
             ("events/", watch_views.events, "watch_events"),
             ("history/", watch_views.history, "watch_history"),
             ("map/", watch_views.city_map, "watch_map")]
urlpatterns += [path(f"<int:game_id>/watch/{tail}", view, name=name)
                for tail, view, name in _WATCHING]
urlpatterns += [path(f"<int:game_id>/watch/link/<str:key>/{tail}", view, name=f"{name}_link")
                for tail, view, name in _WATCHING]
