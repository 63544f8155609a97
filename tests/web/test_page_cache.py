"""A campaign's pages kept per viewer under the campaign's content revision
(junta/games/page_cache.py, junta/games/revisions.py): served again at the cost of the session,
the person and the revision, drawn anew after any change, never served to another viewer."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from junta.games import revisions, speeches
from junta.games.adjudication import adjudicate_phase
from junta.games.campaigns import join_game, start_campaign
from junta.games.locking import lock_game
from junta.games.models import Character, ContentRevision, Game, Player
from junta.gm.services.time import extend_deadline
from junta.notify.models import Absence
from junta.polls import services as poll_services
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from junta.talk.public import reader_for, start
from tests.web.browser_forms import form_with, submit
from tests.web.polls_helpers import make_poll
from tests.web.talk_helpers import seat_of

pytestmark = pytest.mark.django_db

PAGES = ["game_status", "game_orders", "game_events", "game_map", "game_history"]


def started(campaign) -> tuple[Game, list]:
    game, users = campaign()
    start_campaign(game.id, game.gm)
    return game, users


def browser(user) -> Client:
    """A logged-in browser that has its CSRF cookie, as one has after its first page."""
    client = Client()
    client.force_login(user)
    client.get(reverse("lobby"))
    assert settings.CSRF_COOKIE_NAME in client.cookies
    return client


def served(client: Client, url: str) -> tuple[int, bytes]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries.captured_queries), response.content


@pytest.mark.parametrize("page", PAGES)
def test_a_page_seen_again_costs_the_session_the_person_and_the_revision(campaign, page):
    game, users = started(campaign)
    client = browser(users[0])
    url = reverse(page, args=[game.id])
    drawn_queries, drawn = served(client, url)
    kept_queries, kept = served(client, url)
    assert kept == drawn
    assert kept_queries == 3 < drawn_queries


def test_the_gm_overview_and_the_lobby_are_kept_too(campaign):
    game, users = started(campaign)
    gm = browser(game.gm)
    for url in (reverse("gm_overview", args=[game.id]), reverse("lobby")):
        _, drawn = served(gm, url)
        queries, kept = served(gm, url)
        assert (queries, kept) == (3, drawn)


def test_an_order_given_shows_on_the_next_page(campaign):
    """What the browser does: the Orders page, its nomination form sent, the page again."""
    game, users = started(campaign)
    client = browser(users[0])
    url = reverse("game_orders", args=[game.id])
    served(client, url)
    queries, before = served(client, url)
    assert queries == 3 and b"No orders yet." in before
    page = client.get(url).content.decode()
    response = submit(client, url, form_with(page, "option", "nominate")
                      .set("order-nominate-candidate", "1"))
    assert response.status_code == 302
    client.get(url)  # the message of the redirect is shown once: that page is drawn
    _, after = served(client, url)
    assert b"Nominate Don Isabel" in after and b"No orders yet." not in after


def test_a_speech_shows_on_every_page_that_counts_them(campaign):
    game, users = started(campaign)
    reader = browser(users[1])
    url = reverse("game_events", args=[game.id])
    served(reader, url)
    speeches.post_speech(game, users[0], "Papayas for everyone! MARKER-SPEECH", None)
    _, page = served(reader, url)
    assert b"MARKER-SPEECH" in page


def test_no_viewer_is_served_a_page_drawn_for_another(campaign):
    """The same address, the same campaign and revision: each player sees his own hand."""
    game, users = started(campaign)
    url = reverse("game_status", args=[game.id])
    first, second = browser(users[0]), browser(users[1])
    served(first, url)
    served(first, url)
    with CaptureQueriesContext(connection) as queries:
        page = second.get(url).content.decode()
    assert len(queries.captured_queries) > 3  # drawn for him, not taken from the first
    mine = Player.objects.get(game=game, user=users[1])
    assert Character.objects.filter(player=mine).first().name in page


def test_a_name_changed_shows_on_the_pages_of_every_campaign_of_its_person(campaign):
    """The lobby names each campaign's GM: a player's kept lobby shows the GM's new name."""
    game, users = started(campaign)
    reader = browser(users[1])
    url = reverse("lobby")
    served(reader, url)
    assert served(reader, url)[0] == 3  # kept
    game.gm.display_name = "Generalissimo Renamed"
    game.gm.save()
    _, page = served(reader, url)
    assert b"Generalissimo Renamed" in page


