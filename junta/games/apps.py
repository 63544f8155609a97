from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "junta.games"
    label = "games"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from junta.games import revisions

        revisions.connect()  # every change to a campaign's rows raises its content revision
