"""Fixtures shared by the web tests: a campaign with its players, a real SMTP server for the
site's mail, Celery tasks run eagerly. Plain helpers are in modules of their own
(tests/web/campaigns.py, option_forms.py, browser_forms.py, smtp.py, ...)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from junta.games.campaigns import create_game, join_game
from junta.games.models import Game
from tests.web.revision_guard import RevisionGuard
from tests.web.smtp import Mailbox, free_port

NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Diego", "Pilar", "Tomas",
         "Rosa"]


@pytest.fixture(autouse=True)
def _fresh_drawings():
    """Each test starts with an empty "drawings" cache (in this process's memory when there is
    no Redis): what one test drew is never another's."""
    from django.core.cache import caches

    caches["drawings"].clear()


@pytest.fixture(autouse=True)
def _revision_guard(request):
    """Around every request: no campaign's rows change without its content revision changing
    (tests/web/revision_guard.py). Tests that use no database are left alone, and so are those
    marked `no_revision_guard` (a whole campaign of thousands of requests, whose every kind of
    request other tests check)."""
    marks = {mark.name for mark in request.node.iter_markers()}
    if "no_revision_guard" in marks or "django_db" not in marks and not {
            "db", "transactional_db"} & set(request.fixturenames):
        yield
        return
    guard = RevisionGuard()
    guard.start()
    try:
        yield guard
    finally:
        guard.stop()
    assert not guard.problems, "\n".join(guard.problems)


@pytest.fixture
def campaign():
    """make(players=10, review=False): a new campaign, open to join, with a fixed seed and
    `players` players joined; (the game, the users who joined, in order)."""
    def make(players: int = 10, review: bool = False) -> tuple[Game, list]:
        User = get_user_model()
        gm = User.objects.create_user(email=f"gm{players}{review}@example.org")
        mode = Game.ReviewMode.REVIEW if review else Game.ReviewMode.AUTO
        game = create_game(gm, "Papayas", max_players=players,
                           join_policy=Game.JoinPolicy.OPEN, review_mode=mode)
        # a fixed seed: the same deal and dice every run, so a failure can be reproduced
        Game.objects.filter(pk=game.pk).update(seed=f"test-{players}-{review}")
        game.refresh_from_db()
        users = []
        for name in NAMES[:players]:
            user = User.objects.create_user(email=f"{name.lower()}{review}@example.org")
            join_game(game.id, user, f"Don {name}")
            users.append(user)
        return game, users
    return make


@pytest.fixture
def mailbox():
    """A running SMTP server, with the site's default mailer pointed at it."""
    from aiosmtpd.controller import Controller

    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    smtp = {"default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "use_ssl": False,
                    "timeout": 10},
    }}
    try:
        with override_settings(MAILERS=smtp, SITE_URL="https://junta.test"):
            yield box
    finally:
        controller.stop()


@pytest.fixture
def eager_celery():
    """Tasks run in the calling process when queued (the after-commit hooks call .delay())."""
    from junta.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield app
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
