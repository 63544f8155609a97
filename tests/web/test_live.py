"""A campaign's page left open (junta/site/live.py, static/js/live.js): its JSON answer for one
viewer, 304 while nothing he sees changed, a new ETag when the phase is published, a message
comes to him or a family marks final; the same answer on two devices of one player; 404 to
those who are not in the campaign, as the Status page; and nothing in it another's secret."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, Player
from junta.talk import access as talk_access
from junta.talk import services as talk_services
from tests.web.after_lunch import FARM, PRESIDENT, after_lunch
from tests.web.campaigns import install, open_phase, state_of, version

pytestmark = pytest.mark.django_db

POCKET, BANK = 987651, 876541
TALK = "TALK-MARKER-31337: the Admiral is mine"
NOTE = "NOTE-TO-GM-MARKER-31337"


def user_at(game: Game, seat: int):  # noqa: ANN201 - a User
    return Player.objects.get(game=game, seat=seat).user


def live_url(game: Game, phase: Phase | None = None) -> str:
    url = reverse("game_live", args=[game.id])
    return f"{url}?phase={phase.id}" if phase else url


def ask(client: Client, url: str, etag: str | None = None):  # noqa: ANN201 - a response
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, **headers)


def write(game: Game, seat: int, to: list[int], body: str) -> None:
    reader = talk_access.reader_for(game, user_at(game, seat))
    talk_services.start(reader, "A private word", [Player.objects.get(game=game, seat=s)
                                                   for s in to], False, body)


@pytest.fixture
def running(campaign):  # noqa: ANN001, ANN201 - the campaign fixture; (Game, [User])
    game, users = campaign()
    start_campaign(game.id, game.gm)
    return game, users


def test_login_required_and_only_for_the_campaigns_players_and_gm(running, client):
    game, _users = running
    url = live_url(game)
    response = client.get(url)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    outsider = get_user_model().objects.create_user(email="outsider@example.org")
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.get(reverse("game_live", args=[987654])).status_code == 404
    client.force_login(game.gm)
    assert client.get(url).status_code == 200
    client.force_login(user_at(game, 0))
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"


def test_304_while_nothing_he_sees_changed_a_new_etag_when_something_does(running, client):
    game, _users = running
    phase = open_phase(game)
    carlos = user_at(game, 0)
    client.force_login(carlos)
    url = live_url(game, phase)
    first = ask(client, url)
    etag = first["ETag"]
    data = json.loads(first.content)
    assert data["shown"] == {"id": phase.id, "label": data["phase"]["label"],
                             "changed": False, "published": False}
    assert data["unread"] == {"talk": 0}
    name = state_of(phase).name(3)
    assert {r["name"]: r["orders"] for r in data["who_is_in"]}[name] == "none"
    assert ask(client, url, etag).status_code == 304

    # two others talk in private: the campaign's revision rises, but nothing Carlos sees
    write(game, 1, [2], "Between us two")
    again = ask(client, url, etag)
    assert again.status_code == 304 and again["ETag"] == etag

    # a family marks its orders final: who is in changes
    order_intake.submit_orders(phase.id, user_at(game, 3), [{"kind": "decline"}],
                               state_version=version(game), final=True)
    changed = ask(client, url, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert {r["name"]: r["orders"] for r in json.loads(changed.content)["who_is_in"]}[name] \
        == "final"
    etag = changed["ETag"]

    # a message to Carlos: the menu's unread count
    write(game, 4, [0], "A word for Carlos")
    changed = ask(client, url, etag)
    assert changed.status_code == 200 and json.loads(changed.content)["unread"] == {"talk": 1}


def test_the_phase_published_is_told_to_a_page_that_shows_it(running, client):
    game, _users = running
    phase = open_phase(game)
    client.force_login(user_at(game, 0))
    url = live_url(game, phase)
    etag = ask(client, url)["ETag"]
    status = client.get(reverse("game_status", args=[game.id])).content.decode()
    heading = re.search(r'<h2 id="phase-h">(.*?)</h2>', status).group(1)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    after = ask(client, url, etag)
    assert after.status_code == 200
    data = json.loads(after.content)
    assert data["shown"]["changed"] and data["shown"]["published"]
    assert data["phase"]["id"] == open_phase(game).id != phase.id
    assert data["shown"]["label"] == heading  # as the Status page heads it
    # a page drawn for the new phase has nothing to reload
    fresh = json.loads(ask(client, live_url(game, open_phase(game))).content)
    assert not fresh["shown"]["changed"] and not fresh["shown"]["published"]


def test_two_devices_of_one_player_see_the_same(running):
    game, _users = running
    phase = open_phase(game)
    phone, desk = Client(), Client()
    for device in (phone, desk):
        device.force_login(user_at(game, 0))
    url = live_url(game, phase)
    write(game, 5, [0], "Seen on both")
    a, b = ask(phone, url), ask(desk, url)
    assert a.content == b.content and a["ETag"] == b["ETag"]
    assert json.loads(a.content)["unread"] == {"talk": 1}
    # he reads it on the phone: the desk's count goes too
    talk = talk_access.readable(talk_access.reader_for(game, user_at(game, 0))).get()
    assert phone.get(reverse("talk_conversation", args=[game.id, talk.id])).status_code == 200
    later = ask(desk, url, b["ETag"])
    assert later.status_code == 200 and json.loads(later.content)["unread"] == {"talk": 0}
    assert ask(phone, url, later["ETag"]).status_code == 304


def test_no_other_familys_secret_in_the_answer(running, client):
    game, _users = running
    phase = open_phase(game)
    state = state_of(phase)
    state.players[1].pocket, state.players[1].bank = POCKET, BANK
    phase = install(game, state)
    order_intake.submit_orders(phase.id, user_at(game, 1), [{"kind": "decline"}],
                               state_version=version(game), note_to_gm=NOTE)
    write(game, 1, [2], TALK)
    assert repository.state_before(open_phase(game)).players[1].pocket == POCKET
    for seat in (0, 3):
        client.force_login(user_at(game, seat))
        body = ask(client, live_url(game, phase)).content.decode()
        for marker in (str(POCKET), str(BANK), TALK, NOTE, "Admiral"):
            assert marker not in body, (seat, marker)


def test_the_pages_carry_what_the_script_updates_for_those_it_answers(running, client):
    game, _users = running
    phase = open_phase(game)
    url = reverse("game_live", args=[game.id])
    client.force_login(user_at(game, 0))
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert f'data-live="{url}" data-live-interval="15000"' in page
    assert f'<div class="live-banner" role="status" data-live-banner ' \
           f'data-live-phase="{phase.id}"></div>' in page
    assert 'data-live-seat="3"' in page and 'data-live-count="talk"' in page
    assert "js/live.js" in page
    # one who is not in the campaign reads its Events page: nothing to ask for him
    client.force_login(get_user_model().objects.create_user(email="reader@example.org"))
    page = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "data-live=" not in page and "js/live.js" not in page
    # a campaign over changes no more
    client.force_login(user_at(game, 0))
    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    page = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "data-live=" not in page and "js/live.js" not in page


def test_a_secret_owing_seat_changes_nobody_elses_answer(running, client):
    """After lunch the banker owes orders in secret (docs/rules.md §secrets): his orders going
    in and final raise the campaign's revision, but every other viewer's answer, and so its
    ETag, stays the same: a 304, which tells nothing."""
    game, _users = running
    phase = install(game, after_lunch())
    url = live_url(game, phase)
    etags = {}
    for seat in (PRESIDENT, 1):
        client.force_login(user_at(game, seat))
        first = ask(client, url)
        assert [r["seat"] for r in json.loads(first.content)["who_is_in"]] == [PRESIDENT]
        etags[seat] = first["ETag"]
    order_intake.submit_orders(phase.id, user_at(game, FARM), [], state_version=version(game))
    order_intake.set_final(phase.id, user_at(game, FARM))
    for seat, etag in etags.items():
        client.force_login(user_at(game, seat))
        assert ask(client, url, etag).status_code == 304, seat


def test_a_poll_while_nothing_changed_costs_a_few_queries(running, client):
    """The session, the person, the revision (and the cache, where it is the database)."""
    game, _users = running
    client.force_login(user_at(game, 0))
    url = live_url(game, open_phase(game))
    etag = ask(client, url)["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        assert ask(client, url, etag).status_code == 304
    assert len(ctx.captured_queries) <= 4, [q["sql"] for q in ctx.captured_queries]
