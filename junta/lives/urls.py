from django.urls import path

from junta.lives import views

urlpatterns = [
    path("games/<int:game_id>/character/", views.character, name="game_character"),
]
