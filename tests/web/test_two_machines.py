"""Two machines of one site, as production runs them: each a web server started the production way
(scripts/web-start, gunicorn) and a Celery worker, each with a JUNTA_VAR_DIR of its own, sharing
only PostgreSQL, Redis and the environment. Nothing a request or a task needs lives on one machine:
a player logs in and uploads his avatar through one and sees it, still logged in, through the
other; the orders he gives through one are adjudicated by the other's worker; and deadlines due at
once, the sweep sent from both machines, are split over both workers and each campaign is
adjudicated exactly once. Web servers started at once migrate one after the other."""

from __future__ import annotations

import json
import re
import subprocess
from contextlib import ExitStack
from datetime import timedelta

import psycopg
import pytest
import redis
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import transaction
from django.utils import timezone

from bench.adjudication_storm import clone
from junta import engine
from junta.api import tokens
from junta.engine.bots import bot_orders
from junta.engine.rng import Rng
from junta.games import repository
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Order, Phase, PhaseResult
from junta.ops.models import StoredFile
from tests.conftest import PYTHON, REPO
from tests.web.images import image_bytes
from tests.web.machines import Browser, Machine, site_env, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

PASSWORD = "two-machines-password-2026"
STORM = 20  # campaigns due at once


class FewIterations(PBKDF2PasswordHasher):
    iterations = 1000  # the site's own hasher, cheaper: the login checks it, then renews it


def open_campaign(name: str, seated: int) -> tuple[Game, object]:
    User = get_user_model()
    gm = User.objects.create_user(email=f"gm-{name.lower()}@junta.test")
    game = create_game(gm, name, join_policy=Game.JoinPolicy.OPEN)
    for i in range(seated):
        join_game(game.id, User.objects.create_user(email=f"{name.lower()}{i}@junta.test"),
                  f"Don {name} {i}")
    return game, gm


def expected_digest(phase: Phase) -> str:
    state = repository.state_before(phase)
    return engine.digest(engine.resolve(state, repository.orders_for_engine(phase),
                                        repository.submission_order(phase)).state)