def test_logging_in_again_keeps_the_pages_of_the_persons_campaigns(campaign):
    """Only what the pages show of a person (name, zone) raises his campaigns' revisions, not
    the time of his last login."""
    game, users = started(campaign)
    number = ContentRevision.objects.get(game=game).number
    users[0].save(update_fields=["last_login"])
    assert ContentRevision.objects.get(game=game).number == number
    users[0].save(update_fields=["time_zone"])
    assert ContentRevision.objects.get(game=game).number == number + 1


def test_what_is_never_kept(campaign, django_user_model):
    game, users = started(campaign)
    url = reverse("game_status", args=[game.id])
    # a browser without its CSRF cookie yet: drawn, and given the cookie
    fresh = Client()
    fresh.force_login(users[0])
    first = fresh.get(url)
    assert settings.CSRF_COOKIE_NAME in first.cookies
    fresh.cookies.pop(settings.CSRF_COOKIE_NAME)
    assert served(fresh, url)[0] > 3
    # staff: the site's health is on their pages
    game.gm.is_staff = True
    game.gm.save()
    boss, overview = browser(game.gm), reverse("gm_overview", args=[game.id])
    served(boss, overview)
    queries, _ = served(boss, overview)
    assert queries > 3
    # a page with a message to show is drawn with it, and the next one without it
    client = browser(users[0])
    served(client, url)
    served(client, url)
    orders = reverse("game_orders", args=[game.id])
    submit(client, orders, form_with(client.get(orders).content.decode(), "option", "nominate")
           .set("order-nominate-candidate", "1"))
    assert b'class="messages"' in client.get(url).content
    assert b'class="messages"' not in served(client, url)[1]
    # a page that is not found is never kept
    other = browser(django_user_model.objects.create_user(email="other@example.org"))
    missing = reverse("game_orders", args=[game.id])
    assert other.get(missing).status_code == 404
    assert other.get(missing).status_code == 404


def test_every_watched_row_saved_or_deleted_raises_its_campaigns_revision(campaign):
    game, users = started(campaign)
    number = ContentRevision.objects.get(game=game).number
    assert {model._meta.label for model in revisions.WATCHED} >= {
        "games.Game", "games.Player", "games.Character", "games.Phase", "games.Order",
        "games.PhaseResult", "games.Speech", "games.AuditEntry", "games.Position",
        "games.PoliticalCard", "games.Bill", "games.Unit", "lives.HeirDraft", "lives.Obituary",
        "notify.Absence"}
    character = Character.objects.filter(player__game=game).first()
    character.bio = "Born in the barracks."
    character.save()
    assert ContentRevision.objects.get(game=game).number == number + 1
    speech = speeches.post_speech(game, users[0], "A word.", None)
    speech.delete()
    assert ContentRevision.objects.get(game=game).number >= number + 3


def test_taking_a_campaigns_write_lock_raises_its_revision(campaign):
    """Bulk writes send no signal: every service that makes them holds the lock."""
    game, _users = started(campaign)
    number = ContentRevision.objects.get(game=game).number
    with transaction.atomic():
        lock_game(game.id)
    assert ContentRevision.objects.get(game=game).number == number + 1


def test_a_rolled_back_change_leaves_the_revision_as_it_was(campaign):
    game, _users = started(campaign)
    number = ContentRevision.objects.get(game=game).number
    with pytest.raises(RuntimeError), transaction.atomic():
        lock_game(game.id)
        raise RuntimeError("the service failed")
    assert ContentRevision.objects.get(game=game).number == number


def test_a_new_campaign_open_to_join_shows_in_everyones_lobby(campaign, django_user_model):
    game, users = campaign(players=6)
    client = browser(users[0])
    url = reverse("lobby")
    served(client, url)
    other_gm = django_user_model.objects.create_user(email="newgm@example.org")
    from junta.games.campaigns import create_game

    create_game(other_gm, "Bananas Unbound", max_players=6, join_policy=Game.JoinPolicy.OPEN)
    _, page = served(client, url)
    assert b"Bananas Unbound" in page


