"""The Orders page in a browser on a phone: a condition shows only the details it needs, a
rejected order comes back filled in with the engine's message by its field, the keyboard
reaches everything, and nothing scrolls sideways at 375 pixels."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Order
from tests.engine.option_states import ADMIRAL, GENERAL_3, WAR, locations
from tests.web.campaigns import install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def visible_labels(page, form) -> list[str]:
    return [t.strip() for t in form.locator("fieldset.condition label:visible").all_inner_texts()]


def test_a_conditional_order_on_a_phone(live_server, phone):
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Papayas", join_policy=Game.JoinPolicy.OPEN)
    users = []
    for i, name in enumerate(["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Diego",
                              "Pilar", "Tomas", "Rosa"]):
        user = User.objects.create_user(email=f"p{i}@example.org", display_name=name)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    start_campaign(game.id, gm)
    state = locations()
    install(game, state)
    player = next(p for p in game.players.all() if p.seat == GENERAL_3)
    phone.context.add_cookies([_session_cookie(live_server, player.user)])

    phone.goto(f"{live_server.url}/games/{game.id}/orders/")
    phone.locator("summary", has_text="Pay money").click()
    form = phone.locator("#order-pay form")
    # no condition: no details; each kind of condition shows only its own
    assert visible_labels(phone, form) == ["Condition"]
    form.get_by_label("Condition", exact=True).select_option("location")
    assert visible_labels(phone, form) == ["Condition", "Player", "Location"]
    form.get_by_label("Condition", exact=True).select_option("killed")
    assert visible_labels(phone, form) == ["Condition", "Player"]
    assert phone.locator("#order-pay-if_location").is_disabled()

    # the keyboard: the player is left blank and the form sent with Enter on the button
    form.get_by_label("To", exact=True).select_option(str(ADMIRAL))
    form.get_by_label("MP", exact=True).fill("2")
    form.get_by_role("button", name="Add this order").focus()
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    assert "Not saved." in phone.content()
    error = phone.locator("#order-pay-if_seat-error")
    assert error.text_content().strip() == "Error: Choose the player the condition is about."
    assert phone.locator("#order-pay-if_seat").get_attribute("aria-describedby") == \
        "order-pay-if_seat-error"
    assert phone.locator("#order-pay-amount").input_value() == "2"
    assert phone.locator("#order-pay-to").input_value() == str(ADMIRAL)
    assert phone.locator("#order-pay-if").input_value() == "killed"
    assert phone.locator("#order-pay-if_seat").is_visible()
    assert not phone.locator("#order-pay-if_location").is_visible()
    assert phone.evaluate("document.activeElement.id") == "order-errors"
    assert no_horizontal_scroll(phone)
    folder = Path(os.environ.get("JUNTA_SCREENSHOTS") or tempfile.mkdtemp(prefix="junta-orders-"))
    folder.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(folder / "orders-rejected-375.png"), full_page=True)
    print(f"screenshots in {folder}")

    # fixed: the order goes in, with its condition
    phone.locator("#order-pay-if_seat").select_option(str(WAR))
    with phone.expect_navigation():
        phone.locator("#order-pay form").get_by_role("button", name="Add this order").click()
    assert "Order added." in phone.content()
    assert f"Pay {state.name(ADMIRAL)} 2 MP if" in phone.content()
    row = Order.objects.get(player=player)
    assert row.payload == [{"kind": "pay", "to": ADMIRAL, "amount": 2,
                            "condition": {"kind": "killed", "seat": WAR}}]
    phone.screenshot(path=str(folder / "orders-saved-375.png"), full_page=True)
    assert no_horizontal_scroll(phone)

    # a trade that exchanges nothing: the engine's message with the whole form
    phone.locator("summary", has_text="Trade").click()
    trade = phone.locator("#order-trade form")
    assert trade.get_by_role("group", name="Cards you get").is_visible()
    trade.get_by_label("With", exact=True).select_option(str(WAR))
    with phone.expect_navigation():
        trade.get_by_role("button", name="Add this order").click()
    assert phone.locator("#order-trade-errors").text_content().strip() == \
        "Error: A trade must exchange something."
    assert phone.locator("#order-trade-with").input_value() == str(WAR)
    assert no_horizontal_scroll(phone)
    phone.locator("#order-trade").screenshot(path=str(folder / "orders-trade-375.png"))


def _session_cookie(live_server, user) -> dict:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": live_server.url}
