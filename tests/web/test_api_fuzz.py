"""Every endpoint of the JSON API, walked from its own OpenAPI schema, answers bad input with its
JSON error and never a server error (500), with DEBUG off as in production, and stores nothing
when it refuses: wrong JSON types in every field (and in every argument of every kind of order),
NUL bytes and lone surrogates (written as the JSON escapes "\\u0000" and "\\ud800", as a client
sends them), deep nesting, huge bodies and numbers, invalid JSON, wrong content types, wrong
path and query values, and every method on every path, as a signed-in player and without a
token. A failure lists each request answered >= 500 (or that changed something while refused).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client, override_settings

from junta.api import tokens
from junta.engine import ORDER_KINDS
from junta.engine.orders import CONDITION_KINDS
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Order, Player
from junta.talk import access as talk_access
from junta.talk import services as talk_services

# Thousands of requests: the content revision's guard around each (tests/web/conftest.py) is
# left out, as for the bots' campaign; the other tests check every kind of request under it.
from tests.web.api_counts import forget_address_counts
from tests.web.campaigns import version

pytestmark = [pytest.mark.django_db, pytest.mark.no_revision_guard]
RATES = {"sustained": "1000000/min", "burst": "1000000/min"}
APPS = ("accounts", "games", "gm", "lives", "notify", "ops", "polls", "talk")
METHODS = ("get", "post", "put", "delete")
# A JSON value of every type, and of the shapes that broke readers before: raw JSON text
WRONG = ["null", "true", "0", "-1", "1.5", "1e400", str(10**30), '"x"', '""', "[]", "{}",
         "[[1]]", '{"a": {"b": [1]}}', '"\\u0000"', '"\\ud800"', '"a\\udfffb"', '"\\u001b"']
# Fewer for each argument of each kind of order (there are many)
WRONG_ARG = ["true", "1.5", '"x"', "[[1]]", '{"a": 1}', '"\\u0000"', '"\\ud800"']
DEEP = "[" * 10_000 + "]" * 10_000  # past any parser's depth
NESTED = "[" * 900 + "]" * 900  # within the JSON parser's depth, past most others'
# Path segments and query values, as written in an address
BAD_SEGMENTS = ["abc", "-1", "0", "1.5", str(10**30), "%00", "%ED%A0%80", "%FF", "x" * 5000]
BAD_QUERIES = ["abc", "-1", "0", "1.5", "1e400", str(10**30), "%00", "%ED%A0%80", "%FF", ""]


def operations(client: Client) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path template, operation) for every operation of the API's schema."""
    schema = client.get("/api/v1/openapi.json").json()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            yield method, path, op
    return None


