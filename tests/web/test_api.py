"""The JSON API under /api/v1/: a player plays through it as the Orders, Events and talk pages
let him (the same services, the same refusals), with personal tokens, errors as JSON with
their field, 404 outside his campaigns, 409 for a stale state_version, 429 past the rate."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings

from junta.api import tokens
from junta.api.models import ApiToken
from junta.engine import Rng, bot_orders
from junta.games import adjudication, order_intake
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Order, Player
from tests.web.api_counts import forget_address_counts
from tests.web.campaigns import open_phase, play_days, state_of, version
from tests.web.landmarks import region_names, repeated
from tests.web.page_scripts import every_page_scripts

pytestmark = pytest.mark.django_db
API = "/api/v1"
# high rates for every test but the throttling one: user ids come back from test to test
RATES = {"sustained": "10000/min", "burst": "10000/min"}


@pytest.fixture(autouse=True)
def _rates():
    with override_settings(JUNTA_API_RATES=RATES):
        yield


def bearer(user) -> dict[str, str]:  # noqa: ANN001 - a user
    return {"Authorization": f"Bearer {tokens.create(user, 'bot').secret}"}


def get(client: Client, url: str, auth: dict, status: int = 200) -> dict:
    response = client.get(API + url, headers=auth)
    assert response.status_code == status, (url, response.status_code, response.content)
    return response.json()


def send(client: Client, method: str, url: str, auth: dict, data: dict, status: int = 200
         ) -> dict:
    response = getattr(client, method)(API + url, data=json.dumps(data),
                                       content_type="application/json", headers=auth)
    assert response.status_code == status, (url, response.status_code, response.content)
    return response.json()


@pytest.fixture
def started(campaign):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    return game, users


def seat_user(game: Game, seat: int):  # noqa: ANN201 - a user
    return game.players.get(seat=seat, membership=Player.Membership.ACTIVE).user


# --- who I am, my campaigns, a campaign ----------------------------------------------------

def test_me_and_my_campaigns(started, client):
    game, users = started
    user = seat_user(game, 0)
    auth = bearer(user)
    me = get(client, "/me", auth)
    assert me == {"id": user.id, "public_name": user.public_name, "time_zone": user.time_zone}
    [row] = get(client, "/campaigns", auth)
    assert row["id"] == game.id and row["role"] == "player" and row["seat"] == 0
    assert row["phase"]["number"] == 1 and row["phase"]["kind"] == "nomination"
    assert row["owes_orders"] is True and row["orders_in"] is False
    assert row["unread_speeches"] == 0 and row["unread_messages"] == 0
    [gm_row] = get(client, "/campaigns", bearer(game.gm))
    assert gm_row["role"] == "gm" and gm_row["seat"] is None


def test_a_campaign_as_the_engine_lets_me_see_it(started, client):
    game, users = started
    data = get(client, f"/campaigns/{game.id}", bearer(seat_user(game, 2)))
    assert data["seat"] == 2 and data["role"] == "player"
    assert data["state_version"] == version(game)
    assert data["view"]["me"]["seat"] == 2
    assert not {"full", "players_secret", "extra_bills"} & set(data["view"])
    assert [r["seat"] for r in data["roster"]] == list(range(6))
    assert all(r["family"] for r in data["roster"])
    assert data["clock"]["counting"] is True and data["clock"]["paused"] is False
    assert {i["orders"] for i in data["who_is_in"]} <= {"none", "in", "final"}
    assert data["phase"]["deadline"]


def test_phases_carry_the_public_report_and_my_own_lines(started, client):
    game, users = started
    play_days(game, users, 2)
    auth = bearer(seat_user(game, 1))
    listing = get(client, f"/campaigns/{game.id}/phases", auth)
    assert listing["count"] == 2 and [p["number"] for p in listing["phases"]] == [2, 1]
    one = get(client, f"/campaigns/{game.id}/phases/1", auth)
    assert one["public"] and one["title"] and one["revealed"] == [] and one["orders"] == []
    get(client, f"/campaigns/{game.id}/phases/99", auth, 404)


# --- orders ------------------------------------------------------------------------------------

def test_options_orders_and_final_through_the_services(started, client):
    game, users = started
    user = seat_user(game, 0)
    auth = bearer(user)
    options = get(client, f"/campaigns/{game.id}/options", auth)
    assert options["open"] is True and options["orders"]
    assert options["state_version"] == version(game)
    option = options["orders"][0]
    assert {"key", "kind", "label", "args", "conditions", "defaults"} <= set(option)
    put = {"orders": [{"option": option["key"], "values": option["defaults"]}],
           "state_version": options["state_version"], "note_to_gm": "Mine.", "final": False}
    saved = send(client, "put", f"/campaigns/{game.id}/orders", auth, put)
    assert len(saved["orders"]) == 1 and saved["orders"][0]["text"]
    assert saved["orders"][0]["option"] == option["key"]
    assert saved["note_to_gm"] == "Mine." and saved["final"] is False
    row = Order.objects.get(phase=open_phase(game), player__user=user)
    assert row.payload == [saved["orders"][0]["order"]]

    # the engine's own order form is read too, and a stale version is refused with 409
    stale = dict(put, orders=[], state_version=put["state_version"] - 1)
    error = send(client, "put", f"/campaigns/{game.id}/orders", auth, stale, 409)
    assert error["field"] == "state_version" and "Nothing was saved" in error["detail"]
    assert Order.objects.get(pk=row.pk).payload == row.payload  # the earlier orders stay

    final = send(client, "post", f"/campaigns/{game.id}/orders/final", auth, {"final": True})
    assert final["final"] is True and len(final["orders"]) == 1
    again = get(client, f"/campaigns/{game.id}/orders", auth)
    assert again["final"] is True and again["orders"] == final["orders"]


def test_a_put_keeps_what_it_does_not_name_and_never_undoes_the_web_page(started, client):
    """A program reads my orders; meanwhile I write a note and mark them final on the Orders
    page. Its PUT, made from what it read (`revision`), is refused with 409 and loses nothing;
    made anew, it replaces the orders and keeps the note and the final mark it does not name."""
    from django.urls import reverse

    from tests.web.browser_forms import csrf_browser, form_with, submit

    game, _users = started
    user = seat_user(game, 0)
    auth = bearer(user)
    read = get(client, f"/campaigns/{game.id}/orders", auth)
    page = csrf_browser(user)
    url = reverse("game_orders", args=[game.id])
    note = form_with(page.get(url).content.decode(), "action", "note")
    assert submit(page, url, note.type_text("note_to_gm", "Meet me at the Club.")).status_code \
        == 302
    assert submit(page, url, form_with(page.get(url).content.decode(), "action", "final")) \
        .status_code == 302
    options = get(client, f"/campaigns/{game.id}/options", auth)
    option = options["orders"][0]
    put = {"orders": [{"option": option["key"], "values": option["defaults"]}],
           "state_version": options["state_version"], "revision": read["revision"]}
    error = send(client, "put", f"/campaigns/{game.id}/orders", auth, put, 409)
    assert error["field"] == "revision" and "Nothing was saved" in error["detail"]
    row = Order.objects.get(phase=open_phase(game), player__user=user)
    assert row.note_to_gm == "Meet me at the Club." and row.final and row.payload == []
    now = get(client, f"/campaigns/{game.id}/orders", auth)
    saved = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                 dict(put, revision=now["revision"]))
    assert len(saved["orders"]) == 1
    assert saved["note_to_gm"] == "Meet me at the Club." and saved["final"] is True


def test_rejected_orders_name_their_field_and_keep_the_earlier_ones(started, client):
    game, users = started
    user = seat_user(game, 0)
    auth = bearer(user)
    options = get(client, f"/campaigns/{game.id}/options", auth)
    first = options["orders"][0]
    body = {"orders": [{"option": first["key"], "values": first["defaults"]}],
            "state_version": options["state_version"]}
    kept = send(client, "put", f"/campaigns/{game.id}/orders", auth, body)["orders"]
    bad = send(client, "put", f"/campaigns/{game.id}/orders", auth,
               dict(body, orders=[kept[0]["order"], {"kind": "no-such-order"}]), 400)
    assert bad["field"] == "orders[1].kind" and "no-such-order" in bad["detail"]
    unknown = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                   dict(body, orders=[{"option": "no-such-option"}]), 400)
    assert unknown["field"] == "orders[0].option"
    condition = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                     dict(body, orders=[{"kind": "pay", "condition": {"kind": "nope"}}]), 400)
    assert condition["field"] == "orders[0].condition"
    # the engine refuses a payment in the nomination phase: its message, about order 0
    refused = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                   dict(body, orders=[{"kind": "pay", "to": 1, "amount": 999999}]), 400)
    assert refused["field"].startswith("orders") and refused["detail"]
    missing = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                   {"orders": "nope", "state_version": 1}, 400)
    assert missing["field"] == "orders"
    too_long = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                    dict(body, note_to_gm="x" * 100000), 400)
    assert too_long["field"] == "note_to_gm"
    assert get(client, f"/campaigns/{game.id}/orders", auth)["orders"] == kept


def test_every_seat_plays_a_phase_through_the_api_alone(started, client):
    """The bots' orders, each family's own, sent as the engine's orders and marked final:
    the phase is adjudicated and its report is read back."""
    game, users = started
    phase = open_phase(game)
    state = state_of(phase)
    rng = Rng("api-bots")
    for seat in range(len(state.players)):
        auth = bearer(seat_user(game, seat))
        mine = get(client, f"/campaigns/{game.id}/orders", auth)
        body = {"orders": [o.to_dict() for o in bot_orders(state, seat, rng)],
                "state_version": mine["state_version"], "final": True}
        assert send(client, "put", f"/campaigns/{game.id}/orders", auth, body)["final"]
    assert [i["orders"] for i in get(client, f"/campaigns/{game.id}", auth)["who_is_in"]] \
        == ["final"] * len(state.players)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    [report] = get(client, f"/campaigns/{game.id}/phases", auth)["phases"]
    assert report["number"] == phase.number and report["public"]
    assert get(client, f"/campaigns/{game.id}", auth)["phase"]["number"] == phase.number + 1


def test_options_are_plain_json_in_every_phase_and_filled_in_never_fail(started, client):
    """Over two turns, every seat's options come back as JSON, and each option sent back
    with its defaults is either saved or refused with the engine's words (never a 500)."""
    game, users = started
    auths = {seat: bearer(seat_user(game, seat)) for seat in range(6)}
    kinds = set()
    for _ in range(14):
        phase = open_phase(game)
        kinds.add(phase.kind)
        assert get(client, f"/campaigns/{game.id}", auths[0])["view"]["phase"] == phase.kind
        for auth in auths.values():
            options = get(client, f"/campaigns/{game.id}/options", auth)
            for option in options["orders"][:4]:
                response = client.put(
                    f"{API}/campaigns/{game.id}/orders", content_type="application/json",
                    headers=auth, data=json.dumps({
                        "orders": [{"option": option["key"], "values": option["defaults"]}],
                        "state_version": options["state_version"]}))
                assert response.status_code in (200, 400), (option, response.content)
                assert response.json()
        play_days(game, users, 1)
    assert len(kinds) >= 6, kinds


