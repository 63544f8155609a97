"""The Orders page (issue 6): a form for every order, with legal choices only, read back into
an order the engine accepts; trades with cards; errors next to their fields with the submitted
values kept; conditions that show only the details they need; the Orders tab only for seats."""

from __future__ import annotations

import re

import pytest
from django.http import QueryDict
from django.urls import reverse

from junta.engine import GameState, Order, parse_order, validate_order, validate_orders
from junta.engine import catalog as cat
from junta.engine.orders import ORDER_KINDS
from junta.games.models import Game
from junta.games.models import Order as OrderRow
from junta.games.order_builder import (
    builders,
    condition_needs,
    describe_order,
    forms,
    place_errors,
    read,
    read_order,
    unavailable,
)
from tests.engine.helpers import give, in_phase, in_play, run
from tests.web.test_coup_orders import COUP_KINDS, builder, choices, install, keys, version
from tests.web.test_pipeline import campaign  # noqa: F401 - fixture

PRESIDENT, SECURITY, GENERAL_1, GENERAL_2, GENERAL_3, ADMIRAL, AIR_FORCE, WAR, FOREIGN, FARM = \
    range(10)


def fill_in(b, **values: str | list[str]) -> QueryDict:
    """The form as a player fills it in: the values given, the first choice of every other
    list, the least of every required number; optional numbers and ticks left empty."""
    q = QueryDict(mutable=True)
    q["kind"] = b.key
    for f in b.fields:
        if f.name in values:
            value = values[f.name]
            q.setlist(f.name, value) if isinstance(value, list) else q.__setitem__(f.name, value)
        elif f.kind == "number":
            q[f.name] = str(f.minimum or 1) if f.required else ""
        elif f.kind == "multiselect":
            if f.required:
                q.setlist(f.name, [f.choices[0][0]])
        else:
            q[f.name] = f.choices[0][0]
    return q


def card(state: GameState, seat: int, name: str) -> str:
    return str(next(c for c in state.players[seat].hand if cat.card(c).name == name))


# --- states in which each form is offered --------------------------------------------------------

def nomination() -> GameState:
    s = in_phase("nomination")
    s.positions[cat.PRESIDENT] = None
    return s


def election() -> GameState:
    s = in_phase("election")
    s.election = {"reason": "resignation", "candidates": [GENERAL_1, ADMIRAL], "round": 1}
    return s


def budget_vote() -> GameState:
    """The Farm & Labor Secretary (5 votes) has Church influence in play and a Vote card; the
    Admiral holds Power Failure."""
    s = in_phase("budget_vote")
    in_play(s, FARM, "Church")
    give(s, FARM, "Ballot Stuffers")
    give(s, ADMIRAL, "Power Failure")
    return s


def cabinet() -> GameState:
    s = in_phase("cabinet")
    give(s, GENERAL_2, "The President's Competence Questioned")
    return s


def budget_draw() -> GameState:
    return in_phase("budget_draw")


def budget_proposal() -> GameState:
    s = in_phase("budget_proposal")
    s.budget = {"held": [3, 2, 2, 1], "all_drawn": [3, 2, 2, 1], "holder": PRESIDENT,
                "proposer": PRESIDENT}
    s.players[PRESIDENT].pocket = 4
    give(s, FOREIGN, "Foreign Aid Audit")
    return s


def internal_security() -> GameState:
    return in_phase("internal_security")


def locations() -> GameState:
    """Cards in hand for every kind of play; the Farm & Labor Secretary in exile asking to
    return; money to pay, bank and trade."""
    s = in_phase("locations")
    give(s, GENERAL_3, "Professional Assassin")
    give(s, GENERAL_3, "Informant")
    give(s, GENERAL_3, "Church")
    give(s, GENERAL_3, "Burglar")
    in_play(s, ADMIRAL, "Bankers")
    give(s, ADMIRAL, "Bank Holiday")
    give(s, AIR_FORCE, "Amnesty")
    give(s, AIR_FORCE, "Secret Political Donation")
    give(s, WAR, "Spy in Switzerland")
    in_play(s, WAR, "Monarchists")
    give(s, WAR, "Monarchist Assassin")
    for p in s.players:
        p.pocket, p.bank = 5, 3
    s.players[FARM].status = "exiled"
    s.positions[cat.FARM_LABOR] = None
    s.pending_returns = [FARM]
    return s