def body_fields(client: Client, op: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The request body's properties (name -> JSON schema) of an operation, {} without one."""
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return {}
    name = content["schema"]["$ref"].rsplit("/", 1)[-1]
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"][name]
    return schema["properties"]


def fingerprint() -> list[Any]:
    """What a refused request may not change: the rows of the project's tables (their number
    and last key, in one query) and every player's orders. The API's own rows are left out (a
    token notes when it was last used)."""
    quote = connection.ops.quote_name
    tables = " UNION ALL ".join(
        f"SELECT '{m._meta.db_table}', COUNT(*), MAX({quote(str(m._meta.pk.column))}) "
        f"FROM {quote(m._meta.db_table)}"
        for label in APPS for m in apps.get_app_config(label).get_models())
    with connection.cursor() as cursor:
        cursor.execute(tables)
        out: list[Any] = list(cursor.fetchall())
    out.append(list(Order.objects.order_by("pk").values_list(
        "payload", "note_to_gm", "final", "revision")))
    out.append(list(Game.objects.values_list("state_version", "status")))
    return out


class Fuzzer:
    def __init__(self, client: Client, auth: dict[str, str]) -> None:
        self.client, self.auth = client, auth
        self.failures: list[str] = []
        self.sent = 0
        self.before: list[Any] | None = fingerprint()

    def send(self, method: str, url: str, body: str | bytes | None = None,
             content_type: str = "application/json", auth: dict[str, str] | None = None
             ) -> None:
        headers = self.auth if auth is None else auth
        if method != "get" and self.before is None:
            self.before = fingerprint()
        data = body.encode() if isinstance(body, str) else body or b""
        response = self.client.generic(method.upper(), url, data, content_type, headers=headers)
        self.sent += 1
        shown = f"{method.upper()} {url[:120]} {str(body)[:160]!r} ({content_type})"
        if response.status_code >= 500:
            self.failures.append(f"{response.status_code}: {shown}")
            return
        # Ninja's 405 (a method a path has not) is its own short text
        if response.status_code != 405 and not response["Content-Type"].startswith(
                "application/json"):
            self.failures.append(f"{response.status_code} not as JSON: {shown}")
        if method == "get":  # reading marks things read: only a write is compared
            self.before = None
            return
        after = fingerprint()
        if response.status_code >= 400 and after != self.before:
            self.failures.append(f"{response.status_code} but changed what is stored: {shown}")
        self.before = after


def sample(name: str, schema: dict[str, Any], good: dict[str, Any]) -> Any:
    """A valid value for a property (a known good one for a few)."""
    if name in good:
        return good[name]
    kinds = [s.get("type") for s in schema.get("anyOf", [schema])]
    return {"string": "Viva", "integer": 1, "boolean": False, "array": [], "object": {},
            None: None}[next((k for k in kinds if k != "null"), None)]


def with_field(base: dict[str, Any], name: str, raw_value: str) -> str:
    """`base` as JSON with `name` set to `raw_value`, a JSON text written as a client may."""
    rest = json.dumps({k: v for k, v in base.items() if k != name})
    return rest[:-1] + (", " if len(rest) > 2 else "") + f'"{name}": {raw_value}}}'


def order_bodies(state_version: int) -> Iterator[str]:
    """PUT bodies whose one order is wrong in one place: its kind, its condition, one of its
    arguments (of every kind of order), an option filled in."""
    def put(order: str) -> str:
        return f'{{"orders": [{order}], "state_version": {state_version}}}'

    for w in WRONG:
        yield put(w)
        yield put(f'{{"kind": {w}}}')
        yield put(f'{{"kind": "pay", "to": 1, "amount": 1, "condition": {w}}}')
        yield put(f'{{"kind": "pay", "to": 1, "amount": 1, "condition": {{"kind": {w}}}}}')
        yield put(f'{{"option": {w}}}')
        yield put(f'{{"option": "nominate", "values": {w}}}')
        yield put(f'{{"option": "nominate", "values": {{"candidate": {w}}}}}')
        yield put(f'{{"option": "nominate", "values": {{"candidate": 1}}, "condition": {w}}}')
        yield put(f'{{"kind": "nominate", "candidate": 1, "extra": {w}}}')
    for kind, spec in ORDER_KINDS.items():
        for arg in spec.args:
            for w in WRONG_ARG:
                yield put(f'{{"kind": "{kind}", "{arg.name}": {w}}}')
    for condition in CONDITION_KINDS:
        for detail in ("seat", "card", "location", "choice", "result", "margin_at_most",
                       "position"):
            for w in ("[1]", '{"a": 1}', '"\\ud800"'):
                yield put(f'{{"kind": "pay", "to": 1, "amount": 1, "condition": '
                          f'{{"kind": "{condition}", "{detail}": {w}}}}}')
    yield put(f'{{"kind": "nominate", "candidate": 1, "extra": {NESTED}}}')
    yield put(", ".join(['{"kind": "nominate", "candidate": 1}'] * 5000))


@pytest.fixture
def world(campaign) -> tuple[Game, list[dict[str, str]], int]:
    """A running campaign, tokens of the player at seat 0 and of the GM, a conversation of the
    player's."""
    game, _users = campaign(players=6)
    start_campaign(game.id, game.gm)
    player = game.players.get(seat=0, membership=Player.Membership.ACTIVE)
    reader = talk_access.reader_for(game, player.user)
    assert reader is not None
    talk = talk_services.start(reader, "Deal", [game.players.get(seat=1)], False, "Hello")
    return game, [{"Authorization": f"Bearer {tokens.create(who, 'fuzz').secret}"}
                  for who in (player.user, game.gm)], talk.id


@pytest.fixture(autouse=True)
def _counts_forgotten():
    """Thousands of calls without a token: forgotten when the test ends (tests/web/api_counts)."""
    yield
    forget_address_counts()


def test_no_request_to_the_api_is_answered_with_a_server_error(world):
    game, callers, conversation = world
    client = Client(raise_request_exception=False)
    with override_settings(DEBUG=False, JUNTA_API_RATES=RATES,
                           DATA_UPLOAD_MAX_MEMORY_SIZE=200_000):
        fuzz = Fuzzer(client, callers[0])
        walk(fuzz, client, game, conversation)  # as the player
        fuzz.auth = callers[1]
        walk(fuzz, client, game, conversation)  # as the GM
    assert fuzz.sent > 2500
    assert not fuzz.failures, f"{len(fuzz.failures)} of {fuzz.sent}:\n" + "\n".join(
        fuzz.failures[:60])


def walk(fuzz: Fuzzer, client: Client, game: Game, conversation: int) -> None:
    """Every operation of the schema, each of its parameters and body's fields wrong in turn;
    then every method on every path."""
    good_ids = {"game_id": str(game.id), "conversation_id": str(conversation),
                "number": "1", "device_id": "1"}  # a push device: none is the caller's
    ops = list(operations(client))
    assert len(ops) >= 15
    paths = {path for _, path, _ in ops}
    good_body = {"state_version": version(game), "players": [1], "orders": []}
    for method, path, op in ops:
        url = path
        for name, value in good_ids.items():
            url = url.replace(f"{{{name}}}", value)
        # every path parameter wrong in turn, every query parameter wrong
        for name in re.findall(r"\{(\w+)\}", path):
            for bad in BAD_SEGMENTS:
                fuzz.send(method, url.replace(f"/{good_ids[name]}", f"/{bad}", 1)
                          if name == "game_id" else url.rsplit(good_ids[name], 1)[0]
                          + bad + url.rsplit(good_ids[name], 1)[1])
        for param in op.get("parameters", []):
            if param["in"] == "query":
                for bad in BAD_QUERIES:
                    fuzz.send(method, f"{url}?{param['name']}={bad}")
        fuzz.send(method, f"{url}?page=1&page=2&{'x' * 3000}=1")
        # without a token, or with a wrong one
        fuzz.send(method, url, auth={})
        fuzz.send(method, url, auth={"Authorization": "Bearer \x7fwrong"})
        fuzz.send(method, url, auth={"Authorization": "Basic " + "x" * 10_000})
        fields = body_fields(client, op)
        if method == "get":
            fuzz.send(method, url, "{}")  # a body where none is read
            continue
        base = {name: sample(name, schema, good_body) for name, schema in fields.items()}
        for name in fields:
            for w in [*WRONG, DEEP, NESTED, f'"{"x" * 150_000}"']:
                fuzz.send(method, url, with_field(base, name, w))
        for w in [*WRONG, DEEP, NESTED, "", "{", '{"a": ', "\"\\ud800\"", "[" * 100_000]:
            fuzz.send(method, url, w)
        fuzz.send(method, url, b"\xff\xfe{}")  # not UTF-8
        fuzz.send(method, url, "x" * 300_000)  # over the size limit
        fuzz.send(method, url, json.dumps(base), "text/plain")
        fuzz.send(method, url, "body=Viva&subject=x", "application/x-www-form-urlencoded")
        fuzz.send(method, url, "body=Viva\x00", "application/x-www-form-urlencoded")
        fuzz.send(method, url, "&".join(["a=1"] * 2000),
                  "application/x-www-form-urlencoded")
        fuzz.send(method, url, "--x\r\nContent-Disposition: form-data; name=\"body\""
                               "\r\n\r\nViva\r\n--x--\r\n", "multipart/form-data; boundary=x")
        fuzz.send(method, url, "--broken", "multipart/form-data")
        if path.endswith("/orders") and method == "put":
            for body in order_bodies(version(game)):
                fuzz.send(method, url, body)
    # every method on every path, those the schema does not list included
    for path in paths:
        url = path
        for name, value in good_ids.items():
            url = url.replace(f"{{{name}}}", value)
        for method in ("delete", "patch"):
            fuzz.send(method, url, "{}")
    for url in ("/api/v1/", "/api/v1/nowhere", "/api/v1/campaigns/1/nowhere"):
        for method in METHODS:
            fuzz.send(method, url, "{}")