def test_the_gm_has_no_orders_and_nobody_reads_another_s(started, client):
    game, users = started
    order_intake.submit_orders(open_phase(game).id, seat_user(game, 1), [],
                          state_version=version(game), note_to_gm="SECRET-NOTE-4411")
    gm = bearer(game.gm)
    get(client, f"/campaigns/{game.id}/orders", gm, 404)
    get(client, f"/campaigns/{game.id}/options", gm, 404)
    other = get(client, f"/campaigns/{game.id}/orders", bearer(seat_user(game, 0)))
    assert other["note_to_gm"] == "" and "SECRET-NOTE-4411" not in json.dumps(other)


# --- speeches and conversations --------------------------------------------------------------

def test_speeches_are_posted_and_read_newest_first(started, client):
    game, users = started
    speaker, listener = bearer(seat_user(game, 0)), bearer(seat_user(game, 1))
    first = send(client, "post", f"/campaigns/{game.id}/speeches", speaker,
                 {"body": "Friends, **vote** for me."}, 201)
    assert first["kind"] == "speech" and "<strong>vote</strong>" in first["html"]
    send(client, "post", f"/campaigns/{game.id}/speeches", listener,
         {"body": "Never.", "reply_to": first["id"]}, 201)
    empty = send(client, "post", f"/campaigns/{game.id}/speeches", listener, {"body": "  "}, 400)
    assert empty["field"] == "body" and empty["detail"] == "A speech needs some words."
    bad_reply = send(client, "post", f"/campaigns/{game.id}/speeches", listener,
                     {"body": "Hm.", "reply_to": 10**9}, 400)
    assert bad_reply["field"] == "reply_to"
    assert get(client, "/campaigns", speaker)[0]["unread_speeches"] == 1
    listing = get(client, f"/campaigns/{game.id}/speeches", speaker)
    said = [i for i in listing["items"] if i["kind"] == "speech"]
    assert [i["body"] for i in said] == ["Never.", "Friends, **vote** for me."]
    assert "Papayas begins" in listing["items"][-1]["body"]  # the GM's action, announced
    assert said[0]["new"] is True and said[0]["reply_to"] == first["id"]
    assert get(client, "/campaigns", speaker)[0]["unread_speeches"] == 0  # read now