def exile() -> GameState:
    s = in_phase("locations")
    s.players[FARM].status = "exiled"
    s.positions[cat.FARM_LABOR] = None
    return s


STATES = {f.__name__: f for f in (nomination, election, budget_vote, cabinet, budget_draw,
                                  budget_proposal, internal_security, locations, exile)}
APPOINTMENTS = {f"position:{pos}": str(seat) for seat, pos in enumerate(cat.CABINET, start=1)}

# (state, seat, form key or a card name for its play_card form, the values filled in)
CASES = [
    ("nomination", FOREIGN, "nominate", {"candidate": str(GENERAL_1)}),
    ("nomination", FOREIGN, "second", {"candidate": str(GENERAL_1)}),
    ("nomination", GENERAL_1, "decline", {}),
    ("election", FARM, "vote", {"choice": str(ADMIRAL), f"split:position:{cat.FARM_LABOR}":
                                "abstain"}),
    ("budget_vote", FARM, "vote", {
        "choice": "yes", "cards": ["card:Ballot Stuffers"],
        f"split:position:{cat.FARM_LABOR}": "no", "split:influence:card:Church": "abstain",
        "split:card:card:Ballot Stuffers": "no"}),
    ("budget_vote", ADMIRAL, "Power Failure", {}),
    ("cabinet", PRESIDENT, "appoint", APPOINTMENTS),
    ("cabinet", GENERAL_2, "The President's Competence Questioned", {}),
    ("budget_draw", WAR, "new_weapons", {"position": cat.ADMIRAL}),
    ("budget_draw", FOREIGN, "draw_bills", {"position": cat.FOREIGN, "count": "4"}),
    ("budget_draw", PRESIDENT, "resign", {}),
    ("budget_proposal", PRESIDENT, "propose_budget", {
        "alloc:1": "3", "alloc:2": "2", "alloc:9": "4", "from_pocket": "1",
        "bill:1:2": str(GENERAL_1), "bill:0:3": str(SECURITY)}),
    ("budget_proposal", FOREIGN, "Foreign Aid Audit", {}),
    ("internal_security", SECURITY, "seize_chamber", {"seize": "yes"}),
    ("locations", GENERAL_3, "location", {"place": "club"}),
    ("locations", SECURITY, "assassinate", {"card": "secret_police", "target": str(WAR),
                                            "location": "hq"}),
    ("locations", GENERAL_3, "assassinate", {"card": "card:Professional Assassin",
                                             "target": str(WAR), "location": "mistress"}),
    ("locations", GENERAL_3, "bank", {"bank_action": "withdraw", "amount": "3"}),
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


def _values(s: GameState, seat: int, values: dict) -> dict:
    """ "card:Name" stands for that card's number in the seat's hand (or in play)."""
    def one(v: str) -> str:
        if v.startswith("card:"):
            name = v[5:]
            p = s.players[seat]
            return str(next(c for c in [*p.hand, *p.influence] if cat.card(c).name == name))
        return v

    out = {}
    for key, value in values.items():
        key = re.sub(r"card:([A-Z][\w ']+)", lambda m: one(m.group(0)), key)
        out[key] = [one(v) for v in value] if isinstance(value, list) else one(value)
    return out


def _form(s: GameState, seat: int, key: str, values: dict | None = None):
    """The form of `key`; a card's name stands for the form that plays it: its own, or the
    form shared by the cards that need no target (then the card is chosen in it)."""
    if key in ORDER_KINDS:
        return builder(s, seat, key)
    cid = card(s, seat, key)
    own = [b for b in builders(s, seat) if b.key == f"play_card:{cid}"]
    if values is not None and not own:
        values["card"] = cid
    return own[0] if own else builder(s, seat, "play_card")


@pytest.mark.parametrize(("name", "seat", "key", "values"), CASES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_every_form_round_trips_into_an_order_the_engine_accepts(name, seat, key, values):
    s = STATES[name]()
    values = _values(s, seat, values)
    b = _form(s, seat, key, values)
    order, problem = read_order(s, seat, fill_in(b, **values))
    assert order is not None, problem
    parsed = parse_order(order)
    assert validate_order(s, seat, parsed) == [], order
    assert validate_orders(s, seat, [parsed]) == [], order
    assert describe_order(s, order)


def test_the_round_trips_cover_every_order_that_is_not_a_coup_order():
    covered = {_form(STATES[n](), seat, key).kind for n, seat, key, _ in CASES}
    assert covered == set(ORDER_KINDS) - COUP_KINDS
    plays = {key for _, _, key, _ in CASES if key not in ORDER_KINDS}
    assert len(plays) >= 8  # influence, donation, intelligence, theft, re-vote, motion...


def test_the_forms_give_the_engine_what_it_expects():
    s = budget_vote()
    ballot = card(s, FARM, "Ballot Stuffers")
    church = str(s.players[FARM].influence[0])
    order, _ = read_order(s, FARM, fill_in(builder(s, FARM, "vote"), choice="yes", cards=[ballot],
                                        **{f"split:influence:{church}": "no",
                                           f"split:card:{ballot}": "abstain"}))
    assert order == {"kind": "vote", "choice": "yes", "cards": [int(ballot)],
                     "split": {f"influence:{church}": "no", f"card:{ballot}": "abstain"}}
    s = budget_proposal()
    b = builder(s, PRESIDENT, "propose_budget")
    assert "You hold 8 MP in bills (3, 2, 2, 1)" in b.help
    order, _ = read_order(s, PRESIDENT, fill_in(b, **{
        "alloc:1": "3", "alloc:2": "", "bill:0:3": "1", "bill:3:1": "", "from_pocket": ""}))
    assert order["allocations"] == {"1": 3} and order["from_pocket"] == 0
    assert order["bills"] == {"1": [3]}
    assert describe_order(s, order) == f"Budget: {s.name(1)} 3 MP (bills: {s.name(1)} 3 MP)"


# --- trades with cards -------------------------------------------------------------------------

def test_a_trade_can_ask_for_cards_by_name_without_seeing_the_partners_hand():
    s = locations()
    b = builder(s, GENERAL_3, "trade")
    wanted = choices(b, "get_cards")
    assert "Spy in Switzerland" in wanted and "Ballot Stuffers" in wanted
    assert "Informant" not in wanted  # the only copy is in my hand
    assert "Bankers" not in wanted and "Monarchists" not in wanted  # in play: public
    assert "Secret Political Donation" in wanted  # one copy is elsewhere
    # the list says nothing of what the others hold
    assert choices(builder(s, ADMIRAL, "trade"), "get_cards").keys() >= {"Informant"}
    give(s, WAR, "Ballot Stuffers")
    give(s, ADMIRAL, "Wiretap")
    assert choices(builder(s, GENERAL_3, "trade"), "get_cards") == wanted
    get = next(f for f in b.fields if f.name == "get_cards")
    assert "your partner must order the same trade" in get.help
    assert "same trade" in b.help


def _trade(s: GameState, seat: int, **values) -> Order:
    order, problem = read_order(s, seat, fill_in(builder(s, seat, "trade"), **values))
    assert order is not None, problem
    parsed = parse_order(order)
    assert validate_order(s, seat, parsed) == [], order
    return parsed


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
    assert describe_order(s, theirs.to_dict()) == (
        f"Trade with {s.name(WAR)}: give 1 MP, get Secret Political Donation")


# --- only legal choices -----------------------------------------------------------------------

def test_the_card_forms_offer_only_what_the_engine_accepts_and_say_why_not():
    s = budget_draw()
    for name in ("Bank Holiday", "Power Failure", "Ballot Stuffers", "Amateur Assassin",
                 "Secret Police Overtime", "Demand for Reform", "Informant", "Church",
                 "Amnesty", "Helicopter"):
        give(s, GENERAL_3, name)
    offered = [b for b in builders(s, GENERAL_3) if b.kind == "play_card"]
    names = {label for b in offered for f in b.fields if f.name == "card"
             for _, label in f.choices}
    assert names == {"Informant", "Church"}
    # every card that may be offered is one the engine accepts
    for b in offered:
        for value, _ in choices(b, "card").items():
            order, _ = read_order(s, GENERAL_3, fill_in(b, card=value))
            assert validate_order(s, GENERAL_3, parse_order(order)) == []
    notes = "\n".join(unavailable(s, GENERAL_3))
    assert "Bank Holiday cannot be played in the Draw Budget" in notes
    assert "Power Failure cannot be played" in notes
    assert "Ballot Stuffers: a Vote card" in notes
    assert "Amateur Assassin: sent with an assassination order in the Locations phase" in notes
    assert "Secret Police Overtime: sent with an assassination order" in notes
    assert "Demand for Reform requires Christian Democrats influence" in notes
    assert "Amnesty: there is no player it can be played on now." in notes
    assert "Helicopter cannot be played" in notes
    # a targeted card: the targets the engine accepts (an exile only for Amnesty)
    s = locations()
    assert choices(builder(s, AIR_FORCE, f"play_card:{card(s, AIR_FORCE, 'Amnesty')}"),
                   "target") == {str(FARM): f"{s.name(FARM)} (in exile)"}
    informant = builder(s, GENERAL_3, f"play_card:{card(s, GENERAL_3, 'Informant')}")
    assert str(FARM) not in choices(informant, "target")
    assert str(GENERAL_3) not in choices(informant, "target")
    # re-vote and assassination-time cards have a form of their own: their own conditions
    burglar = builder(s, GENERAL_3, f"play_card:{card(s, GENERAL_3, 'Burglar')}")
    assert "banks" not in dict(burglar.conditions)
    assert "banks" in dict(builder(s, GENERAL_3, "play_card").conditions)


def test_assassins_and_vote_cards_the_engine_refuses_are_not_offered():
    s = in_phase("locations")
    give(s, PRESIDENT, "Foreign Assassin")
    give(s, PRESIDENT, "Monarchist Assassin")  # without Monarchists in play
    give(s, PRESIDENT, "Amateur Assassin")
    assert set(choices(builder(s, PRESIDENT, "assassinate"), "card").values()) == {
        "Amateur Assassin"}
    notes = "\n".join(unavailable(s, PRESIDENT))
    assert "Foreign Assassin: The Foreign Assassin cannot be played by the President" in notes
    assert "Monarchist Assassin requires Monarchists influence" in notes
    s = in_phase("election")
    s.election = {"reason": "initial", "candidates": [0, 1]}
    give(s, FARM, "Ballot Stuffers")
    assert "cards" not in {f.name for f in builder(s, FARM, "vote").fields}
    assert "In the first election every player has exactly one vote" in \
        "\n".join(unavailable(s, FARM))


def test_the_bank_form_is_not_offered_while_the_bank_is_closed():
    s = locations()
    assert "bank" in keys(s, GENERAL_3)
    s.bank_status = "closed"
    assert "bank" not in keys(s, GENERAL_3)
    assert "Banking: The Bank is closed for the rest of the turn." in unavailable(s, GENERAL_3)
    s.bank_status = "closed_for_lunch"  # a forced budget: banking waits for after lunch
    assert "bank" in keys(s, GENERAL_3)


def test_a_gift_is_offered_only_to_players_under_the_hand_limit():
    s = locations()
    for name in ("Students", "Peasants", "Labor Unions", "Press", "Radicals", "Landowners"):
        give(s, ADMIRAL, name)
    assert str(ADMIRAL) not in choices(builder(s, GENERAL_3, "give_card"), "to")


# --- conditions -------------------------------------------------------------------------------

def test_a_condition_reads_only_the_details_its_kind_needs():
    assert condition_needs("location") == ("cond_seat", "cond_location")
    assert condition_needs("coup_excuse") == ()
    assert condition_needs("vote_result") == ("cond_result", "cond_margin")
    s = locations()
    b = builder(s, GENERAL_3, "pay")
    q = fill_in(b, to=str(ADMIRAL), amount="2")
    q.update({"condition": "location", "cond_seat": str(WAR), "cond_location": "club",
              "cond_card": "Informant", "cond_position": cat.WAR})  # left over from before
    order, _ = read_order(s, GENERAL_3, q)
    assert order["condition"] == {"kind": "location", "seat": WAR, "location": "club"}
    q["cond_seat"] = ""
    reading = read(s, GENERAL_3, q)
    assert (reading.order, reading.problem, reading.field) == (
        None, "Choose the player the condition is about.", "cond_seat")


def test_a_vote_condition_in_an_election_names_a_candidate():
    s = election()
    s.players[FOREIGN].pocket = 3
    b = builder(s, FOREIGN, "pay")
    q = fill_in(b, to=str(ADMIRAL), amount="1")
    q.update({"condition": "voted", "cond_seat": str(WAR), "cond_choice": str(ADMIRAL)})
    order, problem = read_order(s, FOREIGN, q)
    assert order["condition"] == {"kind": "voted", "seat": WAR, "choice": ADMIRAL}, problem
    assert validate_order(s, FOREIGN, parse_order(order)) == []


# --- errors next to their fields ----------------------------------------------------------------

def test_the_engines_messages_go_to_the_field_that_causes_them():
    s = locations()
    b = builder(s, GENERAL_3, "pay")
    q = fill_in(b, to=str(ADMIRAL), amount="9")
    order, _ = read_order(s, GENERAL_3, q)
    messages = validate_order(s, GENERAL_3, parse_order(order))
    assert messages == ["You have 5 MP in your pocket; you cannot pay 9 MP."]
    assert place_errors(s, GENERAL_3, b, q, messages) == ({"amount": messages}, [])
    # a message no single field answers stays with the whole form
    t = builder(s, GENERAL_3, "trade")
    q = fill_in(t, **{"with": str(WAR), "give_money": "", "get_money": ""})
    order, _ = read_order(s, GENERAL_3, q)
    messages = validate_order(s, GENERAL_3, parse_order(order))
    assert messages == ["A trade must exchange something."]
    assert place_errors(s, GENERAL_3, t, q, messages) == ({}, messages)
    # a condition's message goes to the detail that causes it
    burglar = builder(s, GENERAL_3, f"play_card:{card(s, GENERAL_3, 'Burglar')}")
    q = fill_in(burglar, target=str(WAR))
    q.update({"condition": "location", "cond_seat": str(WAR), "cond_location": "bank"})
    order, _ = read_order(s, GENERAL_3, q)
    messages = validate_order(s, GENERAL_3, parse_order(order))
    assert "may depend on your own location" in messages[0]
    assert place_errors(s, GENERAL_3, burglar, q, messages) == ({"cond_seat": messages}, [])


def test_forms_keep_what_was_submitted_and_carry_their_errors():
    s = locations()
    q = QueryDict(mutable=True)
    q.update({"kind": "pay", "to": str(ADMIRAL), "amount": "9", "condition": "killed",
              "cond_seat": str(WAR)})
    built, _ = forms(s, GENERAL_3, data=q, failed="pay", field_errors={"amount": ["Too much."]})
    pay = next(b for b in built if b.key == "pay")
    assert pay.bound and pay.html_id == "order-pay"
    fields = {f.name: f for f in [*pay.fields, *pay.condition_fields]}
    assert fields["to"].value == [str(ADMIRAL)] and fields["amount"].value == ["9"]
    assert fields["amount"].errors == ["Too much."]
    assert fields["amount"].html_id == "order-pay-amount"
    assert fields["condition"].value == ["killed"] and fields["cond_seat"].value == [str(WAR)]
    assert fields["cond_location"].conditions == ("location",)
    other = next(b for b in built if b.key == "location")
    assert not other.bound and all(not f.value and not f.errors for f in other.fields)


# --- the page ---------------------------------------------------------------------------------

def seat_users(game: Game) -> dict:
    return {p.seat: p.user for p in game.players.all()}


def start_in(campaign, s: GameState):  # noqa: F811
    from junta.games import running

    game, users = campaign()
    running.start_campaign(game.id, game.gm)
    phase = install(game, s)
    return game, phase, seat_users(game)


@pytest.mark.django_db
def test_a_rejected_order_comes_back_filled_in_with_the_message_by_its_field(
        campaign, client):  # noqa: F811
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = client.post(url, {"action": "add", "kind": "location", "place": "club",
                                  "state_version": version(game)})
    assert response.status_code == 302
    response = client.post(url, {"action": "add", "kind": "pay", "to": str(ADMIRAL),
                                 "amount": "9", "state_version": version(game)})
    assert response.status_code == 400
    page = response.content.decode()
    message = "You have 5 MP in your pocket; you cannot pay 9 MP."
    assert f'<p class="error" id="order-pay-amount-error"><span class="visually-hidden">' \
           f'Error: </span>{message}' in page
    assert re.search(r'<input type="number"[^>]*id="order-pay-amount"[^>]*value="9"'
                     r'[^>]*aria-describedby="order-pay-amount-help order-pay-amount-error"'
                     r'[^>]*aria-invalid="true"', page)
    assert f'<option value="{ADMIRAL}" selected>' in page
    assert f'<a href="#order-pay-amount">Pay money, MP: {message}</a>' in page
    assert '<details class="builder builder-error" id="order-pay" open>' in page
    assert "Order 2:" not in page and "Not saved." in page
    # the order saved before is still there, untouched
    assert "Location: Club" in page
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.payload == [{"kind": "location", "place": "club"}] and row.revision == 1


@pytest.mark.django_db
def test_a_blank_condition_player_and_a_set_error_are_shown_with_their_form(
        campaign, client):  # noqa: F811
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = client.post(url, {"action": "add", "kind": "pay", "to": str(ADMIRAL),
                                 "amount": "2", "condition": "killed", "cond_seat": "",
                                 "state_version": version(game)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose the player the condition is about." in page
    assert "names a player who is not in this game" not in page
    assert 'id="order-pay-cond-seat-error"' in page
    assert '<option value="killed" selected>' in page
    # two unconditional locations: the set's message goes with the form just submitted
    client.post(url, {"action": "add", "kind": "location", "place": "club",
                      "state_version": version(game)})
    response = client.post(url, {"action": "add", "kind": "location", "place": "hq",
                                 "state_version": version(game)})
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="order-location-errors"' in page
    assert "You gave 2 unconditional orders to choose a location; give one." in page
    assert '<option value="hq" selected>' in page
    assert OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3]).payload == [
        {"kind": "location", "place": "club"}]


@pytest.mark.django_db
def test_a_trade_for_cards_posted_on_the_page_is_saved(campaign, client):  # noqa: F811
    s = locations()
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert "Cards you get" in page and "your partner must order the same trade" in page
    response = client.post(url, {"action": "add", "kind": "trade", "with": str(WAR),
                                 "give_cards": [card(s, GENERAL_3, "Informant")],
                                 "get_cards": ["Spy in Switzerland"], "give_money": "",
                                 "get_money": "1", "state_version": version(game)})
    assert response.status_code == 302
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.payload == [{"kind": "trade", "with": WAR, "give_money": 0, "get_money": 1,
                            "give_cards": [int(card(s, GENERAL_3, "Informant"))],
                            "get_cards": [int(card(s, WAR, "Spy in Switzerland"))]}]
    page = client.get(url).content.decode()
    wars = s.name(WAR).replace("'", "&#x27;")
    assert f"Trade with {wars}: give Informant, get Spy in Switzerland, 1 MP" in page


@pytest.mark.django_db
def test_the_page_says_why_the_bank_is_not_offered(campaign, client):  # noqa: F811
    s = locations()
    s.bank_status = "closed"
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    page = client.get(reverse("game_orders", args=[game.id])).content.decode()
    assert "Deposit or withdraw" not in page
    assert "Banking: The Bank is closed for the rest of the turn." in page
    assert "Not offered now" in page


@pytest.mark.django_db
def test_every_field_has_a_label_and_conditions_say_which_details_they_use(
        campaign, client):  # noqa: F811
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    page = client.get(reverse("game_orders", args=[game.id])).content.decode()
    ids = re.findall(r'<(?:select|input|textarea)[^>]*\bid="([^"]+)"', page)
    assert ids
    for element_id in ids:
        assert f'for="{element_id}"' in page, element_id
    assert len(ids) == len(set(ids))
    assert 'data-conditions="location"' in page  # the Location detail
    assert "js/orders.js" in page


@pytest.mark.django_db
def test_the_orders_tab_is_only_for_players_with_a_seat(campaign, client,  # noqa: F811
                                                        django_user_model):
    from junta.games import running

    game, users = campaign()
    running.start_campaign(game.id, game.gm)
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
def test_a_note_that_could_not_be_saved_is_kept_in_the_box(campaign, client):  # noqa: F811
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = client.post(url, {"action": "note", "note_to_gm": "Back on Tuesday",
                                 "state_version": 0})
    assert response.status_code == 400
    page = response.content.decode()
    assert "has changed since this form" in page and ">Back on Tuesday</textarea>" in page


# --- forms posted exactly as a browser sends them ------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize(("action", "amount", "pocket", "bank"),
                         [("deposit", "4", 1, 7), ("withdraw", "3", 8, 0)])
def test_a_bank_order_posted_from_the_page_is_saved(campaign, client, action, amount,  # noqa: F811
                                                     pocket, bank):
    """"Players wishing to deposit or withdraw money from the Bank must have chosen the Bank as
    their location and may now do so." The deposit/withdraw form, posted with every control the
    browser sends (the page's own hidden fields included), is stored, and the Bank does it."""
    from tests.web.browser_forms import form_with, submit

    s = locations()
    game, phase, by_seat = start_in(campaign, s)
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    form = form_with(client.get(url).content.decode(), "kind", "bank")
    response = submit(client, url, form.choose(action).type_number(amount))
    assert response.status_code == 302, response.content.decode()[:3000]
    row = OrderRow.objects.get(phase=phase, player__user=by_seat[GENERAL_3])
    assert row.payload == [{"kind": "bank", "action": action, "amount": int(amount)}]
    page = client.get(url).content.decode()
    assert f"{action.title()} {amount} MP" in page and "Order added." in page
    after, _ = run(s, {GENERAL_3: [Order("location", {"place": "bank"}),
                                   *[parse_order(o) for o in row.payload]]})
    assert (after.players[GENERAL_3].pocket, after.players[GENERAL_3].bank) == (pocket, bank)


@pytest.mark.django_db
def test_no_order_form_has_a_field_named_like_the_pages_own_fields(campaign, client):  # noqa: F811
    """A field of an order form that shares its name with the page's own hidden fields (the
    button's `action`, the form's `kind`) makes the browser send two values for one name."""
    from tests.web.browser_forms import forms_in

    game, phase, by_seat = start_in(campaign, locations())
    for seat in (GENERAL_3, SECURITY, PRESIDENT):
        client.force_login(by_seat[seat])
        for form in forms_in(client.get(reverse("game_orders", args=[game.id])).content
                             .decode()):
            names = [n for n in form.names() if n != "csrfmiddlewaretoken"]
            checkboxes = {c.name for c in form.controls if c.type == "checkbox"}
            single = [n for n in names if n not in checkboxes]
            assert len(single) == len(set(single)), (seat, single)


@pytest.mark.django_db
def test_a_post_that_changes_nothing_never_says_saved(campaign, client):  # noqa: F811
    game, phase, by_seat = start_in(campaign, locations())
    client.force_login(by_seat[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    response = client.post(url, {"action": "deposit", "state_version": version(game)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Saved." not in page and "Not saved." in page
    assert not OrderRow.objects.filter(phase=phase).exists()
