"""What a page says about time is drawn by the browser, from the moments the server writes in
data attributes (static/js/countdown.js, static/js/away.js), so that the server's pages are
kept until something they show changes (junta/games/page_cache.py): a page left open says when
the deadline has passed and who is away now, as the clock turns. No server: the scripts on a
page of their markup, the browser's clock set by Playwright."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
JS = Path(__file__).resolve().parents[2] / "static" / "js"
# as games/_deadline.html and notify/_absences_gm.html draw them (the times in UTC)
MARKUP = """<main><p>Deadline: <time data-countdown datetime="2026-12-01T20:00:00+0000">
Tuesday 1 December, 21:00 (Europe/Berlin)</time> · <span data-countdown-text></span></p>
<ul><li id="away" data-away-from="2026-12-01T23:00:00+0000"
data-away-until="2026-12-03T23:00:00+0000">Don Carlos <span>(Carlos)</span>,
Wed 2 Dec 2026 to Thu 3 Dec 2026</li></ul></main>"""


def test_a_page_left_open_says_the_deadline_passed_and_who_is_away_now(browser):
    context = browser.new_context()
    page = context.new_page()
    page.clock.install(time="2026-12-01T19:58:00Z")
    page.set_content(MARKUP)
    for script in ("countdown.js", "away.js"):
        page.add_script_tag(content=(JS / script).read_text())
    countdown = page.locator("[data-countdown-text]")
    assert countdown.text_content() in ("2 min 0 s left", "1 min 59 s left")  # it runs
    assert page.locator("#away").text_content().startswith("Don Carlos")
    page.clock.run_for("00:03:00")
    assert countdown.text_content() == "the deadline has passed"
    page.clock.run_for("04:00:00")  # past midnight in Berlin: his first day away
    assert page.locator("#away strong").text_content() == "Away now:"
    assert page.locator("#away").text_content().startswith("Away now: Don Carlos")
    page.clock.run_for("48:00:00")  # back: the line goes
    assert page.locator("#away").is_hidden()
    context.close()


def test_away_now_drawn_by_the_server_goes_if_the_browser_is_not_there_yet(browser):
    """The server drew "Away now:" by its clock; a browser whose clock is behind takes it off
    and keeps the line's words."""
    context = browser.new_context()
    page = context.new_page()
    page.clock.install(time="2026-12-01T12:00:00Z")
    page.set_content(MARKUP.replace('2026-12-03T23:00:00+0000">',
                                    '2026-12-03T23:00:00+0000"><strong data-away-now>Away now:'
                                    "</strong> "))
    page.add_script_tag(content=(JS / "away.js").read_text())
    assert page.locator("#away").text_content().startswith("Don Carlos (Carlos),\nWed 2 Dec")
    assert page.locator("#away strong").count() == 0
    context.close()