def test_conversations_for_members_only(started, client):
    game, users = started
    a, b, c = (bearer(seat_user(game, s)) for s in (0, 1, 2))
    talk = send(client, "post", f"/campaigns/{game.id}/conversations", a,
                {"subject": "A pact", "players": [1], "body": "Shall we?"}, 201)
    assert talk["subject"] == "A pact" and talk["member"] is True
    messages = f"/campaigns/{game.id}/conversations/{talk['id']}/messages"
    assert get(client, "/campaigns", b)[0]["unread_messages"] == 1
    send(client, "post", messages, b, {"body": "Yes."}, 201)
    read = get(client, messages, a)
    assert [m["body"] for m in read["messages"]] == ["Yes.", "Shall we?"]
    assert read["messages"][1]["mine"] is True
    assert [t["id"] for t in get(client, f"/campaigns/{game.id}/conversations", b)] == \
        [talk["id"]]
    # not a member: the conversation does not exist for him, nor may he write in it
    assert get(client, f"/campaigns/{game.id}/conversations", c) == []
    get(client, messages, c, 404)
    send(client, "post", messages, c, {"body": "Let me in."}, 404)
    # the GM reads others' talk only where the campaign lets him (here it does not)
    get(client, messages, bearer(game.gm), 404)
    bad = send(client, "post", f"/campaigns/{game.id}/conversations", a,
               {"subject": "x", "players": [42], "body": "Hi"}, 400)
    assert bad["field"] == "players[0]"
    nobody = send(client, "post", f"/campaigns/{game.id}/conversations", a,
                  {"subject": "x", "players": [], "body": "Hi"}, 400)
    assert "at least one" in nobody["detail"]


