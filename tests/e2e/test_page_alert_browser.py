"""After a form is sent and the page comes back, Chromium's focus is on what came of it and the
tab's title says it: a message in a conversation (sent in place by its script: the title and a
live status line say it, the box keeps the focus; without scripts, the page that comes back),
a vote, a sign-up refused, the GM's forms
(refused, then sent), and an order given on the map with the keyboard alone. The focus is
where a screen reader starts reading; the title is what it says first of a new page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from junta.talk import services as talk
from junta.talk.access import reader_for
from tests.e2e.coup_campaigns import coup_campaign
from tests.e2e.sessions import session_cookie, signed_in, six_families
from tests.web.polls_helpers import make_poll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# the focused element: whether it is the page's alert, its text and tag; and the title
FOCUS = """() => { const el = document.activeElement; return {
  alert: el.hasAttribute('data-page-alert'), tag: el.tagName.toLowerCase(),
  text: el.innerText.trim().replace(/\\s+/g, ' '), title: document.title }; }"""


def focus_after(page, click) -> dict:  # noqa: ANN001 - a Playwright page, a callable
    """Send a form by `click()`, then what has the focus on the page that comes back."""
    with page.expect_navigation():
        click()
    page.wait_for_load_state()  # page_alert.js is deferred: it has run at DOMContentLoaded
    return page.evaluate(FOCUS)


def test_each_form_sent_brings_the_focus_and_the_title_to_what_came_of_it(live_server,
                                                                          browser):
    game, users = six_families()
    carlos, isabel = users[:2]
    base = live_server.url
    reader = reader_for(game, carlos)
    assert reader is not None
    conversation = talk.start(reader, "The budget", [game.players.get(user=isabel)], False,
                              "Twelve MP for your vote.")
    poll = make_poll(game)
    context, page = signed_in(browser, carlos, base, 1280, 900)

    page.goto(base + reverse("talk_conversation", args=[game.id, conversation.id]))
    # sent in place by the conversation's script (static/js/talk.js): the box keeps the
    # focus, the status line (a live region) and the title say what came of it
    page.get_by_label("Your message").fill("Or fifteen.")
    page.get_by_role("button", name="Send as Don Carlos").click()
    status = page.locator("[data-talk-status][role=status]")
    status.filter(has_text="Your message is sent.").wait_for()
    assert page.title() == "Your message is sent. — The budget · Papayas · Junta"
    assert page.evaluate("document.activeElement.name") == "body"
    page.get_by_label("Your message").fill("   ")  # refused: said, and the box marked
    page.get_by_role("button", name="Send as Don Carlos").click()
    status.filter(has_text="Error: Your message: A message needs some words.").wait_for()
    assert page.title().startswith("Error: Your message: A message needs some words. — ")
    box = page.get_by_label("Your message")
    assert box.get_attribute("aria-invalid") == "true"
    assert "talk-status" in (box.get_attribute("aria-describedby") or "").split()
    assert page.evaluate("document.activeElement.name") == "body"
    # without scripts the same form posts, and the page that comes back says it in its title
    plain = browser.new_context(java_script_enabled=False)
    plain.add_cookies(session_cookie(carlos, base))
    bare = plain.new_page()
    bare.goto(page.url)
    bare.get_by_label("Your message").fill("Or sixteen.")
    with bare.expect_navigation():
        bare.get_by_role("button", name="Send as Don Carlos").click()
    assert bare.title() == "Your message is sent. — The budget · Papayas · Junta"
    assert bare.locator(".message-item", has_text="Or sixteen.").count() == 1
    plain.close()

    page.goto(base + reverse("polls_detail", args=[game.id, poll.id]))
    page.get_by_label("The Admiral").check()
    shown = focus_after(page, page.get_by_role("button", name="Vote", exact=True).click)
    assert shown["alert"] and shown["text"].startswith("Your vote is counted.")
    assert shown["title"].startswith("Your vote is counted.")
    assert shown["title"].endswith(" — Who leads the Chamber? · Polls · Papayas · Junta")
    context.close()

    gm_context, gm = signed_in(browser, game.gm, base, 1280, 900)
    gm.goto(base + reverse("gm_rulings", args=[game.id]))
    gm.get_by_text("Move a card").click()  # the ruling's form, folded (a new campaign has
    # no money to move): sent to a place a stale or tampered page could name, refused
    gm.evaluate("""() => { const s = document.querySelector('#id_card-target');
                           s.add(new Option('nowhere', 'nowhere')); s.value = 'nowhere'; }""")
    gm.evaluate("document.querySelectorAll('form').forEach(f => f.noValidate = true)")
    shown = focus_after(gm, gm.get_by_role("button", name="Move the card").click)
    assert shown["alert"] and shown["tag"] == "ul" and shown["text"].startswith("Not done. ")
    assert shown["title"].startswith("Error: Not done. ")
    assert shown["title"].endswith(" — Rulings · Papayas · Junta")
    gm.goto(base + reverse("gm_announce", args=[game.id]))
    gm.locator("#id_announce-body").fill("The rains have come.")
    shown = focus_after(gm, gm.get_by_role("button", name="Post the announcement").click)
    assert shown["alert"] and shown["text"] == "Your announcement is at the top of the Events " \
        "page."
    assert shown["title"].startswith("Your announcement is at the top of the Events page. — ")
    gm_context.close()

    visitor = browser.new_context()
    page = visitor.new_page()
    page.goto(base + reverse("account_signup"))
    page.evaluate("document.querySelectorAll('form').forEach(f => f.noValidate = true)")
    page.locator("#id_email").fill("not-an-address")
    page.locator("#id_password1").fill("short")
    page.locator("#id_password2").fill("other")
    shown = focus_after(page, page.locator("main form button[type=submit]").click)
    assert shown["alert"] and shown["text"].startswith("To correct below: Email")
    assert shown["title"].startswith("Error: Email: Enter a valid email address.")
    page.keyboard.press("Tab")  # the summary's first link leads to the field
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#id_email"
    visitor.close()


def test_an_order_given_on_the_map_with_the_keyboard_is_said_where_the_focus_lands(
        live_server, browser):
    game, general, to_zone = coup_campaign()
    base = live_server.url
    context, page = signed_in(browser, general, base, 1280, 900)
    page.goto(base + reverse("game_map", args=[game.id]))
    page.locator("#zone-13").focus()
    page.keyboard.press("Enter")  # the stack
    page.locator(f"#zone-{to_zone}").focus()
    page.keyboard.press("Enter")  # where it goes: the dialog, its first order focused
    shown = focus_after(page, lambda: page.keyboard.press("Enter"))
    assert page.url.endswith(reverse("game_map", args=[game.id]))
    assert shown["alert"] and shown["text"] == "Order added."
    assert shown["title"] == "Order added. — Map · Papayas · Junta"
    context.close()
