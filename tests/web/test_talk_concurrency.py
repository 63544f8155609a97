"""A message sent at the very moment its writer leaves the conversation, on PostgreSQL (row
locks): posting and leaving both lock the conversation, so the message is in before he left or
refused, never stored after (docs/rules.md §talk: "he reads it no more"). Under SQLite every
write transaction is BEGIN IMMEDIATE (see `junta.games.locking`): the two cannot interleave
there, so the race is shown on PostgreSQL only, as the other races of tests/web/."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from junta.talk import access, services
from junta.talk.access import reader_for
from junta.talk.models import Member, Message
from tests.web.concurrency import started_phase

pytestmark = pytest.mark.django_db(transaction=True)


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


def someone_waits_for_a_lock() -> bool:
    """Another connection to this database is blocked on a row lock."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else read once a transaction
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                       " AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0] > 0


def test_a_message_sent_as_its_writer_leaves_is_never_stored_after_he_left(postgres,
                                                                           monkeypatch):
    """Posting has read, under the conversation's lock, that he is still in it; he leaves in
    another window before the message is written. Leaving waits for the message (which is then
    his last word before leaving); without the lock it went through first and the message was
    stored after he had left."""
    game = started_phase().game
    users = get_user_model().objects
    carlos, isabel = users.get(email="p0@example.org"), users.get(email="p1@example.org")
    writer = reader_for(game, carlos)
    assert writer is not None
    talk = services.start(writer, "A deal", [game.players.get(user=isabel)], False, "12 MP?")
    left = threading.Event()
    checked = threading.Event()
    real_check = access.why_not_send

    def check_then_leave_elsewhere(reader, to_gm_only):  # noqa: ANN001, ANN202
        if threading.current_thread().name == "post":
            checked.set()  # he is a member, read under the lock: now he leaves elsewhere
            until(lambda: left.is_set() or someone_waits_for_a_lock(),
                  "the leave went through or waited for the lock")
        return real_check(reader, to_gm_only)

    monkeypatch.setattr(access, "why_not_send", check_then_leave_elsewhere)
    errors: list[BaseException] = []

    def run(target: Callable[[], object]) -> Callable[[], None]:
        def body() -> None:
            try:
                target()
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)
            finally:
                connections.close_all()
        return body

    def leave() -> None:
        assert checked.wait(20)
        services.leave(talk, writer)
        left.set()

    threads = [threading.Thread(target=run(lambda: services.post(talk, writer, "15, final")),
                                name="post"),
               threading.Thread(target=run(leave), name="leave")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    member = Member.objects.get(conversation=talk, user=carlos)
    assert member.left_at is not None
    sent = Message.objects.filter(conversation=talk, body="15, final").first()
    assert sent is None or sent.created_at < member.left_at, "stored after he had left"
    assert connection.vendor == "postgresql"