# --- permissions and authentication ---------------------------------------------------------

def test_another_campaign_is_404_whatever_it_is(started, campaign, client):
    game, users = started
    other, _ = campaign(players=6, review=True)  # other e-mails: a campaign of others
    start_campaign(other.id, other.gm)
    auth = bearer(seat_user(game, 0))
    for url in ("", "/phases", "/phases/1", "/speeches", "/conversations", "/options",
                "/orders", "/conversations/1/messages"):
        for target in (other.id, 10**9):
            error = get(client, f"/campaigns/{target}{url}", auth, 404)
            assert set(error) == {"detail", "field"}
    send(client, "put", f"/campaigns/{other.id}/orders", auth,
         {"orders": [], "state_version": 0}, 404)
    send(client, "post", f"/campaigns/{other.id}/speeches", auth, {"body": "Hello"}, 404)


def test_unknown_or_revoked_tokens_get_401(started, client):
    game, users = started
    user = seat_user(game, 0)
    made = tokens.create(user, "bot")
    auth = {"Authorization": f"Bearer {made.secret}"}
    assert get(client, "/me", auth)["id"] == user.id
    assert ApiToken.objects.get(pk=made.token.pk).last_used_at is not None
    assert ApiToken.objects.get(pk=made.token.pk).secret_hash == tokens.hash_secret(made.secret)
    tokens.revoke(user, made.token.pk)
    revoked = get(client, "/me", auth, 401)
    assert "revoked" in revoked["detail"] and revoked["field"] == "Authorization"
    get(client, "/me", {"Authorization": "Bearer junta_nonsense"}, 401)
    get(client, "/me", {}, 401)
    # a revoked token is refused even with a session at hand: never a fall back
    client.force_login(user)
    get(client, "/me", auth, 401)


def test_the_session_works_with_the_csrf_token_for_unsafe_methods(started):
    game, users = started
    client = Client(enforce_csrf_checks=True)
    client.force_login(seat_user(game, 0))
    assert client.get(f"{API}/me").status_code == 200
    url = f"{API}/campaigns/{game.id}/speeches"
    body = json.dumps({"body": "From the page."})
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["field"] == "X-CSRFToken"
    client.get("/accounts/profile/")  # the page sets the CSRF cookie
    csrf = client.cookies["csrftoken"].value
    response = client.post(url, body, content_type="application/json",
                           headers={"X-CSRFToken": csrf})
    assert response.status_code == 201, response.content


