"""The words of the site's scripts (static/js, marked with `gettext(...)`), in one language: the
catalogue `locale/<language>/LC_MESSAGES/djangojs.po` as Django's JavaScriptCatalog writes it,
at an address that names the language and the catalogues' version, so that the browser keeps
it for good and asks again only after a change (a translation, another language). The version
is a hash of the catalogues alone (and Django's), not of the whole site: the pages, which name
it, stay the same through a change of code (the page snapshots compare them)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import django
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from accounts.public import is_language

YEAR = 365 * 24 * 3600


@functools.cache
def catalogue_version() -> str:
    """A hash of the scripts' catalogues and of Django's version (read once a process)."""
    digest = hashlib.sha256(django.get_version().encode())
    for folder in settings.LOCALE_PATHS:
        for po in sorted(Path(folder).glob("*/LC_MESSAGES/djangojs.po")):
            digest.update(str(po.relative_to(folder)).encode())
            digest.update(po.read_bytes())
    return digest.hexdigest()[:16]


def catalogue_url() -> str:
    """The address of the scripts' words in the active language."""
    return reverse("javascript_catalog", args=[translation.get_language(), catalogue_version()])


@require_GET
@cache_control(public=True, max_age=YEAR, immutable=True)
def catalogue(request: HttpRequest, language: str, version: str) -> HttpResponseBase:
    if not is_language(language) or version != catalogue_version():
        raise Http404("no such catalogue")
    with translation.override(language):
        return JavaScriptCatalog.as_view(domain="djangojs")(request)
