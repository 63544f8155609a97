from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "junta.games"
    label = "games"
    verbose_name = "Campaigns"
