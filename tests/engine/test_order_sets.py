"""Whole-set validation: every pair of orders that draw on the same pocket, bank account, card
or unit is refused when it is given, naming both orders, unless their conditions exclude each
other. Before, such a set was accepted and then silently cut when it resolved.

§order-sets: orders that together "take more from your pocket than it holds ..., withdraw
more than your Bank account holds, use one card twice ... or one unit twice ... are refused,
naming both orders"; "A pocket can never go negative." §ruling-exclusive-conditions: orders on
conditions that exclude each other "may draw on the same money or card".
(§ruling-nothing-spent-twice).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from junta.engine import Condition, Order, validate_order, validate_orders
from junta.engine import catalog as cat
from junta.engine.conditions import exclusive

from .coup_states import coup_state, units
from .helpers import give, in_phase, in_play, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def named(state, seat: int, name: str) -> int:
    p = state.players[seat]
    return next(c for c in [*p.hand, *p.influence] if cat.card(c).name == name)


def refused_together(state, seat: int, first: Order, second: Order) -> str:
    """The set's message about the pair; each order alone is legal."""
    assert validate_order(state, seat, first) == [], first
    assert validate_order(state, seat, second) == [], second
    problems = validate_orders(state, seat, [first, second])
    assert problems, (first, second)
    clash = [p for p in problems if p.orders == (0, 1)]
    assert clash, problems
    return str(clash[0])


# --- the pocket ------------------------------------------------------------------------------

def pocket_state():
    """Locations phase; Bill has 5 MP and holds a Professional Assassin (2 MP) and a Bribe of
    the Police (1 MP a unit)."""
    s = in_phase("locations")
    s.players[BILL].pocket = 5
    s.players[BILL].bank = 4
    give(s, BILL, "Professional Assassin")
    give(s, BILL, "Bribe the Police")
    return s


def pocket_orders(s) -> dict[str, tuple[Order, int]]:
    """Each order that takes money from Bill's pocket, and how much."""
    return {
        "payment": (o("pay", to=DONA, amount=3), 3),
        "trade": (o("trade", **{"with": DONA, "give_money": 3, "get_money": 0,
                                "give_cards": [], "get_cards": []}), 3),
        "deposit": (o("bank", action="deposit", amount=3), 3),
        "assassin": (o("assassinate", card=named(s, BILL, "Professional Assassin"),
                       target=DONA, location="home"), 2),
        "bribe": (o("play_card", card=named(s, BILL, "Bribe the Police"), zone=10), 1),
    }


POCKET_KINDS = ["payment", "trade", "deposit", "assassin", "bribe"]
ALSO = Condition("survives", {"seat": DONA})  # settled before any of these orders acts


@pytest.mark.parametrize(("a", "b"), list(combinations_with_replacement(POCKET_KINDS, 2)))
def test_two_orders_that_overdraw_the_pocket_are_refused_naming_both(a, b):
    s = pocket_state()
    orders = pocket_orders(s)
    (first, x), (second, y) = orders[a], orders[b]
    if a == b and a in ("deposit", "assassin", "bribe"):
        # one deposit a phase, one copy of a card: the second is conditional on an unrelated fact
        second = Order(second.kind, dict(second.args), ALSO)
        if a != "deposit":
            return  # the same card twice is the card rule's (below)
    s.players[BILL].pocket = x + y - 1
    message = refused_together(s, BILL, first, second)
    assert "pocket" in message and "order 1" in message.lower() or "orders 1 and 2" in message
    assert f"you have {x + y - 1} MP" in message
    s.players[BILL].pocket = x + y  # enough for both
    assert validate_orders(s, BILL, [first, second]) == []


def test_the_budgets_money_from_the_pocket_and_a_payment_of_it_are_refused_together():
    """The issue's case: a budget taking 5 MP from the President's pocket plus a payment of
    those same 5 MP; before, the payment resolved first and the budget became a zero budget."""
    s = in_phase("budget_proposal")
    s.budget = {"held": [1, 1], "all_drawn": [1, 1], "holder": CARLOS, "proposer": CARLOS}
    s.players[CARLOS].pocket = 5
    budget = o("propose_budget", allocations={str(DONA): 7}, from_pocket=5)
    payment = o("pay", to=BILL, amount=5)
    message = refused_together(s, CARLOS, payment, budget)
    assert message.startswith(f"Your payment of 5 MP to {s.name(BILL)} leaves your pocket short "
                              "for the budget's 5 MP from your pocket")
    for other in (o("trade", **{"with": BILL, "give_money": 1, "get_money": 0,
                                "give_cards": [], "get_cards": []}),):
        assert validate_orders(s, CARLOS, [budget, other])
    # a budget that needs nothing from the pocket leaves it free
    assert validate_orders(s, CARLOS, [o("propose_budget", allocations={str(DONA): 2},
                                         from_pocket=5), payment]) == []