def test_a_campaign_made_before_revisions_were_numbered_gets_its_number(campaign):
    game, _users = campaign(players=6)
    ContentRevision.objects.filter(game=game).delete()
    assert revisions.current(game.id) is None
    revisions.bump(game.id)
    assert revisions.current(game.id) == 1


# --- the dashboard, the Families page, a conversation, the polls page -----------------------

def reader_of(game: Game, user) -> talk_access.Reader:
    reader = talk_access.reader_for(game, user)
    assert reader is not None
    return reader


def kept_again(client: Client, url: str) -> bytes:
    """The page seen until it is kept (a conversation's first view marks it read, which is a
    change: drawn again once), then served again at the cost of a kept page."""
    served(client, url)
    _, drawn = served(client, url)
    queries, kept = served(client, url)
    assert (queries, kept) == (3, drawn), url
    return kept


def test_the_dashboard_families_polls_and_a_conversation_are_kept_too(campaign):
    game, users = started(campaign)
    make_poll(game)
    talk = talk_services.start(reader_of(game, users[0]), "A deal", [seat_of(game, users[1])],
                               False, "Hello there")
    client = browser(users[0])
    for url in (reverse("home"), reverse("game_detail", args=[game.id]),
                reverse("polls_index", args=[game.id]),
                reverse("talk_conversation", args=[game.id, talk.id])):
        kept_again(client, url)


def test_the_dashboard_is_drawn_anew_after_each_thing_it_shows_changes(campaign):
    """A message to him, a speech, a campaign under way that becomes watchable."""
    game, users = started(campaign)
    other, _others = campaign(players=6, review=True)  # players of its own
    start_campaign(other.id, other.gm)
    client, url = browser(users[0]), reverse("home")
    assert b"No unread messages" in kept_again(client, url)
    talk_services.start(reader_of(game, users[1]), "A deal", [seat_of(game, users[0])],
                        False, "Hello there")
    assert b"1 unread private message" in served(client, url)[1]
    assert b"new on the Events page" not in kept_again(client, url)
    speeches.post_speech(game, users[1], "Papayas for everyone!", None)
    assert b"new on the Events page" in served(client, url)[1]
    assert b"you may watch" not in kept_again(client, url)
    other.refresh_from_db()
    other.watchable = True
    other.save()
    assert b"1 campaign you may watch" in served(client, url)[1]


def test_the_families_page_is_drawn_anew_after_a_name_an_absence_or_a_join(
        campaign, django_user_model):
    game, users = campaign(players=6)
    gm, url = browser(game.gm), reverse("game_detail", args=[game.id])
    assert b"http://testserver/games/" in kept_again(gm, url)  # the invitation link
    elsewhere = gm.get(url, headers={"Host": "localhost"})
    assert b"http://localhost/games/" in elsewhere.content  # drawn for the host asked
    character = Character.objects.get(player__game=game, player__user=users[1])
    character.name = "Don Renamed"
    character.save()
    assert b"Don Renamed" in served(gm, url)[1]
    kept_again(gm, url)
    users[2].display_name = "Somebody Else"
    users[2].save()
    assert b"Somebody Else" in served(gm, url)[1]
    kept_again(gm, url)
    Absence.objects.create(player=seat_of(game, users[0]), starts_on=date(2099, 1, 1),
                           ends_on=date(2099, 1, 9))
    assert b"2099" in served(gm, url)[1]
    game.max_players = 7
    game.save()
    kept_again(gm, url)
    join_game(game.id, django_user_model.objects.create_user(email="late@example.org"),
              "Don Latecomer")
    assert b"Don Latecomer" in served(gm, url)[1]


def test_a_conversation_is_drawn_anew_after_a_message_or_a_departure(campaign):
    game, users = started(campaign)
    talk = talk_services.start(reader_of(game, users[0]), "A deal",
                               [seat_of(game, users[1]), seat_of(game, users[2])],
                               False, "Hello there")
    client = browser(users[0])
    url = reverse("talk_conversation", args=[game.id, talk.id])
    kept_again(client, url)
    talk_services.post(talk, reader_of(game, users[1]), "MARKER-REPLY: agreed")
    assert b"MARKER-REPLY" in served(client, url)[1]
    assert b"who left" not in kept_again(client, url)
    talk_services.leave(talk, reader_of(game, users[2]))
    assert b"MARKER-REPLY" in kept_again(client, url)  # drawn anew, then kept again
    assert talk.members.filter(left_at__isnull=False).count() == 1


