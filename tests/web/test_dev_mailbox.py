"""`make run`'s mailbox (junta/ops/devmail.py): in development mode, with no SMTP server, each
mail is one line in the terminal and a file under var/mail/, which the staff read on /dev/mail/
(its links work); wherever mail goes out for real, and for anyone but staff, that page does not
exist."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from junta.ops import devmail
from tests.web.browser_forms import forms_in, submit
from tests.web.settings_helpers import settings_with

pytestmark = pytest.mark.django_db
PASSWORD = "papaya-Republic-1977"


@pytest.fixture
def var_mail(tmp_path, settings):
    """The mailer `make run` gets from the settings (JUNTA_DEV, no EMAIL_HOST), in a folder of
    this test's own. (The test environment replaces MAILERS with its outbox: put it back.)"""
    directory = tmp_path / "mail"
    settings.MAILERS = {"default": {"BACKEND": devmail.BACKEND,
                                    "OPTIONS": {"directory": str(directory)}}}
    return directory


@pytest.fixture
def staff(django_user_model):
    user = django_user_model.objects.create_user(email="gm@junta.test", is_staff=True)
    client = Client()
    client.force_login(user)
    return client


def test_development_mode_without_smtp_uses_the_mailbox_under_var(tmp_path):
    assert settings_with(tmp_path, JUNTA_DEV="1")["email"] == devmail.BACKEND
    assert settings_with(tmp_path, JUNTA_DEV="1", EMAIL_HOST="smtp.example.org")["email"] \
        == "django.core.mail.backends.smtp.EmailBackend"


def test_a_sign_up_mail_is_one_line_a_file_and_a_page_whose_link_confirms(
        var_mail, staff, client, caplog, eager_celery, django_capture_on_commit_callbacks):
    signup = reverse("account_signup")
    [form] = [f for f in forms_in(client.get(signup).content.decode())
              if "password1" in f.names()]
    form.set("email", "newcomer@example.org").set("password1", PASSWORD).set(
        "password2", PASSWORD)
    if "display_name" in form.names():
        form.set("display_name", "Newcomer")
    with caplog.at_level(logging.INFO, logger="junta.mail"), \
            django_capture_on_commit_callbacks(execute=True):
        assert submit(client, signup, form).status_code == 302

    [line] = [r.getMessage() for r in caplog.records if r.name == "junta.mail"]
    assert line.startswith("mail to newcomer@example.org: [Junta] ")
    assert "\n" not in line
    [path] = var_mail.iterdir()
    assert line.endswith(f"/dev/mail/{path.name}/")

    page = staff.get("/dev/mail/").content.decode()
    assert "newcomer@example.org" in page and f'href="/dev/mail/{path.name}/"' in page
    mail_page = staff.get(f"/dev/mail/{path.name}/").content.decode()
    confirm = re.search(r'<a href="https?://[^/"]+(/accounts/confirm-email/[^"]+)"', mail_page)
    assert confirm, mail_page
    response = client.get(confirm.group(1))
    assert response.status_code == 200
    [confirm_form] = [f for f in forms_in(response.content.decode()) if f.attrs.get("method")
                      == "post" and "confirm-email" in (f.attrs.get("action") or
                                                        confirm.group(1))]
    assert submit(client, confirm.group(1), confirm_form).status_code == 302
    user = get_user_model().objects.get(email="newcomer@example.org")
    assert user.emailaddress_set.get().verified


def test_mails_to_one_address_are_listed_newest_first(var_mail, staff):
    from django.core.mail import send_mail

    for n, to in enumerate(("a@example.org", "b@example.org", "a@example.org")):
        send_mail(f"Mail {n}", "Text", None, [to])
    page = staff.get("/dev/mail/", {"to": "a@example.org"}).content.decode()
    assert "2 mails to" in page and page.index("Mail 2") < page.index("Mail 0")
    assert "Mail 1" not in page


def test_only_staff_see_it_and_only_in_development(var_mail, staff, client,
                                                   django_user_model):
    from django.core.mail import send_mail

    send_mail("Secret", "Text", None, ["a@example.org"])
    [path] = var_mail.iterdir()
    assert staff.get("/dev/mail/").status_code == 200
    assert client.get("/dev/mail/").status_code == 404
    client.force_login(django_user_model.objects.create_user(email="p@example.org"))
    assert client.get("/dev/mail/").status_code == 404
    assert client.get(f"/dev/mail/{path.name}/").status_code == 404
    assert staff.get("/dev/mail/..%2Fjunta.sqlite3/").status_code == 404
    assert staff.get("/dev/mail/20260101-000000-000000-00000000.eml/").status_code == 404
    smtp = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend"}}
    console = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
    for production in (smtp, console):
        with override_settings(MAILERS=production):
            assert staff.get("/dev/mail/").status_code == 404
            assert staff.get(f"/dev/mail/{path.name}/").status_code == 404
