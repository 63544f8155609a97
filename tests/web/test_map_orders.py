"""Ordering on the map (docs/rules.md §coup, §movement, §placement): the Map page embeds, for
a seated player only, the options the engine lets him give now that name a zone; a choice on
the map posts the Orders page's own form and comes back to the map, where the order is drawn
and can be removed. "Your orders are secret until they are carried out" (§secrets): nobody
else's options or orders reach the page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from junta.engine import GameState, legal_options, resolve
from junta.engine import Order as EngineOrder
from junta.engine import catalog as cat
from junta.games import running
from junta.games.models import Order as OrderRow
from junta.games.order_forms import token
from tests.engine.helpers import in_phase
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import install, queries_for, version

needs_db = pytest.mark.django_db
GENERAL_1, ADMIRAL = 2, 5  # the standard cabinet of tests.engine.helpers.in_phase
# The kinds the map gives: a stack to a zone, or a zone (and whose units there); a card that
# puts units in a zone, when the zone is its only argument.
MAP_KINDS = {"move", "rebel_move", "retreat", "place", "attack", "airstrike", "gunboat",
             "police_response"}
DATA = re.compile(r'<script id="map-orders-data" type="application/json">(.*?)</script>', re.S)


def users_by_seat(game) -> dict:  # noqa: ANN001 - a Game
    return {p.seat: p.user for p in game.players.all()}


def coup_state() -> GameState:
    """Coup Phase 1: the 1st Brigade's General (seat 2) moved his brigade from its barracks
    (15) into University City (13) at the Rebel-Only step."""
    state = in_phase("locations")
    state.coup_excuse = True
    state = resolve(state, {GENERAL_1: [EngineOrder("rebel_move",
                                                    {"from_zone": 15, "to_zone": 13})]},
                    [GENERAL_1]).state
    assert state.phase == "coup" and state.coup["phase"] == 1
    return state


def expected(state: GameState, seat: int) -> dict[str, Any]:
    """The seat's legal options that name a zone, as the form's tokens, straight from the
    engine."""
    out = {}
    for o in legal_options(state, seat).orders:
        names = [a.name for a in o.args]
        if o.kind in MAP_KINDS or (o.kind == "play_card" and names == ["zone"]):
            out[o.key] = {a.name: sorted(token(c.value) for c in a.choices) for a in o.args}
    return out


def embedded(page: str) -> dict[str, Any] | None:
    found = DATA.search(page)
    return json.loads(found.group(1)) if found else None


def setup(campaign) -> tuple[Any, dict, GameState]:  # noqa: ANN001 - the fixture
    game, _users = campaign()
    running.start_campaign(game.id, game.gm)
    state = coup_state()
    install(game, state)
    return game, users_by_seat(game), state


def move_post(game, to_zone: int, **extra: str) -> dict[str, Any]:  # noqa: ANN001
    return {"action": "add", "option": "move", "order-move-from_zone": "13",
            "order-move-to_zone": str(to_zone), "state_version": version(game), **extra}


@needs_db
def test_the_map_embeds_exactly_the_seat_s_legal_options_and_nothing_of_another_seat(
        campaign, client):
    game, by_seat, state = setup(campaign)
    url = reverse("game_map", args=[game.id])
    pages = {}
    for seat in (GENERAL_1, ADMIRAL):
        client.force_login(by_seat[seat])
        pages[seat] = client.get(url).content.decode()
        data = embedded(pages[seat])
        assert data is not None and data["seat"] == seat
        got = {o["key"]: {a["name"]: sorted(c[0] for c in a["choices"]) for a in o["args"]}
               for o in data["options"]}
        assert got == expected(state, seat)
        assert data["orders_url"] == reverse("game_orders", args=[game.id])
    general = embedded(pages[GENERAL_1])
    assert general is not None
    move = next(o for o in general["options"] if o["key"] == "move")
    to_zone = next(a for a in move["args"] if a["name"] == "to_zone")
    engine_move = legal_options(state, GENERAL_1).get("move")
    assert engine_move is not None
    assert to_zone["choices_for"] == {
        token(k): [token(v) for v in vs]
        for k, vs in engine_move.arg("to_zone").choices_for.items()}  # type: ignore[union-attr]
    # the Admiral's gunboat and Marines are his: not on the General's page, and back
    assert {"gunboat", "place:Marine"} <= {o["key"] for o in embedded(pages[ADMIRAL])["options"]}
    assert not {"gunboat", "place:Marine"} & {o["key"] for o in general["options"]}
    for seat, page in pages.items():
        for other in state.players:
            if other.seat != seat:
                assert not [c for c in other.hand if f"play_card:{c}" in page]
    client.force_login(game.gm)
    assert embedded(client.get(url).content.decode()) is None


@needs_db
def test_a_post_from_the_map_adds_the_order_and_returns_to_the_map_with_its_arrow(
        campaign, client):
    game, by_seat, state = setup(campaign)
    client.force_login(by_seat[GENERAL_1])
    url = reverse("game_map", args=[game.id])
    before = client.get(url).content.decode()  # kept: the order must raise the revision
    assert 'class="cm-order"' not in before
    response = client.post(reverse("game_orders", args=[game.id]),
                           move_post(game, 14, **{"from": "map"}))
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url).content.decode()
    assert "Order added." in page
    assert '<g class="cm-order" data-order="1" data-kind="move">' in page
    assert "Order 1: Move the stack from University City to" in page
    assert 'id="map-order-remove-1"' in page
    again = client.get(url).content.decode()  # the kept page, drawn after the order
    assert '<g class="cm-order" data-order="1" data-kind="move">' in again
    saved = OrderRow.objects.get(phase__game=game, player__seat=GENERAL_1).payload
    assert [(o["kind"], o["from_zone"], o["to_zone"]) for o in saved] == \
        [("move", 13, 14)]
    # the Orders page's own forms still come back to the Orders page
    response = client.post(reverse("game_orders", args=[game.id]),
                           {**move_post(game, 15), "option": "attack", "order-attack-zone": "13",
                            "order-attack-target": "0"})
    assert response.status_code == 302
    assert response["Location"] == reverse("game_orders", args=[game.id])


@needs_db
def test_an_order_is_removed_from_the_map(campaign, client):
    game, by_seat, _state = setup(campaign)
    client.force_login(by_seat[GENERAL_1])
    orders_url = reverse("game_orders", args=[game.id])
    url = reverse("game_map", args=[game.id])
    client.post(orders_url, move_post(game, 14, **{"from": "map"}))
    assert '<g class="cm-order" data-order="1"' in client.get(url).content.decode()
    response = submit(client, orders_url,  # the map's Remove form, as the browser sends it
                      form_with(client.get(url).content.decode(), "index", "0"))
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url).content.decode()
    assert 'class="cm-order"' not in page and "Your orders on the map" not in page
    assert OrderRow.objects.get(phase__game=game, player__seat=GENERAL_1).payload == []


@needs_db
def test_an_order_the_engine_refuses_comes_back_on_the_orders_page_with_a_way_back(
        campaign, client):
    game, by_seat, _state = setup(campaign)
    client.force_login(by_seat[GENERAL_1])
    response = client.post(reverse("game_orders", args=[game.id]),
                           move_post(game, 1, **{"from": "map"}))  # the Palace: not next door
    assert response.status_code == 400
    page = response.content.decode()
    assert "Not saved." in page and "Back to the map" in page
    assert not OrderRow.objects.filter(phase__game=game, player__seat=GENERAL_1).exclude(
        payload=[]).exists()


@needs_db
def test_the_map_s_drawn_queries_do_not_grow_with_the_orders_on_it(campaign, client):
    game, by_seat, _state = setup(campaign)
    client.force_login(by_seat[GENERAL_1])
    url = reverse("game_map", args=[game.id])
    empty = queries_for(client, url)
    client.post(reverse("game_orders", args=[game.id]), move_post(game, 14, **{"from": "map"}))
    client.post(reverse("game_orders", args=[game.id]),
                {"action": "add", "option": "attack", "order-attack-zone": "13",
                 "order-attack-target": "0", "state_version": version(game), "from": "map"})
    client.get(url)  # the message shown once
    assert queries_for(client, url) == empty
    client.force_login(game.gm)
    assert queries_for(client, url) <= empty


@needs_db
def test_at_the_rebel_only_step_the_map_offers_the_rebel_move(campaign, client):
    game, _users = campaign()
    running.start_campaign(game.id, game.gm)
    state = in_phase("locations")
    install(game, state)
    client.force_login(users_by_seat(game)[GENERAL_1])
    data = embedded(client.get(reverse("game_map", args=[game.id])).content.decode())
    assert data is not None
    assert {o["key"] for o in data["options"]} == set(expected(state, GENERAL_1))
    rebel = next(o for o in data["options"] if o["kind"] == "rebel_move")
    assert "15" in [c[0] for c in rebel["args"][0]["choices"]]
    assert cat.GENERAL_1 in state.positions
