"""Conditional GET (junta/games/page_cache.py, junta/api/conditional.py, junta/site/live.py,
talk's new messages): a campaign's page, an API answer or a poll answered 304 Not Modified
while what the viewer is shown is unchanged, at the cost of a kept page; 200 with a new ETag
after a speech, an order or the clock's moment (a deadline passing, a poll closing, an absence
starting); never 304 with another viewer's ETag, nor one that tells a change he cannot see."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from junta.api import tokens
from junta.games import order_intake, page_cache, speeches
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, Player
from junta.notify.mail import user_zone
from junta.notify.models import Absence
from junta.polls.models import Poll
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from tests.web.after_lunch import FARM, PRESIDENT, after_lunch
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import install, open_phase, version
from tests.web.polls_helpers import make_poll

pytestmark = pytest.mark.django_db

PAGES = ["game_status", "game_orders", "game_events", "game_map", "game_history"]
CSP = "Content-Security-Policy"


@pytest.fixture
def running(campaign):  # noqa: ANN001, ANN201 - the campaign fixture; (Game, [User])
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    return game, users


def browser(user) -> Client:  # noqa: ANN001 - a user
    """A logged-in browser that has its CSRF cookie, as one has after its first page."""
    client = Client()
    client.force_login(user)
    client.get(reverse("lobby"))
    assert settings.CSRF_COOKIE_NAME in client.cookies
    return client


def ask(client: Client, url: str, tag: str | None = None, **headers: str):  # noqa: ANN201
    if tag:
        headers["If-None-Match"] = tag
    return client.get(url, headers=headers)


def seat_user(game: Game, seat: int):  # noqa: ANN201 - a user
    return Player.objects.get(game=game, seat=seat).user


@pytest.mark.parametrize("page", [*PAGES, "gm_overview", "lobby", "home", "game_detail",
                                  "polls_index"])
def test_an_unchanged_page_is_304_at_the_cost_of_a_kept_page(running, page):
    game, users = running
    client = browser(game.gm if page == "gm_overview" else users[0])
    url = reverse(page) if page in ("lobby", "home") else reverse(page, args=[game.id])
    first = ask(client, url)
    tag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    secret = client.cookies[settings.CSRF_COOKIE_NAME].value
    with CaptureQueriesContext(connection) as queries:
        again = ask(client, url, tag)
    assert (again.status_code, again["ETag"], again.content) == (304, tag, b"")
    assert len(queries.captured_queries) == 3  # the session, the person, the revision
    # the copy's forms stay good: the CSRF cookie is renewed with the same secret
    assert again.cookies[settings.CSRF_COOKIE_NAME].value == secret
    assert CSP not in again  # the browser keeps the policy its copy's nonce goes with
    assert ask(client, url, f'"other", W/{tag}').status_code == 304  # a list, a weak tag
    assert ask(client, url, '"other"').status_code == 200


def test_a_speech_or_an_order_is_200_with_a_new_etag(running):
    game, users = running
    client = browser(users[0])
    events = reverse("game_events", args=[game.id])
    tag = ask(client, events)["ETag"]
    speeches.post_speech(game, users[1], "Papayas for everyone! MARKER-SPEECH", None)
    after = ask(client, events, tag)
    assert after.status_code == 200 and b"MARKER-SPEECH" in after.content
    assert after["ETag"] != tag
    orders = reverse("game_orders", args=[game.id])
    first = ask(client, orders)
    assert b"No orders yet." in first.content
    response = submit(client, orders, form_with(first.content.decode(), "option", "nominate")
                      .set("order-nominate-candidate", "1"))
    assert response.status_code == 302
    shown = ask(client, orders, first["ETag"])  # its message is shown: drawn, never tagged
    assert shown.status_code == 200 and "ETag" not in shown
    after = ask(client, orders, first["ETag"])
    assert after.status_code == 200 and b"No orders yet." not in after.content
    assert after["ETag"] != first["ETag"]


def test_never_304_with_another_viewers_or_another_browsers_etag(running):
    game, users = running
    url = reverse("game_history", args=[game.id])
    tag = ask(browser(users[0]), url)["ETag"]
    for other in (browser(users[1]), browser(users[0])):  # another player; another browser
        answer = ask(other, url, tag)
        assert answer.status_code == 200 and answer["ETag"] != tag


def test_a_change_he_cannot_see_is_not_told_by_his_etag(campaign):
    """After lunch the banker owes orders in secret (docs/rules.md §secrets): his orders going
    in and final raise the campaign's revision, so the pages are drawn anew, but the others'
    pages are the same, and so are their ETags: a 304, which tells nothing."""
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, after_lunch())
    client = browser(seat_user(game, PRESIDENT))
    urls = [reverse("game_status", args=[game.id]), reverse("home"),
            reverse("polls_index", args=[game.id])]
    tags = [ask(client, url)["ETag"] for url in urls]
    order_intake.submit_orders(phase.id, seat_user(game, FARM), [], state_version=version(game))
    order_intake.set_final(phase.id, seat_user(game, FARM))
    for url, tag in zip(urls, tags, strict=True):
        with CaptureQueriesContext(connection) as queries:
            assert ask(client, url, tag).status_code == 304, url
        assert len(queries.captured_queries) > 3, url  # drawn anew: the revision was raised


def later(minutes: int):  # noqa: ANN201 - a patch of the clock the site reads
    moment = timezone.now() + timedelta(minutes=minutes)
    return mock.patch.object(timezone, "now", lambda: moment)


def test_a_deadline_passing_draws_the_pages_anew(running):
    """Kept, not redrawn each minute, until the deadline passes: the pages say so then and
    offer no more orders."""
    game, users = running
    Phase.objects.filter(pk=open_phase(game).pk).update(
        deadline=timezone.now() + timedelta(minutes=5))  # no revision raised: the clock alone
    client = browser(users[0])
    url = reverse("game_orders", args=[game.id])
    first = ask(client, url)
    assert b'data-clock="counting"' in first.content
    with later(4), CaptureQueriesContext(connection) as queries:
        assert ask(client, url, first["ETag"]).status_code == 304
    assert len(queries.captured_queries) == 3  # still kept: its moment is ahead
    with later(6):
        after = ask(client, url, first["ETag"])
    assert after.status_code == 200 and b'data-clock="passed"' in after.content
    assert b"this phase is closed for orders" in after.content


def test_a_poll_closing_at_its_hour_leaves_the_events_page_and_closes_on_the_polls_page(
        running):
    game, users = running
    poll = make_poll(game)
    Poll.objects.filter(pk=poll.pk).update(  # no revision raised: the clock alone
        closes_at=timezone.now() + timedelta(minutes=5))
    client = browser(users[0])
    url, polls = (reverse("game_events", args=[game.id]), reverse("polls_index", args=[game.id]))
    first, listed = ask(client, url), ask(client, polls)
    assert poll.question.encode() in first.content and b"closes " in listed.content
    with later(4):
        assert ask(client, url, first["ETag"]).status_code == 304
        assert ask(client, polls, listed["ETag"]).status_code == 304
    with later(6):
        after, closed = ask(client, url, first["ETag"]), ask(client, polls, listed["ETag"])
    assert after.status_code == 200 and poll.question.encode() not in after.content
    assert closed.status_code == 200 and b"closes " not in closed.content


def test_an_absence_starting_shows_on_the_gm_overview(running):
    game, users = running
    player = Player.objects.get(game=game, user=users[0])
    Absence.objects.create(player=player, starts_on=timezone.now().date() + timedelta(days=2),
                           ends_on=timezone.now().date() + timedelta(days=3))
    client = browser(game.gm)
    url = reverse("gm_overview", args=[game.id])
    first = ask(client, url)
    assert b"Away now" not in first.content
    with later(60 * 24 * 3):  # the absence under way, in the player's zone
        after = ask(client, url, first["ETag"])
    assert after.status_code == 200 and b"Away now" in after.content


def test_every_clock_is_asked_in_one_query(running):
    """The deadlines, the polls' closing hours and the absences' midnights: one UNION."""
    game, users = running
    now = timezone.now().replace(minute=1, second=0, microsecond=0)
    poll = make_poll(game)
    Poll.objects.filter(pk=poll.pk).update(closes_at=now + timedelta(minutes=7))
    away = Absence.objects.create(player=Player.objects.get(game=game, user=users[0]),
                                  starts_on=now.date() + timedelta(days=9),
                                  ends_on=now.date() + timedelta(days=10))
    with CaptureQueriesContext(connection) as queries:
        until = page_cache.valid_until([game.id], now)
    assert (len(queries.captured_queries), until) == (1, int(now.timestamp()) + 7 * 60)
    midnight = datetime.combine(away.starts_on, time(), tzinfo=user_zone(users[0]))
    assert page_cache.valid_until([game.id], midnight - timedelta(minutes=30)) == int(
        midnight.timestamp())  # his first day away begins, in his zone


def test_no_page_is_trusted_past_the_next_full_hour():
    moment = timezone.now().replace(minute=59, second=59)
    assert page_cache.valid_until([], moment) == int(moment.timestamp()) + 1


# --- the API -------------------------------------------------------------------------------

API = "/api/v1"


@override_settings(JUNTA_API_RATES={"sustained": "10000/min", "burst": "10000/min"})
def test_the_api_answers_304_until_an_order_and_never_across_callers(running):
    game, _users = running
    client = Client()
    player = seat_user(game, 0)
    auth = {"Authorization": f"Bearer {tokens.create(player, 'bot').secret}"}
    for path in (f"/campaigns/{game.id}", f"/campaigns/{game.id}/orders", "/campaigns",
                 f"/campaigns/{game.id}/speeches"):
        first = client.get(API + path, headers=auth)
        assert first.status_code == 200 and first["ETag"], path
        again = client.get(API + path, headers={**auth, "If-None-Match": first["ETag"]})
        assert (again.status_code, again.content) == (304, b""), path
    url = f"{API}/campaigns/{game.id}/orders"
    tag = client.get(url, headers=auth)["ETag"]
    options = client.get(f"{API}/campaigns/{game.id}/options", headers=auth).json()
    option = options["orders"][0]
    put = {"orders": [{"option": option["key"], "values": option["defaults"]}],
           "state_version": options["state_version"], "final": False}
    assert client.put(url, data=json.dumps(put), content_type="application/json",
                      headers=auth).status_code == 200
    after = client.get(url, headers={**auth, "If-None-Match": tag})
    assert after.status_code == 200 and after.json()["orders"] and after["ETag"] != tag
    other = {"Authorization": f"Bearer {tokens.create(seat_user(game, 1), 'bot').secret}"}
    state = client.get(f"{API}/campaigns/{game.id}", headers=auth)["ETag"]
    assert client.get(f"{API}/campaigns/{game.id}",
                      headers={**other, "If-None-Match": state}).status_code == 200
    assert Client().get(f"{API}/campaigns/{game.id}",  # nobody signed in: 401 first
                        headers={"If-None-Match": state}).status_code == 401


@override_settings(JUNTA_API_RATES={"sustained": "10000/min", "burst": "10000/min"})
def test_the_api_serves_a_kept_answer_again_to_its_caller_alone_until_a_change(running):
    game, users = running
    client, url = Client(), f"{API}/campaigns/{game.id}"
    auth = {"Authorization": f"Bearer {tokens.create(seat_user(game, 0), 'bot').secret}"}
    first = client.get(url, headers=auth)
    with CaptureQueriesContext(connection) as keeping:
        again = client.get(url, headers=auth)
    assert (again.status_code, again.content, again["ETag"]) == (200, first.content,
                                                                 first["ETag"])
    read = [q["sql"] for q in keeping.captured_queries if "junta_cache" not in q["sql"]
            and "SAVEPOINT" not in q["sql"]]  # the rate limits' counts (the database's cache)
    assert len(read) == 2 and "api_apitoken" in read[0] and "contentrevision" in read[1]
    other = {"Authorization": f"Bearer {tokens.create(seat_user(game, 1), 'bot').secret}"}
    theirs = client.get(url, headers=other)
    assert theirs.json()["seat"] == 1 and first.json()["seat"] == 0  # his own view, drawn
    speeches.post_speech(game, users[0], "Papayas for everyone!", None)
    with CaptureQueriesContext(connection) as after:
        assert client.get(url, headers=auth).status_code == 200
    assert len(after.captured_queries) > len(keeping.captured_queries)  # drawn anew


# --- the polls of pages left open ------------------------------------------------------------

def test_the_live_answer_never_matches_another_viewers_etag(running):
    game, users = running
    url = reverse("game_live", args=[game.id])
    first, second = browser(users[0]), browser(users[1])
    tag = ask(first, url)["ETag"]
    assert ask(first, url, tag).status_code == 304
    assert ask(second, url, tag).status_code == 200


def test_new_messages_never_match_another_members_etag(running):
    game, users = running
    reader = talk_access.reader_for(game, users[0])
    talk = talk_services.start(reader, "A private word",
                               [Player.objects.get(game=game, user=users[1])], False, "Hello.")
    url = reverse("talk_messages", args=[game.id, talk.id]) + "?after=0"
    first, second = browser(users[0]), browser(users[1])
    tag = ask(first, url)["ETag"]
    assert ask(first, url, tag).status_code == 304
    assert ask(second, url, tag).status_code == 200


def test_an_id_no_database_holds_is_404_not_an_error(running):
    _game, users = running
    client = browser(users[0])
    assert ask(client, reverse("game_status", args=[10 ** 30])).status_code == 404
