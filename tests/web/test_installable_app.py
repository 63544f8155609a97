"""The installable web app as the server gives it: the manifest, the service worker at the
site's root, the offline page, the marks on every page (templates/base.html) and the Content
Security Policy they load under. The browser's side (installability, push, offline) is in
tests/e2e/test_installable_app_browser.py."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.site.pwa import THEME_COLOUR, worker_script

pytestmark = pytest.mark.django_db

FORM_PARTS = re.compile(r"<(form|button|input|select|textarea)\b")


def test_the_manifest_names_the_app_its_icons_and_the_dashboard(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Junta" and manifest["short_name"] == "Junta"
    assert manifest["start_url"] == reverse("home") == "/"
    assert manifest["scope"] == "/" and manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == THEME_COLOUR
    assert manifest["description"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        name = icon["src"].removeprefix(static(""))
        path = finders.find(name)
        assert path, icon["src"]
        with open(path, "rb") as png:
            header = png.read(24)
        side = int(icon["sizes"].split("x")[0])
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(header[16:20]) == side == int.from_bytes(header[20:24])


def test_the_theme_colour_is_the_papaya_rind_of_the_style_sheet():
    css = open(finders.find("css/junta.css"), encoding="utf-8").read()  # noqa: SIM115
    assert re.search(rf"--accent:\s*{THEME_COLOUR};", css)


def test_the_service_worker_is_served_at_the_root_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    assert "{%" not in script and "{{" not in script
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});\n", script).group(1))
    assert config["offline"] == reverse("offline")
    assert reverse("offline") in config["shell"] and static("js/pwa.js") in config["shell"]
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["version"] == json.loads(
        re.search(r"const CONFIG = (\{.*?\});\n", worker_script()).group(1))["version"]
    for handler in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{handler}"' in script
    assert client.post("/sw.js").status_code == 405


def test_the_manifest_and_worker_load_under_the_sites_policy(client):
    """script-src 'self' (worker-src falls back to it) and default-src 'self' (manifest-src)
    admit both; the pages keep their policy."""
    csp = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";") if d.strip())
    assert "'self'" in directives["script-src"] and "'self'" in directives["default-src"]
    assert "worker-src" not in directives and "manifest-src" not in directives
    assert "'unsafe-inline'" not in directives["script-src"]


def test_every_page_links_the_manifest_and_loads_the_script(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{THEME_COLOUR}">' in page
    assert f'<link rel="apple-touch-icon" href="{static("img/apple-touch-icon.png")}">' in page
    assert f'<script src="{static("js/pwa.js")}" defer></script>' in page
    assert '<body data-pwa-user="">' in page  # a visitor: no one's copies are kept


def test_the_dashboard_and_status_pages_are_kept_for_their_person_only(campaign, client):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel = users[:2]
    client.force_login(carlos)
    marks = {}
    for path in ("/", reverse("game_status", args=[game.id]), reverse("game_orders",
                                                                      args=[game.id])):
        body = re.search(r"<body([^>]*)>", client.get(path).content.decode()).group(1)
        marks[path] = body
    owner = re.search(r'data-pwa-user="([0-9a-f]{24})"', marks["/"]).group(1)
    assert all(f'data-pwa-user="{owner}"' in body for body in marks.values())
    assert "data-pwa-keep" in marks["/"]
    assert "data-pwa-keep" in marks[reverse("game_status", args=[game.id])]
    assert "data-pwa-keep" not in marks[reverse("game_orders", args=[game.id])]
    client.force_login(isabel)
    other = re.search(r'data-pwa-user="([0-9a-f]+)"', client.get("/").content.decode()).group(1)
    assert other != owner


def test_the_offline_page_names_nobody_and_has_no_form(campaign, client):
    game, users = campaign(players=6)
    client.force_login(users[0])
    response = client.get("/offline/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "You are offline" in page and 'id="offline-list"' in page
    assert "<body data-pwa-offline>" in page
    assert not FORM_PARTS.search(page), FORM_PARTS.search(page)
    assert users[0].public_name not in page and "data-pwa-user" not in page
    assert client.get("/offline/").headers["Content-Security-Policy"]


def test_the_offline_page_takes_no_message_meant_for_another_page(rf):
    """The worker asks for the offline page at its installation, beside the page the person is
    loading: a message waiting for that page ("Order added.") stays for it."""
    from django.contrib import messages
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.messages.storage import default_storage
    from django.contrib.sessions.backends.db import SessionStore

    from junta.site import pwa

    request = rf.get("/offline/")
    request.user, request.session = AnonymousUser(), SessionStore()
    request._messages = default_storage(request)
    messages.success(request, "Order added.")
    page = pwa.offline(request).content.decode()
    assert "Order added." not in page
    assert not request._messages.used