def test_a_bribe_needs_a_coin_left_after_the_other_payments():
    s, _ = coup_state()
    bribe = give(s, BILL, "Bribe the Police")
    s.players[BILL].pocket = 2
    police = units(s, kind="Police")[0]["zone"]
    message = refused_together(s, BILL, o("pay", to=DONA, amount=2),
                               o("play_card", card=bribe, zone=police))
    assert "the price of Bribe the Police (1 MP for each unit it buys)" in message


def test_a_unit_card_with_a_price_counts_its_price():
    s, _ = coup_state()
    mercenaries = give(s, BILL, "Mercenaries")
    s.players[BILL].pocket = 3
    message = refused_together(s, BILL, o("play_card", card=mercenaries),
                               o("pay", to=DONA, amount=2))
    assert message.startswith("The 2 MP price of Mercenaries leaves your pocket short for your "
                              f"payment of 2 MP to {s.name(DONA)}")


def test_bankers_lower_assassin_costs_in_the_sum():
    s = pocket_state()
    assassin = pocket_orders(s)["assassin"][0]
    s.players[BILL].pocket = 3
    pay = o("pay", to=DONA, amount=2)
    assert validate_orders(s, BILL, [pay, assassin])  # 2 + 2 > 3
    in_play(s, BILL, "Bankers")
    assert validate_orders(s, BILL, [pay, assassin]) == []  # 2 + (2 - 1) = 3


def test_three_payments_that_only_together_overdraw_are_listed():
    s = pocket_state()
    pays = [o("pay", to=seat, amount=2) for seat in (DONA, ERNESTO, FIDEL)]
    problems = validate_orders(s, BILL, pays)
    assert len(problems) == 1 and problems[0].orders == (0, 1, 2)
    assert "Your orders take 6 MP from your pocket, which holds 5 MP" in problems[0]


def test_payments_on_conditions_that_exclude_each_other_may_use_the_same_money():
    """"Pay Dona 5 if Hector is at the Bank; pay Ernesto 5 if Hector is at Home": only one of
    them can happen."""
    s = pocket_state()
    bank = Condition("location", {"seat": HECTOR, "location": "bank"})
    home = Condition("location", {"seat": HECTOR, "location": "home"})
    assert exclusive(bank, home)
    first, second = o("pay", bank, to=DONA, amount=5), o("pay", home, to=ERNESTO, amount=5)
    assert validate_orders(s, BILL, [first, second]) == []
    # two that can both hold cannot
    assert validate_orders(s, BILL, [first, o("pay", Condition("coup_excuse"), to=ERNESTO,
                                               amount=1)])
    # a third that happens either way counts with the larger branch
    assert validate_orders(s, BILL, [first, second, o("pay", to=FIDEL, amount=1)])


@pytest.mark.parametrize(("a", "b", "excluded"), [
    (Condition("killed", {"seat": DONA}), Condition("survives", {"seat": DONA}), True),
    (Condition("killed", {"seat": DONA}), Condition("survives", {"seat": FIDEL}), False),
    (Condition("exiled", {"seat": DONA}), Condition("location", {"seat": DONA,
                                                                 "location": "club"}), True),
    (Condition("location", {"seat": DONA, "location": "club"}),
     Condition("location", {"seat": DONA, "location": "club"}), False),
    (Condition("vote_result", {"result": "passes"}),
     Condition("vote_result", {"result": "fails", "margin_at_most": 3}), True),
    (Condition("vote_result", {"result": None, "margin_at_most": 3}),
     Condition("vote_result", {"result": "fails"}), False),
    (Condition("elected", {"seat": DONA}), Condition("elected", {"seat": BILL}), True),
    (Condition("voted", {"seat": DONA, "choice": "yes"}),
     Condition("voted", {"seat": DONA, "choice": "no"}), True),
    (Condition("coup_excuse"), Condition("coup_excuse"), False),
    (Condition("banks", {"seat": DONA}), Condition("card_played", {"seat": DONA,
                                                                    "card": "Informant"}), False),
])
def test_conditions_exclude_each_other_only_when_they_answer_one_question_differently(
        a, b, excluded):
    assert exclusive(a, b) is excluded
    assert exclusive(b, a) is excluded


# --- the bank --------------------------------------------------------------------------------

def test_two_withdrawals_that_overdraw_the_bank_are_refused():
    s = pocket_state()
    first = o("bank", ALSO, action="withdraw", amount=3)
    second = o("bank", action="withdraw", amount=2)
    message = refused_together(s, BILL, first, second)
    assert "Bank account" in message and "you have 4 MP" in message
    second = o("bank", action="withdraw", amount=1)
    assert validate_orders(s, BILL, [first, second]) == []


# --- one card, one use -----------------------------------------------------------------------

