"""Bad input to the JSON API gets its JSON error naming the field (400), never a server error,
and nothing is stored: wrong JSON types in an order, a NUL byte or a lone surrogate in any text
(as a client sends it: the JSON escape "\\ud800" in the raw body). The web forms refuse the same
characters (tests/web/test_control_characters.py); the API reuses their check."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from junta.api import tokens
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Order, Player
from junta.ops.text import REFUSED_TEXT
from tests.web.campaigns import open_phase, version

pytestmark = pytest.mark.django_db
API = "/api/v1"
RATES = {"sustained": "10000/min", "burst": "10000/min"}
# As a client writes them in the JSON it sends (never decoded by the test itself)
NUL, SURROGATE = "\\u0000", "\\ud800"


@pytest.fixture(autouse=True)
def _production():
    """DEBUG off, as in production; high rates (the limits have tests of their own)."""
    with override_settings(DEBUG=False, JUNTA_API_RATES=RATES):
        yield


@pytest.fixture
def client() -> Client:
    """A server error is answered as a client sees it (500), not raised in the test."""
    return Client(raise_request_exception=False)


@pytest.fixture
def seated(campaign) -> tuple[Game, dict[str, str]]:
    game, _users = campaign(players=6)
    start_campaign(game.id, game.gm)
    user = game.players.get(seat=0, membership=Player.Membership.ACTIVE).user
    return game, {"Authorization": f"Bearer {tokens.create(user, 'bot').secret}"}


def raw(client: Client, method: str, url: str, auth: dict[str, str], body: str,
        status: int = 400) -> dict:
    """`body` sent as it is written (JSON escapes included), answered with `status` in JSON."""
    response = getattr(client, method)(API + url, data=body.encode(),
                                       content_type="application/json", headers=auth)
    assert response.status_code == status, (url, body[:200], response.status_code,
                                            response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    return response.json()


def stored(game: Game) -> list[tuple]:
    return list(Order.objects.filter(phase=open_phase(game)).values_list(
        "player_id", "payload", "note_to_gm", "final", "revision"))


# --- PUT my orders ---------------------------------------------------------------------------

def test_orders_of_a_wrong_json_type_are_refused_naming_the_field(seated, client):
    """An order's kind, its condition's kind or one of its arguments as a list or an object
    (or a number where a list is read): 400 naming the field, not a server error."""
    game, auth = seated
    url = f"/campaigns/{game.id}/orders"
    before = stored(game)
    sv = version(game)
    cases = {
        '{"kind": ["pay"]}': "orders[0].kind",
        '{"kind": {"pay": 1}}': "orders[0].kind",
        '{"kind": "pay", "to": 1, "amount": 1, "condition": {"kind": ["voted"]}}':
            "orders[0].condition",
        '{"kind": "pay", "to": 1, "amount": 1, "condition": {"kind": {"a": 1}}}':
            "orders[0].condition",
        '{"kind": "pay", "to": 1, "amount": 1, "condition": {"kind": "voted", "seat": [1]}}':
            "orders[0].condition.seat",
        '{"kind": "pay", "to": [1], "amount": 1}': "orders[0].to",
        '{"kind": "pay", "to": 1, "amount": {"a": 1}}': "orders[0].amount",
        '{"kind": "pay", "to": 1, "amount": 1.5}': "orders[0].amount",
        '{"kind": "vote", "cards": true}': "orders[0].cards",
        '{"kind": "move", "units": [[1]]}': "orders[0].units",
        '{"kind": "trade", "with": 1, "give_cards": 1}': "orders[0].give_cards",
        '{"option": "nominate", "values": {"candidate": [1]}}': "orders[0].candidate",
    }
    for order, field in cases.items():
        error = raw(client, "put", url, auth, f'{{"orders": [{order}], "state_version": {sv}}}')
        assert error["field"] == field, (order, error)
        assert error["detail"]
    assert stored(game) == before


def test_a_nul_or_a_lone_surrogate_in_the_orders_or_the_note_is_refused(seated, client):
    game, auth = seated
    url = f"/campaigns/{game.id}/orders"
    sv = version(game)
    raw(client, "put", url, auth, f'{{"orders": [], "state_version": {sv}, '
                                  '"note_to_gm": "Meet me at the Club."}', 200)
    before = stored(game)
    for bad in (NUL, SURROGATE, "\\udfff", f"a{SURROGATE}b", "\\u0007"):
        error = raw(client, "put", url, auth,
                    f'{{"orders": [], "state_version": {sv}, "note_to_gm": "Hi{bad}"}}')
        assert error == {"detail": REFUSED_TEXT, "field": "note_to_gm"}
        error = raw(client, "put", url, auth, f'{{"orders": [{{"kind": "location", '
                                              f'"place": "club{bad}"}}], "state_version": {sv}}}')
        assert error == {"detail": REFUSED_TEXT, "field": "orders[0].place"}
        error = raw(client, "put", url, auth, f'{{"orders": [{{"kind": "nominate{bad}"}}], '
                                              f'"state_version": {sv}}}')
        assert error["field"] == "orders[0].kind"
    assert stored(game) == before
    # lines and tabs are text in a note, as on the Orders page
    saved = raw(client, "put", url, auth, f'{{"orders": [], "state_version": {sv}, '
                                          '"note_to_gm": "One\\r\\nTwo\\tthree"}', 200)
    assert saved["note_to_gm"] == "One\r\nTwo\tthree"


# --- speeches, conversations, messages -------------------------------------------------------

def test_a_nul_or_a_lone_surrogate_in_a_speech_a_conversation_or_a_message_is_refused(
        seated, client):
    from junta.games.models import Speech
    from junta.talk.models import Conversation, Message

    game, auth = seated
    g = f"/campaigns/{game.id}"
    talk = raw(client, "post", g + "/conversations", auth,
               '{"subject": "Deal", "players": [1], "body": "Hello"}', 201)
    counts = (Speech.objects.count(), Conversation.objects.count(), Message.objects.count())
    for bad in (NUL, SURROGATE, "\\udc00", f"x{SURROGATE}y", "\\u001b"):
        cases = [
            (g + "/speeches", f'{{"body": "Viva{bad}"}}', "body"),
            (g + "/conversations", f'{{"subject": "S{bad}", "players": [1], "body": "Hi"}}',
             "subject"),
            (g + "/conversations", f'{{"subject": "S", "players": [1], "body": "Hi{bad}"}}',
             "body"),
            (g + f"/conversations/{talk['id']}/messages", f'{{"body": "Hi{bad}"}}', "body"),
        ]
        for url, body, field in cases:
            error = raw(client, "post", url, auth, body)
            assert error == {"detail": REFUSED_TEXT, "field": field}, (url, body, error)
    assert (Speech.objects.count(), Conversation.objects.count(),
            Message.objects.count()) == counts
    # lines and tabs are text, and so is any character of Unicode (a pair of surrogates
    # written as JSON escapes is one character)
    said = raw(client, "post", g + "/speeches", auth,
               '{"body": "Viva\\r\\nla \\ud83c\\udf89\\tJunta"}', 201)
    assert said["body"] == "Viva\r\nla \U0001f389\tJunta"


# --- a body too large, and what Django answers before the API ------------------------------

def test_a_body_over_the_limit_is_answered_as_the_api_s_json_error(seated, client, settings):
    game, auth = seated
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    g = f"/campaigns/{game.id}"
    before = stored(game)
    speech = '{"body": "' + "Viva la Junta! " * 1000 + '"}'
    for method, url, body in [("post", g + "/speeches", speech),
                              ("put", g + "/orders", '{"orders": [], "state_version": 1, '
                                                     '"note_to_gm": "' + "x" * 20_000 + '"}')]:
        error = raw(client, method, url, auth, body, 413)
        assert set(error) == {"detail", "field"} and "10000 bytes" in error["detail"]
    # the same as a form (the edge reads a form's fields before any view)
    response = client.post(API + g + "/speeches", {"body": "x" * 20_000}, headers=auth)
    assert response.status_code == 413 and "10000 bytes" in response.json()["detail"]
    assert stored(game) == before
    assert not game.speeches.exists()


def test_what_django_refuses_before_the_api_is_answered_in_its_json(seated, client):
    game, auth = seated
    response = client.get(f"{API}/campaigns/{game.id}/speeches?page=1%00", headers=auth)
    assert response.status_code == 400 and "control character" in response.json()["detail"]
    response = client.get(f"{API}/campaigns/not-a-number", headers=auth)
    assert response.status_code == 404 and response.json()["detail"]
    # the site's own pages keep their HTML
    assert client.get("/games/not-a-number/")["Content-Type"].startswith("text/html")


# --- what the fuzz test found: a form's body, numbers JSON has not ----------------------------

def test_a_multipart_body_or_a_number_json_does_not_have_is_refused(seated, client):
    game, auth = seated
    g = f"/campaigns/{game.id}"
    response = client.post(API + g + "/speeches", {"body": "Viva"}, headers=auth)  # multipart
    assert response.status_code == 415 and "as JSON" in response.json()["detail"]
    sv = version(game)
    for number in ("1e400", "-1e999", "NaN", "Infinity", "-Infinity"):
        error = raw(client, "put", g + "/orders", auth,
                    f'{{"orders": [{{"kind": "nominate", "candidate": 1, "x": {number}}}], '
                    f'"state_version": {sv}}}')
        assert error["detail"].startswith("Cannot parse request body")
    assert stored(game) == [] and not game.speeches.exists()
