"""A worker killed while sending a mail: its claim is a lease. A mail claimed but not
marked sent within JUNTA_MAIL_CLAIM_LEASE_SECONDS is sent again by a later sweep, under the
Message-ID stored with its claim, so that a receiver that got the first attempt drops the
second; a fresh claim is left alone (its worker may still be at it)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from junta.games import adjudication
from junta.games.campaigns import start_campaign
from junta.notify import claims, notices
from junta.notify import mail as mail_module
from junta.notify.models import Delivery, Kind, Preferences
from tests.web.concurrency import in_threads, started_phase


class Killed(BaseException):
    """The worker process dies here: no `except Exception` clause of the app runs."""


def die(*args, **kwargs) -> None:  # noqa: ANN002, ANN003
    raise Killed


def published_phase(campaign):
    """A published phase whose results one player (and nobody else) wants: the others
    turned off the results they would get by default."""
    game, users = campaign()
    Preferences.objects.create(user=users[0], game=game, results=True)
    for user in users[1:]:
        Preferences.objects.create(user=user, game=game, results=False, reminder=False)
    phase = start_campaign(game.id, game.gm)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    return phase


def lease(settings) -> timedelta:
    return timedelta(seconds=settings.JUNTA_MAIL_CLAIM_LEASE_SECONDS)


@pytest.mark.django_db
def test_a_mail_whose_worker_died_after_sending_goes_again_with_the_same_message_id(
        campaign, mailbox, monkeypatch, settings):
    phase = published_phase(campaign)
    with monkeypatch.context() as patch:
        patch.setattr(claims, "mark_sent", die)  # the SMTP server has it; the row never knows
        with pytest.raises(Killed):
            notices.send_results(phase.id)
    row = Delivery.objects.get(kind=Kind.RESULTS)
    assert row.status == Delivery.Status.SENDING and row.message_id.startswith("<")
    assert len(mailbox) == 1
    first = mailbox.received[0].message["Message-ID"]
    assert first == row.message_id

    # a fresh claim is not tried again: its worker may still be talking to the server
    assert notices.send_results(phase.id) == {"skipped": 1}
    assert notices.catch_up_results(row.attempted_at + lease(settings)
                                    - timedelta(seconds=1)) == {}
    assert len(mailbox) == 1

    # once the lease has run out, the sweep sends it again, under the same Message-ID
    later = row.attempted_at + lease(settings) + timedelta(seconds=1)
    assert notices.catch_up_results(later) == {"sent": 1}
    assert notices.catch_up_results(later) == {}
    assert len(mailbox) == 2
    assert mailbox.received[1].message["Message-ID"] == first
    row.refresh_from_db()
    assert (row.status, row.attempts, row.message_id) == (Delivery.Status.SENT, 2, first)


@pytest.mark.django_db
def test_a_mail_whose_worker_died_before_sending_goes_after_the_configured_lease(
        campaign, mailbox, monkeypatch, settings):
    settings.JUNTA_MAIL_CLAIM_LEASE_SECONDS = 60
    phase = published_phase(campaign)
    with monkeypatch.context() as patch:
        patch.setattr(mail_module, "render", die)
        with pytest.raises(Killed):
            notices.send_results(phase.id)
    row = Delivery.objects.get(kind=Kind.RESULTS)
    assert len(mailbox) == 0 and row.status == Delivery.Status.SENDING
    assert notices.sweep(row.attempted_at + timedelta(seconds=59))["sent"] == 0
    assert notices.sweep(row.attempted_at + timedelta(seconds=61))["sent"] == 1
    [received] = mailbox.received
    assert received.message["Message-ID"] == row.message_id


@pytest.mark.django_db
def test_every_attempt_of_a_failed_mail_carries_its_first_message_id(campaign, mailbox,
                                                                     settings):
    phase = published_phase(campaign)
    working = settings.MAILERS
    settings.MAILERS = {"default": {**working["default"], "OPTIONS": {
        **working["default"]["OPTIONS"], "port": 1}}}  # nobody listens there
    assert notices.send_results(phase.id) == {"failed": 1}
    message_id = Delivery.objects.get(kind=Kind.RESULTS).message_id
    settings.MAILERS = working
    row = Delivery.objects.get(kind=Kind.RESULTS)
    assert notices.catch_up_results(row.attempted_at + timedelta(minutes=3)) == {"sent": 1}
    assert mailbox.received[0].message["Message-ID"] == message_id


@pytest.mark.django_db
def test_a_stale_claim_is_retried_a_bounded_number_of_times(campaign, settings):
    phase = published_phase(campaign)
    reader = Preferences.objects.get(results=True).user
    delivery = claims.claim(reader.pk, phase.game_id, Kind.RESULTS, "key")
    Delivery.objects.filter(pk=delivery.pk).update(attempts=Delivery.MAX_ATTEMPTS)
    much_later = delivery.attempted_at + lease(settings) * 10
    assert claims.claim(reader.pk, phase.game_id, Kind.RESULTS, "key", much_later) is None
    assert claims.already_claimed(Kind.RESULTS, "key", [reader.pk], much_later) == {reader.pk}


@pytest.mark.django_db
def test_a_slow_attempt_past_its_lease_does_not_undo_the_retry(campaign, settings):
    """The first worker was slow, not dead: whatever it says last, a sent mail stays sent."""
    phase = published_phase(campaign)
    reader = Preferences.objects.get(results=True).user
    slow = claims.claim(reader.pk, phase.game_id, Kind.RESULTS, "key")
    later = slow.attempted_at + lease(settings) + timedelta(seconds=1)
    retry = claims.claim(reader.pk, phase.game_id, Kind.RESULTS, "key", later)
    assert retry is not None and retry.attempts == 2 and retry.message_id == slow.message_id
    assert claims.claim(reader.pk, phase.game_id, Kind.RESULTS, "key", later) is None
    claims.mark_sent(retry, "subject")
    claims.mark_failed(slow, "TimeoutError")
    claims.mark_empty(slow)
    assert Delivery.objects.get(pk=slow.pk).status == Delivery.Status.SENT


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_send_each_stale_mail_once_with_its_message_id(postgres, mailbox,
                                                                        settings):
    phase = started_phase()
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    readers = list(get_user_model().objects.filter(email__startswith="p"))
    for user in readers:
        Preferences.objects.create(user=user, game=phase.game, results=True)
        claims.claim(user.pk, phase.game_id, Kind.RESULTS, f"phase:{phase.id}")  # then killed
    later = max(d.attempted_at for d in Delivery.objects.all()) + lease(settings) \
        + timedelta(seconds=1)
    outcomes = in_threads(lambda: notices.catch_up_results(later))
    assert sum(outcomes, Counter())["sent"] == len(readers) == 10
    per_reader = Counter(m.to[0] for m in mailbox.received)
    assert sorted(per_reader) == sorted(u.email for u in readers)
    assert set(per_reader.values()) == {1}
    ids = dict(Delivery.objects.values_list("user__email", "message_id"))
    for received in mailbox.received:
        assert received.message["Message-ID"] == ids[received.to[0]]
