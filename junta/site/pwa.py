"""The installable web app: its manifest, its service worker at the site's root and the page
the worker shows when the network is gone.

- `/manifest.webmanifest`: name, icons (drawn from the papaya by scripts/make_icons.py), theme
  colour (the papaya rind, static/css/junta.css's --accent), the dashboard as the start.
- `/sw.js`: templates/site/sw.js with its settings (the offline page, the static files it keeps,
  the icons of its notifications) and a version, a hash of the whole, so a deployment that
  changes the script or any of those files installs a new worker; served from the root so its
  scope is the whole site, never cached by HTTP (`no-cache`: the browser asks each time).
- `/offline/`: the page the worker keeps and answers a navigation with when the network fails;
  static/js/pwa.js fills it with the copy of the page asked for, as last seen (the dashboard
  and each campaign's Status page, without a form: see that file), or the list of those kept.
  It names nobody and carries no form: it is kept on the device for whoever uses it next.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

THEME_COLOUR = "#b34700"  # static/css/junta.css --accent, the papaya rind
BACKGROUND_COLOUR = "#fffaf3"  # --paper
ICONS = (  # (static path, size, purpose)
    ("img/icon-192.png", 192, "any"),
    ("img/icon-512.png", 512, "any"),
    ("img/icon-maskable-512.png", 512, "maskable"),
)
# What the worker keeps at its installation, beside the offline page: what that page needs.
SHELL_FILES = ("css/junta.css", "js/pwa.js", "img/favicon.svg", "img/icon-192.png")


def manifest_data() -> dict[str, object]:
    """The web app manifest, as JSON fields."""
    home = reverse("home")
    return {
        "id": home,
        "name": "Junta",
        "short_name": "Junta",
        "description": "Long campaigns of Junta, the game of intrigue in the Republica de los "
                       "Papayas: one phase a day.",
        "lang": "en",
        "start_url": home,
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": static(path), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": purpose} for path, size, purpose in ICONS],
    }


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    response = JsonResponse(manifest_data(), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


def worker_settings() -> dict[str, object]:
    """What templates/site/sw.js is told: where things are (the static files' hashed URLs)."""
    return {
        "offline": reverse("offline"),
        "staticPrefix": static(""),
        "shell": [reverse("offline"), *(static(path) for path in SHELL_FILES)],
        "icon": static("img/icon-192.png"),
        "badge": static("img/icon-192.png"),
    }


def worker_script() -> str:
    """The service worker's source, its settings and version written in."""
    config = worker_settings()
    draft = render_to_string("site/sw.js", {"config": mark_safe(json.dumps(config))})
    config["version"] = hashlib.sha256(draft.encode()).hexdigest()[:16]
    return render_to_string("site/sw.js", {"config": mark_safe(json.dumps(config))})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(worker_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "site/offline.html")