def test_two_machines_serve_and_adjudicate_as_one_site(tmp_path, postgres, redis_url):
    env = site_env(redis_url)
    with ExitStack() as stack:
        a = Machine("a", tmp_path, env, stack)
        b = Machine("b", tmp_path, env, stack)
        logs = a.logs + b.logs
        a.start_web()
        b.start_web()
        b.start_worker()
        a.start_worker(queues=a.queues[:1])  # the mail only, until the storm

        # while they start: a campaign to join, and STORM campaigns to be due at once later
        game, gm = open_campaign("Twin", 9)
        template, template_gm = open_campaign("Storm", 10)
        first = start_campaign(template.id, template_gm)
        due = [first.id, *clone([first.id], STORM - 1)]
        carla = get_user_model().objects.create_user(email="carla@junta.test")
        carla.password = FewIterations().encode(PASSWORD, FewIterations().salt())
        carla.save()
        EmailAddress.objects.create(user=carla, email=carla.email, verified=True, primary=True)
        wait_until("both web servers", lambda: a.web_ready() and b.web_ready(), logs, 90)

        # logged in and her avatar uploaded through A ...
        browser = Browser()
        assert browser.get(a, "/accounts/login/").status == 200
        login = browser.post(a, "/accounts/login/", {"login": carla.email, "password": PASSWORD})
        assert login.status == 302, login.text[-2000:]
        avatar = image_bytes()
        joined = browser.post(a, f"/games/{game.id}/join/", {"character_name": "Dona Carla"},
                              files={"avatar": ("me.png", avatar, "image/png")})
        assert joined.status == 302, joined.text[-2000:]
        # ... seen through B, still logged in: the session, the upload and its address are shared
        page = browser.get(b, f"/games/{game.id}/")
        assert page.status == 200 and "Dona Carla" in page.text
        found = re.search(r'<img class="avatar" src="([^"]+)" alt="Portrait of Dona Carla"',
                          page.text)
        assert found, "no avatar on B's roster"
        image = b.get(found.group(1))
        assert image.status == 200 and image.body == avatar
        assert image.headers["Content-Type"] == "image/png"
        assert b.get(found.group(1), {"If-None-Match": image.headers["ETag"]}).status == 304
        assert StoredFile.objects.count() == 1
        assert not any((machine.var / "media").exists() for machine in (a, b))

        # orders given through A's API are adjudicated by B's worker (the only one running)
        phase = start_campaign(game.id, gm)
        seat = game.players.get(user=carla).seat
        with transaction.atomic():
            secret = tokens.create(carla, "two machines").secret
        api = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json"}
        mine = a.get(f"/api/v1/campaigns/{game.id}/orders", api).json()
        given = [o.to_dict() for o in bot_orders(repository.state_before(phase), seat,
                                                 Rng("two machines"))]
        body = {"orders": given, "state_version": mine["state_version"], "final": True}
        put = a.request("PUT", f"/api/v1/campaigns/{game.id}/orders",
                        json.dumps(body).encode(), api)
        assert put.status == 200, put.text
        assert Order.objects.get(phase=phase, player__seat=seat).final
        Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(minutes=1))
        wait_until("B's worker", b.worker_ready, logs)
        a.send_sweep()
        wait_until("B's worker adjudicating the phase",
                   lambda: PhaseResult.objects.filter(phase=phase).exists(), logs)
        assert b.adjudicated() == [str(Phase.objects.get(pk=phase.pk))]
        phase.refresh_from_db()
        assert PhaseResult.objects.get(phase=phase).digest == expected_digest(phase)

        # a storm: STORM campaigns due at once, A's worker reading adjudications too, the sweep
        # sent from both machines (two beats: a mistake, which adjudicates nothing twice)
        wait_until("A's worker", a.worker_ready, logs)
        a.read(a.queues[1])
        Phase.objects.filter(pk__in=due).update(deadline=timezone.now() - timedelta(minutes=1))
        a.send_sweep()
        b.send_sweep()
        wait_until("every campaign of the storm",
                   lambda: PhaseResult.objects.filter(phase_id__in=due).count() == STORM, logs)
        queues = redis.Redis.from_url(redis_url)
        wait_until("both workers done", lambda: all(drained(m) for m in (a, b)) and not any(
            queues.llen(env[name]) for name in (
                "JUNTA_CELERY_QUEUE", "JUNTA_CELERY_ADJUDICATION_QUEUE")), logs)

    names = {str(p) for p in Phase.objects.filter(pk__in=due).select_related("game")}
    by_a = [n for n in a.adjudicated() if n in names]
    by_b = [n for n in b.adjudicated() if n in names]
    assert by_a and by_b, "the storm was not split over both workers"
    assert sorted(by_a + by_b) == sorted(names), "a campaign adjudicated twice, or never"
    for game_id in Phase.objects.filter(pk__in=due).values_list("game_id", flat=True):
        assert Phase.objects.filter(game_id=game_id).count() == 2  # one next phase each


def drained(machine: Machine) -> bool:
    """Every task the machine's worker received has finished."""
    log = (machine.var / "worker.log").read_text()
    return log.count("] received") == len(re.findall(r"\] (succeeded|failed|raised)", log))


def test_web_servers_started_at_once_migrate_one_after_the_other(tmp_path, postgres):
    """scripts/web-start's migrations wait for the advisory lock another machine holds."""
    from junta.ops.management.commands.migrate_shared import MIGRATION_LOCK

    env = site_env("redis://127.0.0.1:1/0", JUNTA_VAR_DIR=str(tmp_path))
    params = dict(host=postgres["HOST"] or None, port=postgres["PORT"] or None,
                  user=postgres["USER"] or None, password=postgres["PASSWORD"] or None,
                  dbname=postgres["NAME"], autocommit=True)
    with psycopg.connect(**params) as other_machine:
        other_machine.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK])
        log = (tmp_path / "migrate.log").open("w")
        migrating = subprocess.Popen([PYTHON, "manage.py", "migrate_shared"], cwd=REPO, env=env,
                                     stdout=log, stderr=subprocess.STDOUT)
        try:
            waiting = ("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                       "AND NOT granted")
            wait_until("the migrations waiting for the lock", lambda: other_machine.execute(
                waiting).fetchone()[0] == 1 or migrating.poll() is not None,
                [tmp_path / "migrate.log"])
            assert migrating.poll() is None, "migrated while another machine held the lock"
        finally:
            other_machine.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK])
            assert migrating.wait(timeout=120) == 0, (tmp_path / "migrate.log").read_text()
            log.close()
    assert "No migrations to apply" in (tmp_path / "migrate.log").read_text()
