"""The characters of a family: one per life, the next one prepared after a death."""

from django.apps import AppConfig


class LivesConfig(AppConfig):
    name = "junta.lives"
    label = "lives"
    verbose_name = "Characters and their lives"
