"""Site operations: the Celery sweep's heartbeat and the staff health page."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "junta.ops"
    label = "ops"
    verbose_name = "Site operations"

    def ready(self) -> None:
        # Make the project's Celery app the current one in every Django process, so that
        # `task.delay()` from a web request goes to the configured broker.
        from django.db.models.signals import pre_save

        from junta.celery import app  # noqa: F401

        from . import checks  # noqa: F401  (registers the deploy checks)
        from .text import refuse_control_characters

        pre_save.connect(refuse_control_characters, dispatch_uid="junta-control-characters")
