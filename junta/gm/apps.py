from django.apps import AppConfig


class GmConfig(AppConfig):
    """The GameMaster's panel: its own URLs, one permission (the campaign's GM), the audit log."""

    name = "junta.gm"
    label = "gm"
    verbose_name = "GameMaster's panel"
