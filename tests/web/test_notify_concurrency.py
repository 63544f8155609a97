"""Each mail once when several workers send the same notifications at the same moment, on
PostgreSQL: the claim row's unique constraint decides. A negative control first shows
that without the claim the same mails do go out twice."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model

from junta.games import adjudication
from junta.notify import claims, notices
from junta.notify.models import Delivery, Preferences
from tests.web.concurrency import in_threads, started_phase

pytestmark = pytest.mark.django_db(transaction=True)


def published_phase_with_readers():
    phase = started_phase()
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    readers = list(get_user_model().objects.filter(email__startswith="p"))
    for user in readers:
        Preferences.objects.create(user=user, game=phase.game, results=True)
    return phase, readers


def test_without_the_claim_concurrent_workers_send_twice(postgres, mailbox,
                                                         monkeypatch):
    phase, readers = published_phase_with_readers()

    def no_claim(user_id, game_id, kind, key, now=None):  # noqa: ANN001, ANN202
        return Delivery(user_id=user_id, game_id=game_id, kind=kind, key=key)

    monkeypatch.setattr(claims, "claim", no_claim)
    monkeypatch.setattr(claims, "mark_sent", lambda *args: None)
    in_threads(lambda: notices.send_results(phase.id))
    per_reader = Counter(m.to[0] for m in mailbox.received)
    assert max(per_reader.values()) > 1, "the race did not show: the test proves nothing"


def test_concurrent_workers_send_each_mail_once(postgres, mailbox):
    phase, readers = published_phase_with_readers()
    outcomes = in_threads(lambda: notices.send_results(phase.id))
    total = sum(outcomes, Counter())
    assert total["sent"] == len(readers) == 10
    per_reader = Counter(m.to[0] for m in mailbox.received)
    assert sorted(per_reader) == sorted(u.email for u in readers)
    assert set(per_reader.values()) == {1}
    assert Delivery.objects.filter(status="sent").count() == 10
