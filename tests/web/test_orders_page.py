"""The Orders page (docs/rules.md §orders): a form for every order, with legal choices only,
read back into an order the engine accepts; trades with cards; errors next to their fields with
the submitted values kept; conditions that show only the details they need; changing an order
in place; the Orders tab only for seats.

The forms are the engine's options (`junta.engine.legal_options`) drawn as Django forms
(`junta.games.order_forms.OrderForm`); the page tests post them as a browser does
(`tests.web.browser_forms`)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from junta.engine import (
    Condition,
    GameState,
    Order,
    OrderOption,
    Status,
    describe_order,
    legal_options,
    option_for,
    parse_order,
    validate_order,
    validate_orders,
)
from junta.engine import catalog as cat
from junta.engine.kinds import ORDER_KINDS
from junta.engine.options import standing_cabinet
from junta.games.campaigns import start_campaign
from junta.games.models import Game
from junta.games.models import Order as OrderRow
from junta.games.order_forms import OrderForm
from tests.engine.helpers import give, run
from tests.engine.option_states import (
    ADMIRAL,
    AIR_FORCE,
    FARM,
    FOREIGN,
    GENERAL_1,
    GENERAL_2,
    GENERAL_3,
    PRESIDENT,
    SECURITY,
    STATES,
    WAR,
    budget_proposal,
    budget_vote,
    cabinet,
    election,
    locations,
)
from tests.web.browser_forms import form_with, forms_in, submit
from tests.web.campaigns import install, version
from tests.web.option_forms import COUP_KINDS, builder, fill, read, round_trip


def card(state: GameState, seat: int, name: str) -> str:
    return str(next(c for c in state.players[seat].hand if cat.card(c).name == name))


APPOINTMENTS = {pos: str(seat) for seat, pos in enumerate(cat.CABINET, start=1)}

# (state, seat, option key or a card name for the form that plays it, the values filled in:
# by argument, a TABLE as {row: value}; "card:Name" stands for that card's number)
CASES = [
    ("nomination", FOREIGN, "nominate", {"candidate": str(GENERAL_1)}),
    ("nomination", FOREIGN, "second", {"candidate": str(GENERAL_1)}),
    ("nomination", GENERAL_1, "decline", {}),
    ("election", FARM, "vote", {"choice": str(ADMIRAL), "cards": ["card:Ballot Stuffers"],
                                "split": {f"position:{cat.FARM_LABOR}": "abstain"}}),
    ("budget_vote", FARM, "vote", {
        "choice": "yes", "cards": ["card:Ballot Stuffers"],
        "split": {f"position:{cat.FARM_LABOR}": "no", "influence:card:Church": "abstain",
                  "card:card:Ballot Stuffers": "no"}}),
    ("budget_vote", ADMIRAL, "Power Failure", {}),
    ("cabinet", PRESIDENT, "appoint", {"positions": APPOINTMENTS}),
    ("cabinet", GENERAL_2, "The President's Competence Questioned", {}),
    ("budget_draw", WAR, "new_weapons", {"position": cat.ADMIRAL}),
    ("budget_draw", FOREIGN, "draw_bills", {"position": cat.FOREIGN, "count": "4"}),
    ("budget_draw", PRESIDENT, "resign", {}),
    ("budget_proposal", PRESIDENT, "propose_budget", {
        "allocations": {1: "3", 2: "2", 9: "4"}, "from_pocket": "1",
        "bills": {1: str(GENERAL_1), 0: str(SECURITY)}}),
    ("budget_proposal", FOREIGN, "Foreign Aid Audit", {}),
    ("internal_security", SECURITY, "seize_chamber", {"seize": "yes"}),
    ("locations", GENERAL_3, "location", {"place": "club"}),
    ("locations", SECURITY, "assassinate", {"card": "secret_police", "target": str(WAR),
                                            "location": "hq"}),
    ("locations", GENERAL_3, "assassinate", {"card": "card:Professional Assassin",
                                             "target": str(WAR), "location": "mistress"}),
    ("locations", GENERAL_3, "bank:withdraw", {"amount": "3"}),
    ("locations", GENERAL_3, "bank:deposit", {"amount": "5"}),
    ("locations", GENERAL_3, "pay", {"to": str(ADMIRAL), "amount": "5"}),
    ("locations", GENERAL_3, "give_card", {"to": str(ADMIRAL), "card": "card:Informant"}),
    ("locations", GENERAL_3, "trade", {"with": str(WAR), "give_cards": ["card:Informant"],
                                       "get_cards": ["Spy in Switzerland"],
                                       "get_money": "2"}),
    ("locations", GENERAL_3, "play_card", {"card": "card:Church"}),
    ("locations", GENERAL_3, "Informant", {"target": str(WAR)}),
    ("locations", GENERAL_3, "Burglar", {"target": str(WAR)}),
    ("locations", ADMIRAL, "Bank Holiday", {}),
    ("locations", AIR_FORCE, "Amnesty", {"target": str(FARM)}),
    ("locations", AIR_FORCE, "play_card", {"card": "card:Secret Political Donation"}),
    ("locations", WAR, "Monarchist Assassin", {}),
    ("locations", GENERAL_3, "discard", {"card": "card:Burglar"}),
    ("locations", ADMIRAL, "discard", {"card": "card:Bankers"}),  # in play
    ("locations", PRESIDENT, "brother_in_law", {"position": cat.WAR}),
    ("locations", SECURITY, "safe_passage", {"seat": str(FARM), "decision": "execute"}),
    ("exile", FARM, "return_from_exile", {}),
]


def _values(s: GameState, seat: int, value: Any) -> Any:
    """ "card:Name" stands for that card's number in the seat's hand (or in play), in values
    and in a table's rows alike."""
    if isinstance(value, dict):
        return {_values(s, seat, k): _values(s, seat, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_values(s, seat, v) for v in value]
    if not isinstance(value, str):
        return value

    def number(m: re.Match) -> str:
        p = s.players[seat]
        return str(next(c for c in [*p.hand, *p.influence]
                        if cat.card(c).name == m.group(1)))

    return re.sub(r"card:([A-Z][\w ']+)", number, value)


def _form(s: GameState, seat: int, key: str, values: dict | None = None) -> OrderOption:
    """The option `key`; a card's name stands for the option that plays it: its own, or the
    option shared by the cards that need no target (then the card is chosen in it)."""
    if key in ORDER_KINDS or ":" in key:
        return builder(s, seat, key)
    cid = card(s, seat, key)
    own = legal_options(s, seat).get(f"play_card:{cid}")
    if own is not None:
        assert own.fixed == {"card": int(cid)}
        return own
    if values is not None:
        values["card"] = cid
    return builder(s, seat, "play_card")


def given(s: GameState, seat: int, key: str, /, **values: Any) -> tuple[Order, OrderForm]:
    """The order read from option `key`'s form filled in with `values` (the form must take
    them)."""
    option = builder(s, seat, key)
    order, form = read(s, seat, option, fill(s, seat, option, **values))
    assert order is not None, form.errors
    return order, form


@pytest.mark.parametrize(("name", "seat", "key", "values"), CASES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_every_form_round_trips_into_an_order_the_engine_accepts(name, seat, key, values):
    """Each form, filled in, reads into an order the engine accepts alone and as a set, that
    reads as a sentence; the page finds its option again and fills the form in with it to
    change it in place, and that form gives the same order back."""
    s = STATES[name]()
    values = _values(s, seat, values)
    option = _form(s, seat, key, values)
    order, form = read(s, seat, option, fill(s, seat, option, **values))
    assert order is not None, form.errors
    assert validate_order(s, seat, order) == [], order
    assert validate_orders(s, seat, [order]) == [], order
    assert parse_order(order.to_dict()) == order
    assert describe_order(s, order)
    assert round_trip(s, seat, option, order) == order


def test_the_page_finds_the_option_each_order_was_given_through():
    """To change an order in place the page opens the form it was given through."""
    wrong = []
    for name, seat, key, values in CASES:
        s = STATES[name]()
        values = _values(s, seat, values)
        option = _form(s, seat, key, values)
        order, _ = read(s, seat, option, fill(s, seat, option, **values))
        found = option_for(legal_options(s, seat), order)
        if found != option:
            wrong.append((key, option.key, found and found.key))
    assert wrong == []


def test_the_round_trips_cover_every_order_that_is_not_a_coup_order():
    covered = {_form(STATES[n](), seat, key).kind for n, seat, key, _ in CASES}
    assert covered == set(ORDER_KINDS) - COUP_KINDS
    plays = {key for _, _, key, _ in CASES if key not in ORDER_KINDS and ":" not in key}
    assert len(plays) >= 8  # influence, donation, intelligence, theft, re-vote, motion...


def test_the_forms_give_the_engine_what_it_expects():
    s = budget_vote()
    ballot = card(s, FARM, "Ballot Stuffers")
    church = str(s.players[FARM].influence[0])
    vote = builder(s, FARM, "vote")
    data = fill(s, FARM, vote, choice="yes", cards=[ballot],
                split={f"influence:{church}": "no", f"card:{ballot}": "abstain"})
    # one field per row of the split, named by its source
    assert data[f"order-vote-split_influence{church}"] == "no"
    assert data[f"order-vote-split_card{ballot}"] == "abstain"
    assert data[f"order-vote-split_position{cat.FARM_LABOR}"] == ""  # as my vote
    order, _ = read(s, FARM, vote, data)
    assert order.to_dict() == {"kind": "vote", "choice": "yes", "cards": [int(ballot)],
                               "split": {f"influence:{church}": "no",
                                         f"card:{ballot}": "abstain"}}
    s = budget_proposal()
    budget = builder(s, PRESIDENT, "propose_budget")
    assert "You hold 8 MP in bills (3, 2, 2, 1)" in budget.help
    data = fill(s, PRESIDENT, budget, allocations={1: "3", 2: ""}, bills={0: "1", 3: ""},
                from_pocket="")
    assert data["order-propose-budget-allocations_1"] == "3"
    assert data["order-propose-budget-bills_0"] == "1"
    order, _ = read(s, PRESIDENT, budget, data)
    assert order.args["allocations"] == {"1": 3} and order.args["from_pocket"] == 0
    assert order.args["bills"] == {"1": [3]}
    assert describe_order(s, order) == f"Budget: {s.name(1)} 3 MP (bills: {s.name(1)} 3 MP)"


# --- trades with cards -------------------------------------------------------------------------

def _trade(s: GameState, seat: int, **values) -> Order:
    order, _ = given(s, seat, "trade", **values)
    assert validate_order(s, seat, order) == [], order
    return order


def test_card_for_money_and_card_for_card_trades_match_and_happen():
    s = locations()
    informant, spy = card(s, GENERAL_3, "Informant"), card(s, WAR, "Spy in Switzerland")
    # money for a card
    mine = _trade(s, GENERAL_3, **{"with": str(WAR), "give_cards": [informant],
                                   "get_money": "2"})
    theirs = _trade(s, WAR, **{"with": str(GENERAL_3), "get_cards": ["Informant"],
                               "give_money": "2"})
    after, _ = run(s, {GENERAL_3: [mine], WAR: [theirs]})
    assert int(informant) in after.players[WAR].hand
    assert after.players[GENERAL_3].pocket == 7 and after.players[WAR].pocket == 3
    # a card for a card
    mine = _trade(s, GENERAL_3, **{"with": str(WAR), "give_cards": [informant],
                                   "get_cards": ["Spy in Switzerland"]})
    theirs = _trade(s, WAR, **{"with": str(GENERAL_3), "give_cards": [spy],
                               "get_cards": ["Informant"]})
    after, _ = run(s, {GENERAL_3: [mine], WAR: [theirs]})
    assert int(spy) in after.players[GENERAL_3].hand
    assert int(informant) in after.players[WAR].hand


def test_a_card_with_several_copies_is_matched_whichever_copy_each_side_picks():
    s = locations()
    copies = [give(s, WAR, "Secret Political Donation") for _ in range(2)]
    free = [c for c in cat.cards_named("Secret Political Donation")
            if c not in s.players[AIR_FORCE].hand + copies]
    assert free  # a lower- or higher-numbered copy in the deck: the name alone is not enough
    # the giver ticks his second copy; the asker names the card
    mine = _trade(s, WAR, **{"with": str(GENERAL_3), "give_cards": [str(copies[1])],
                             "get_money": "1"})
    theirs = _trade(s, GENERAL_3, **{"with": str(WAR), "give_money": "1",
                                     "get_cards": ["Secret Political Donation"]})
    assert mine.args["give_cards"] == theirs.args["get_cards"] == [min(copies)]
    after, _ = run(s, {WAR: [mine], GENERAL_3: [theirs]})
    assert min(copies) in after.players[GENERAL_3].hand
    assert describe_order(s, theirs) == (
        f"Trade with {s.name(WAR)}: give 1 MP, get Secret Political Donation")


# --- conditions -------------------------------------------------------------------------------

def test_a_condition_reads_only_the_details_its_kind_needs():
    """Every detail a condition of the form may name has a field; a condition reads only its
    own, whatever the others hold (left over from another choice: without the page's script
    every detail is shown and sent)."""
    s = locations()
    pay = builder(s, GENERAL_3, "pay")
    assert [n for n in OrderForm(pay, s, GENERAL_3).fields if n.startswith("if")] == [
        "if", "if_seat", "if_location"]
    base = {"to": str(ADMIRAL), "amount": "2"}
    order, _ = read(s, GENERAL_3, pay, fill(s, GENERAL_3, pay, **base, **{
        "if": "location", "if_seat": str(WAR), "if_location": "club"}))
    assert order.condition == Condition("location", {"seat": WAR, "location": "club"})
    order, _ = read(s, GENERAL_3, pay, fill(s, GENERAL_3, pay, **base, **{
        "if": "killed", "if_seat": str(WAR), "if_location": "club"}))
    assert order.condition == Condition("killed", {"seat": WAR})
    order, _ = read(s, GENERAL_3, pay, fill(s, GENERAL_3, pay, **base, **{
        "if": "", "if_seat": str(WAR), "if_location": "club"}))
    assert order.condition is None
    order, form = read(s, GENERAL_3, pay, fill(s, GENERAL_3, pay, **base, **{
        "if": "location", "if_seat": "", "if_location": "club"}))
    assert order is None
    assert form.errors == {"if_seat": ["Choose the player the condition is about."]}
    # in a vote, more details: each left over with a value, read only by its own kind
    s = budget_vote()
    s.players[GENERAL_3].pocket = 3
    pay = builder(s, GENERAL_3, "pay")
    form = OrderForm(pay, s, GENERAL_3)
    details = [n for n in form.fields if n.startswith("if_")]
    assert {"if_seat", "if_choice", "if_result", "if_margin_at_most"} <= set(details)
    leftovers = {n: (next(v for v, _ in form.fields[n].choices if v)
                     if hasattr(form.fields[n], "choices") else "3") for n in details}
    order, _ = read(s, GENERAL_3, pay, fill(s, GENERAL_3, pay, **base, **{
        **leftovers, "if": "voted", "if_seat": str(WAR), "if_choice": "no"}))
    assert order.condition == Condition("voted", {"seat": WAR, "choice": "no"})
    order, _ = read(s, GENERAL_3, pay, fill(s, GENERAL_3, pay, **base, **{
        **leftovers, "if": "vote_result", "if_result": "fails", "if_margin_at_most": ""}))
    assert order.condition == Condition("vote_result", {"result": "fails"})
    assert validate_order(s, GENERAL_3, order) == []


def test_a_vote_condition_in_an_election_names_a_candidate():
    s = election()
    s.players[FOREIGN].pocket = 3
    pay = builder(s, FOREIGN, "pay")
    voted = pay.condition("voted")
    assert {c.value for c in next(a for a in voted.args if a.name == "choice").choices} >= {
        GENERAL_1, ADMIRAL}
    order, form = read(s, FOREIGN, pay, fill(s, FOREIGN, pay, to=str(ADMIRAL), amount="1",
                                             **{"if": "voted", "if_seat": str(WAR),
                                                "if_choice": str(ADMIRAL)}))
    assert order is not None, form.errors
    assert order.to_dict()["condition"] == {"kind": "voted", "seat": WAR, "choice": ADMIRAL}
    assert validate_order(s, FOREIGN, order) == []


# --- errors next to their fields ----------------------------------------------------------------

def test_the_engines_messages_go_to_the_field_that_causes_them():
    s = locations()
    order, form = given(s, GENERAL_3, "pay", to=str(ADMIRAL), amount="9")
    messages = validate_order(s, GENERAL_3, order)
    assert messages == ["You have 5 MP in your pocket; you cannot pay 9 MP."]
    assert messages[0].arg == "amount"
    form.place(messages)
    assert form.errors == {"amount": messages}
    # a message no single field answers stays with the whole form
    order, form = given(s, GENERAL_3, "trade", **{"with": str(WAR), "give_money": "",
                                                  "get_money": ""})
    messages = validate_order(s, GENERAL_3, order)
    assert messages == ["A trade must exchange something."] and messages[0].arg is None
    form.place(messages)
    assert form.errors == {"__all__": messages} and form.non_field_errors() == messages
    # a condition's message goes to the detail that causes it: an assassination-time card may
    # wait only for the player's own location, so the form offers only him there; the
    # engine's message for another player (an order from the GM or the API) goes to that field
    key = f"play_card:{card(s, GENERAL_3, 'Burglar')}"
    burglar = builder(s, GENERAL_3, key)
    seats = next(a for a in burglar.condition("location").args if a.name == "seat")
    assert [c.value for c in seats.choices] == [GENERAL_3]
    order, form = read(s, GENERAL_3, burglar, fill(s, GENERAL_3, burglar, target=str(WAR), **{
        "if": "location", "if_seat_2": str(WAR), "if_location": "bank"}))
    assert order is None and form.errors == {"if_seat_2": ["Player: choose one of the options "
                                                           "offered."]}
    order, form = given(s, GENERAL_3, key, target=str(WAR), **{
        "if": "location", "if_seat_2": str(GENERAL_3), "if_location": "bank"})
    assert order.condition == Condition("location", {"seat": GENERAL_3, "location": "bank"})
    assert validate_order(s, GENERAL_3, order) == []
    theirs = Order(order.kind, order.args, Condition("location", {"seat": WAR,
                                                                  "location": "bank"}))
    messages = validate_order(s, GENERAL_3, theirs)
    assert "may depend on your own location" in messages[0]
    assert messages[0].arg == "condition.seat"
    form.place(messages)
    assert form.errors == {"if_seat_2": messages}
    # a table's message goes to its fieldset, not to one of its rows
    s = budget_proposal()
    order, form = given(s, PRESIDENT, "propose_budget", allocations={1: "20"})
    messages = validate_order(s, PRESIDENT, order)
    assert messages and all(m.arg == "allocations" for m in messages), messages
    form.place(messages)
    assert form.group_errors == {"allocations": messages} and not form.errors
    links = form.error_links("Propose the budget")
    assert ("order-propose-budget-allocations", f"Propose the budget, Totals: {messages[0]}") \
        in links


def test_forms_keep_what_was_submitted_and_carry_their_errors():
    s = locations()
    pay = builder(s, GENERAL_3, "pay")
    data = fill(s, GENERAL_3, pay, to=str(ADMIRAL), amount="9",
                **{"if": "killed", "if_seat": str(WAR)})
    order, form = read(s, GENERAL_3, pay, data)
    form.place(validate_order(s, GENERAL_3, order))
    assert form.prefix == "order-pay"
    assert form["to"].value() == str(ADMIRAL) and form["amount"].value() == "9"
    assert form.errors["amount"] == ["You have 5 MP in your pocket; you cannot pay 9 MP."]
    assert form["amount"].auto_id == "order-pay-amount"
    assert form["if"].value() == "killed" and form["if_seat"].value() == str(WAR)
    groups = {g["group"].arg: g for g in form.rendered_groups()}
    assert groups["condition.location"]["conditions"] == "location"
    assert "killed" in groups["condition.seat"]["conditions"].split()
    amount = groups["amount"]["rows"][0]
    assert amount["errors"] == form.errors["amount"]
    assert 'aria-invalid="true"' in amount["widget"] and 'value="9"' in amount["widget"]
    other = OrderForm(builder(s, GENERAL_3, "location"), s, GENERAL_3)
    assert not other.is_bound and not other.errors


# --- the page ---------------------------------------------------------------------------------

def seat_users(game: Game) -> dict:
    return {p.seat: p.user for p in game.players.all()}


def start_in(campaign, s: GameState):

    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, s)
    return game, phase, seat_users(game)


def orders_of(phase, user) -> list[dict]:
    return OrderRow.objects.get(phase=phase, player__user=user).payload


def post(client, url: str, key: str, **fields: str | list[str]):  # noqa: ANN201
    """Open the page, fill in the form of option `key` (fields by their full names) and send
    it as the browser does."""
    form = form_with(client.get(url).content.decode(), "option", key)
    for name, value in fields.items():
        form.set(name, value)
    return submit(client, url, form)


@pytest.mark.django_db
def test_a_rejected_order_comes_back_filled_in_with_the_message_by_its_field(
        campaign, client):
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = post(client, url, "location", **{"order-location-place": "club"})
    assert response.status_code == 302
    form = form_with(client.get(url).content.decode(), "option", "pay")
    response = submit(client, url, form.set("order-pay-to", str(ADMIRAL)).type_number("9"))
    assert response.status_code == 400
    page = response.content.decode()
    message = "You have 5 MP in your pocket; you cannot pay 9 MP."
    assert f'<p class="error" id="order-pay-amount-error"><span class="visually-hidden">' \
           f'Error: </span>{message}' in page
    amount = re.search(r'<input type="number"[^>]*id="order-pay-amount"[^>]*>', page).group(0)
    assert 'value="9"' in amount and 'aria-invalid="true"' in amount
    assert 'aria-describedby="order-pay-amount-help order-pay-amount-error"' in amount
    assert f'<option value="{ADMIRAL}" selected>' in page
    assert f'<a href="#order-pay-amount">Pay money, MP: {message}</a>' in page
    assert '<details class="builder builder-error" id="order-pay" open>' in page
    assert "Order 2:" not in page and "Not saved." in page
    # the order saved before is still there, untouched
    assert "Location: Club" in page
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.payload == [{"kind": "location", "place": "club"}] and row.revision == 1


@pytest.mark.django_db
def test_a_deposit_beyond_the_pocket_from_a_stale_page_is_refused_with_the_engine_s_words(
        campaign, client):
    """§banking: "A deposit or a withdrawal is carried out whole or not at all: one larger
    than the pocket ... is refused when given". The form offers deposits up to the pocket; a
    page drawn before the pocket shrank (or a tampered one) sends more: refused, by the amount,
    with the engine's message naming the pocket and the amount, the earlier order kept."""
    s = locations()
    game, phase, by_seat = start_in(campaign, s)
    pocket = s.players[GENERAL_3].pocket
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    assert post(client, url, "location", **{"order-location-place": "bank"}).status_code == 302
    form = form_with(client.get(url).content.decode(), "option", "bank:deposit")
    response = submit(client, url, form.type_number(str(pocket + 3)))
    assert response.status_code == 400
    page = response.content.decode()
    message = f"You have {pocket} MP in your pocket; you cannot deposit {pocket + 3}."
    assert f'<p class="error" id="order-bank-deposit-amount-error"><span ' \
           f'class="visually-hidden">Error: </span>{message}' in page
    assert "Not saved." in page and "Location: Bank" in page
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.payload == [{"kind": "location", "place": "bank"}] and row.revision == 1


@pytest.mark.django_db
def test_a_blank_condition_player_is_shown_with_its_form(campaign, client):
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = post(client, url, "pay", **{"order-pay-to": str(ADMIRAL), "order-pay-amount": "2",
                                           "order-pay-if": "killed", "order-pay-if_seat": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose the player the condition is about." in page
    assert "names a player who is not in this game" not in page
    assert 'id="order-pay-if_seat-error"' in page
    assert '<option value="killed" selected>' in page
    assert not OrderRow.objects.filter(phase=phase).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("clash", ["card", "pocket"])
def test_a_whole_set_refusal_is_shown_with_the_form_just_sent_naming_both_orders(
        campaign, client, clash):
    """"A card can be used once"; "A player's pocket can never go negative". A Vote card in
    the ballot and a gift of the same card, or a payment that leaves the pocket short for the
    budget's money from it: each is legal alone, not together. The refusal comes with the form
    just sent, filled in as sent, and names both orders; the first stays as it was."""
    if clash == "card":
        s, seat = budget_vote(), FARM
        ballot = card(s, FARM, "Ballot Stuffers")
        first = ("vote", {"order-vote-choice": "yes", "order-vote-cards": [ballot]})
        second = ("give_card", {"order-give-card-to": str(ADMIRAL),
                                "order-give-card-card": ballot})
        message = ("Ballot Stuffers is used by two of your orders: your ballot, which counts "
                   "it (order 1) and your gift of it to {admiral} (order 2). A card "
                   "can be used once.")
    else:
        s, seat = budget_proposal(), PRESIDENT
        first = ("propose_budget", {"order-propose-budget-allocations_1": "9",
                                    "order-propose-budget-from_pocket": "1"})
        second = ("pay", {"order-pay-to": str(ADMIRAL), "order-pay-amount": "4"})
        message = ("The budget's 1 MP from your pocket leaves your pocket short for your "
                   "payment of 4 MP to {admiral}: together they need 5 MP and you have 4 MP "
                   "(orders 1 and 2). Lower an amount or give one up.")
    game, phase, by_seat = start_in(campaign, s)
    s = GameState.from_dict(phase.state_before)  # the campaign's families' names
    message = message.format(admiral=s.name(ADMIRAL))
    client.force_login(by_seat[seat])
    url = reverse("game_orders", args=[game.id])
    assert post(client, url, first[0], **first[1]).status_code == 302
    before = list(OrderRow.objects.filter(phase=phase).values())
    response = post(client, url, second[0], **second[1])
    assert response.status_code == 400
    page = response.content.decode()
    prefix = f"order-{second[0].replace('_', '-')}"
    error = re.search(rf'<div class="error" id="{prefix}-errors"[^>]*>(.*?)</div>', page, re.S)
    assert error, page[:3000]
    text = re.sub(r"<[^>]+>", "", error.group(1)).replace("&#x27;", "'").strip()
    assert text == f"Error: {message}"
    assert f'<details class="builder builder-error" id="{prefix}" open>' in page
    sent = form_with(page, "option", second[0])
    for name, value in second[1].items():
        control = sent.control(name)
        shown = [v for v, _, sel in control.options if sel] if control.tag == "select" else \
            [control.value]
        assert shown == [value], (name, shown)
    assert list(OrderRow.objects.filter(phase=phase).values()) == before


@pytest.mark.django_db
def test_a_trade_for_cards_posted_on_the_page_is_saved(campaign, client):
    s = locations()
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert "Cards you get" in page and "your partner must order the same trade" in page
    response = post(client, url, "trade", **{
        "order-trade-with": str(WAR), "order-trade-give_cards": [card(s, GENERAL_3, "Informant")],
        "order-trade-get_cards": ["Spy in Switzerland"], "order-trade-give_money": "",
        "order-trade-get_money": "1"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert orders_of(phase, by_seat[GENERAL_3]) == [
        {"kind": "trade", "with": WAR, "give_money": 0, "get_money": 1,
         "give_cards": [int(card(s, GENERAL_3, "Informant"))],
         "get_cards": [int(card(s, WAR, "Spy in Switzerland"))]}]
    page = client.get(url).content.decode()
    wars = s.name(WAR).replace("'", "&#x27;")
    assert f"Trade with {wars}: give Informant, get Spy in Switzerland, 1 MP" in page


@pytest.mark.django_db
def test_the_page_says_why_the_bank_is_not_offered(campaign, client):
    s = locations()
    s.bank_status = "closed"
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    page = client.get(reverse("game_orders", args=[game.id])).content.decode()
    assert "Deposit money in the Bank" not in page and "Withdraw money from the Bank" not in page
    assert 'value="bank:' not in page
    assert "Banking: The Bank is closed for the rest of the turn." in page
    assert "Not offered now" in page


def labelled(page: str) -> list[str]:
    """The ids of the page's fields, each with its label; none twice."""
    ids = re.findall(r'<(?:select|input|textarea)[^>]*\bid="([^"]+)"', page)
    assert ids
    for element_id in ids:
        assert f'for="{element_id}"' in page, element_id
    assert len(ids) == len(set(ids))
    return ids


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["locations", "budget_vote", "cabinet", "budget_proposal"])
def test_every_field_has_a_label_and_conditions_say_which_details_they_use(
        campaign, client, name):
    game, phase, by_seat = start_in(campaign, STATES[name]())
    for seat in (GENERAL_3, SECURITY, PRESIDENT, FARM):
        client.force_login(by_seat[seat])
        page = client.get(reverse("game_orders", args=[game.id])).content.decode()
        labelled(page)
        assert "js/orders.js" in page
        if name == "locations" and seat == GENERAL_3:
            assert 'data-conditions="location"' in page  # the Location detail


@pytest.mark.django_db
def test_the_orders_tab_is_only_for_players_with_a_seat(campaign, client,
                                                        django_user_model):

    game, users = campaign()
    start_campaign(game.id, game.gm)
    orders_url = reverse("game_orders", args=[game.id])
    status_url = reverse("game_status", args=[game.id])
    client.force_login(users[0])
    page = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert f'href="{orders_url}"' in page and f'href="{status_url}"' in page
    client.force_login(game.gm)
    for name in ("game_status", "game_events", "game_history", "game_map", "game_detail"):
        page = client.get(reverse(name, args=[game.id])).content.decode()
        assert f'href="{orders_url}"' not in page, name
        assert f'href="{status_url}"' in page, name
    assert client.get(orders_url).status_code == 404
    client.force_login(django_user_model.objects.create_user(email="onlooker@example.org"))
    page = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert f'href="{orders_url}"' not in page and f'href="{status_url}"' not in page


@pytest.mark.django_db
def test_a_note_that_could_not_be_saved_is_kept_in_the_box(campaign, client):
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    too_long = "Back on Tuesday. " + "x" * 4000
    response = client.post(url, {"action": "note", "note_to_gm": too_long,
                                 "state_version": version(game)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Shorten it: nothing was saved." in page and f">\n{too_long}</textarea>" in page


@pytest.mark.django_db
def test_a_note_drawn_before_a_gm_ruling_is_saved_all_the_same(campaign, client):
    """The note depends on nothing a ruling changes: a page drawn before one saves it (an order
    from that page is refused as stale, as before)."""
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    form = note_form(client, url).type_text("note_to_gm", "Back on Tuesday")
    game.state_version += 1  # a GM ruling meanwhile
    game.save()
    assert submit(client, url, form).status_code == 302
    assert OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3]).note_to_gm == \
        "Back on Tuesday"


# --- forms posted exactly as a browser sends them ------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize(("action", "amount", "pocket", "bank"),
                         [("deposit", "4", 1, 7), ("withdraw", "3", 8, 0)])
def test_a_bank_order_posted_from_the_page_is_saved(campaign, client, action, amount,
                                                     pocket, bank):
    """"Players wishing to deposit or withdraw money from the Bank must have chosen the Bank as
    their location and may now do so." The deposit/withdraw form, posted with every control the
    browser sends (the page's own hidden fields included), is stored, and the Bank does it."""
    s = locations()
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    form = form_with(client.get(url).content.decode(), "option", f"bank:{action}")
    assert [n for n in form.names() if n.startswith("order-bank")] == [
        f"order-bank-{action}-amount", *([f"order-bank-{action}-if"] if any(
            n == f"order-bank-{action}-if" for n in form.names()) else []),
        *[n for n in form.names() if n.startswith(f"order-bank-{action}-if_")]]
    response = submit(client, url, form.type_number(amount))
    assert response.status_code == 302, response.content.decode()[:3000]
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.payload == [{"kind": "bank", "action": action, "amount": int(amount)}]
    page = client.get(url).content.decode()
    assert f"{action.title()} {amount} MP" in page and "Order added." in page
    after, _ = run(s, {GENERAL_3: [Order("location", {"place": "bank"}),
                                   *[parse_order(o) for o in row.payload]]})
    assert (after.players[GENERAL_3].pocket, after.players[GENERAL_3].bank) == (pocket, bank)


@pytest.mark.django_db
def test_no_order_form_has_a_field_named_like_the_pages_own_fields(campaign, client):
    """A field of an order form that shares its name with the page's own hidden fields (the
    button's `action`, the form's `option`) makes the browser send two values for one name."""
    game, phase, by_seat = start_in(campaign, locations())
    for seat in (GENERAL_3, SECURITY, PRESIDENT):
        client.force_login(by_seat[seat])
        for form in forms_in(client.get(reverse("game_orders", args=[game.id])).content
                             .decode()):
            names = [n for n in form.names() if n != "csrfmiddlewaretoken"]
            checkboxes = {c.name for c in form.controls if c.type == "checkbox"}
            single = [n for n in names if n not in checkboxes]
            assert len(single) == len(set(single)), (seat, single)
            fields = [n for n in names if n.startswith("order-")]
            if "option" in names:  # an order form: its own fields all carry its prefix
                assert set(names) - set(fields) <= {"action", "option", "index",
                                                    "state_version", "and_final"}, names


@pytest.mark.django_db
def test_a_post_that_changes_nothing_never_says_saved(campaign, client):
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = client.post(url, {"action": "deposit", "state_version": version(game)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Saved." not in page and "Not saved." in page
    assert not OrderRow.objects.filter(phase=phase).exists()


# --- changing, replacing, refusing ---------------------------------------------------------------

@pytest.mark.django_db
def test_an_order_is_changed_in_place(campaign, client):
    """The Change link opens the order's form filled in with it, its condition too; saving the
    change puts the new order where the old one stood."""
    s = locations()
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    assert post(client, url, "pay", **{"order-pay-to": str(ADMIRAL), "order-pay-amount": "2",
                                       "order-pay-if": "killed",
                                       "order-pay-if_seat": str(WAR)}).status_code == 302
    assert post(client, url, "location", **{"order-location-place": "club"}).status_code == 302
    page = client.get(url).content.decode()
    assert 'href="?change=0#change-form"' in page and 'href="?change=1#change-form"' in page
    page = client.get(url, {"change": "0"}).content.decode()
    form = form_with(page, "action", "change")
    assert form.control("index").value == "0" and form.control("option").value == "pay"
    assert form.attrs.get("id") == "change-form"
    selected = {c.name: next((v for v, _, sel in c.options if sel), None)
                for c in form.controls if c.tag == "select"}
    assert selected["order-pay-to"] == str(ADMIRAL)
    assert selected["order-pay-if"] == "killed" and selected["order-pay-if_seat"] == str(WAR)
    assert form.control("order-pay-amount").value == "2"
    assert "Save the change" in page and "Change order 1: Pay money" in page
    # a change the engine refuses comes back as the same change, filled in as sent
    response = client.post(f"{url}?change=0", form.type_number("9").encoded(),
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    page = response.content.decode()
    again = form_with(page, "action", "change")
    assert again.control("index").value == "0" and again.control("order-pay-amount").value == "9"
    assert 'id="order-pay-amount-error"' in page and "Change order 1: Pay money" in page
    assert len(orders_of(phase, by_seat[GENERAL_3])) == 2
    response = submit(client, url, again.type_number("3"))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert orders_of(phase, by_seat[GENERAL_3]) == [
        {"kind": "pay", "to": ADMIRAL, "amount": 3, "condition": {"kind": "killed", "seat": WAR}},
        {"kind": "location", "place": "club"}]
    page = client.get(url).content.decode()
    assert "Order changed." in page and "Saved." not in page
    assert page.index(f"Pay {s.name(ADMIRAL)} 3 MP if".replace("'", "&#x27;")) < \
        page.index("Location: Club")


@pytest.mark.django_db
def test_a_second_unconditional_location_replaces_the_first(campaign, client):
    """"Each player chooses one location": a new unconditional location takes the place of the
    one given before, and the page says so."""
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    assert post(client, url, "location", **{"order-location-place": "club"}).status_code == 302
    assert post(client, url, "pay", **{"order-pay-to": str(ADMIRAL),
                                       "order-pay-amount": "1"}).status_code == 302
    response = post(client, url, "location", **{"order-location-place": "hq"})
    assert response.status_code == 302, response.content.decode()[:3000]
    page = client.get(url).content.decode()
    assert "Order replaced: Location: HQ instead of Location: Club." in page
    assert "Saved." not in page
    assert orders_of(phase, by_seat[GENERAL_3]) == [
        {"kind": "location", "place": "hq"}, {"kind": "pay", "to": ADMIRAL, "amount": 1}]


@pytest.mark.django_db
def test_the_cabinet_form_starts_with_the_cabinet_as_it_stands(campaign, client):
    """The President's appointment form shows each position with its holder; sent unchanged,
    it appoints the Cabinet as it stands."""
    s = cabinet()
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[PRESIDENT])
    url = reverse("game_orders", args=[game.id])
    form = form_with(client.get(url).content.decode(), "option", "appoint")
    current = {pos: s.positions[pos] for pos in cat.CABINET}
    assert standing_cabinet(s) == current
    for pos, holder in current.items():
        control = form.control(f"order-appoint-positions_{pos}")
        assert [v for v, _, sel in control.options if sel] == [str(holder)], pos
    response = submit(client, url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert orders_of(phase, by_seat[PRESIDENT]) == [{"kind": "appoint", "positions": current}]


@pytest.mark.django_db
def test_saved_is_never_said_and_a_rejected_change_leaves_the_orders_as_they_were(
        campaign, client):
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    pages = []
    for key, fields in (("location", {"order-location-place": "club"}),
                        ("pay", {"order-pay-to": str(ADMIRAL), "order-pay-amount": "2"})):
        assert post(client, url, key, **fields).status_code == 302
        pages.append(client.get(url).content.decode())
    row = OrderRow.objects.filter(phase=phase)
    before = list(row.values())
    # refused: too much money, an order the seat may not give, a change of an order not in,
    # a stale form
    pages.append(post(client, url, "pay", **{"order-pay-amount": "9"}).content.decode())
    pages.append(client.post(url, {"action": "add", "option": "seize_chamber",
                                   "state_version": version(game)}).content.decode())
    response = client.post(url, {"action": "change", "option": "location", "index": "7",
                                 "order-location-place": "hq", "state_version": version(game)})
    assert response.status_code == 400
    pages.append(response.content.decode())
    response = client.post(url, {"action": "remove", "index": "0", "state_version": 0})
    assert response.status_code == 400
    pages.append(response.content.decode())
    assert list(row.values()) == before
    for page in pages:
        assert "Saved." not in page
    assert all("Not saved." in page for page in pages[2:])
    # done: each says what it did
    assert post(client, url, "location", **{"order-location-place": "hq"}).status_code == 302
    response = submit(client, url, form_with(client.get(url).content.decode(), "index", "1"))
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Order removed." in page and "Saved." not in page
    response = client.post(url, {"action": "final", "state_version": version(game)})
    page = client.get(url).content.decode()
    assert "Your orders are final." in page and "Saved." not in page


# --- the note to the GM -------------------------------------------------------------------------

def note_form(client, url: str):  # noqa: ANN201 - a browser_forms.Form
    return form_with(client.get(url).content.decode(), "action", "note")


@pytest.mark.django_db
def test_a_note_that_fills_its_box_is_saved_whole_line_breaks_and_all(campaign, client):
    """The box takes 4,000 characters, a line break counting as one; the browser sends each
    line break as two (CRLF). Every character typed is kept: none is cut off at the end."""
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    form = note_form(client, url)
    assert form.control("note_to_gm").attrs["maxlength"] == "4000"
    line = "I shall be at the Club, whatever the Minister says." + "x" * 48  # 99 characters
    text = "\n".join([line] * 40)
    text += "y" * (4000 - len(text) - 1) + "!"
    assert len(text) == 4000 and text.count("\n") == 39
    response = submit(client, url, form.type_text("note_to_gm", text))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3]).note_to_gm == text
    assert ">\n" + line + "\n" in client.get(url).content.decode()


@pytest.mark.django_db
def test_a_note_over_the_limit_is_refused_and_the_saved_one_stays(campaign, client):
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    assert submit(client, url, note_form(client, url).type_text(
        "note_to_gm", "Back on Tuesday")).status_code == 302
    form = note_form(client, url)
    form.control("note_to_gm").value = "z" * 4001  # sent by a script: no maxlength stops it
    response = submit(client, url, form)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Your note is 4001 characters long; the limit is 4000. Shorten it: nothing was " \
           "saved." in page
    assert ">\n" + "z" * 4001 + "</textarea>" in page  # what was typed stays in the box
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.note_to_gm == "Back on Tuesday"


@pytest.mark.django_db
def test_the_service_refuses_a_note_over_the_limit_rather_than_cut_it(campaign):
    from junta.games import order_intake
    from junta.games.campaigns import CampaignError

    game, phase, by_seat = start_in(campaign, locations())
    with pytest.raises(CampaignError, match="4,001 characters long; the limit is 4,000"):
        order_intake.change_orders(phase.id, by_seat[GENERAL_3],
                                   order_intake.Change(note="n" * 4001),
                                   state_version=version(game))
    assert not OrderRow.objects.filter(phase=phase).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["note", "final", "not_final"])
def test_the_dead_cannot_leave_a_note_or_mark_orders_final(campaign, client, action):
    """docs/rules.md §death: "A dead player cannot act until the next turn begins". The page
    shows the dead no forms; a post sent all the same is refused and stores nothing."""
    s = locations()
    dead = s.players[GENERAL_3]
    dead.status, dead.pocket, dead.location = Status.DEAD, 0, None
    s.political_discard += dead.hand + dead.influence
    dead.hand, dead.influence = [], []
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    assert 'name="action" value="note"' not in client.get(url).content.decode()
    response = client.post(url, {"action": action, "note_to_gm": "I am not quite dead",
                                 "state_version": version(game)})
    assert response.status_code == 400
    assert "is dead and cannot act until the next turn begins" in response.content.decode()
    assert not OrderRow.objects.filter(phase=phase).exists()


@pytest.mark.django_db
def test_a_budget_on_a_condition_given_after_the_plain_one_is_tried_first(campaign, client):
    """docs/rules.md §conditions: "the first whose condition holds is carried out. An order
    with a condition is therefore placed before the one of its kind without a condition, which
    is the fallback". On the page, the President gives a plain budget, then another if the
    Foreign Minister plays his Foreign Aid Audit: the second is placed first, the page says
    so, and each is carried out when it should be."""
    game, phase, by_seat = start_in(campaign, budget_proposal())
    client.force_login(by_seat[PRESIDENT])
    url = reverse("game_orders", args=[game.id])
    assert post(client, url, "propose_budget",
                **{"order-propose-budget-allocations_1": "8"}).status_code == 302
    response = post(client, url, "propose_budget", **{
        "order-propose-budget-allocations_2": "8", "order-propose-budget-if": "card_played",
        "order-propose-budget-if_seat": str(FOREIGN),
        "order-propose-budget-if_card": "Foreign Aid Audit"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert ("Order added. An order with a condition comes before the one of its kind "
            "without: it is tried first, and the one without is the fallback.") in page
    given = orders_of(phase, by_seat[PRESIDENT])
    assert [(o["allocations"], (o.get("condition") or {}).get("kind")) for o in given] == [
        ({"2": 8}, "card_played"), ({"1": 8}, None)]
    orders = [parse_order(o) for o in given]
    s = GameState.from_dict(phase.state_before)
    audit = card(s, FOREIGN, "Foreign Aid Audit")
    played, _ = run(s, {PRESIDENT: orders, FOREIGN: [Order("play_card", {"card": int(audit)})]})
    assert played.budget["proposal"]["allocations"] == {"2": 8}
    kept, _ = run(s, {PRESIDENT: orders})
    assert kept.budget["proposal"]["allocations"] == {"1": 8}


@pytest.mark.django_db
def test_a_stale_window_or_a_second_click_never_acts_on_another_order(campaign, client):
    """Remove and Change name an order by its place in the list the page showed. With two
    windows of the Orders page open, or a Remove clicked twice, that place may hold another
    order by the time the form arrives: the form is refused, nothing changes, and the page
    shows the orders as they stand (a rejected change leaves the earlier orders in place)."""
    from junta.games.order_intake import STALE_ORDERS

    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    for to in (ADMIRAL, WAR, GENERAL_1):
        assert post(client, url, "pay", **{"order-pay-to": str(to),
                                           "order-pay-amount": "1"}).status_code == 302

    def paid() -> list[int]:
        return [o["to"] for o in orders_of(phase, by_seat[GENERAL_3])]

    # two windows: A removes order 1; B, drawn before, removes "order 2" (the payment to WAR)
    window_b = client.get(url).content.decode()
    window_a = client.get(url).content.decode()
    assert submit(client, url, form_with(window_a, "index", "0")).status_code == 302
    assert paid() == [WAR, GENERAL_1]
    refused = submit(client, url, form_with(window_b, "index", "1"))
    assert refused.status_code == 400 and STALE_ORDERS in html.unescape(
        refused.content.decode())
    assert paid() == [WAR, GENERAL_1]  # not the payment to GENERAL_1, now at place 2

    # B opens the change of order 2 (to GENERAL_1); A removes order 1; B's change is refused
    window_b = client.get(url + "?change=1").content.decode()
    change = form_with(window_b, "action", "change").set("order-pay-to", str(ADMIRAL))
    window_a = client.get(url).content.decode()
    assert submit(client, url, form_with(window_a, "index", "0")).status_code == 302
    assert submit(client, url, change).status_code == 400
    assert paid() == [GENERAL_1]  # neither overwritten nor a second payment

    # a Remove clicked twice: two requests from one form, one order removed
    assert post(client, url, "pay", **{"order-pay-to": str(WAR),
                                       "order-pay-amount": "1"}).status_code == 302
    twice = form_with(client.get(url).content.decode(), "index", "0")
    assert submit(client, url, twice).status_code == 302
    assert submit(client, url, twice).status_code == 400
    assert paid() == [WAR]
