"""A practice campaign against the bots in a browser at 390 pixels: started from the dashboard's
form, then played by marking the orders final on each phase (the bots order at once and the
phase is played), from the nominations through the whole first turn, the Status page of each
phase saved as a screenshot in a folder the test prints."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from junta.games.models import Game
from tests.e2e.sessions import screenshot_folder, signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844
MOST_PHASES = 20  # the nominations, the election and a whole turn take far fewer


@pytest.fixture
def fixed_seed(monkeypatch):
    """The same deal and the same bots' orders every run."""
    field = Game._meta.get_field("seed")
    monkeypatch.setattr(field, "default", lambda: "practice-browser")


def no_horizontal_scroll(page) -> bool:  # noqa: ANN001 - a Playwright page
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_whole_turn_against_the_bots_on_a_phone(live_server, browser, fixed_seed, capsys):
    user = get_user_model().objects.create_user(email="solo@example.org", display_name="Solo")
    base = live_server.url
    context, page = signed_in(browser, user, base, WIDTH, HEIGHT)
    folder = screenshot_folder("junta-practice-")

    page.goto(f"{base}/")
    page.get_by_label("Your family's name").fill("Los Papayas")
    page.get_by_label("Bot families").select_option("5")
    with page.expect_navigation():
        page.get_by_role("button", name="Start a practice campaign").click()
    game = Game.objects.get(practice=True)
    assert page.url.endswith(f"/games/{game.id}/status/")
    assert page.locator("[data-lesson]").count() == 1  # what the nominations are for
    page.screenshot(path=str(folder / "00-start.png"), full_page=True)

    lessons = 0
    for step in range(1, MOST_PHASES + 1):
        heading = page.locator("#phase-h").inner_text()
        if heading.startswith("Turn 2"):
            break
        lessons += page.locator("[data-lesson]").count()
        assert no_horizontal_scroll(page), heading
        page.get_by_role("link", name="Your orders", exact=True).click()
        with page.expect_navigation():
            page.get_by_role("button", name="Mark my orders final").click()
        assert "The bots gave their orders" in page.content()
        page.goto(f"{base}/games/{game.id}/status/")
        page.screenshot(path=str(folder / f"{step:02d}-status.png"), full_page=True)
    else:
        pytest.fail("the first turn never ended")
    assert lessons >= 5  # the nominations, the election and the turn's phases, each once
    assert page.locator("[data-lesson]").count() == 0  # the Cabinet again: said before
    assert game.phases.filter(turn=1, status="published").count() >= 5
    with capsys.disabled():
        print(f"\nscreenshots of a practice campaign's first turn in {folder}")
    context.close()
