"""The city map's SVG text is readable: every text drawn on the Map page has a contrast of at
least 4.5:1 (WCAG 2.2, 1.4.3) with what lies under it, as Chromium paints it. axe-core does not
measure SVG text, so this test does: for each <text>, the colour it is filled with and the first
painted shape under its centre (a counter, a control tag, a zone, a road, the river or the
map's background), by the browser's own hit-testing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game
from tests.e2e.sessions import session_cookie
from tests.engine.coup_states import coup_state
from tests.web.campaigns import install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Run in the page: for each visible SVG <text>, its fill and the paint under its centre.
TEXTS_AND_BACKGROUNDS = """() => {
  const painted = (el) => {
    const cs = getComputedStyle(el);
    if (el.tagName === 'svg' || el.tagName === 'g' || cs.visibility === 'hidden') return null;
    if (cs.fill && cs.fill !== 'none') return cs.fill;
    if (cs.stroke && cs.stroke !== 'none') return cs.stroke;  // a road or the river's line
    return null;
  };
  const out = [];
  for (const t of document.querySelectorAll('svg text')) {
    if (getComputedStyle(t).display === 'none') continue;
    t.scrollIntoView({block: 'center', inline: 'center'});
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    let under = null;
    for (const el of document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2)) {
      if (el.closest('text') || el.closest('title')) continue;
      under = painted(el);
      if (under) break;
      if (el.tagName === 'svg') { under = getComputedStyle(el).backgroundColor; break; }
    }
    out.push({text: t.textContent.trim(), fill: getComputedStyle(t).fill, under});
  }
  return out;
}"""


def luminance(css: str) -> float:
    """WCAG relative luminance of an rgb()/rgba() colour as getComputedStyle gives it."""
    inside = css[css.index("(") + 1:css.index(")")]
    r, g, b = (float(v) / 255 for v in inside.replace("/", ",").split(",")[:3])

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_is_computed_as_wcag_defines_it():
    assert round(contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 1) == 21.0
    assert round(contrast("rgb(119, 119, 119)", "rgb(255, 255, 255)"), 2) == 4.48


def test_every_text_on_the_map_has_a_contrast_of_4_5_to_1(live_server, browser):
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org", display_name="GM")
    game = create_game(gm, "Papayas in arms", max_players=10, join_policy=Game.JoinPolicy.OPEN)
    for i in range(10):
        join_game(game.id, User.objects.create_user(email=f"p{i}@example.org"), f"Don {i}")
    start_campaign(game.id, gm)
    install(game, coup_state()[0])  # units of every family in the streets, a coup under way
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(session_cookie(gm, live_server.url))
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.id}/map/")
    found = page.evaluate(TEXTS_AND_BACKGROUNDS)
    context.close()
    counters = [f for f in found if re.fullmatch(r"\d+[A-Z][A-Za-z]?", f["text"])]  # "5S", "1Po"
    assert len(found) > 40 and counters, f"the map drew too little text to judge: {found}"
    assert all(f["under"] for f in found), [f for f in found if not f["under"]]
    low = [f"{f['text']!r}: {f['fill']} on {f['under']}: {contrast(f['fill'], f['under']):.2f}:1"
           for f in found if contrast(f["fill"], f["under"]) < 4.5]
    assert not low, "\n".join(low)


def test_every_familys_counter_colour_carries_its_white_text():
    """The campaign above shows only some families' counters: the others' colours are
    checked here against the white their counters' text is drawn in."""
    from junta.games.citymap import NOBODY_COLOUR, OWNER_COLOURS

    def rgb(hex_colour: str) -> str:
        h = hex_colour.lstrip("#")
        return f"rgb({int(h[0:2], 16)}, {int(h[2:4], 16)}, {int(h[4:6], 16)})"

    low = {c: round(contrast(rgb(c), "rgb(255, 255, 255)"), 2) for c in OWNER_COLOURS
           if contrast(rgb(c), "rgb(255, 255, 255)") < 4.5}
    assert not low, low
    assert contrast(rgb(NOBODY_COLOUR), "rgb(29, 27, 25)") >= 4.5  # dark text on white