def test_rate_limited_per_person_across_all_his_tokens_with_429_json(started, client):
    """One person with many tokens (and his session) has one rate, not one a token."""
    game, users = started
    user = seat_user(game, 0)
    auths = [bearer(user) for _ in range(20)]
    with override_settings(JUNTA_API_RATES={"burst": "3/min", "sustained": "100/min"}):
        for auth in auths[:3]:
            get(client, "/me", auth)
        for auth in auths:
            limited = client.get(f"{API}/me", headers=auth)
            assert limited.status_code == 429
            assert "Too many requests" in limited.json()["detail"]
            assert 0 < int(limited["Retry-After"]) <= 60
        client.force_login(user)
        assert client.get(f"{API}/me").status_code == 429
        get(client, "/me", bearer(seat_user(game, 1)))  # another person counts on his own


def test_calls_without_a_known_token_are_limited_by_address(started, client):
    """No token, or an unknown or revoked one: 401, counted by the address Django sees
    (REMOTE_ADDR); past the rate, 429 with Retry-After. X-Forwarded-For, which the client
    writes, changes nothing; a person with a good token is not held back by it."""
    game, users = started
    forget_address_counts()  # another test's calls from this address count for nothing here
    made = tokens.create(seat_user(game, 0), "bot")
    tokens.revoke(seat_user(game, 0), made.token.pk)
    wrong = [{}, {"Authorization": "Bearer junta_nonsense"},
             {"Authorization": f"Bearer {made.secret}"}]
    with override_settings(JUNTA_API_RATES={"burst": "5/min", "sustained": "100/min"}):
        statuses = []
        for i in range(200):
            response = client.get(f"{API}/me", headers={
                **wrong[i % 3], "X-Forwarded-For": f"10.0.{i // 250}.{i % 250}"})
            statuses.append(response.status_code)
        assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}
        limited = client.post(f"{API}/campaigns/{game.id}/speeches", "{}",
                              content_type="application/json", headers=wrong[1])
        assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
        assert "Too many requests" in limited.json()["detail"]
        other = Client(REMOTE_ADDR="192.0.2.7")  # another address counts on its own
        assert other.get(f"{API}/me").status_code == 401
        get(client, "/me", bearer(seat_user(game, 1)))


def test_the_schema_and_docs_are_served(client):
    schema = client.get(f"{API}/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert f"{API}/campaigns/{{game_id}}/orders" in paths and f"{API}/me" in paths
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    # a plain page of the site: no script but those on every page (the scripts' words, the
    # installable app's)
    scripts = re.findall(r"<script[^>]*>", page.split("</footer>")[0])
    assert scripts == every_page_scripts()
    assert f"PUT {API}/campaigns/{{game_id}}/orders" in page and "OrdersIn" in page
    # each region (an endpoint, its table of parameters, a schema) has a name of its own
    assert not repeated(page)
    assert f"Parameters of GET {API}/campaigns/{{game_id}}" in region_names(page)
    assert client.get(f"{API}/docs").status_code == 404  # no Swagger UI


# --- the tokens page --------------------------------------------------------------------------

def test_tokens_page_makes_shows_once_and_revokes(started, client):
    game, users = started
    user = seat_user(game, 0)
    client.force_login(user)
    assert '/api/tokens/' in client.get("/accounts/profile/").content.decode()
    page = client.get("/api/tokens/")
    assert page.status_code == 200 and "no tokens yet" in page.content.decode()
    empty = client.post("/api/tokens/", {"name": ""})
    assert empty.status_code == 400 and "Give the token a name" in empty.content.decode()
    made = client.post("/api/tokens/", {"name": "My bot"})
    html = made.content.decode()
    token = ApiToken.objects.get(user=user)
    secret = html.split('readonly value="', 1)[1].split('"', 1)[0]
    assert secret.startswith(token.prefix) and tokens.hash_secret(secret) == token.secret_hash
    listed = client.get("/api/tokens/").content.decode()
    assert secret not in listed  # shown once
    # the list scrolls within its own box on a phone, not the page
    assert '<div class="table-scroll" role="region" aria-labelledby="tokens-caption"' in listed
    assert get(client, "/me", {"Authorization": f"Bearer {secret}"})["id"] == user.id
    other = seat_user(game, 1)
    client.force_login(other)
    client.post("/api/tokens/", {"revoke": token.pk})  # not his: nothing happens
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    client.force_login(user)
    client.post("/api/tokens/", {"revoke": token.pk})
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    get(client, "/me", {"Authorization": f"Bearer {secret}"}, 401)


def test_a_deposit_beyond_the_pocket_is_refused_and_the_orders_in_are_kept(campaign, client):
    """docs/rules.md §banking: "A deposit or a withdrawal is carried out whole or not at all:
    one larger than the pocket or the account is refused when given". A PUT with a deposit
    above the pocket is refused with the engine's message, about the amount, nothing saved."""
    from tests.engine.option_states import GENERAL_3, locations
    from tests.web.campaigns import install

    game, _users = campaign()
    start_campaign(game.id, game.gm)
    s = locations()
    install(game, s)
    auth = bearer(seat_user(game, GENERAL_3))
    pocket = s.players[GENERAL_3].pocket
    state_version = get(client, f"/campaigns/{game.id}/options", auth)["state_version"]
    at_bank = {"kind": "location", "place": "bank"}
    kept = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                {"orders": [at_bank], "state_version": state_version})["orders"]
    deposit = {"kind": "bank", "action": "deposit", "amount": pocket + 3}
    refused = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                   {"orders": [at_bank, deposit], "state_version": state_version}, 400)
    assert refused["field"] == "orders[1].amount"
    assert refused["detail"] == (f"Order 2: You have {pocket} MP in your pocket; you cannot "
                                 f"deposit {pocket + 3}.")
    assert get(client, f"/campaigns/{game.id}/orders", auth)["orders"] == kept
    within = send(client, "put", f"/campaigns/{game.id}/orders", auth,
                  {"orders": [at_bank, dict(deposit, amount=pocket)],
                   "state_version": state_version})["orders"]
    assert len(within) == 2


