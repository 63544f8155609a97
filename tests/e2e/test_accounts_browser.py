"""A person signs in on a phone-sized browser and sets the time zone on the profile page."""

from __future__ import annotations

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
