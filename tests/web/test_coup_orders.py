"""Coup orders in the browser (docs/rules.md §coup): in the Rebel-Only step, Coup Phases 1-6 and the
Aftermath, every coup order has a form with legal choices for the positions that may give it,
read back into an order the engine accepts; a bad choice gets the engine's message; the Orders
page saves a coup move and the Status page shows the coup."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from django.urls import reverse

from junta.engine import (
    GameState,
    Order,
    describe_order,
    legal_options,
    option_for,
    validate_order,
    validate_orders,
)
from junta.engine import catalog as cat
from junta.engine.guidance import instructions
from junta.games.campaigns import start_campaign
from junta.games.models import Order as OrderRow
from junta.games.order_forms import OrderForm, form_prefix
from tests.engine.helpers import give, in_phase, run
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import install, version
from tests.web.option_forms import COUP_KINDS, builder, choices, fill, keys, kinds, read, round_trip

# the standard cabinet of tests.engine.helpers.in_phase
PRESIDENT, SECURITY, GENERAL_1, GENERAL_2, GENERAL_3, ADMIRAL, AIR_FORCE, WAR, FOREIGN, FARM = \
    range(10)
REBEL_STEP_KINDS = frozenset({"rebel_move", "airstrike", "gunboat", "place"})
PHASE_ONLY_KINDS = COUP_KINDS - REBEL_STEP_KINDS


# --- engine states in each coup phase --------------------------------------------------------

def _locations() -> GameState:
    """The Locations phase: the 1st Brigade's General holds Demonstrators, the 2nd a Bribe of
    the Police, the Minister of War a Helicopter, the Farm & Labor Secretary a Peasant
    Uprising and money in his pocket and in the Bank; the Bank is closed for lunch after a
    forced budget."""
    s = in_phase("locations")
    give(s, GENERAL_1, "Demonstrators")
    give(s, GENERAL_2, "Bribe the Police")
    s.players[GENERAL_2].pocket = 3
    give(s, WAR, "Helicopter")
    give(s, FARM, "Peasant Uprising")
    s.players[FARM].pocket, s.players[FARM].bank = 2, 4
    s.bank_status = "closed_for_lunch"
    return s


def _card(state: GameState, seat: int, name: str) -> int:
    return next(c for c in state.players[seat].hand if cat.card(c).name == name)


@cache
def _states() -> dict[str, dict]:
    """A real coup: the 1st Brigade's General goes to HQ, moves his brigade out of barracks and
    brings Demonstrators into the Plaza; the 3rd Brigade's General flees into exile (his
    position goes to the President's Brother-in-Law); the Farm & Labor Secretary goes to the
    Bank. Then the coup phases run on to the Aftermath."""
    out: dict[str, dict] = {}
    s = _locations()
    out["locations"] = s.to_dict()
    orders = {seat: [Order("location", {"place": "home"})] for seat in range(10)}
    orders[GENERAL_1] = [Order("location", {"place": "hq"}),
                         Order("rebel_move", {"from_zone": 15, "to_zone": 13}),
                         Order("play_card", {"card": _card(s, GENERAL_1, "Demonstrators")})]
    orders[GENERAL_3] = [Order("location", {"place": "exile"})]
    orders[FARM] = [Order("location", {"place": "bank"})]
    s, _ = run(s, orders)
    assert s.phase == "coup" and s.coup["phase"] == 1
    # the die is the engine's; fix it so that all four foreign forces are on offer
    s.coup["foreign"].update(roll=6, allowed=4)
    out["coup1"] = s.to_dict()
    s, _ = run(s)
    out["coup2"] = s.to_dict()
    while s.phase != "coup_final":
        s, _ = run(s)
    out["coup_final"] = s.to_dict()
    s, _ = run(s, {seat: [Order("coup_side", {"side": "president"})] for seat in (0, 1)})
    assert s.phase == "aftermath" and s.coup["result"] == "president"
    assert s.turn_flags.get("bank_after_lunch")
    out["aftermath_president"] = s.to_dict()
    s.coup["result"] = "junta"  # as if the Rebels had held three control points
    out["aftermath_junta"] = s.to_dict()
    return out


def state(name: str) -> GameState:
    return GameState.from_dict(_states()[name])


# --- who gets which form -----------------------------------------------------------------------

def test_rebel_only_forms_go_to_commanders_never_to_the_president():
    s = state("locations")
    assert not kinds(s, PRESIDENT) & COUP_KINDS
    assert {"rebel_move", f"play_card:{_card(s, GENERAL_1, 'Demonstrators')}"} <= \
        keys(s, GENERAL_1)
    assert {"gunboat", "place:Marine"} <= keys(s, ADMIRAL)
    assert "airstrike" not in kinds(s, ADMIRAL)
    assert {"airstrike", "place:Paratrooper"} <= keys(s, AIR_FORCE)
    assert "gunboat" not in kinds(s, AIR_FORCE)
    assert "rebel_move" not in kinds(s, FOREIGN)  # no units on the map before a coup
    assert f"play_card:{_card(s, GENERAL_2, 'Bribe the Police')}" in keys(s, GENERAL_2)
    # a card that comes only in the coup is not offered in the Rebel-Only step
    assert not any(k.startswith("play_card:") for k in keys(s, WAR))
    for seat in range(10):
        assert not kinds(s, seat) & PHASE_ONLY_KINDS, seat
    airstrike = builder(s, AIR_FORCE, "airstrike")
    assert choices(airstrike, "source") == {"air_force": "the Air Force (3 of 3 left)"}
    assert "16" in choices(airstrike, "zone")  # the 2nd Brigade in its barracks
    marine = builder(s, ADMIRAL, "place:Marine")
    assert marine.fixed == {"unit": "Marine"}
    assert set(choices(marine, "zone")) == {str(z) for z in cat.zones() if cat.zones()[z].river}


def test_coup_phase_one_forms_follow_the_positions():
    s = state("coup1")
    for seat in (PRESIDENT, SECURITY, GENERAL_1, GENERAL_2, WAR, FARM):
        assert {"move", "transfer", "attack", "retreat", "permit_retreat", "flee"} <= \
            kinds(s, seat), seat
    assert "casualties" in kinds(s, GENERAL_1)  # Soldiers, a Tank and Mobs
    assert "casualties" not in kinds(s, FARM)  # a lone Labor Rioter
    assert kinds(s, GENERAL_3) == {"return_from_exile"}  # in exile
    assert "police_response" in kinds(s, SECURITY)
    assert {"airstrike", "intervene", "place"} <= kinds(s, FOREIGN)
    # nothing of his on the map yet: a move only of units handed over to him before the moves
    assert all(label.endswith("units handed over to you before the moves")
               for label in choices(builder(s, FOREIGN, "move"), "from_zone").values())
    assert choices(builder(s, FOREIGN, "airstrike"), "source") == {
        "foreign": "the foreign Air Strikes (calls them in as one of your Foreign "
                   "Intervention forces)"}
    assert set(choices(builder(s, AIR_FORCE, "airstrike"), "source")) == {"air_force"}
    assert "gunboat" in kinds(s, ADMIRAL) and {"place:Marine"} <= keys(s, ADMIRAL)
    assert {"place:Helicopter", "place:Foreign Paratrooper", "place:Commando"} <= \
        keys(s, FOREIGN)
    for seat in range(10):
        assert not kinds(s, seat) & {"rebel_move", "coup_side", "junta_vote", "execute"}
        if seat != SECURITY:
            assert "police_response" not in kinds(s, seat)
        if seat != FOREIGN:
            assert "intervene" not in kinds(s, seat)
        if seat not in (AIR_FORCE, FOREIGN):
            assert "airstrike" not in kinds(s, seat)
        if seat != ADMIRAL:
            assert "gunboat" not in kinds(s, seat)
    assert "resign" not in kinds(s, PRESIDENT)  # "at any time except during a Coup"
    assert set(choices(builder(s, FOREIGN, "intervene"), "forces")) == {
        "airstrikes", "helicopter", "paratroopers", "commandos"}
    assert choices(builder(s, SECURITY, "police_response"), "zone") == {
        "5": "Plaza de Armas (Bill: 2 Mobs)"}  # where the agitators were deployed


def test_a_unit_card_in_the_coup_has_its_zones():
    s = state("coup1")
    helicopter = builder(s, WAR, f"play_card:{_card(s, WAR, 'Helicopter')}")
    assert len(choices(helicopter, "zone")) == 28
    uprising = builder(s, FARM, f"play_card:{_card(s, FARM, 'Peasant Uprising')}")
    assert choices(uprising, "zone") == {"25": "South Suburb", "27": "Cemetery"}
    bribe = builder(s, GENERAL_2, f"play_card:{_card(s, GENERAL_2, 'Bribe the Police')}")
    assert set(choices(bribe, "zone")) == {"10", "11", "12", "14"}  # where Police stand
    # the general card form no longer lists unit cards (they have their own forms)
    general = legal_options(s, WAR).get("play_card")
    assert general is None or "Helicopter" not in choices(general, "card").values()


def test_later_phases_and_the_vote():
    s = state("coup2")
    assert "police_response" not in kinds(s, SECURITY)
    s = state("coup_final")
    for seat in s.active_seats():
        assert "coup_side" in kinds(s, seat)
    assert choices(builder(s, PRESIDENT, "coup_side"), "side") == {"president": "Pro-President"}
    assert choices(builder(s, GENERAL_1, "coup_side"), "side") == {
        "junta": "Pro-Junta", "president": "Pro-President"}


def test_the_aftermath_when_the_president_won():
    s = state("aftermath_president")
    assert kinds(s, PRESIDENT) & COUP_KINDS == {"execute"}
    execute = builder(s, PRESIDENT, "execute")
    assert choices(execute, "target") == {str(GENERAL_1): "Bill"}  # the only Rebel
    assert "Rebel" in execute.help
    for seat in s.active_seats():
        assert "junta_vote" not in kinds(s, seat)
        if seat != PRESIDENT:
            assert "execute" not in kinds(s, seat)
    # he chose the Bank, closed for lunch: it reopens after the execution
    assert {"bank:deposit", "bank:withdraw"} <= keys(s, FARM)
    assert "Bank reopens after lunch" in builder(s, FARM, "bank:withdraw").help
    assert "bank" not in kinds(s, GENERAL_1)


def test_the_aftermath_when_the_junta_won():
    s = state("aftermath_junta")
    assert {"junta_vote", "execute"} <= kinds(s, GENERAL_1)  # the only Rebel
    junta = builder(s, GENERAL_1, "junta_vote")
    assert str(GENERAL_1) in choices(junta, "candidate")
    assert str(GENERAL_3) not in choices(junta, "candidate")  # in exile
    for seat in s.active_seats():
        assert "execute" in kinds(s, seat)
        if seat != GENERAL_1:
            assert "junta_vote" not in kinds(s, seat)
    execute = builder(s, ADMIRAL, "execute")
    assert "should you be elected" in execute.help.lower()
    assert len(choices(execute, "target")) == len(s.active_seats()) - 1


# --- every form reads back into an order the engine accepts ----------------------------------

@pytest.mark.parametrize("name", ["locations", "coup1", "coup2", "coup_final",
                                  "aftermath_president", "aftermath_junta"])
def test_every_coup_form_round_trips_into_an_order_the_engine_accepts(name):
    """Each form, as it starts, reads into an order the engine accepts, alone and as a set;
    the form filled in again from that order (to change it in place) gives the same order."""
    s = state(name)
    seen = set()
    for seat in range(10):
        for option in legal_options(s, seat).orders:
            if option.kind not in COUP_KINDS and not option.key.startswith("play_card:") and \
                    not (option.kind == "bank" and s.phase == "aftermath"):
                continue
            order, form = read(s, seat, option, fill(s, seat, option))
            assert order is not None, (seat, option.key, form.errors)
            assert validate_order(s, seat, order) == [], (seat, option.key, order)
            assert validate_orders(s, seat, [order]) == [], (seat, option.key, order)
            sentence = describe_order(s, order)
            assert sentence and sentence != option.label or option.kind in ("flee",), (
                option.key, sentence)
            assert option_for(legal_options(s, seat), order) == option, (seat, option.key)
            assert round_trip(s, seat, option, order) == order, (seat, option.key)
            seen.add(option.kind)
    expected = {
        "locations": REBEL_STEP_KINDS | {"play_card"},
        "coup1": PHASE_ONLY_KINDS - {"coup_side", "junta_vote", "execute"} | {
            "airstrike", "gunboat", "place", "play_card"},
        "coup2": {"move", "transfer", "airstrike", "gunboat", "attack", "intervene"},
        "coup_final": {"coup_side", "move", "airstrike"},
        "aftermath_president": {"execute", "bank"},
        "aftermath_junta": {"execute", "junta_vote", "bank"},
    }[name]
    assert expected <= seen, expected - seen


def test_forms_give_the_engine_ints_bools_and_lists():
    s = state("coup1")
    move = builder(s, WAR, "move")
    bodyguard = next(v for v, label in choices(move, "units").items() if "Bodyguard" in label)
    order, _ = read(s, WAR, move, fill(s, WAR, move, units=[bodyguard]))
    assert order.to_dict() == {"kind": "move", "from_zone": 18,
                               "to_zone": order.args["to_zone"], "units": [int(bodyguard)]}
    assert isinstance(order.args["to_zone"], int)
    transfer = builder(s, GENERAL_1, "transfer")
    order, _ = read(s, GENERAL_1, transfer, fill(s, GENERAL_1, transfer, to=str(GENERAL_2),
                                                 after_moves="yes"))
    assert order.args["to"] == GENERAL_2 and order.args["after_moves"] is True
    assert order.args["units"] and all(isinstance(i, int) for i in order.args["units"])
    permit = builder(s, GENERAL_1, "permit_retreat")
    assert choices(permit, "allow") == {"yes": "Yes", "no": "No"}
    order, _ = read(s, GENERAL_1, permit, fill(s, GENERAL_1, permit, seat=str(PRESIDENT),
                                               allow="no"))
    assert order.to_dict() == {"kind": "permit_retreat", "seat": PRESIDENT, "allow": False}
    intervene = builder(s, FOREIGN, "intervene")
    order, _ = read(s, FOREIGN, intervene, fill(s, FOREIGN, intervene,
                                                forces=["helicopter", "commandos"]))
    assert order.to_dict() == {"kind": "intervene", "forces": ["helicopter", "commandos"]}
    casualties = builder(s, GENERAL_1, "casualties")
    data = fill(s, GENERAL_1, casualties, last=["Tank", "Mob", ""])
    assert [k for k in data if k.startswith("order-casualties-last")] == [
        "order-casualties-last_1", "order-casualties-last_2", "order-casualties-last_3"]
    order, _ = read(s, GENERAL_1, casualties, data)
    assert order.to_dict() == {"kind": "casualties", "last": ["Tank", "Mob"]}
    police = builder(s, SECURITY, "police_response")
    order, _ = read(s, SECURITY, police, fill(s, SECURITY, police))
    assert order.to_dict() == {"kind": "police_response", "zone": 5}  # every Police unit
    # an order of the plain kind (the GM's, the API's) reaches its own landing option
    options = legal_options(s, FOREIGN)
    landing = option_for(options, Order("place", {"unit": "Commando", "zone": 7}))
    assert landing is not None and landing.key == "place:Commando"
    order, _ = read(s, FOREIGN, landing, fill(s, FOREIGN, landing, zone="7"))
    assert order.to_dict() == {"kind": "place", "unit": "Commando", "zone": 7}


def test_units_and_stacks_are_labelled_readably():
    s = state("coup1")
    transfer = builder(s, GENERAL_1, "transfer")
    labels = list(choices(transfer, "units").values())
    assert "Soldier #9 (1st Brigade) in University City" in labels
    assert "Mob #31 in Plaza de Armas" in labels
    move = builder(s, GENERAL_1, "move")
    assert choices(move, "from_zone")["13"] == "University City: 5 Soldiers, 1 Tank"
    assert "You may move 1 stack (Generalissimo of the 1st Army Brigade)" in move.help
    assert "from University City to " in move.help
    marine = choices(builder(s, ADMIRAL, "transfer"), "units")
    assert list(marine.values()) == ["Marine #27, waiting to land"]
    assert "You may move 2 stacks (El Presidente with your Brother-in-Law in office" in \
        builder(s, PRESIDENT, "move").help


def _given(s: GameState, seat: int, key: str, /, **values: Any) -> tuple[Order, OrderForm]:
    option = builder(s, seat, key)
    order, form = read(s, seat, option, fill(s, seat, option, **values))
    assert order is not None, form.errors
    return order, form


def test_a_bad_choice_gets_the_engines_message_next_to_its_field():
    s = state("coup1")
    # Police Precinct North (10) to the Central Bank (8): both offered, not next door
    order, form = _given(s, SECURITY, "move", from_zone="10", to_zone="8")
    problems = validate_order(s, SECURITY, order)
    assert problems == ["Central Bank is not next to Police Precinct North."]
    assert problems[0].arg == "to_zone"
    form.place(problems)
    assert form.errors == {"to_zone": ["Central Bank is not next to Police Precinct North."]}
    # the units of a transfer: the form asks for one at least; the engine's message for an
    # order without any (from the GM, the API) goes with the boxes as a group
    transfer = builder(s, GENERAL_1, "transfer")
    order, form = read(s, GENERAL_1, transfer, fill(s, GENERAL_1, transfer, units=[]))
    assert order is None and form.errors == {"units": ["Units: choose at least one."]}
    order, form = _given(s, GENERAL_1, "transfer")
    problems = validate_order(s, GENERAL_1, Order("transfer", {**order.args, "units": []}))
    assert problems == ["Choose the units."] and problems[0].arg == "units"
    form.place(problems)
    assert form.group_errors == {"units": ["Choose the units."]} and not form.errors
    order, form = _given(s, GENERAL_1, "retreat", zone="13", to_zone="1")
    problems = validate_order(s, GENERAL_1, order)
    assert "is not next to University City" in problems[0]
    form.place(problems)
    assert list(form.errors) == ["to_zone"]
    order, form = _given(s, GENERAL_1, "casualties", last=["Tank", "Tank"])
    problems = validate_order(s, GENERAL_1, order)
    assert problems == ["Name up to three kinds of your units to lose last, each once."]
    form.place(problems)
    assert form.group_errors == {"last": problems}
    two = [_given(s, GENERAL_1, "move", from_zone=z)[0] for z in ("13", "5")]
    problems = validate_orders(s, GENERAL_1, two)
    assert problems == ["You may move 1 stack a phase; you ordered 2."]
    # choices that were not offered are refused by the form, before the engine
    final = state("coup_final")
    side = builder(final, PRESIDENT, "coup_side")
    order, form = read(final, PRESIDENT, side, fill(final, PRESIDENT, side, side="junta"))
    assert order is None
    assert form.errors == {"side": ["Your vote: choose one of the options offered."]}
    transfer = builder(s, GENERAL_1, "transfer")
    order, form = read(s, GENERAL_1, transfer, fill(s, GENERAL_1, transfer, units=["1"]))
    assert order is None
    assert form.errors == {"units": ["Units: choose among the options offered."]}
    # an order the seat may not give has no option at all
    assert legal_options(s, FARM).get("intervene") is None


def test_too_many_stack_moves_name_the_moves():
    s = state("coup1")
    two = [_given(s, GENERAL_1, "move", from_zone=z)[0] for z in ("13", "5")]
    assert [p.orders for p in validate_orders(s, GENERAL_1, two)] == [(0, 1)]


def test_conditions_are_offered_by_the_step_of_the_coup_order():
    s = state("locations")
    rebel = builder(s, GENERAL_1, "rebel_move")
    offered = {c.kind for c in rebel.conditions}
    assert {"location", "killed", "banks", "coup_excuse"} <= offered
    aftermath = state("aftermath_junta")
    assert builder(aftermath, ADMIRAL, "execute").condition("elected") is not None
    junta = builder(aftermath, GENERAL_1, "junta_vote")
    assert junta.condition("elected") is None
    assert any("elected" in why or "President" in why for why in junta.refused_conditions), \
        junta.refused_conditions


# --- what the Status and Orders pages say ------------------------------------------------------

def test_instructions_for_each_coup_phase_and_position():
    s = state("locations")
    assert any("Rebel-Only step" in line and "play Demonstrators" in line
               for line in instructions(s, GENERAL_1))
    assert any("cannot take Rebel action" in line for line in instructions(s, PRESIDENT))
    s = state("coup1")
    text = {seat: " ".join(instructions(s, seat)) for seat in range(10)}
    assert "Coup Phase 1: you may move 2 stacks (Minister of War)" in text[WAR]
    assert "3 of 3 Airstrikes left" in text[AIR_FORCE]
    assert "Gunboat may shell" in text[ADMIRAL] and "Waiting to land: 1 Marine" in text[ADMIRAL]
    assert "the die showed 6, allowing 4 Foreign Intervention forces" in text[FOREIGN]
    assert "Police Response" in text[SECURITY] and "Plaza de Armas" in text[SECURITY]
    assert "Police Response" not in " ".join(instructions(state("coup2"), SECURITY))
    final = " ".join(instructions(state("coup_final"), PRESIDENT))
    assert "Vote Pro-Junta or Pro-President (as President, only Pro-President)" in final
    assert "The control points now: Presidential Palace: Carlos" in final
    after = state("aftermath_president")
    assert "send one Rebel to the firing squad" in " ".join(instructions(after, PRESIDENT))
    assert "you are a Rebel" in " ".join(instructions(after, GENERAL_1))
    assert "Bank reopens after lunch" in " ".join(instructions(after, FARM))
    junta = state("aftermath_junta")
    assert "you sit in the Junta" in " ".join(instructions(junta, GENERAL_1))
    assert "should you be elected" in " ".join(instructions(junta, ADMIRAL))


def coup_campaign(campaign, name: str):


    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, state(name))
    by_seat = {p.seat: p.user for p in game.players.all()}
    return game, phase, by_seat


@pytest.mark.django_db
def test_a_coup_move_posted_on_the_orders_page_is_saved(campaign, client):
    game, phase, by_seat = coup_campaign(campaign, "coup1")
    client.force_login(by_seat[GENERAL_1])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert "Coup Phase 1" in page and "Move a stack" in page
    assert "University City: 5 Soldiers, 1 Tank" in page
    assert "Soldier #9 (1st Brigade) in University City" in page
    form = form_with(page, "option", "move")
    form.set("order-move-from_zone", "13").set("order-move-to_zone", "14")
    form.set("order-move-units", ["9", "10"])
    response = submit(client, url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_1])
    assert row.payload == [{"kind": "move", "from_zone": 13, "to_zone": 14, "units": [9, 10]}]
    page = client.get(url).content.decode()
    assert "Move Soldier #9, Soldier #10 from University City to Police Precinct West" in page
    # a card that puts units on the map has its own form, keyed by the card
    client.force_login(by_seat[WAR])
    s = state("coup1")
    key = f"play_card:{_card(s, WAR, 'Helicopter')}"
    form = form_with(client.get(url).content.decode(), "option", key)
    response = submit(client, url, form.set(f"{form_prefix(key)}-zone", "3"))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert "Play Helicopter in Radio Station" in client.get(url).content.decode()


@pytest.mark.django_db
def test_a_bad_move_on_the_orders_page_shows_the_engines_message(campaign, client):
    game, phase, by_seat = coup_campaign(campaign, "coup1")
    client.force_login(by_seat[GENERAL_1])
    url = reverse("game_orders", args=[game.id])
    form = form_with(client.get(url).content.decode(), "option", "move")
    response = submit(client, url, form.set("order-move-from_zone", "13")
                      .set("order-move-to_zone", "1"))
    assert response.status_code == 400
    page = response.content.decode()
    message = "Presidential Palace is not next to University City."
    assert f'<p class="error" id="order-move-to_zone-error"><span class="visually-hidden">' \
           f'Error: </span>{message}' in page
    assert not OrderRow.objects.filter(phase=phase).exists()
    # an order this seat may not give (another position's form) is refused as such
    response = client.post(url, {"action": "add", "option": "intervene",
                                 "order-intervene-forces": "helicopter",
                                 "state_version": version(game)})
    assert response.status_code == 400
    assert "That order cannot be given now" in response.content.decode()
    assert not OrderRow.objects.filter(phase=phase).exists()


@pytest.mark.django_db
def test_a_rebel_strike_counts_for_the_first_rebel(campaign, client):
    game, phase, by_seat = coup_campaign(campaign, "locations")
    client.force_login(by_seat[AIR_FORCE])
    url = reverse("game_orders", args=[game.id])
    form = form_with(client.get(url).content.decode(), "option", "airstrike")
    form.set("order-airstrike-source", "air_force").set("order-airstrike-zone", "16")
    response = submit(client, url, form.set("order-airstrike-target", str(GENERAL_2)))
    assert response.status_code == 302, response.content.decode()[:3000]
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[AIR_FORCE])
    assert row.payload == [{"kind": "airstrike", "source": "air_force", "zone": 16,
                            "target": GENERAL_2}]
    assert row.first_submitted_seq == 1


@pytest.mark.django_db
def test_every_coup_field_has_a_label(campaign, client):
    game, phase, by_seat = coup_campaign(campaign, "coup1")
    for seat in range(10):
        client.force_login(by_seat[seat])
        page = client.get(reverse("game_orders", args=[game.id])).content.decode()
        ids = re.findall(r'<(?:select|input|textarea)[^>]*\bid="([^"]+)"', page)
        assert [i for i in ids if f'for="{i}"' not in page] == [], seat
        assert len(ids) == len(set(ids)), seat


@pytest.mark.django_db
def test_the_status_page_shows_the_coup(campaign, client):
    game, phase, by_seat = coup_campaign(campaign, "coup1")
    client.force_login(by_seat[AIR_FORCE])
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "Coup Phase 1 of 6" in page
    assert "Don Miguel (First Rebel: Don Miguel)" in page  # seat 2's family
    assert "the die showed 6: 4 forces allowed" in page
    assert "3 of 3 (one per phase)" in page
    assert "Paratrooper #28, waiting to land" in page
    assert "3 of 3 Airstrikes left" in page
    assert reverse("game_map", args=[game.id]) in page
    # and with the vote counted
    install(game, state("aftermath_president"))
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "Presidential Palace: Pro-President" in page
    assert "The coup failed" in page
