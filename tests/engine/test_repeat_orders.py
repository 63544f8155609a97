"""The same orders as last time (junta/engine/repeat.py) and the likely order of a phase.

§repeat-orders: "your orders of the last phase of the same kind (for a Coup Phase, the coup's
phase before it) that you may still give now. It lists them, and those left out with why (a
target dead since, a pocket too small, a zone no longer in reach, a payment, gift, trade or card
play, which are deals of their day and are not repeated) ... The orders you have already given
this phase stay as they are: the repeated ones are added after them, and an order of a kind you
give once a phase (a location, a ballot) is left out when you have given one already."
§order-sets: orders that together "take more from your pocket than it holds ... are refused".
§orders: "the form of the order the phase waits for from you (your ballot, your location, the
Cabinet) is open when the page opens."
"""

from __future__ import annotations

from junta.engine import (
    Condition,
    Order,
    build,
    legal_options,
    repeat_orders,
    repeated_phases,
    validate_order,
    validate_orders,
)
from junta.engine.repeat import NOT_REPEATED

from .coup_states import ERNESTO, coup_state, final_state
from .helpers import give, in_phase

CARLOS, MARIA, BILL, DONA = range(4)


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def test_the_phases_that_repeat():
    """The turn's phases and the votes come back; a Coup Phase repeats the coup's phases before
    it; the nominations, held once before the first turn, repeat nothing."""
    assert repeated_phases("locations") == {"locations"}
    assert repeated_phases("budget_vote") == {"budget_vote"}
    assert repeated_phases("coup") == {"coup", "coup_final"}
    assert repeated_phases("coup_final") == {"coup", "coup_final"}
    assert repeated_phases("nomination") == frozenset()
    assert repeated_phases("finished") == frozenset()


def test_a_locations_turn_keeps_what_still_holds_and_says_why_not_the_rest():
    """A dead target, a pocket too small for the deposit, a payment (a deal of its day): left
    out, each in the words validation gives for it now; the location and its condition kept."""
    state = in_phase("locations")
    state.players[MARIA].pocket = 3
    state.players[BILL].status = "dead"
    card = give(state, MARIA, "Professional Assassin")
    at_bank = Condition("location", {"seat": MARIA, "location": "bank"})
    previous = [o("location", place="bank"), o("bank", at_bank, action="deposit", amount=5),
                o("assassinate", card=card, target=BILL, location="home"),
                o("pay", to=DONA, amount=2), o("bank", action="withdraw", amount=1)]
    state.players[MARIA].bank = 1
    plan = repeat_orders(state, MARIA, previous)
    assert plan.kept == (previous[0], previous[4])
    assert plan.texts == ("Location: Bank", "Withdraw 1 MP")
    reasons = {d.text: d.reason for d in plan.dropped}
    assert reasons["Deposit 5 MP if Maria is at Bank"] == str(
        validate_order(state, MARIA, previous[1])[0])
    assert "You have 3 MP in your pocket; you cannot deposit 5." in reasons[
        "Deposit 5 MP if Maria is at Bank"]
    assassin = next(r for t, r in reasons.items() if t.startswith("Send"))
    assert "Bill is dead" in assassin
    assert reasons["Pay Dona 2 MP"] == NOT_REPEATED
    assert validate_orders(state, MARIA, list(plan.kept)) == []


def test_a_condition_is_kept_with_its_order():
    state = in_phase("locations")
    state.players[MARIA].pocket = 5
    at_bank = Condition("location", {"seat": MARIA, "location": "bank"})
    previous = [o("location", place="bank"), o("bank", at_bank, action="deposit", amount=5)]
    plan = repeat_orders(state, MARIA, previous)
    assert plan.kept == tuple(previous)
    assert plan.kept[1].condition == at_bank
    assert plan.dropped == ()


