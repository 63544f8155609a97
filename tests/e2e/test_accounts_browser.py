"""On a phone-sized browser: sign in and set the time zone; reset and change the password."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "papaya-Republic-1977"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_log_in_and_set_time_zone_on_a_phone(live_server, phone):
    user = get_user_model().objects.create_user(
        email="lucia@example.org", password=PASSWORD, display_name="Lucia"
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    phone.goto(f"{live_server.url}/accounts/login/")
    assert no_horizontal_scroll(phone)
    phone.get_by_label("Email").fill("lucia@example.org")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_role("button", name="Sign In").click()
    phone.wait_for_url(f"{live_server.url}/")
    assert "Welcome back, Lucia" in phone.content()

    phone.get_by_role("link", name="Lucia").click()
    phone.get_by_label("Time zone").select_option("Asia/Tokyo")
    phone.get_by_role("button", name="Save profile").click()
    phone.wait_for_url(f"{live_server.url}/accounts/profile/")
    assert "Your profile has been saved." in phone.content()
    assert phone.locator("dd", has_text="Asia/Tokyo").count() == 1
    assert no_horizontal_scroll(phone)
    user.refresh_from_db()
    assert user.time_zone == "Asia/Tokyo"


def uses_the_site_layout(page) -> bool:
    return page.locator("header.site-header").count() == 1 and page.locator(
        "link[rel=stylesheet][href$='css/junta.css']"
    ).count() == 1


@pytest.fixture
def mail_tasks_run_at_once():
    """allauth's mails are Celery tasks (accounts.tasks): the live server runs them itself."""
    from junta.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def test_reset_and_change_the_password_on_a_phone(live_server, phone, mailoutbox,
                                                  mail_tasks_run_at_once):
    user = get_user_model().objects.create_user(
        email="pilar@example.org", password=PASSWORD, display_name="Pilar"
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    phone.goto(f"{live_server.url}/accounts/login/")
    phone.get_by_role("link", name="Forgot your password?").click()
    assert uses_the_site_layout(phone) and no_horizontal_scroll(phone)
    phone.get_by_label("Email").fill("pilar@example.org")
    phone.get_by_role("button", name="Reset My Password").click()
    phone.wait_for_url("**/accounts/password/reset/done/")
    assert uses_the_site_layout(phone) and no_horizontal_scroll(phone)

    link = re.search(r"https?://\S+", mailoutbox[-1].body).group(0)
    phone.goto(link)
    assert uses_the_site_layout(phone) and no_horizontal_scroll(phone)
    reset_password = "a-new-Papaya-password-88"
    phone.locator("input[name=password1]").fill(reset_password)
    phone.locator("input[name=password2]").fill(reset_password)
    phone.get_by_role("button", name="Change Password").click()
    phone.wait_for_url("**/accounts/password/reset/key/done/")
    assert uses_the_site_layout(phone) and no_horizontal_scroll(phone)

    phone.goto(f"{live_server.url}/accounts/login/")
    phone.get_by_label("Email").fill("pilar@example.org")
    phone.get_by_label("Password").fill(reset_password)
    phone.get_by_role("button", name="Sign In").click()
    phone.wait_for_url(f"{live_server.url}/")

    phone.goto(f"{live_server.url}/accounts/password/change/")
    assert uses_the_site_layout(phone) and no_horizontal_scroll(phone)
    changed_password = "changed-Papaya-password-99"
    phone.locator("input[name=oldpassword]").fill(reset_password)
    phone.locator("input[name=password1]").fill(changed_password)
    phone.locator("input[name=password2]").fill(changed_password)
    phone.get_by_role("button", name="Change Password").click()
    phone.wait_for_load_state()
    assert "Password successfully changed." in phone.content()
    assert no_horizontal_scroll(phone)
    user.refresh_from_db()
    assert user.check_password(changed_password)
