from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "junta.games"
    label = "games"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from junta.games import revisions

        revisions.connect()  # every change to a campaign's rows raises its content revision

        from junta.games.markdown import renders
        from junta.games.models import Announcement, Speech

        renders("speech", "speeches", lambda game_id: Speech.objects.all()
                if game_id is None else Speech.objects.filter(game_id=game_id))
        renders("announcement", "announcements", lambda game_id: Announcement.objects.all()
                if game_id is None else Announcement.objects.filter(game_id=game_id))
