"""The scripts every page of the site loads, in their order: the scripts' words in the page's
language (Django's JavaScript catalogue, `junta/site/javascript.py`) and the installable app's."""

from __future__ import annotations

from django.templatetags.static import static

from junta.site.javascript import catalogue_url


def every_page_scripts() -> list[str]:
    """The <script> tags (as written) of a plain page drawn in the active language."""
    return [f'<script src="{catalogue_url()}" defer>',
            f'<script src="{static("js/pwa.js")}" defer>']
