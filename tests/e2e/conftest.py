"""Browser tests: Playwright (Python) driving Debian's Chromium against pytest-django's live
server. Chromium must be installed (`apt-get install chromium`; .ci/run does it)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if not executable:
        pytest.fail("Debian's chromium is not installed: apt-get install chromium", pytrace=False)
    # Playwright's sync API runs an event loop; Django's async-safety check must not trip on it.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A page the size of a 375-pixel-wide phone."""
    context = browser.new_context(viewport={"width": 375, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    yield page
    context.close()
