"""Sign-up does not tell whether an address has an account: a registered address gets
the same answer as a new one, after the same work: one password hash, one mail task queued and
no mail sent inside the request. Then the task sends the right mail: the confirmation to the new
address, "an account already exists" to the registered one.

No timings here (bench/signup_timing.py measures them); the work is counted instead."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import ClassVar
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.tasks import send_mail_task

PASSWORD = "papaya-Republic-1977"
REGISTERED = "isabel@example.org"
NEW = "carlos@example.org"


class CountingHasher(MD5PasswordHasher):
    """The tests' only hasher: counts the passwords it hashes."""

    encoded: ClassVar[int] = 0

    def encode(self, password: str, salt: str) -> str:
        type(self).encoded += 1
        return super().encode(password, salt)


@pytest.fixture(autouse=True)
def own_rate_limit_counters(db, settings):
    """A fresh key prefix for allauth's rate limits (one confirmation mail per address and
    three minutes), as in test_accounts.py."""
    settings.CACHES = {"default": {**settings.CACHES["default"],
                                   "KEY_PREFIX": f"test-{uuid.uuid4().hex[:12]}"}}


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.encoded = 0
    return CountingHasher


@pytest.fixture
def registered(db):
    user = get_user_model().objects.create_user(email=REGISTERED, password="an-Older-password-1")
    EmailAddress.objects.create(user=user, email=REGISTERED, verified=True, primary=True)
    return user


def signup_data(email: str) -> dict[str, str]:
    return {"email": email, "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "Carlos", "time_zone": "America/Lima"}


def page_text(html: str, email: str) -> str:
    """The text a reader sees, the address the form was sent with replaced by ADDRESS."""
    text = re.sub(r"<[^>]+>", " ", html.replace(email, "ADDRESS"))
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Attempt:
    status: int
    location: str
    cookies: list[str]
    page: str
    hashes: int  # passwords hashed while the request ran
    mailed_in_request: int  # mails sent while the request ran (must be none)
    queued: list[dict]  # the data of each mail task queued (after the commit)
    mailed_before_worker: int  # mails sent before a worker ran the tasks (must be none)


def attempt(email: str, capture) -> Attempt:
    """Sign up with `email` from a new browser. The mail task is recorded, not run."""
    client = Client()
    client.get(reverse("account_signup"))
    CountingHasher.encoded = 0
    mail.outbox.clear()
    with mock.patch.object(send_mail_task, "delay") as delay:
        with capture(execute=False) as after_commit:
            response = client.post(reverse("account_signup"), signup_data(email))
        hashes, mailed_in_request = CountingHasher.encoded, len(mail.outbox)
        for callback in after_commit:  # the request's transaction commits
            callback()
    queued = []
    for call in delay.call_args_list:
        (data,), kwargs = call
        assert not kwargs
        assert json.loads(json.dumps(data)) == data  # the broker's JSON carries it whole
        queued.append(data)
    page = client.get(response["Location"]) if response.status_code == 302 else response
    return Attempt(
        status=response.status_code,
        location=response.get("Location", ""),
        cookies=sorted(response.cookies),
        page=page_text(page.content.decode(), email),
        hashes=hashes,
        mailed_in_request=mailed_in_request,
        queued=queued,
        mailed_before_worker=len(mail.outbox),
    )


def run_task(data: dict) -> mail.EmailMessage:
    """What the worker does with one queued task; the mail it sent."""
    mail.outbox.clear()
    send_mail_task.apply(args=[data], throw=True)
    assert len(mail.outbox) == 1
    return mail.outbox[0]


def test_a_registered_address_is_answered_as_a_new_one_after_the_same_work(
        counting_hasher, registered, django_capture_on_commit_callbacks):
    known = attempt(REGISTERED, django_capture_on_commit_callbacks)
    new = attempt(NEW, django_capture_on_commit_callbacks)

    # the same answer
    assert known.status == new.status == 302
    assert known.location == new.location == reverse("account_email_verification_sent")
    assert known.cookies == new.cookies
    assert known.page == new.page
    assert "Confirmation email sent to ADDRESS." in new.page
    assert "We have sent an email to you for verification." in new.page

    # the same work: one password hashed, one mail queued, none sent inside the request
    assert known.hashes == new.hashes == 1
    assert known.mailed_in_request == new.mailed_in_request == 0
    assert len(known.queued) == len(new.queued) == 1
    assert known.mailed_before_worker == new.mailed_before_worker == 0

    # only the new address got an account; the registered one keeps its password
    User = get_user_model()
    assert User.objects.filter(email=NEW).exists()
    assert User.objects.filter(email=REGISTERED).count() == 1
    registered.refresh_from_db()
    assert registered.check_password("an-Older-password-1")

    # the worker sends the right mail to each
    confirmation = run_task(new.queued[0])
    assert confirmation.to == [NEW]
    assert confirmation.subject == "[Junta] Please Confirm Your Email Address"
    assert re.search(r"https?://\S+/accounts/confirm-email/\S+/", confirmation.body)

    notice = run_task(known.queued[0])
    assert notice.to == [REGISTERED]
    assert notice.subject == "[Junta] Account Already Exists"
    assert "an account using that email address already exists" in notice.body
    assert "/accounts/password/reset/" in notice.body
    assert "confirm-email" not in notice.body


def test_the_mail_of_a_task_run_twice_keeps_its_message_id(counting_hasher, registered,
                                                            django_capture_on_commit_callbacks):
    """A redelivered task (acks_late) sends the same Message-ID: the receiver drops the copy."""
    data = attempt(REGISTERED, django_capture_on_commit_callbacks).queued[0]
    first = run_task(data).message()["Message-ID"]
    again = run_task(data).message()["Message-ID"]
    assert first and first == again


@pytest.mark.parametrize("email", [REGISTERED, NEW])
def test_the_mail_goes_out_over_smtp_from_the_celery_task_only(
        email, registered, mailbox, eager_celery, django_capture_on_commit_callbacks):
    """End to end, with tasks run eagerly and a real SMTP server: nothing reaches it while the
    request runs; once the request has committed, the task sends the one mail."""
    client = Client()
    with mock.patch.object(send_mail_task, "delay", wraps=send_mail_task.delay) as delay:
        with django_capture_on_commit_callbacks(execute=False) as after_commit:
            response = client.post(reverse("account_signup"), signup_data(email))
        assert response.status_code == 302
        assert mailbox.received == [] and delay.call_count == 0
        for callback in after_commit:
            callback()
        assert delay.call_count == 1
    [received] = mailbox.received
    assert received.to == [email]
    expected = "Account Already Exists" if email == REGISTERED else "Please Confirm Your Email"
    assert expected in received.subject
