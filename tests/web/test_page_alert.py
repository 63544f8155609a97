"""After a form is sent and the page comes back, the page says first what came of it: its
<title> begins with the message or the form's first error ("Error: ..."), and the element that
shows it is the page's alert (`data-page-alert`, `tabindex="-1"`), where static/js/page_alert.js
moves the focus (tests/e2e/test_page_alert_browser.py checks that in Chromium). Through the
pages as a browser sends their forms: a message in a conversation, a vote, an order given on
the map, a sign-up refused, the GM's forms, the Orders page refusing an order."""

from __future__ import annotations

import html
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.polls.models import Poll
from junta.talk.models import Conversation
from tests.web.browser_forms import csrf_browser, forms_in, submit
from tests.web.map_helpers import GENERAL_1, coup_campaign, move_post
from tests.web.polls_helpers import make_poll, vote_through_page
from tests.web.talk_helpers import send, start_through_form

pytestmark = pytest.mark.django_db

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Alert(HTMLParser):
    """The page's <title> and each element marked as its alert: its tag, attributes, text and
    the ids of the elements before it (where it stands on the page)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.alerts: list[dict] = []
        self.ids: list[str] = []
        self._in_title = False
        self._open: list[tuple[str, dict | None]] = []  # open elements, alerts with their record

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "title" and not self.title:  # the page's, not an <svg>'s
            self._in_title = True
        record = None
        if "data-page-alert" in a:
            record = {"tag": tag, "attrs": a, "text": "", "after": list(self.ids), "links": []}
            self.alerts.append(record)
        if tag == "a" and any(r for _t, r in self._open if r is not None):
            next(r for _t, r in reversed(self._open) if r is not None)["links"].append(
                a.get("href", ""))
        if a.get("id"):
            self.ids.append(a["id"] or "")
        if tag not in VOID:
            self._open.append((tag, record))

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        while self._open:
            open_tag, _record = self._open.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        for _tag, record in self._open:
            if record is not None:
                record["text"] += data


def alert_of(page: str) -> Alert:
    parsed = Alert()
    parsed.feed(page)
    parsed.title = " ".join(parsed.title.split())
    for record in parsed.alerts:
        record["text"] = " ".join(record["text"].split())
    return parsed


def the_alert(page: str) -> dict:
    """The page's first alert (the one that takes the focus), focusable by script only."""
    parsed = alert_of(page)
    assert parsed.alerts, f"no alert on the page titled {parsed.title!r}"
    first = parsed.alerts[0]
    assert first["attrs"].get("tabindex") == "-1", first
    return first


@pytest.fixture
def started(campaign):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    return game, users


def test_a_page_without_news_has_its_own_title_and_no_alert(started, client):
    game, users = started
    client.force_login(users[0])
    page = alert_of(client.get(reverse("game_status", args=[game.id])).content.decode())
    assert page.title == "Status · Papayas · Junta" and page.alerts == []
    client.logout()
    rules = client.get(reverse("rules"))
    assert alert_of(rules.content.decode()).title == "Rules · Junta"
    assert settings.CSRF_COOKIE_NAME not in rules.cookies  # the title's look set no cookie
    assert "page_alert.js" not in rules.content.decode()  # no alert, no script to move the focus


def test_a_message_sent_is_said_in_the_title_and_below_the_conversation(started, client):
    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    seat = game.players.get(user=isabel)
    start_through_form(client, game, [seat], "The budget", "Shall we?")
    talk = Conversation.objects.get(game=game)
    response = send(client, game, talk, "Twelve is too much.")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    parsed = alert_of(page)
    assert parsed.title == "Your message is sent. — The budget · Papayas · Junta"
    alert = the_alert(page)
    assert alert["text"] == "Your message is sent."
    assert page.count("/static/js/page_alert.js") == 1  # the alert brings its script
    # below the messages, the last one the one just sent: where the page was sent back to
    last = Conversation.objects.get(pk=talk.pk).messages.latest("id")
    assert response["Location"].endswith(f"#m{last.id}")
    assert f"m{last.id}" in alert["after"] and "write" not in alert["after"]