def test_what_would_overspend_with_the_orders_kept_before_it_is_left_out():
    """Each legal alone, together 7 MP from a pocket of 5 (§order-sets): the later one goes."""
    state = in_phase("locations")
    state.players[MARIA].pocket = 5
    card = give(state, MARIA, "Professional Assassin")
    previous = [o("bank", action="deposit", amount=5),
                o("assassinate", card=card, target=BILL, location="home")]
    assert all(validate_order(state, MARIA, x) == [] for x in previous)
    plan = repeat_orders(state, MARIA, previous)
    assert plan.kept == (previous[0],)
    (left,) = plan.dropped
    assert "pocket" in left.reason and "5 MP" in left.reason
    assert "this would be order 2" in left.reason


def test_the_orders_given_this_phase_stay():
    """A location already given stands; an order already in is not given twice; the others
    are added after the current ones, checked with them."""
    state = in_phase("locations")
    state.players[MARIA].pocket = 4
    current = [o("location", place="home"), o("bank", action="deposit", amount=3)]
    previous = [o("location", place="bank"), o("bank", action="deposit", amount=3)]
    plan = repeat_orders(state, MARIA, previous, current)
    assert plan.kept == ()
    reasons = [d.reason for d in plan.dropped]
    assert reasons[0].startswith("You already gave this phase's order: Location: Home.")
    assert reasons[1] == "It is already among your orders."
    card = give(state, MARIA, "Professional Assassin")
    plan = repeat_orders(state, MARIA, [o("assassinate", card=card, target=BILL,
                                          location="home")], current)
    assert plan.kept == ()  # 3 MP deposited + 2 MP for the assassin > 4 MP
    assert "this would be order 3" in plan.dropped[0].reason


def test_a_budget_vote_repeats():
    state = in_phase("budget_vote")
    previous = [o("vote", choice="no")]
    plan = repeat_orders(state, MARIA, previous)
    assert plan.kept == tuple(previous), plan.dropped
    assert plan.texts == ("Vote no",)


def test_a_coup_move_from_a_zone_left_is_left_out_and_a_legal_one_kept():
    """Coup Phase 1 after the Rebel-Only move 17 -> 24: the move from 17 finds no unit there
    now (in the words validation gives); a move the options offer now is kept."""
    state, _ = coup_state()
    stale = o("move", from_zone=17, to_zone=24)
    option = legal_options(state, ERNESTO).of_kind("move")[0]
    fresh = build(state, ERNESTO, option, option.defaults())
    assert validate_order(state, ERNESTO, fresh) == []
    plan = repeat_orders(state, ERNESTO, [stale, fresh])
    assert plan.kept == (fresh,)
    assert plan.dropped[0].reason == " ".join(
        str(p) for p in validate_order(state, ERNESTO, stale))


def test_stored_orders_are_read_and_an_unreadable_one_says_so():
    state = in_phase("locations")
    plan = repeat_orders(state, MARIA, [{"kind": "location", "place": "club"},
                                        {"kind": "no_such_kind"}])
    assert plan.kept == (o("location", place="club"),)
    assert len(plan.dropped) == 1


def test_nothing_repeats_in_a_phase_held_once():
    state = in_phase("nomination")
    plan = repeat_orders(state, MARIA, [o("nominate", candidate=MARIA)])
    assert plan.kept == ()
    assert "not repeated" in plan.dropped[0].reason


def test_the_likely_order_of_a_phase():
    """The location in the Locations phase, the ballot in a vote, the Pro-Junta/President
    side in Coup Phase 6; nothing else there."""
    likely = [x.kind for x in legal_options(in_phase("locations"), MARIA).orders if x.likely]
    assert likely == ["location"]
    likely = [x.kind for x in legal_options(in_phase("budget_vote"), MARIA).orders if x.likely]
    assert likely == ["vote"]
    cabinet = legal_options(in_phase("cabinet"), CARLOS).orders
    assert [x.kind for x in cabinet if x.likely] == ["appoint"]
    state = final_state()
    assert {x.kind for x in legal_options(state, ERNESTO).orders if x.likely} <= {"coup_side"}
