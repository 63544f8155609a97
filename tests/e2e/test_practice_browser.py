"""A practice campaign against the bots in a browser at 390 pixels: started from the dashboard's
form, then played by marking the orders final on each phase (the bots order at once and the
phase is played), from the nominations through the whole first turn, in which the bots stage
a coup (on this seed), and the second, to the third turn. The Status page of each phase is
saved as a screenshot in a folder the test prints. Then the pages that ask before it is
restarted or abandoned pass axe's WCAG checks, and it is abandoned."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from junta.games.models import Game
from tests.e2e.checks import serious_axe_violations
from tests.e2e.sessions import screenshot_folder, signed_in
from tests.web.endings import city_zones

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844
MOST_PHASES = 20  # the nominations, the election and a whole turn take far fewer


@pytest.fixture
def fixed_seed(monkeypatch):
    """The same deal and the same bots' orders every run."""
    # the field's default as Django calls it (cached on the field: `default` is read once)
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default",
                        lambda: "practice-browser")


def no_horizontal_scroll(page) -> bool:  # noqa: ANN001 - a Playwright page
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_whole_turn_against_the_bots_on_a_phone(live_server, browser, fixed_seed, capsys):
    city_zones()  # the transactional tests before it flushed the zones the coup's units need
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

    lessons = play_until(page, base, game, "Turn 2", folder, "turn1")
    assert lessons >= 7  # the nominations, the election, the turn's phases, the coup's, once
    assert page.locator("[data-lesson]").count() == 0  # a kind met before: said once only
    assert game.phases.filter(turn=1, status="published").count() >= 5

    # on to the third turn: on this seed the bots stage a coup in the first turn (played on
    # while he owes nothing in it), and the second turn is played in full
    lessons = play_until(page, base, game, "Turn 3", folder, "turn2")
    assert lessons == 0  # every kind of phase met in the first turn
    assert game.phases.filter(kind="aftermath", status="published", turn=1).exists()
    assert game.phases.filter(turn=2, kind="locations", status="published").exists()
    # Restart and Abandon each ask first on a page of their own: axe's WCAG checks on both
    for name in ("Restart", "Abandon"):
        with page.expect_navigation():
            page.get_by_role("link", name=name, exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(f"{name} {game.name}?")
        assert serious_axe_violations(page) == [], name
        assert no_horizontal_scroll(page), name
        page.screenshot(path=str(folder / f"zz-{name.lower()}.png"), full_page=True)
        if name == "Restart":
            with page.expect_navigation():
                page.get_by_role("link", name="Cancel").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm: abandon").click()
    assert page.url == f"{base}/"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    with capsys.disabled():
        print(f"\nscreenshots of a practice campaign to its third turn in {folder}")
    context.close()


def play_until(page, base: str, game: Game, turn: str, folder, name: str) -> int:  # noqa: ANN001
    """Mark the orders final on each phase until the Status page's heading names `turn`;
    how many "What this phase is for" boxes were shown on the way."""
    lessons = 0
    for step in range(1, MOST_PHASES + 1):
        heading = page.locator("#phase-h").inner_text()
        if heading.startswith(turn):
            return lessons
        lessons += page.locator("[data-lesson]").count()
        assert no_horizontal_scroll(page), heading
        page.get_by_role("link", name="Your orders", exact=True).click()
        with page.expect_navigation():
            page.get_by_role("button", name="Mark my orders final").click()
        assert "The bots gave their orders" in page.content()
        page.goto(f"{base}/games/{game.id}/status/")
        page.screenshot(path=str(folder / f"{name}-{step:02d}.png"), full_page=True)
    pytest.fail(f"{turn} never came")
