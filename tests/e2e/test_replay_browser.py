"""A player replays a finished campaign on the map in the browser (junta/games/replay_views.py,
static/js/replay.js): from the end report to the replay's first step, then every phase forwards
with the keyboard and back with the Previous button, the address each step's own, the step said
in the live region; the slider and the browser's Back button step too. With reduced motion
asked nothing is animated (the end state at once), without it the moves of a coup phase are
drawn one after another. axe-core's WCAG checks on a step with the city's units and on one with
its moves, and the Nu HTML Checker on both."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from junta.games.models import PhaseResult
from tests.e2e.checks import serious_axe_violations, vnu_errors
from tests.e2e.sessions import session_cookie
from tests.web.endings import finished_campaign

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_steps_through_a_finished_campaign(live_server, browser, tmp_path):
    game, users = finished_campaign()
    numbers = sorted(PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
                     .values_list("phase__number", flat=True))
    steps = [f"/games/{game.id}/replay/{n}/" for n in numbers]
    base = live_server.url
    checked: dict[str, str] = {}  # the pages axe checked, for the HTML checker
    for motion in ("reduce", "no-preference"):
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      reduced_motion=motion)
        context.add_cookies(session_cookie(users[0], base))
        page = context.new_page()
        page.goto(f"{base}/games/{game.id}/report/")
        page.get_by_role("link", name="from the start").click()
        step = page.locator("[data-replay-step]")
        live = page.locator("[data-replay-live]")
        expect(step).to_have_attribute("data-drawn", re.compile("."))
        assert page.url == f"{base}{steps[0]}"
        if motion == "reduce":
            assert serious_axe_violations(page) == []
            checked["the first step"] = page.content()
        animated = 0
        for i in range(2, len(steps) + 1):  # forwards with the keyboard
            page.keyboard.press("ArrowRight")
            expect(live).to_have_text(re.compile(rf": {i} of {len(steps)}$"))
            expect(page).to_have_url(f"{base}{steps[i - 1]}")
            expect(step).to_have_attribute("data-drawn", re.compile("."))
            drawn = step.get_attribute("data-drawn")
            moves = step.locator("svg .cm-move").count()
            if motion == "reduce" or not moves:
                assert drawn == "at-once", (i, drawn)
            else:
                assert drawn == "animated", i
                assert page.evaluate("document.getAnimations().length") == 0  # all done
                animated += 1
                if animated == 1:
                    assert serious_axe_violations(page) == []
                    checked["a step with moves"] = page.content()
        if motion == "no-preference":
            assert animated, "no coup phase's moves were drawn"
        for i in range(len(steps) - 1, 0, -1):  # back with the Previous button
            page.get_by_role("link", name="Previous").click()
            expect(live).to_have_text(re.compile(rf": {i} of {len(steps)}$"))
            expect(page).to_have_url(f"{base}{steps[i - 1]}")
        expect(page.get_by_role("link", name="Previous")).to_have_count(0)
        page.keyboard.press("End")
        expect(page).to_have_url(f"{base}{steps[-1]}")
        page.locator("[data-replay-slider]").fill("3")  # the slider, let go at step 3
        expect(page).to_have_url(f"{base}{steps[2]}")
        expect(live).to_have_text(re.compile(rf": 3 of {len(steps)}$"))
        page.go_back()
        expect(page).to_have_url(f"{base}{steps[-1]}")
        page.go_back()
        expect(page).to_have_url(f"{base}{steps[0]}")
        expect(live).to_have_text(re.compile(rf": 1 of {len(steps)}$"))
        context.close()
    java = shutil.which("java")
    if java:
        assert vnu_errors(java, checked, tmp_path) == []
