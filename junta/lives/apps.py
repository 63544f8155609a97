"""The characters of a family: one per life, the next one prepared after a death."""

from django.apps import AppConfig


class LivesConfig(AppConfig):
    name = "junta.lives"
    label = "lives"
    verbose_name = "Characters and their lives"

    def ready(self) -> None:
        from junta.games import hooks
        from junta.lives.services import phase_published

        hooks.on_phase_published(phase_published)  # deaths and heirs, as each phase is published

        from junta.games import revisions
        from junta.lives.models import HeirDraft, Obituary

        revisions.watch(HeirDraft, "player__game_id")  # the campaign's pages show both
        revisions.watch(Obituary, "character__player__game_id")
