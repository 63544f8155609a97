"""What the mail of new messages told each member moved from talk's `Member` (mailed_until,
mailed_at) to notify's `ConversationMail`: notify's migration 0006 copies the rows over before
talk's 0003 removes the fields, and going back copies them to the members again. Run on the
test database as it is (SQLite, or PostgreSQL with DATABASE_URL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from junta.games.campaigns import start_campaign
from junta.notify.models import ConversationMail
from junta.talk import access, services

BEFORE = [("notify", "0005_campaign_mails_tell_awards"),
          ("talk", "0002_rerender_text_in_angle_brackets")]
AFTER = [("notify", "0006_conversation_mail"), ("talk", "0003_member_mail_moved_to_notify")]


def migrate(targets):
    """The database migrated to `targets`; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_mails_told_go_to_notify_and_back(campaign):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    carlos, isabel, miguel = users[:3]
    starter = access.reader_for(game, carlos)
    assert starter is not None
    talk = services.start(starter, "The Navy", [game.players.get(user=isabel),
                                                game.players.get(user=miguel)], False, "Hola")
    members = {m.user_id: m for m in talk.members.all()}
    until = talk.messages.get().created_at
    at = timezone.now().replace(microsecond=123456)
    ConversationMail.objects.create(member=members[isabel.pk], user=isabel, mailed_until=until,
                                    mailed_at=at)
    ConversationMail.objects.create(member=members[miguel.pk], user=miguel, mailed_at=at)
    # a row of the person who had the seat before a hand-over: not the member's any more
    ConversationMail.objects.create(member=members[carlos.pk], user=isabel,
                                    mailed_until=until - timedelta(days=1), mailed_at=at)
    try:
        old = migrate(BEFORE)
        rows = {m.user_id: (m.mailed_until, m.mailed_at)
                for m in old.get_model("talk", "Member").objects.filter(conversation_id=talk.pk)}
        assert rows == {isabel.pk: (until, at), miguel.pk: (None, at), carlos.pk: (None, None)}

        new = migrate(AFTER)
        copied = {(m.member_id, m.user_id, m.mailed_until, m.mailed_at)
                  for m in new.get_model("notify", "ConversationMail").objects.all()}
        assert copied == {(members[isabel.pk].pk, isabel.pk, until, at),
                          (members[miguel.pk].pk, miguel.pk, None, at)}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
