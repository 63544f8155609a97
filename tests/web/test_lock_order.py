"""The campaign's write lock never deadlocks with a foreign-key check, on PostgreSQL.

Django's foreign keys are checked when a transaction commits. A transaction that raised a
campaign's revision twice (`junta.games.revisions`) has its row's key to the game checked then,
which takes a share lock of the game's key. A lock taken as `FOR UPDATE` on the game blocks that
check, so a writer holding the game and waiting for the revision row, and a writer holding the
revision row and committing, waited for each other until PostgreSQL killed one ("deadlock
detected": a message, a speech or an adjudication lost to a 500). The locks are `FOR NO KEY
UPDATE` (`junta.games.locking`): they exclude each other as before, and a key check passes."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from junta.games import revisions
from junta.games.locking import lock_game
from tests.web.concurrency import started_phase

pytestmark = pytest.mark.django_db(transaction=True)


def _someone_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:  # the activity as it is now, not as this
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # transaction first read it
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       "AND datname = current_database()")
        return cursor.fetchone()[0] > 0


def test_a_writer_that_raised_the_revision_twice_commits_while_another_holds_the_game(
        postgres):
    game_id = started_phase().game_id
    raised_twice, errors = threading.Event(), []

    def writer() -> None:  # two changes that each raise the number, without the game's lock
        try:
            with transaction.atomic():
                revisions.bump(game_id)
                revisions.bump(game_id)
                raised_twice.set()
                for _ in range(400):  # until the locker waits for the revision row
                    if _someone_waits_for_a_lock():
                        break
                    time.sleep(0.01)
                else:
                    raise AssertionError("the locker never waited for the revision row")
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    def locker() -> None:  # the game's lock, then the revision (what lock_game does)
        try:
            assert raised_twice.wait(10)
            with transaction.atomic():
                lock_game(game_id)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer), threading.Thread(target=locker)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert revisions.current(game_id) is not None
