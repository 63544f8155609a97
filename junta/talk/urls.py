from django.urls import path

from junta.talk import views

urlpatterns = [
    path("", views.index, name="talk_index"),
    path("new/", views.start, name="talk_start"),
    path("revealed/", views.revealed, name="talk_revealed"),
    path("<int:conversation_id>/", views.conversation, name="talk_conversation"),
    path("<int:conversation_id>/messages/", views.new_messages, name="talk_messages"),
    path("<int:conversation_id>/leave/", views.leave, name="talk_leave"),
    path("<int:conversation_id>/reveal/", views.reveal, name="talk_reveal"),
]