def test_the_polls_page_is_drawn_anew_after_another_s_vote_or_a_new_poll(campaign):
    """(Its closing hour: test_conditional_get.py.)"""
    game, users = started(campaign)
    poll = make_poll(game, live=True)
    client, url = browser(users[0]), reverse("polls_index", args=[game.id])
    assert b"1 voted" not in kept_again(client, url)
    poll_services.vote(poll.id, users[1], [poll.choices.get(label="Nobody").pk])
    assert b"1 voted" in served(client, url)[1]
    kept_again(client, url)
    poll_services.post_poll(game, game.gm, "MARKER-QUESTION?", ["Yes", "No"], multiple=False,
                            anonymous=True, live=False,
                            closes_at=timezone.now() + timedelta(hours=2))
    assert b"MARKER-QUESTION?" in served(client, url)[1]


def test_no_viewer_is_served_another_s_dashboard_families_polls_or_conversation(campaign):
    game, users = started(campaign)
    talk = talk_services.start(reader_of(game, users[0]), "A deal", [seat_of(game, users[1])],
                               False, "Hello there")
    first, second = browser(users[0]), browser(users[1])
    for url in (reverse("home"), reverse("game_detail", args=[game.id]),
                reverse("polls_index", args=[game.id]),
                reverse("talk_conversation", args=[game.id, talk.id])):
        mine = kept_again(first, url)
        assert served(second, url)[0] > 3, url  # drawn for him, not taken from the first
        assert kept_again(second, url) != mine, url  # his own, kept for him
# What differs between two drawings of one page for one browser (its forms' CSRF tokens, its
# scripts' nonce), left out when two drawings are compared.
AFRESH = re.compile(rb'(name="csrfmiddlewaretoken" value="|nonce=")[^"]*"')


def test_pages_drawn_from_the_kept_rows_equal_pages_drawn_from_the_database(campaign):
    """A campaign's shared rows are read once per revision (junta/games/campaign_rows.py):
    after each kind of change (a speech, an order, a message, an adjudication, a GM's change)
    a second player's pages, drawn from the rows the first one's drawing kept, are what he is
    shown with nothing kept, and show the change."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    first, second = browser(users[0]), browser(users[1])
    status, orders, map_, history = (reverse(page, args=[game.id]) for page in (
        "game_status", "game_orders", "game_map", "game_history"))

    def drawn(*urls: str) -> dict[str, bytes]:
        """Each page drawn by the second player from the rows kept (at this revision, by the
        first player's drawing), checked against his drawing with nothing kept (which keeps
        them again: the next change finds the rows of the revision before it kept)."""
        pages = {}
        for url in urls:
            served(first, url)
            pages[url] = AFRESH.sub(rb"\1", served(second, url)[1])
            caches["drawings"].clear()  # nothing kept: every row read from the database
            assert AFRESH.sub(rb"\1", served(second, url)[1]) == pages[url], url
        return pages

    read, _ = served(first, status)  # the rows read, and kept
    assert served(second, status)[0] < read  # the second drawing reads them back

    assert b"No orders yet." in drawn(orders)[orders]
    speeches.post_speech(game, users[2], "Papayas for everyone!", None)
    drawn(status)
    response = submit(second, orders, form_with(second.get(orders).content.decode(), "option",
                                                "nominate").set("order-nominate-candidate", "1"))
    assert response.status_code == 302
    second.get(orders)  # its message shown once
    assert b"No orders yet." not in drawn(orders)[orders]
    start(reader_for(game, users[1]), "Between us",
          [Player.objects.get(game=game, user=users[0])], True, "A deal?")
    talked = drawn(status, history)
    extend_deadline(game.id, game.gm, 24, reason="Carnival")
    extended = drawn(status)
    assert extended[status] != talked[status]  # the new deadline
    adjudicate_phase(game.phases.get(status="open").id, force=True)
    published = drawn(status, history, map_)
    assert published[history] != talked[history] and published[status] != extended[status]
    gm, overview = browser(game.gm), reverse("gm_overview", args=[game.id])
    kept = AFRESH.sub(rb"\1", served(gm, overview)[1])  # from the rows the players' kept
    caches["drawings"].clear()
    assert AFRESH.sub(rb"\1", served(gm, overview)[1]) == kept
