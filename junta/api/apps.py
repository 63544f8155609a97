"""The JSON API under /api/v1/: a player or a bot plays a whole campaign through it."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "junta.api"
    label = "api"
    verbose_name = "JSON API"
