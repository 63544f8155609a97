"""Accounts with django-allauth: sign up, verify the e-mail, log in and out, reset and change the
password, set the time zone on the profile; allauth's rate limits guard the login and the admin."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

PASSWORD = "papaya-Republic-1977"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()
    yield
    cache.clear()


def first_link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert match, body
    return match.group(1)


def sign_up(client, email="carlos@example.org", **extra):
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "Carlos", "time_zone": "America/Lima", **extra}
    return client.post(reverse("account_signup"), data)


@pytest.mark.django_db
def test_sign_up_verify_log_in_set_time_zone_and_see_it_on_the_profile(client):
    response = sign_up(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(email="carlos@example.org")
    assert (user.display_name, user.time_zone) == ("Carlos", "America/Lima")

    # Verification is mandatory: no session until the address is confirmed.
    assert "_auth_user_id" not in client.session
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["carlos@example.org"]
    assert message.subject.startswith("[Junta]")
    confirm_path = first_link(message.body)
    page = client.get(confirm_path)
    assert page.status_code == 200
    assert b"carlos@example.org" in page.content
    response = client.post(confirm_path)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)

    client.post(reverse("account_logout"))
    assert "_auth_user_id" not in client.session
    response = client.post(
        reverse("account_login"), {"login": "carlos@example.org", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)

    response = client.post(
        reverse("profile"), {"display_name": "Don Carlos", "time_zone": "Europe/Madrid"}
    )
    assert response.status_code == 302
    page = client.get(reverse("profile"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Europe/Madrid" in text and "Don Carlos" in text
    user.refresh_from_db()
    assert user.time_zone == "Europe/Madrid"


@pytest.mark.django_db
def test_unverified_account_cannot_log_in(client):
    sign_up(client)
    client.post(reverse("account_logout"))
    response = client.post(
        reverse("account_login"), {"login": "carlos@example.org", "password": PASSWORD}
    )
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")


@pytest.fixture
def verified_user(db):
    from allauth.account.models import EmailAddress

    user = get_user_model().objects.create_user(
        email="isabel@example.org", password=PASSWORD, display_name="Isabel"
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_profile_rejects_an_unknown_time_zone_with_a_specific_message(client, verified_user):
    client.force_login(verified_user)
    response = client.post(reverse("profile"), {"display_name": "", "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert "Mars/Olympus is not one of the available choices" in response.content.decode()
    verified_user.refresh_from_db()
    assert verified_user.time_zone == "America/New_York"


def test_profile_requires_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_password_reset_by_mail_then_log_in_with_the_new_password(client, verified_user):
    client.post(reverse("account_reset_password"), {"email": verified_user.email})
    assert len(mail.outbox) == 1
    reset_path = first_link(mail.outbox[0].body)
    response = client.get(reset_path)  # redirects to the key-less form URL
    form_path = response["Location"] if response.status_code == 302 else reset_path
    new_password = "a-new-Papaya-password-88"
    response = client.post(form_path, {"password1": new_password, "password2": new_password})
    assert response.status_code == 302
    assert client.login(email=verified_user.email, password=new_password)


def test_password_change(client, verified_user):
    client.force_login(verified_user)
    new_password = "changed-Papaya-password-99"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new_password, "password2": new_password},
    )
    assert response.status_code == 302
    verified_user.refresh_from_db()
    assert verified_user.check_password(new_password)


def test_failed_logins_are_rate_limited(client, verified_user):
    url = reverse("account_login")
    for _ in range(5):
        response = client.post(url, {"login": verified_user.email, "password": "wrong"})
        assert response.status_code == 200
    # The sixth attempt is refused even with the right password.
    response = client.post(url, {"login": verified_user.email, "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()


def test_admin_login_goes_through_allauth(client, verified_user):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    client.force_login(verified_user)  # not staff
    assert client.get("/admin/login/").status_code == 403


def test_pages_use_the_site_layout_and_are_phone_ready(client, db):
    for name in ("home", "account_login", "account_signup", "account_reset_password"):
        page = client.get(reverse(name))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'name="viewport" content="width=device-width' in html
        assert 'class="site-header"' in html
        assert "Content-Security-Policy" in page.headers