# --- the same orders as last time (docs/rules.md §repeat-orders) ---------------------------

def test_the_same_orders_as_last_time_read_then_confirmed_as_the_orders_page_does(campaign,
                                                                                  client):
    """GET lists what the Orders page lists (kept, and left out with the engine's words) and
    saves nothing; POST with its token adds the kept orders after mine through the same
    service; a token read before my orders changed is refused (409), nothing added."""
    from junta.engine.repeat import NOT_REPEATED
    from tests.engine.option_states import ADMIRAL, GENERAL_3, locations
    from tests.web.campaigns import with_last_time

    now = locations()
    now.players[GENERAL_3].pocket = 2
    mine = [{"kind": "location", "place": "bank"},
            {"kind": "bank", "action": "deposit", "amount": 5},
            {"kind": "pay", "to": ADMIRAL, "amount": 1}]
    game, _ = campaign()
    start_campaign(game.id, game.gm)
    theirs = [{"kind": "location", "place": "mistress"}]  # another's: never in my plan
    phase, users = with_last_time(game, locations(), {GENERAL_3: mine, ADMIRAL: theirs}, now)
    auth = bearer(users[GENERAL_3])
    plan = get(client, f"/campaigns/{game.id}/orders/last-time", auth)
    assert "istress" not in json.dumps(plan)
    assert plan["from_phase"]["kind"] == "locations" and plan["revision"] == 0
    assert plan["kept"] == [{"order": mine[0], "text": "Location: Bank"}]
    reasons = {x["text"]: x["reason"] for x in plan["left_out"]}
    assert reasons["Deposit 5 MP"] == "You have 2 MP in your pocket; you cannot deposit 5."
    assert [r for t, r in reasons.items() if t.startswith("Pay ")] == [NOT_REPEATED]
    assert not Order.objects.filter(phase=phase).exists()
    options = get(client, f"/campaigns/{game.id}/options", auth)
    assert [o["key"] for o in options["orders"] if o["likely"]] == ["location"]
    confirm = {"token": plan["token"], "revision": plan["revision"],
               "state_version": plan["state_version"]}
    out = send(client, "post", f"/campaigns/{game.id}/orders/last-time", auth, confirm)
    assert [line["order"] for line in out["orders"]] == [mine[0]]
    stale = send(client, "post", f"/campaigns/{game.id}/orders/last-time", auth, confirm,
                 status=409)
    assert "nothing was" in json.dumps(stale).lower()
    assert Order.objects.get(phase=phase, player__user=users[GENERAL_3]).payload == [mine[0]]


def test_no_orders_last_time_is_an_empty_plan(started, client):
    game, _ = started
    plan = get(client, f"/campaigns/{game.id}/orders/last-time", bearer(seat_user(game, 0)))
    assert plan["from_phase"] is None and plan["token"] is None and plan["kept"] == []
