"""Accounts with django-allauth: sign up, verify the e-mail, log in and out, reset and change the
password, set the time zone on the profile; allauth's rate limits guard the login and the admin."""

from __future__ import annotations

import importlib
import re
import uuid

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.urls import reverse

PASSWORD = "papaya-Republic-1977"


@pytest.fixture(autouse=True)
def own_rate_limit_counters(db, settings):
    """Each test counts its own attempts under a fresh key prefix in the configured cache (never
    a flush: in CI that cache is the Redis the broker and other test runs use too)."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": prefix}}
    return prefix


@pytest.fixture(autouse=True)
def mail_tasks_run_at_once(eager_celery):
    """allauth's mails are Celery tasks (accounts.tasks), queued once the request's transaction
    commits: run them in this process, within `sends_mail()`."""
    return eager_celery


@pytest.fixture
def sends_mail(django_capture_on_commit_callbacks):
    """`with sends_mail(): client.post(...)`: the mail tasks the request queued after its
    commit (the test's transaction never commits) have run when the block ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def first_link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert match, body
    return match.group(1)


def sign_up(client, email="carlos@example.org", **extra):
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "Carlos", "time_zone": "America/Lima", **extra}
    return client.post(reverse("account_signup"), data)


@pytest.mark.django_db
def test_sign_up_verify_log_in_set_time_zone_and_see_it_on_the_profile(client, sends_mail):
    with sends_mail():
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


def test_password_reset_by_mail_then_log_in_with_the_new_password(client, verified_user,
                                                                  sends_mail):
    with sends_mail():
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


def stored_rate_limit_keys(prefix: str) -> list[str]:
    """The allauth rate-limit counters that the configured cache holds under `prefix`."""
    cache = django_settings.CACHES["default"]
    if cache["BACKEND"] == "django.core.cache.backends.db.DatabaseCache":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT cache_key FROM {connection.ops.quote_name(cache['LOCATION'])}")
            keys = [row[0] for row in cursor.fetchall()]
    elif cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
        import redis

        client = redis.Redis.from_url(cache["LOCATION"])
        keys = [key.decode() for key in client.scan_iter(match=f"{prefix}:*", count=1000)]
    else:
        pytest.fail(f"allauth's rate limits need a shared cache, not {cache['BACKEND']}")
    return [key for key in keys if key.startswith(f"{prefix}:") and ":allauth:rl:" in key]


def test_rate_limits_count_in_redis_when_configured_else_in_the_database_cache(
    client, verified_user, own_rate_limit_counters
):
    broker = django_settings.CELERY_BROKER_URL
    expected = (
        "django.core.cache.backends.redis.RedisCache"
        if django_settings.CACHE_URL or broker.startswith(("redis://", "rediss://"))
        else "django.core.cache.backends.db.DatabaseCache"
    )
    assert django_settings.CACHES["default"]["BACKEND"] == expected
    assert not stored_rate_limit_keys(own_rate_limit_counters)
    client.post(reverse("account_login"), {"login": verified_user.email, "password": "wrong"})
    keys = stored_rate_limit_keys(own_rate_limit_counters)
    assert any(":login_failed:" in key for key in keys), keys


def test_admin_login_goes_through_allauth(client, verified_user):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    client.force_login(verified_user)  # not staff
    assert client.get("/admin/login/").status_code == 403


def test_admin_login_form_cannot_be_used_to_get_around_the_rate_limits(client, verified_user):
    verified_user.is_staff = verified_user.is_superuser = True
    verified_user.save()
    # Django's own admin form would log in here; it is replaced by a redirect to allauth's.
    response = client.post("/admin/login/?next=/admin/",
                           {"username": verified_user.email, "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert "_auth_user_id" not in client.session
    for _ in range(5):
        client.post(reverse("account_login"), {"login": verified_user.email, "password": "wrong"})
    response = client.post(reverse("account_login"),
                           {"login": verified_user.email, "password": PASSWORD})
    assert "_auth_user_id" not in client.session  # locked out: no way into the admin either
    assert "Too many failed login attempts" in response.content.decode()


def test_staff_log_in_through_allauth_and_reach_the_admin(client, verified_user):
    verified_user.is_staff = verified_user.is_superuser = True
    verified_user.save()
    response = client.post(reverse("account_login") + "?next=/admin/",
                           {"login": verified_user.email, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def assert_site_page(response) -> str:
    """The page is the project's own layout, made for phones, with the CSP header."""
    assert response.status_code == 200, response
    html = response.content.decode()
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html
    assert 'class="site-header"' in html and 'class="site-footer"' in html
    assert "/static/css/junta.css" in html
    assert "Content-Security-Policy" in response.headers
    return html


def test_pages_use_the_site_layout_and_are_phone_ready(client, db):
    for name in ("home", "account_login", "account_signup", "account_reset_password",
                 "account_reset_password_done", "account_email_verification_sent"):
        assert_site_page(client.get(reverse(name)))


def test_password_and_e_mail_pages_use_the_site_layout(client, verified_user, sends_mail):
    with sends_mail():
        client.post(reverse("account_reset_password"), {"email": verified_user.email})
    response = client.get(first_link(mail.outbox[0].body), follow=True)
    html = assert_site_page(response)
    assert 'name="password1"' in html  # the form to choose the new password

    with sends_mail():
        sign_up(client, email="tomas@example.org")
    html = assert_site_page(client.get(first_link(mail.outbox[-1].body)))
    assert "tomas@example.org" in html  # the page that confirms the address

    client.force_login(verified_user)
    for name in ("account_change_password", "account_email", "account_logout", "profile"):
        assert_site_page(client.get(reverse(name)))
    assert 'name="oldpassword"' in client.get(reverse("account_change_password")).content.decode()


def test_the_custom_user_model_comes_with_the_first_migration():
    assert django_settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model()._meta.label == "accounts.User"
    first = importlib.import_module("accounts.migrations.0001_initial").Migration
    assert first.initial
    created = [op.name for op in first.operations if op.__class__.__name__ == "CreateModel"]
    assert created[0] == "User"
