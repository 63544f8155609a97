"""Ordering on the map at phone width (375x740, twice the pixels): the 1st Brigade's General
taps his stack, then the zone next to it, and confirms the move, worded as the Orders page
lists it; the Orders page's form takes it and the map comes back with the move drawn as an
arrow, which he can remove from the map.
The keyboard does the same: Enter on a zone chooses it, Escape cancels the choice (docs/rules.md
§movement). Screenshots are saved in a folder the test prints."""

from __future__ import annotations

import pytest

from junta.games.models import Order
from tests.e2e.coup_campaigns import coup_campaign
from tests.e2e.sessions import screenshot_folder, session_cookie
from tests.web.map_helpers import GENERAL_1

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def no_horizontal_scroll(page) -> bool:  # noqa: ANN001 - a Playwright page
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_coup_move_is_given_by_tapping_the_map_on_a_phone(live_server, browser, capsys):
    game, general, to_zone = coup_campaign()
    base = live_server.url
    context = browser.new_context(viewport={"width": 375, "height": 740},
                                  device_scale_factor=2, has_touch=True)
    context.add_cookies(session_cookie(general, base))
    page = context.new_page()
    folder = screenshot_folder("junta-map-orders-")
    page.goto(f"{base}/games/{game.id}/map/")

    panel = page.locator("#map-orders")
    assert panel.is_visible()
    assert page.locator("[data-zoom-level]").inner_text() == "3×"  # close enough to read
    assert no_horizontal_scroll(page)
    # a counter is drawn large enough to read: its text at least 11 CSS pixels high
    height = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
        '.citymap .cm-counter text')].map(t => t.getBoundingClientRect().height))""")
    assert height >= 11, height
    page.screenshot(path=str(folder / "map-orders-phone-start.png"))

    page.locator("#zone-13").tap()
    assert "Stack in 13 University City chosen" in page.locator("#map-orders-status").inner_text()
    assert page.locator("#zone-13").get_attribute("aria-pressed") == "true"
    assert "cm-target" in (page.locator(f"#zone-{to_zone}").get_attribute("class") or "")
    page.screenshot(path=str(folder / "map-orders-phone-stack-chosen.png"))

    page.locator(f"#zone-{to_zone}").tap()
    dialog = page.locator("#map-order-dialog")
    assert dialog.is_visible()
    choice = dialog.get_by_role("button", name="Move the stack from University City to ")
    words = choice.inner_text()
    page.screenshot(path=str(folder / "map-orders-phone-dialog.png"))
    with page.expect_navigation():
        choice.tap()
    assert page.url.endswith(f"/games/{game.id}/map/")
    assert "Order added." in page.content()
    # the choice read as the order now reads in the list, the Orders page's words
    assert page.locator("#map-order-1").inner_text().startswith(words.replace("\n", " "))
    arrow = page.locator(".cm-order[data-order='1'][data-kind='move']")
    assert arrow.count() == 1
    payload = Order.objects.get(phase__game=game, player__seat=GENERAL_1).payload
    assert payload == [{"kind": "move", "from_zone": 13, "to_zone": to_zone}]
    assert no_horizontal_scroll(page)
    page.locator(".citymap-frame").scroll_into_view_if_needed()
    page.screenshot(path=str(folder / "map-orders-phone-arrow.png"))

    # the keyboard: Enter chooses the stack, Escape cancels the choice
    page.locator("#zone-13").focus()
    page.keyboard.press("Enter")
    assert page.locator("#zone-13").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert page.locator("#zone-13").get_attribute("aria-pressed") == "false"
    assert "cancelled" in page.locator("#map-orders-status").inner_text()

    # the arrow's badge opens its Remove button
    page.locator(".cm-order[data-order='1'] .cm-order-badge").tap()
    with page.expect_navigation():
        dialog.get_by_role("button", name="Remove order 1").tap()
    assert page.locator(".cm-order").count() == 0
    assert Order.objects.get(phase__game=game, player__seat=GENERAL_1).payload == []
    context.close()
    with capsys.disabled():
        print(f"\nscreenshots of ordering on the map at 375 px in {folder}")
    assert len(list(folder.glob("map-orders-phone-*.png"))) == 4


def test_the_keyboard_skips_the_zones_to_the_legend_and_the_orders(live_server, browser):
    """Ordering on the map makes each of its 28 zones a stop of the Tab key: a link before them,
    shown when it has the focus, leads past them to the legend, and the next Tab to the
    orders drawn on the map."""
    game, general, to_zone = coup_campaign()
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(session_cookie(general, base))
    page = context.new_page()
    page.goto(f"{base}/games/{game.id}/map/")
    page.locator("#zone-13").focus()  # an order, so that the map lists one after its legend
    page.keyboard.press("Enter")
    page.locator(f"#zone-{to_zone}").focus()
    page.keyboard.press("Enter")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    skip = page.get_by_role("link", name="Skip the zones: legend and orders")
    page.get_by_role("button", name="Zoom in").focus()  # the control just before it
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == skip.inner_text()
    box = skip.bounding_box()
    assert box is not None and box["width"] > 50  # shown, not a 1-pixel box
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "map-key"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#map-orders-h, .map-planned') "
                         "!== null")  # the orders on the map, the zones skipped
    context.close()
