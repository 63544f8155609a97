"""A message sent at the very moment its writer leaves the conversation, or the GameMaster
replaces or removes him, on PostgreSQL (row locks): posting, leaving, and the GameMaster's
changes of players all lock the conversation, so the message is in before he was out or
refused, never stored after (docs/rules.md §talk: "he reads it no more", "the one he replaces no
longer reads them"). Under SQLite every write transaction is BEGIN IMMEDIATE (see
`junta.games.locking`): they cannot interleave there, so the races are shown on PostgreSQL
only, as the other races of tests/web/."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from junta.games.campaigns import create_game, join_game
from junta.games.models import AuditEntry, Game
from junta.gm import services as gm_services
from junta.talk import access, services
from junta.talk.access import Reader, reader_for
from junta.talk.models import Conversation, Member, Message
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


def talk_of_two(game: Game) -> tuple[Reader, Conversation]:
    """Carlos (p0) starts a conversation with Isabel (p1): (Carlos as a talker, it)."""
    users = get_user_model().objects
    carlos, isabel = users.get(email="p0@example.org"), users.get(email="p1@example.org")
    writer = reader_for(game, carlos)
    assert writer is not None
    return writer, services.start(writer, "A deal", [game.players.get(user=isabel)], False,
                                  "12 MP?")


def post_while(talk: Conversation, writer: Reader, meanwhile: Callable[[], object]) -> None:
    """He sends "15, final" to `talk`; once posting has read, under the conversation's lock,
    that he is in it, `meanwhile` runs in another connection (he leaves in another window, the
    GameMaster replaces or removes him) and posting goes on when it is done or waits for a
    lock. Both are over when this returns, and neither failed."""
    done = threading.Event()
    checked = threading.Event()
    real_check = access.why_not_send

    def check_then_the_other(reader, to_gm_only):  # noqa: ANN001, ANN202
        if threading.current_thread().name == "post":
            checked.set()  # he is a member, read under the lock: now the other happens
            until(lambda: done.is_set() or someone_waits_for_a_lock(),
                  "the other went through or waited for the lock")
        return real_check(reader, to_gm_only)

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

    def other() -> None:
        assert checked.wait(20)
        meanwhile()
        done.set()

    threads = [threading.Thread(target=run(lambda: services.post(talk, writer, "15, final")),
                                name="post"),
               threading.Thread(target=run(other), name="other")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(access, "why_not_send", check_then_the_other)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert not errors, errors
    assert connection.vendor == "postgresql"


def sent_before(talk: Conversation, moment: datetime) -> bool:
    """"15, final" is not in the conversation, or is and was written before `moment`."""
    sent = Message.objects.filter(conversation=talk, body="15, final").first()
    return sent is None or sent.created_at < moment


def test_a_message_sent_as_its_writer_leaves_is_never_stored_after_he_left(postgres):
    """Posting has read, under the conversation's lock, that he is still in it; he leaves in
    another window before the message is written. Leaving waits for the message (which is then
    his last word before leaving); without the lock it went through first and the message was
    stored after he had left."""
    game = started_phase().game
    writer, talk = talk_of_two(game)
    post_while(talk, writer, lambda: services.leave(talk, writer))
    member = Member.objects.get(conversation=talk, user=writer.user)
    assert member.left_at is not None
    assert sent_before(talk, member.left_at), "stored after he had left"


def test_a_message_sent_as_the_gm_replaces_its_writer_is_never_stored_after(postgres):
    """The GameMaster gives Carlos's family to a newcomer as Carlos's message is on its way:
    the replacement hands the family's conversations over under each one's lock, so it waits
    for the message (then his last word in it) or the message is refused; without the lock the
    newcomer took his row first and the message was stored under Carlos's name in a
    conversation he was no longer in, and with it but without posting locking the game first,
    each waited for the other (a deadlock: `junta.talk.services`)."""
    game = started_phase().game
    writer, talk = talk_of_two(game)
    newcomer = get_user_model().objects.create_user(email="nuevo@example.org")
    assert writer.player is not None
    seat = writer.player.pk
    post_while(talk, writer, lambda: gm_services.replace_player(
        game.id, game.gm, seat, newcomer.email, "Don Nuevo", reason="moved away"))
    assert Member.objects.filter(conversation=talk, user=newcomer, left_at=None).exists()
    assert not Member.objects.filter(conversation=talk, user=writer.user).exists()
    replaced = AuditEntry.objects.get(game=game, action="replace")
    assert sent_before(talk, replaced.created_at), "stored after he was replaced"


def test_a_message_sent_as_the_gm_removes_its_writer_is_never_stored_after(postgres):
    """While the campaign forms the GameMaster removes Carlos as his message is on its way: he
    leaves its conversations under each one's lock, so the removal waits for the message or
    the message is refused, never stored after he was out."""
    users = get_user_model().objects
    gm = users.create_user(email="gm@example.org")
    game = create_game(gm, "Race", join_policy=Game.JoinPolicy.OPEN)
    for i in range(2):
        join_game(game.id, users.create_user(email=f"p{i}@example.org"), f"Don {i}")
    writer, talk = talk_of_two(game)
    assert writer.player is not None
    seat = writer.player.pk
    post_while(talk, writer, lambda: gm_services.remove_player(game.id, gm, seat))
    member = Member.objects.get(conversation=talk, user=writer.user)
    assert member.left_at is not None
    assert sent_before(talk, member.left_at), "stored after he was removed"
