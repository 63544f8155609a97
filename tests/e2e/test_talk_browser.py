"""Two players negotiate in private in the browser (docs/rules.md §talk): Carlos starts a
conversation with Isabel from the conversations page; Isabel, whose page is open, sees each of
his messages appear without reloading, and answers; both mark their orders final and each sees
the other as "final" on the Status page; a third player finds nothing. At phone and desktop
widths, with screenshots in a folder the test prints."""

from __future__ import annotations

import pytest

from junta.games.models import Player
from junta.talk.models import Conversation, Message
from tests.e2e.sessions import screenshot_folder, signed_in, six_families

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WIDTHS = {"phone": (375, 740), "desktop": (1280, 900)}


@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_two_players_negotiate_in_private(live_server, browser, width_name, capsys):
    game, users = six_families()
    carlos, isabel, miguel = users[:3]
    base = live_server.url
    width, height = WIDTHS[width_name]
    carlos_context, page = signed_in(browser, carlos, base, width, height)
    isabel_context, other = signed_in(browser, isabel, base, width, height)

    page.goto(f"{base}/games/{game.id}/status/")
    page.get_by_role("link", name="Talk").first.click()
    page.get_by_label("Don Isabel").check()
    page.get_by_label("Subject").fill("The budget")
    page.get_by_label("First message").fill("Twelve MP for your vote, **tonight**.")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the conversation").click()
    talk = Conversation.objects.get()
    assert page.locator(".message-item strong", has_text="tonight").count() == 1

    other.goto(f"{base}/games/{game.id}/status/")
    assert other.get_by_role("link", name="Talk 1 unread").count() == 1  # its accessible name
    other.get_by_role("link", name="Talk").first.click()
    other.get_by_role("link", name="The budget").click()
    assert "Twelve MP" in other.locator(".messages-list").inner_text()

    # Carlos writes again; Isabel's open page shows it without a reload
    # (each sends his in place: static/js/talk.js)
    page.get_by_label("Your message").fill("Or fifteen, if the Navy gets nothing.")
    page.get_by_role("button", name="Send as Don Carlos").click()
    page.locator("[data-talk-status]", has_text="Your message is sent.").wait_for()
    other.locator(".message-item", has_text="fifteen").wait_for(timeout=15000)
    assert other.url.endswith(f"/talk/{talk.id}/")  # the same page, never reloaded
    other.get_by_label("Your message").fill("Fifteen, and the Navy gets nothing. Deal.")
    other.get_by_role("button", name="Send as Don Isabel").click()
    other.locator(".message-item", has_text="Deal.").wait_for()
    page.locator(".message-item", has_text="Deal.").wait_for(timeout=15000)
    assert Message.objects.filter(conversation=talk).count() == 3

    # the deal struck, each marks his orders final, and each sees the other is in
    for shown in (page, other):
        shown.goto(f"{base}/games/{game.id}/orders/")
        with shown.expect_navigation():
            shown.get_by_role("button", name="Mark my orders final").click()
    for shown, partner in ((page, "Don Isabel"), (other, "Don Carlos")):
        shown.goto(f"{base}/games/{game.id}/status/")
        row = shown.locator("table.in-orders tr", has_text=partner)
        assert row.locator("[data-orders]").get_attribute("data-orders") == "final"

    folder = screenshot_folder("junta-talk-")
    for who, shown in (("carlos", page), ("isabel", other)):
        for name, url in (("status", f"/games/{game.id}/status/"),
                          ("talk", f"/games/{game.id}/talk/{talk.id}/")):
            shown.goto(base + url)
            assert shown.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            shown.screenshot(path=str(folder / f"{name}-{who}-{width_name}-{width}.png"),
                             full_page=True)

    # a third player: no conversation, no page
    miguel_context, third = signed_in(browser, miguel, base, width, height)
    third.goto(f"{base}/games/{game.id}/talk/")
    assert "The budget" not in third.content()
    response = third.goto(f"{base}/games/{game.id}/talk/{talk.id}/")
    assert response is not None and response.status == 404
    assert Player.objects.filter(game=game, user=miguel).exists()
    for context in (carlos_context, isabel_context, miguel_context):
        context.close()
    with capsys.disabled():
        print(f"\nscreenshots of a private conversation ({width_name}) in {folder}")
