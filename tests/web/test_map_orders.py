"""Ordering on the map (docs/rules.md §coup, §movement, §placement): the Map page embeds, for
a seated player only, the options the engine lets him give now that name a zone; a choice on
the map posts the Orders page's own form and comes back to the map, where the order is drawn
and can be removed. "Your orders are secret until they are carried out" (§secrets): nobody
else's options or orders reach the page."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from junta.engine import GameState, describe_order, legal_options
from junta.engine import Order as EngineOrder
from junta.engine import catalog as cat
from junta.games.campaigns import start_campaign
from junta.games.models import Order as OrderRow
from junta.games.order_forms import OrderForm, token
from tests.engine.helpers import in_phase
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import install, queries_for, version
from tests.web.map_helpers import (
    ADMIRAL,
    GENERAL_1,
    coup_campaign,
    embedded,
    move_post,
    users_by_seat,
)

needs_db = pytest.mark.django_db
# The kinds the map gives: a stack to a zone, or a zone (and whose units there); a card that
# puts units in a zone, when the zone is its only argument.
MAP_KINDS = {"move", "rebel_move", "retreat", "place", "attack", "airstrike", "gunboat",
             "police_response"}


def expected(state: GameState, seat: int) -> dict[str, Any]:
    """The seat's legal options that name a zone, with their choices as the form's tokens,
    straight from the engine."""
    out = {}
    for o in legal_options(state, seat).orders:
        names = [a.name for a in o.args]
        if o.kind in MAP_KINDS or (o.kind == "play_card" and names == ["zone"]):
            out[o.key] = {a.name: {token(c.value) for c in a.choices} for a in o.args}
    return out


def the_orders_page_s_order(state: GameState, seat: int, key: str, prefix: str,
                            values: dict[str, str]) -> EngineOrder:
    """The order the Orders page's form makes of the fields a tap on the map sends."""
    option = legal_options(state, seat).get(key)
    assert option is not None
    form = OrderForm(option, state, seat, {f"{prefix}-{k}": v for k, v in values.items()})
    assert form.is_valid(), form.errors
    return form.order()


@needs_db
def test_the_map_embeds_exactly_the_seat_s_legal_options_and_nothing_of_another_seat(
        campaign, client):
    game, by_seat, state = coup_campaign(campaign)
    url = reverse("game_map", args=[game.id])
    pages = {}
    for seat in (GENERAL_1, ADMIRAL):
        client.force_login(by_seat[seat])
        pages[seat] = client.get(url).content.decode()
        data = embedded(pages[seat])
        assert data is not None and data["seat"] == seat
        wanted = expected(state, seat)
        keys = {o["key"] for o in data["options"]}
        # the Admiral has no stack on the map: the moves and retreats the engine offers him
        # for units handed over before the moves (§transfers) are the Orders page's
        assert keys == set(wanted) - ({"move", "retreat"} if seat == ADMIRAL else set())
        for option in data["options"]:
            assert option["actions"], option["key"]
            for action in option["actions"]:
                for name, value in action["values"].items():
                    assert value in wanted[option["key"]][name], (option["key"], name)
        assert data["orders_url"] == reverse("game_orders", args=[game.id])
    general = embedded(pages[GENERAL_1])
    assert general is not None
    assert general["stacks"] == ["13"]
    move = next(o for o in general["options"] if o["key"] == "move")
    assert move["shape"] == "route"
    engine_move = legal_options(state, GENERAL_1).get("move")
    assert engine_move is not None
    assert sorted((a["from"], a["at"]) for a in move["actions"]) == sorted(  # from his stack
        (token(k), token(v))
        for k, vs in engine_move.arg("to_zone").choices_for.items()  # type: ignore[union-attr]
        for v in vs if k == 13)
    # a stack attacks where it stands after the moves: where it is or where it may go
    attack = next(o for o in general["options"] if o["key"] == "attack")
    assert attack["shape"] == "target"
    reach = {"13", *(a["at"] for a in move["actions"])}
    assert {a["at"] for a in attack["actions"] if "13" in a["stacks"]} <= reach
    assert any("13" in a["stacks"] for a in attack["actions"])
    # a target is a player seen in the zone
    seen = {(str(u["zone"]), str(u["owner"])) for u in state.coup["units"]}
    assert all((a["at"], a["who"]) in seen for a in attack["actions"])
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
    game, by_seat, state = coup_campaign(campaign)
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
    game, by_seat, _state = coup_campaign(campaign)
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
    game, by_seat, _state = coup_campaign(campaign)
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
    game, by_seat, _state = coup_campaign(campaign)
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
    start_campaign(game.id, game.gm)
    state = in_phase("locations")
    install(game, state)
    client.force_login(users_by_seat(game)[GENERAL_1])
    data = embedded(client.get(reverse("game_map", args=[game.id])).content.decode())
    assert data is not None
    assert {o["key"] for o in data["options"]} == set(expected(state, GENERAL_1))
    rebel = next(o for o in data["options"] if o["key"] == "rebel_move")
    assert rebel["shape"] == "route" and "15" in data["stacks"]
    assert "15" in [a["from"] for a in rebel["actions"]]
    assert cat.GENERAL_1 in state.positions


@needs_db
def test_each_choice_on_the_map_reads_as_the_orders_page_lists_the_order_it_makes(
        campaign, client):
    """The map's words are the engine's: each sentence is `describe_order` of the order the
    Orders page's form makes of the fields the tap sends, in the coup and at the Rebel-Only
    step (where the map shows no units and a strike may name any target)."""
    game, by_seat, state = coup_campaign(campaign)
    url = reverse("game_map", args=[game.id])
    rebel_step = in_phase("locations")
    rebel_step.coup_excuse = True
    checked = set()
    for current in (state, rebel_step):
        install(game, current)
        for seat in (GENERAL_1, ADMIRAL):
            client.force_login(by_seat[seat])
            data = embedded(client.get(url).content.decode())
            assert data is not None
            for option in data["options"]:
                for action in option["actions"]:
                    order = the_orders_page_s_order(current, seat, option["key"],
                                                    option["prefix"], action["values"])
                    assert action["text"] == describe_order(current, order)
                    checked.add(order.kind)
    assert {"move", "rebel_move", "retreat", "attack", "gunboat", "place"} <= checked
