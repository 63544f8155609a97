"""The profile's "Notifications on your phone" in Chromium: opening the page asks for no
permission; only the button's click asks, and a refusal is said in the page, where the focus
goes (the browser's answer is stubbed: a headless browser has no one to ask, and no push
service to subscribe with)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth import get_user_model
from django.urls import reverse

from junta.notify.vapid import b64url
from tests.e2e.sessions import signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Count the permission requests, and answer them "denied" as a person who says no.
STUB = """window.__asked = 0;
if (window.Notification) {
  Object.defineProperty(Notification, 'permission', {get: () => 'default'});
  Notification.requestPermission = () => { window.__asked += 1; return Promise.resolve('denied'); };
}"""


def test_the_permission_is_asked_on_the_click_only_and_a_refusal_is_said(live_server, browser,
                                                                         settings):
    key = ec.generate_private_key(ec.SECP256R1())
    settings.JUNTA_VAPID_PRIVATE_KEY = b64url(
        key.private_numbers().private_value.to_bytes(32, "big"))
    user = get_user_model().objects.create_user(email="carlos@example.org")
    context, page = signed_in(browser, user, live_server.url, 375, 740)
    try:
        context.add_init_script(STUB)
        page.goto(live_server.url + reverse("profile"))
        button = page.get_by_role("button", name="Turn on notifications on this device")
        button.wait_for()
        assert page.evaluate("window.__asked") == 0  # nothing asked when the page opened
        assert page.locator("#push-status").inner_text() == \
            "This device gets no notifications from Junta yet."
        button.click()
        error = page.locator("#push-error")
        error.wait_for()
        assert page.evaluate("window.__asked") == 1
        assert error.inner_text() == ("Notifications were not turned on: the browser did not "
                                      "allow notifications (denied).")
        assert page.evaluate("document.activeElement.id") == "push-error"
        assert button.is_enabled()
    finally:
        context.close()
