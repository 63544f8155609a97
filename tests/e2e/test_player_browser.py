"""A player on a phone opens the Status page, gives an order, marks it final, and later reads
the result on the History page."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Order, Phase

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "papaya-Republic-1977"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_player_gives_orders_on_a_phone(live_server, phone):
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Papayas", join_policy=Game.JoinPolicy.OPEN)
    users = []
    for i, name in enumerate(["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena"]):
        user = User.objects.create_user(email=f"p{i}@example.org", password=PASSWORD,
                                        display_name=name)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    start_campaign(game.id, gm)

    phone.goto(f"{live_server.url}/accounts/login/")
    phone.get_by_label("Email").fill("p0@example.org")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_role("button", name="Sign In").click()
    phone.wait_for_url(f"{live_server.url}/")
    phone.goto(f"{live_server.url}/games/{game.id}/status/")
    assert "Nominate a player for the Presidency" in phone.content()
    phone.wait_for_function(
        "document.querySelector('[data-countdown-text]').textContent.includes('left')")
    assert no_horizontal_scroll(phone)

    phone.get_by_role("link", name="Your orders").click()
    phone.locator("summary", has_text="Nominate a candidate").click()
    phone.get_by_label("Candidate").first.select_option(label="Don Isabel")
    phone.get_by_role("button", name="Add this order").first.click()
    assert "Nominate Don Isabel" in phone.content()
    phone.get_by_role("button", name="Mark my orders final").click()
    assert "Your orders are final." in phone.content()
    if __import__("os").environ.get("JUNTA_SCREENSHOTS"):
        phone.screenshot(path="/tmp/orders.png", full_page=True)
        phone.goto(f"{live_server.url}/games/{game.id}/status/")
        phone.screenshot(path="/tmp/status.png", full_page=True)
        phone.go_back()
    assert no_horizontal_scroll(phone)
    row = Order.objects.get(player__user=users[0])
    assert row.final and row.payload == [{"kind": "nominate", "candidate": 1}]

    from junta.games import adjudication

    phase = Phase.objects.get(game=game, status="open")
    adjudication.adjudicate_phase(phase.id, force=True)
    phone.goto(f"{live_server.url}/games/{game.id}/history/")
    assert "Don Isabel, nominated by Don Carlos" in phone.content()
    assert no_horizontal_scroll(phone)
