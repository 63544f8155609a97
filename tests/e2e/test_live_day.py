"""A player's day on a phone, counted: Carlos, at 390 px and still logged in from yesterday,
opens the site at "/", reads what is new (Isabel's private message and the results of the
Budget Proposal), answers Isabel, votes Yes with his Vote card and marks his orders final, in
at most five page loads (the test counts every document the main frame loads, and the taps).

Then the Status page, left open, stays current (static/js/live.js, polling fast here): a
family's orders going final show in "Who is in", a new private message in the menu's count, and
the phase published by the GameMaster's side a banner to reload for the results."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from junta.games import adjudication, order_intake
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Order, Phase, Player
from junta.site import live
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from junta.talk.models import Message
from tests.e2e.sessions import session_cookie
from tests.engine.helpers import give, in_phase
from tests.web.campaigns import install, open_phase

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Diego", "Pilar", "Tomas",
         "Rosa"]
PHONE = {"width": 390, "height": 844}
LOADS = 5  # the most a player's day may take


def campaign() -> tuple[Game, list, int]:
    """Ten families in Turn 1's Budget Vote, the Budget Proposal's results out; Carlos holds
    Political Refugees, a Vote card; Isabel has written to him. (game, users, the card's id)"""
    User = get_user_model()
    gm = User.objects.create_user(email="gm@example.org")
    game = create_game(gm, "Papayas", join_policy=Game.JoinPolicy.OPEN)
    users = []
    for i, name in enumerate(NAMES):
        user = User.objects.create_user(email=f"p{i}@example.org", display_name=name)
        join_game(game.id, user, f"Don {name}")
        users.append(user)
    start_campaign(game.id, gm)
    state = in_phase("budget_proposal")
    card = give(state, 0, "Political Refugees")
    phase = install(game, state)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert open_phase(game).kind == "budget_vote"
    write(game, 1, 0, "Vote yes with your Refugees?")
    return game, users, card


def write(game: Game, seat: int, to: int, body: str) -> None:
    reader = talk_access.reader_for(game, Player.objects.get(game=game, seat=seat).user)
    talk_services.start(reader, "The budget", [Player.objects.get(game=game, seat=to)], False,
                        body)


def test_a_players_day_in_five_page_loads_then_the_status_page_stays_current(
        live_server, browser, capsys, monkeypatch):
    monkeypatch.setattr(live, "POLL_MS", 200)
    game, users, card = campaign()
    carlos = users[0]
    base = live_server.url
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    context.add_cookies(session_cookie(carlos, base))  # a phone stays logged in
    page = context.new_page()
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    documents: list[str] = []  # the requests behind them: a form's POST and its redirect's GET
    page.on("request", lambda r: documents.append(r.method) if r.resource_type == "document"
            and r.frame == page.main_frame else None)
    taps = 0

    def tap(locator) -> None:  # noqa: ANN001 - a Playwright locator
        nonlocal taps
        taps += 1
        locator.click()

    page.goto(f"{base}/")
    # what is new: the message, one tap away
    tap(page.get_by_role("link", name=re.compile("1 unread private message")))
    page.wait_for_url(re.compile(r"/talk/\d+/"))
    assert "Vote yes with your Refugees?" in page.locator(".messages-list").inner_text()
    # the answer, sent in place
    tap(page.get_by_label("Your message"))
    page.get_by_label("Your message").fill("Yes, with the Refugees.")
    tap(page.get_by_role("button", name=re.compile("^Send as")))
    page.locator("[data-talk-status]", has_text="Your message is sent.").wait_for()
    assert page.title().startswith("Your message is sent. — ")
    assert page.locator(".messages-list", has_text="Yes, with the Refugees.").count() == 1
    # the results of the Budget Proposal, with the speeches, on the Events page
    tap(page.locator("nav.game-nav").get_by_role("link", name="Events"))
    page.wait_for_url(re.compile(r"/events/"))
    assert "Budget Proposal" in page.locator("main").inner_text()
    # the vote, with the card, and final in the same step
    tap(page.locator("nav.game-nav").get_by_role("link", name="Orders"))
    page.wait_for_url(re.compile(r"/orders/"))
    # the vote is the phase's likely order: its form is open already, no tap to unfold it
    assert page.locator("#order-vote").get_attribute("open") is not None
    form = page.locator("#order-vote form")
    taps += 1  # the list's choice
    form.get_by_label("Your vote").select_option(label="Yes")
    tap(form.get_by_role("checkbox", name="Political Refugees"))
    tap(form.get_by_label("and mark my orders final"))
    with page.expect_navigation():
        tap(form.get_by_role("button", name=re.compile("^Add this order")))
    assert "Order added. Your orders are final." in page.locator(".messages").inner_text()
    assert page.title().startswith("Order added. Your orders are final. — ")

    assert Message.objects.get(author=carlos).body == "Yes, with the Refugees."
    row = Order.objects.get(player__user=carlos, phase=open_phase(game))
    assert row.final
    assert row.payload == [{"kind": "vote", "choice": "yes", "cards": [card]}]
    with capsys.disabled():
        print(f"\na player's day at 390 px: {len(loads)} page loads ({len(documents)} "
              f"document requests), {taps} taps: "
              + " ".join(url.removeprefix(base) for url in loads))
    assert len(loads) <= LOADS, loads

    # the Status page left open
    page.goto(f"{base}/games/{game.id}/status/")
    isabel_cell = page.locator("table.in-orders tr", has_text="Don Isabel").locator(
        "[data-orders]")
    assert isabel_cell.inner_text() == "none"
    phase = open_phase(game)
    order_intake.submit_orders(phase.id, users[1], [{"kind": "vote", "choice": "no"}],
                               state_version=Game.objects.get(pk=game.pk).state_version,
                               final=True)
    page.locator("table.in-orders tr", has_text="Don Isabel").locator(
        '[data-orders="final"]').wait_for()
    write(game, 2, 0, "Miguel here: a word?")
    page.locator('nav.game-nav [data-live-count="talk"] .badge', has_text="1").wait_for()
    assert page.locator(".live-banner").inner_text() == ""
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert Phase.objects.get(pk=phase.id).status == Phase.Status.PUBLISHED
    banner = page.locator(".live-banner[role=status]", has_text="are out")
    banner.wait_for()
    assert "The results of Turn 1: Budget Vote are out." in banner.inner_text()
    before = len(loads)
    with page.expect_navigation():
        banner.get_by_role("link", name="Reload the page to read them").click()
    assert len(loads) == before + 1 and page.locator(".live-banner").inner_text() == ""
    context.close()