def test_a_refused_message_says_why_in_the_title_and_its_summary(started, client):
    game, (carlos, isabel, *_) = started
    client.force_login(carlos)
    start_through_form(client, game, [game.players.get(user=isabel)], "The budget", "Hm.")
    talk = Conversation.objects.get(game=game)
    response = send(client, game, talk, "   ")
    assert response.status_code == 400
    page = response.content.decode()
    assert alert_of(page).title == ("Error: Your message: A message needs some words. — "
                                    "The budget · Papayas · Junta")
    alert = the_alert(page)
    assert alert["text"] == "To correct below: Your message."
    assert alert["links"] == ["#id_body"] and 'id="id_body"' in page


def test_a_vote_counted_is_said_in_the_title_and_takes_the_focus(started, client):
    game, users = started
    poll = make_poll(game)
    client.force_login(users[1])
    response = vote_through_page(client, game, poll, ["The Admiral"])
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert alert_of(page).title.startswith("Your vote is counted.")
    assert alert_of(page).title.endswith(f" — {poll.question} · Polls · Papayas · Junta")
    assert the_alert(page)["text"].startswith("Your vote is counted.")
    assert Poll.objects.get(pk=poll.pk).votes.count() == 1


def test_an_order_given_on_the_map_is_said_on_the_map_and_one_refused_on_the_orders_page(
        campaign, client):
    game, by_seat, _state = coup_campaign(campaign)
    client.force_login(by_seat[GENERAL_1])
    orders = reverse("game_orders", args=[game.id])
    response = client.post(orders, move_post(game, 1, **{"from": "map"}))  # not next door
    assert response.status_code == 400
    page = response.content.decode()
    title = alert_of(page).title
    assert title.startswith("Error: Not saved: ") and title.endswith(" — Orders · Papayas · Junta")
    alert = the_alert(page)
    assert alert["attrs"]["id"] == "order-errors" and alert["text"].startswith("Not saved.")
    response = client.post(orders, move_post(game, 14, **{"from": "map"}))
    assert response["Location"] == reverse("game_map", args=[game.id])
    page = client.get(response["Location"]).content.decode()
    assert alert_of(page).title == "Order added. — Map · Papayas · Junta"
    assert the_alert(page)["text"] == "Order added."


def test_a_sign_up_refused_says_its_first_error_in_the_title_and_links_each_field(client):
    page = client.get(reverse("account_signup")).content.decode()
    form = next(f for f in forms_in(page) if "password1" in f.names())
    form.set("email", "not-an-address").set("password1", "short").set("password2", "other")
    response = submit(client, reverse("account_signup"), form)
    assert response.status_code == 200
    page = response.content.decode()
    title = alert_of(page).title
    assert title.startswith("Error: Email: Enter a valid email address. (")
    assert title.endswith(" problems) — Signup · Junta")
    alert = the_alert(page)
    assert alert["text"].startswith("To correct below: Email")
    assert alert["links"][0] == "#id_email"
    for link in alert["links"]:  # each to a field of the form
        assert f'id="{link[1:]}"' in page, link


def test_the_gm_s_forms_say_what_came_of_them(started):
    game, _users = started
    gm = csrf_browser(game.gm)
    url = reverse("gm_announce", args=[game.id])
    form = next(f for f in forms_in(gm.get(url).content.decode()) if "announce-body" in f.names())
    refused = submit(gm, url, form.type_text("announce-body", ""))
    assert refused.status_code == 400
    page = refused.content.decode()
    assert alert_of(page).title.startswith("Error: ")
    assert alert_of(page).title.endswith(" — Announce · Papayas · Junta")
    assert the_alert(page)["links"] == ["#id_announce-body"]
    form = next(f for f in forms_in(page) if "announce-body" in f.names())
    sent = submit(gm, url, form.type_text("announce-body", "The rains have come."))
    assert sent.status_code == 302
    page = gm.get(sent["Location"]).content.decode()
    assert alert_of(page).title == ("Your announcement is at the top of the Events page. — "
                                    "Announce · Papayas · Junta")
    assert the_alert(page)["text"] == "Your announcement is at the top of the Events page."
    # a ruling refused: "Not done. ..." on top of the page, and its form's own summary below
    rulings = reverse("gm_rulings", args=[game.id])
    ruling = next(f for f in forms_in(gm.get(rulings).content.decode())
                  if "card-target" in f.names()).type_text("card-target", "nowhere")
    response = submit(gm, reverse("gm_rule", args=[game.id, "card"]), ruling)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert alert_of(page).title.startswith("Error: Not done. ")
    assert the_alert(page)["tag"] == "ul" and the_alert(page)["text"].startswith("Not done. ")
    assert len(alert_of(page).alerts) == 2  # the form's summary comes after: the first wins
