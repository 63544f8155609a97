"""The same orders as last time in a browser (docs/rules.md §repeat-orders): one tap lists
them, with what is left out and why; nothing is saved until Save these orders; the page then
says what was added, and the Locations phase's location form, given, is folded."""

from __future__ import annotations

import pytest

from junta.games.models import Order
from tests.e2e.sessions import screenshot_folder, signed_in, six_families
from tests.engine.helpers import in_phase
from tests.web.campaigns import with_last_time

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LUCIA = 3


def test_same_orders_as_last_time_tapped_listed_and_confirmed(live_server, browser):
    game, _ = six_families()
    before, now = in_phase("locations", players=6), in_phase("locations", players=6)
    now.players[LUCIA].pocket = 1
    mine = [{"kind": "location", "place": "bank"},
            {"kind": "bank", "action": "deposit", "amount": 4}]
    phase, users = with_last_time(game, before, {LUCIA: mine}, now)
    context, page = signed_in(browser, users[LUCIA], live_server.url, 375, 740)
    page.goto(f"{live_server.url}/games/{game.id}/orders/")
    assert page.locator("details#order-location").get_attribute("open") is not None
    with page.expect_navigation():
        page.get_by_role("link", name="Same orders as last time").click()
    listed = page.locator("#repeat-panel")
    assert listed.locator("ol li").all_inner_texts() == ["Location: Bank"]
    assert "You have 1 MP in your pocket; you cannot deposit 4." in listed.inner_text()
    assert not Order.objects.filter(phase=phase).exists()  # nothing saved by the list
    listed.screenshot(path=str(screenshot_folder("junta-repeat-") / "repeat-list-375.png"))
    with page.expect_navigation():
        listed.get_by_role("button", name="Save these orders").click()
    assert "1 order of last time added: Location: Bank." in page.content()
    assert Order.objects.get(phase=phase).payload == [mine[0]]
    assert page.locator("details#order-location").get_attribute("open") is None
    context.close()
