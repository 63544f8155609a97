"""The characters of a family: one per life, the next one prepared after a death."""

from django.apps import AppConfig


class LivesConfig(AppConfig):
    name = "junta.lives"
    label = "lives"
    verbose_name = "Characters and their lives"

    def ready(self) -> None:
        from junta.games.public import on_phase_published
        from junta.games.public import watch as watch_revisions
        from junta.lives.services import phase_published

        on_phase_published(phase_published)  # deaths and heirs, as each phase is published

        from junta.lives.models import HeirDraft, Obituary

        watch_revisions(HeirDraft, "player__game_id")  # the campaign's pages show both
        watch_revisions(Obituary, "character__player__game_id")
