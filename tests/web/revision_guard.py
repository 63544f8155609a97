"""The content revision's guard, around every request of every web test.

A campaign's pages are kept per viewer under its content revision (junta/games/page_cache.py),
so a change to anything they are drawn from that does not raise the revision would serve a
stale page: an order that seems lost, a speech that seems not posted. The guard fingerprints
every campaign's watched rows (`junta.games.revisions.WATCHED`, and the names of its people)
when each request starts and when it ends; a campaign whose rows changed while its revision did
not is recorded, and the test fails at its end naming the campaign and the request.

Its own queries are taken back out of the connection's log, so that the tests that count a
page's queries count the page's only."""

from __future__ import annotations

import hashlib
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import connection

from junta.games import revisions
from junta.games.models import ContentRevision


class RevisionGuard:
    def __init__(self) -> None:
        self.seen: dict[int, tuple[int, str]] = {}
        self.problems: list[str] = []
        self.where = "the test's start"

    def start(self) -> None:
        request_started.connect(self._started, dispatch_uid="revision-guard-start")
        request_finished.connect(self._finished, dispatch_uid="revision-guard-finish")

    def stop(self) -> None:
        request_started.disconnect(dispatch_uid="revision-guard-start")
        request_finished.disconnect(dispatch_uid="revision-guard-finish")

    def _started(self, sender: object, environ: dict | None = None, **kwargs: object) -> None:
        path = (environ or {}).get("PATH_INFO", "?")
        method = (environ or {}).get("REQUEST_METHOD", "?")
        self.check(f"between {self.where} and the start of {method} {path}")
        self.where = f"{method} {path}"

    def _finished(self, sender: object, **kwargs: object) -> None:
        self.check(f"during {self.where}")
        self.where = f"the end of {self.where}"

    def check(self, when: str) -> None:
        log = connection.queries_log
        before = len(log)
        try:
            now = self.fingerprints()
        finally:
            while len(log) > before:
                log.pop()
        for game_id, (revision, print_) in now.items():
            seen = self.seen.get(game_id)
            if seen is not None and seen[0] == revision and seen[1] != print_:
                self.problems.append(
                    f"campaign {game_id}: its rows changed {when}, its content revision "
                    f"({revision}) did not: its pages would be served as they were")
        self.seen = now

    @staticmethod
    def fingerprints() -> dict[int, tuple[int, str]]:
        rows: dict[int, list] = defaultdict(list)
        for model, watched in revisions.WATCHED.items():
            fields = [f.attname for f in model._meta.concrete_fields]
            for values in model._default_manager.order_by("pk").values_list(
                    watched.game_path, *fields):
                if values[0] is not None:
                    rows[values[0]].append((model._meta.label, values[1:]))
        people = {pk: rest for pk, *rest in get_user_model().objects.order_by("pk").values_list(
            "pk", *revisions.PERSON_FIELDS)}
        for user_id, games in revisions.person_games(people).items():
            for game_id in games:
                rows[game_id].append(("person", user_id, people[user_id]))
        numbers = dict(ContentRevision.objects.values_list("game_id", "number"))
        return {game_id: (numbers.get(game_id, 0),
                          hashlib.sha256(repr(sorted(found, key=repr)).encode()).hexdigest())
                for game_id, found in rows.items()}
