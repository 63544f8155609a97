"""A player replays the finished demo campaign (`make run`'s, junta/ops/demo.py) on the map in
the browser (junta/games/replay_views.py, static/js/replay.js): from the end report to the
replay's first step, then every phase it published forwards with the keyboard and back (the Left
key, the last steps with the Previous button), the address each step's own, the step said in the
live region; the slider and the browser's Back button step too. Twice: with reduced motion
asked nothing is animated (the end state at once); without it the moves of each coup phase are
drawn one after another, and the next step, asked before they are all drawn, takes their place.
axe-core's WCAG checks on a step with the city's units and on one with its moves, and the Nu
HTML Checker on both. One demo, built once (the bots play it), for both passes, in one browser
(the second pass is served the steps the first one drew, while the minute lasts:
junta/games/page_cache.py)."""

from __future__ import annotations

import io
import re
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from junta.games.models import Game, PhaseResult
from junta.ops.demo import build_demo
from tests.e2e.checks import serious_axe_violations, vnu_errors
from tests.e2e.sessions import session_cookie
from tests.web.endings import city_zones

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Waits (polled at each frame, not by `expect`'s growing intervals: hundreds of steps) until the
# step `n` of `of` is in place, its address and its live region said; then what the same task
# drew: the step's data-drawn, the animations running and its moves.
ARRIVED = """([n, of, path]) => {
  const live = document.querySelector("[data-replay-live]").textContent;
  if (!live.endsWith(`: ${n} of ${of}`) || window.location.pathname !== path) { return null; }
  const step = document.querySelector("[data-replay-step]");
  return [step.getAttribute("data-drawn"), document.getAnimations().length,
          step.querySelectorAll("svg .cm-move").length];
}"""


def arrive(page, n: int, steps: list[str]) -> list:  # noqa: ANN001 - a Playwright page
    """Step `n` (from 1) of the replay `steps` in place: [data-drawn, animations, moves]."""
    return page.wait_for_function(ARRIVED, arg=[n, len(steps), steps[n - 1]]).json_value()


def test_a_player_steps_through_the_finished_demo_campaign(live_server, browser, tmp_path):
    city_zones()  # the transactional tests before this one flushed the migrations' zones
    call_command("seed_demo", stdout=io.StringIO())
    game = build_demo()[0]
    assert game.status == Game.Status.FINISHED
    carlos = get_user_model().objects.get(email="carlos@junta.test")
    numbers = sorted(PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
                     .values_list("phase__number", flat=True))
    assert numbers == list(range(1, game.phases.count() + 1))
    steps = [f"/games/{game.id}/replay/{n}/" for n in numbers]
    last = len(steps)
    base = live_server.url
    checked: dict[str, str] = {}  # the pages axe checked, for the HTML checker
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(session_cookie(carlos, base))
    page = context.new_page()
    for motion in ("reduce", "no-preference"):
        page.emulate_media(reduced_motion=motion)
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
        for i in range(2, last + 1):  # forwards with the keyboard
            page.keyboard.press("ArrowRight")
            # the step in place is drawn by the same task: at once, or its animations run
            drawn, running, moves = arrive(page, i, steps)
            if motion == "reduce" or not moves:
                assert (drawn, running) == ("at-once", 0), (i, drawn, running)
                continue
            # drawing (its animations running), or already drawn when the page was slow
            assert drawn == "animated" or drawn is None, (i, drawn, running)
            animated += 1
            if animated == 1:  # this one is drawn to its end; the others, interrupted
                expect(step).to_have_attribute("data-drawn", "animated")
                assert page.evaluate("document.getAnimations().length") == 0
                assert serious_axe_violations(page) == []
                checked["a step with moves"] = page.content()
        if motion == "no-preference":
            assert animated > 20, "the coup phases' moves were not drawn"
        for i in range(last - 1, 0, -1):  # back with the Left key, the last steps with Previous
            if i > 4:
                page.keyboard.press("ArrowLeft")
            else:
                page.get_by_role("link", name="Previous").click()
            arrive(page, i, steps)
        expect(page.get_by_role("link", name="Previous")).to_have_count(0)
        page.keyboard.press("End")
        expect(page).to_have_url(f"{base}{steps[-1]}")
        page.locator("[data-replay-slider]").fill("3")  # the slider, let go at step 3
        expect(page).to_have_url(f"{base}{steps[2]}")
        expect(live).to_have_text(re.compile(rf": 3 of {last}$"))
        page.go_back()
        expect(page).to_have_url(f"{base}{steps[-1]}")
        page.go_back()
        expect(page).to_have_url(f"{base}{steps[0]}")
        expect(live).to_have_text(re.compile(rf": 1 of {last}$"))
    context.close()
    java = shutil.which("java")
    if java:
        assert vnu_errors(java, checked, tmp_path) == []
