"""Signing a browser in without its login form: the session cookie of a Django test client
logged in as the user, for a Playwright context. And where browser tests save screenshots."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.test import Client


def session_cookie(user, base: str) -> list[dict]:  # noqa: ANN001 - any user model instance
    """The cookie (for `context.add_cookies`) that makes the browser `user` on `base`."""
    client = Client()
    client.force_login(user)
    return [{"name": settings.SESSION_COOKIE_NAME,
             "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": base}]


def screenshot_folder(prefix: str) -> Path:
    """$JUNTA_SCREENSHOTS, or a new temporary folder named after `prefix`."""
    folder = Path(os.environ.get("JUNTA_SCREENSHOTS") or tempfile.mkdtemp(prefix=prefix))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def signed_in(browser, user, base: str, width: int, height: int):  # noqa: ANN001, ANN201
    """A new browser context of the given size, signed in as `user`; (context, page)."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2)
    context.add_cookies(session_cookie(user, base))
    return context, context.new_page()


def six_families(gm_name: str = ""):  # noqa: ANN201 - (Game, [User])
    """A campaign of six families (Carlos, Isabel, Miguel, Lucia, Rafael, Elena), started."""
    from django.contrib.auth import get_user_model

    from junta.games.campaigns import create_game, join_game, start_campaign
    from junta.games.models import Game

    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org", display_name=gm_name)
    game = create_game(gm, "Papayas", max_players=6, join_policy=Game.JoinPolicy.OPEN)
    users = []
    for name in ("Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena"):
        user = User.objects.create_user(email=f"{name.lower()}@example.org", display_name=name)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    start_campaign(game.id, gm)
    return game, users
