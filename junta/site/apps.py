"""The site: the pages that combine several apps (the dashboard, the lobby, a campaign's page
with its lives and notifications panels, the game menu with its unread messages), above every
other app, as the layers contract of pyproject.toml says."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "junta.site"
    label = "site"
    verbose_name = "Site pages"
