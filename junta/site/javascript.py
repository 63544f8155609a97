"""The words of the site's scripts (static/js, marked with `gettext(...)`), in one language: the
catalogue `locale/<language>/LC_MESSAGES/djangojs.po` as Django's JavaScriptCatalog writes it,
at an address that names the language and the site's version, so that the browser keeps it
for good and asks again only after a change (a new version, another language)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from accounts.public import is_language
from junta.games.public import site_version

YEAR = 365 * 24 * 3600


def catalogue_url() -> str:
    """The address of the scripts' words in the active language."""
    return reverse("javascript_catalog", args=[translation.get_language(), site_version()])


@require_GET
@cache_control(public=True, max_age=YEAR, immutable=True)
def catalogue(request: HttpRequest, language: str, version: str) -> HttpResponseBase:
    if not is_language(language) or version != site_version():
        raise Http404("no such catalogue")
    with translation.override(language):
        return JavaScriptCatalog.as_view(domain="djangojs")(request)