def card_uses(s, seat: int, card: int) -> dict[str, Order]:
    return {
        "give": o("give_card", to=DONA, card=card),
        "trade": o("trade", **{"with": ERNESTO, "give_cards": [card], "get_cards": [],
                               "give_money": 0, "get_money": 1}),
        "play": o("play_card", card=card, target=FIDEL),
        "discard": o("discard", card=card),
    }


@pytest.mark.parametrize(("a", "b"), list(combinations_with_replacement(
    ["give", "trade", "play", "discard"], 2)))
def test_a_card_used_by_two_orders_is_refused_naming_both(a, b):
    s = in_phase("locations")
    card = give(s, BILL, "Informant")
    uses = card_uses(s, BILL, card)
    first, second = uses[a], uses[b]
    if a == b:
        second = Order(second.kind, {**second.args, **({"to": FIDEL} if a == "give" else {})},
                       Condition("coup_excuse"))
    message = refused_together(s, BILL, first, second)
    assert message.startswith("Informant is used by two of your orders")
    assert "(order 1)" in message and "(order 2)" in message


@pytest.mark.parametrize("other", ["give", "trade", "discard"])
def test_a_vote_card_counted_in_a_ballot_and_given_away_is_refused(other):
    """The issue's case: a ballot counting a Vote card plus a gift of that card the same day;
    before, the vote was counted without the card, silently."""
    s = in_phase("budget_vote")
    card = give(s, BILL, "Ballot Stuffers")
    ballot = o("vote", choice="yes", cards=[card])
    message = refused_together(s, BILL, ballot, card_uses(s, BILL, card)[other])
    assert "Ballot Stuffers is used by two of your orders: your ballot, which counts it" in message


@pytest.mark.parametrize("other", ["give", "trade", "discard"])
def test_an_assassin_sent_and_given_away_is_refused(other):
    s = in_phase("locations")
    card = give(s, BILL, "Amateur Assassin")
    attempt = o("assassinate", card=card, target=FIDEL, location="club")
    message = refused_together(s, BILL, attempt, card_uses(s, BILL, card)[other])
    assert f"sending it against {s.name(FIDEL)}" in message


def test_a_card_on_two_branches_that_exclude_each_other_may_be_used_by_both():
    s = in_phase("locations")
    card = give(s, BILL, "Informant")
    dead = Condition("killed", {"seat": DONA})
    alive = Condition("survives", {"seat": DONA})
    orders = [o("give_card", dead, to=FIDEL, card=card), o("give_card", alive, to=GLORIA,
                                                           card=card)]
    assert validate_orders(s, BILL, orders) == []


def test_the_refused_set_would_have_lost_the_ballots_card_without_a_word():
    """What the check prevents: the gift resolves first, the ballot is counted without it."""
    s = in_phase("budget_vote")
    card = give(s, BILL, "Ballot Stuffers")
    after, events = run(s, {BILL: [o("vote", choice="yes", cards=[card]),
                                   o("give_card", to=DONA, card=card)]})
    assert card in after.players[DONA].hand
    assert "Ballot Stuffers" not in texts(events, BILL).split("votes")[-1]


# --- one unit, one use -----------------------------------------------------------------------

def test_a_unit_handed_over_twice_or_handed_over_and_moved_is_refused():
    s, _ = coup_state()
    mine = units(s, owner=ERNESTO)
    zone, unit = mine[0]["zone"], mine[0]["id"]
    to = next(z for z in cat.zones()[zone].adjacent)
    before_a = o("transfer", units=[unit], to=DONA)
    before_b = o("transfer", units=[unit], to=FIDEL)
    after = o("transfer", units=[unit], to=FIDEL, after_moves=True)
    move = o("move", from_zone=zone, to_zone=to, units=[unit])
    label = f"{mine[0]['kind']} #{unit}"
    for first, second in ((before_a, before_b), (before_a, move), (before_a, after),
                          (after, o("transfer", units=[unit], to=DONA, after_moves=True))):
        message = refused_together(s, ERNESTO, first, second)
        assert message.startswith(f"{label} is named in two of your orders")
    # moving it and then handing it over after the moves is how the rules allow both
    assert validate_orders(s, ERNESTO, [move, after]) == []


def test_police_sent_in_the_police_response_and_in_a_stack_move_are_refused():
    s, _ = coup_state()
    s.coup["agitator_zones"] = [next(iter(cat.zones()[units(s, kind="Police")[0]["zone"]]
                                           .adjacent))]
    police = units(s, owner=MARIA, kind="Police")[0]
    response = o("police_response", zone=s.coup["agitator_zones"][0], units=[police["id"]])
    to = next(z for z in cat.zones()[police["zone"]].adjacent)
    move = o("move", from_zone=police["zone"], to_zone=to, units=[police["id"]])
    message = refused_together(s, MARIA, response, move)
    assert "the Police Response" in message and "your stack move" in message
