from django.urls import path

from junta.polls import views

urlpatterns = [
    path("", views.index, name="polls_index"),
    path("new/", views.new, name="polls_new"),
    path("awards/", views.open_awards, name="polls_awards"),
    path("<int:poll_id>/", views.detail, name="polls_detail"),
    path("<int:poll_id>/close/", views.close, name="polls_close"),
]
