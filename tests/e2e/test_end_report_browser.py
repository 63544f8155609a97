"""A player reads the end report of a finished campaign in the browser (docs/rules.md
§secrets: "When the game ends, everything is revealed"): from the Status page's "The game is
over" line to the report, its charts drawn as SVG with no script, each one's table opened from
its <details>, a family's story opened from its summary line, the whole page within the
width of the screen; then the archive from the lobby.
At phone and desktop widths, with screenshots in a folder the test prints, and axe-core's WCAG
checks on the report."""

from __future__ import annotations

import pytest

from junta.games.models import Game
from tests.e2e.checks import serious_axe_violations
from tests.e2e.sessions import screenshot_folder, session_cookie
from tests.web.endings import finished_campaign

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WIDTHS = {"phone": (375, 740), "desktop": (1280, 900)}


def test_a_player_reads_the_end_report(live_server, browser, capsys):
    game, users = finished_campaign()  # played once: both widths read the same campaign
    for width_name in WIDTHS:
        read_at(live_server.url, browser, game, users, width_name, capsys)


def read_at(base: str, browser, game: Game, users: list, width_name: str, capsys) -> None:  # noqa: ANN001
    width, height = WIDTHS[width_name]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2, java_script_enabled=False)
    context.add_cookies(session_cookie(users[0], base))
    page = context.new_page()
    folder = screenshot_folder("junta-end-report-")

    page.goto(f"{base}/games/{game.id}/status/")
    with page.expect_navigation():
        page.get_by_role("link", name="Read the end report").click()
    assert page.url.endswith(f"/games/{game.id}/report/")
    assert page.get_by_role("heading", name="The final ranking").count() == 1
    assert page.get_by_role("heading", name="The campaign in numbers").count() == 1
    for chart in ("chart-money", "chart-deck", "chart-votes"):
        box = page.locator(f"svg#{chart}").bounding_box()
        assert box is not None and 0 < box["width"] <= width and box["height"] > 50, chart
    assert page.get_by_role("img", name="Votes for and against each budget").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(folder / f"report-{width_name}-{width}.png"), full_page=True)

    # each chart's numbers, as a table, behind its summary
    for summary in page.get_by_text("The same numbers as a table").all():
        summary.click()
    assert page.locator("#money-table").is_visible() and page.locator("#deck-table").is_visible()
    # the winner's story is open, the others open from their summary line, each with every
    # ballot behind its own
    stories = page.locator("article.family-story")
    assert stories.first.locator("dl.story").is_visible()
    second = stories.nth(1)
    assert not second.locator("dl.story").is_visible()
    second.locator("summary").first.click()
    assert second.locator("dl.story").is_visible()
    second.get_by_text("Every ballot").click()
    assert second.locator("details.ballots li").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(folder / f"report-tables-{width_name}-{width}.png"),
                    full_page=True)
    axe_context = context.browser.new_context(viewport={"width": width, "height": height})
    axe_context.add_cookies(session_cookie(users[0], base))
    checked = axe_context.new_page()  # axe-core is a script: a context that runs scripts
    checked.goto(f"{base}/games/{game.id}/report/")
    assert serious_axe_violations(checked) == []
    axe_context.close()

    page.goto(f"{base}/games/")
    with page.expect_navigation():
        page.get_by_role("link", name="The archive of finished campaigns").click()
    assert page.get_by_role("link", name="Papayas", exact=True).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(folder / f"archive-{width_name}-{width}.png"), full_page=True)
    context.close()
    with capsys.disabled():
        print(f"\nscreenshots of an end report ({width_name}) in {folder}")
