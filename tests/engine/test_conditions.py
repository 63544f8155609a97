"""Rule tests for conditional orders and the official adjudication order.

Each test quotes the rule it checks: "I'm Having Trouble Wording My Orders...", "Players With
Assassins May Attempt to Assassinate Someone", "Any Non-President Player May Initiate a Coup"
and the official order of the published game's rules ("rules"); docs/rules.md §conditions
and §adjudication-order, which restate them (and §any-time, §assassinations, §rebel-only).
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill 1st General, 3 Dona 2nd General, 4 Ernesto 3rd General.
"""

from __future__ import annotations

import pytest

from junta.engine import (
    Condition,
    Order,
    OrderError,
    arranged,
    parse_order,
    steps,
    validate_order,
    validate_orders,
)
from junta.engine import catalog as cat
from junta.engine.orders import CONDITION_KINDS, ORDER_KINDS, action_step, condition_step
from junta.engine.resolve import HANDLERS

from .helpers import give, in_phase, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO = range(5)
LOCATIONS_TITLE = "Locations, Assassinations, Banking and Rebel-Only Moves phase"


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def killed(seat: int) -> Condition:
    return Condition("killed", {"seat": seat})


def move_3rd_brigade_to_north_suburb(condition: Condition | None = None) -> Order:
    return o("rebel_move", condition, from_zone=17, to_zone=24)  # 3rd Brigade Barracks -> N.


def assassin_game():
    state = in_phase("locations")
    state.players[DONA].pocket = 4
    pro = give(state, DONA, "Professional Assassin")
    return state, pro


# --- the rules' own examples -----------------------------------------------------------------

def test_move_3rd_army_brigade_if_bill_is_assassinated_is_valid():
    """Rules: "an order to "Move 3rd Army Brigade to N. Suburb if Bill is assassinated," is
    valid, because assassinations are adjudicated before troop movements"."""
    state, pro = assassin_game()
    order = parse_order({"kind": "rebel_move", "from_zone": 17, "to_zone": 24,
                         "condition": {"kind": "killed", "seat": BILL}})
    assert order == move_3rd_brigade_to_north_suburb(killed(BILL))
    assert validate_order(state, ERNESTO, order) == []
    after, events = run(state, {ERNESTO: [order], BILL: [o("location", place="club")],
                                DONA: [o("assassinate", card=pro, target=BILL,
                                         location="club")]})
    assert after.players[BILL].status == "dead"
    assert after.players[ERNESTO].rebel and after.phase == "coup"
    assert after.rebel_orders == [{"seat": ERNESTO, "from_zone": 17, "to_zone": 24}]


def test_the_conditional_move_waits_for_its_condition():
    """Rules: "Orders may be given conditionally, as long as the condition for the order
    precedes the action to be undertaken in adjudication"."""
    state, _ = assassin_game()
    state.coup_excuse = True  # the move itself would be allowed
    after, _ = run(state, {ERNESTO: [move_3rd_brigade_to_north_suburb(killed(BILL))]})
    assert not after.players[ERNESTO].rebel and after.rebel_orders == []


def test_vote_no_if_bill_votes_yes_is_invalid_and_names_both_steps():
    """Rules: "An order to "Vote no on the budget if Bill votes yes," is invalid because all
    votes are counted simultaneously." §conditions: "The form offers only the conditions that
    may be used with each order and says why the others are not offered" (naming the step of
    each side)."""
    state = in_phase("budget_vote")
    order = parse_order({"kind": "vote", "choice": "no",
                         "condition": {"kind": "voted", "seat": BILL, "choice": "yes"}})
    assert validate_order(state, DONA, o("vote", choice="no")) == []
    errors = validate_order(state, DONA, order)
    assert len(errors) == 1
    message = errors[0]
    assert "\u201cBill votes yes\u201d" in message
    step = "the vote count (step 2 of the Budget Vote phase)"
    assert message.count(step) == 2  # the condition's step and the order's step
    assert "settled at" in message and "your order acts at" in message


def test_an_invalid_condition_is_refused_when_the_phase_resolves_too():
    """Rules: "An order to "Vote no on the budget if Bill votes yes," is invalid"."""
    state = in_phase("budget_vote")
    state.budget = {"held": [], "holder": CARLOS, "proposer": CARLOS,
                    "proposal": {"allocations": {}, "bills": {}, "top_up": {}}}
    bad = o("vote", Condition("voted", {"seat": BILL, "choice": "yes"}), choice="no")
    _, events = run(state, {DONA: [bad], BILL: [o("vote", choice="yes")]})
    dropped = [e for e in events if e.kind == "order_dropped"]
    assert len(dropped) == 1 and dropped[0].audience == (DONA,)
    record = [e for e in events if e.kind == "votes_cast"][0].data["record"]
    assert {r["seat"] for r in record} == {BILL}


def test_a_revote_card_may_depend_on_the_vote():
    """Rules: "An order of, "If the budget fails by 5 votes or less, play Power Failure" is
    perfectly acceptable"; "if the budget passes, play Summer Recess"."""
    state = in_phase("budget_vote")
    failure = give(state, DONA, "Power Failure")
    recess = give(state, DONA, "Summer Recess")
    fails_by_5 = Condition("vote_result", {"result": "fails", "margin_at_most": 5})
    assert validate_order(state, DONA, o("play_card", fails_by_5, card=failure)) == []
    passes = Condition("vote_result", {"result": "passes"})
    assert validate_order(state, DONA, o("play_card", passes, card=recess)) == []


# --- assassinations --------------------------------------------------------------------------

def test_an_assassination_cannot_depend_on_another_assassination():
    """Rules: "Assassination orders cannot depend on the outcome of any other assassination,
    Banking decision, or Coup Movement"."""
    state, pro = assassin_game()
    for condition in (killed(ERNESTO), Condition("survives", {"seat": ERNESTO})):
        errors = validate_order(state, DONA, o("assassinate", condition, card=pro, target=BILL,
                                               location="home"))
        assert len(errors) == 1
        assert f"assassinations (step 3 of the {LOCATIONS_TITLE})" in errors[0]


def test_an_assassination_cannot_depend_on_banking():
    """Rules: "Assassination orders cannot depend on the outcome of any other assassination,
    Banking decision, or Coup Movement"."""
    state, pro = assassin_game()
    errors = validate_order(state, DONA, o("assassinate", Condition("banks", {"seat": BILL}),
                                           card=pro, target=BILL, location="bank"))
    assert len(errors) == 1
    assert f"is settled at banking (step 4 of the {LOCATIONS_TITLE})" in errors[0]
    assert f"your order acts at assassinations (step 3 of the {LOCATIONS_TITLE})" in errors[0]


def test_no_condition_on_coup_movement_exists():
    """Rules: "Assassination orders cannot depend on the outcome of any other assassination,
    Banking decision, or Coup Movement"; "A troop movement CANNOT be conditional upon any other
    player's taking Coup action"."""
    assert not any("rebel" in kind or "coup_move" in kind for kind in CONDITION_KINDS)
    with pytest.raises(OrderError):
        parse_order({"kind": "rebel_move", "from_zone": 17, "to_zone": 24,
                     "condition": {"kind": "rebel_move", "seat": BILL}})


def test_an_assassination_may_depend_on_what_resolves_before_it():
    """Rules: "Assassination attempts CAN be conditional, but only upon effects that would
    resolve chronologically prior to assassination declaration"."""
    state, pro = assassin_game()
    at_club = Condition("location", {"seat": DONA, "location": "club"})
    played = Condition("card_played", {"seat": ERNESTO, "card": "Border Incident"})
    for condition in (at_club, played):
        order = o("assassinate", condition, card=pro, target=BILL, location="home")
        assert validate_order(state, DONA, order) == []
    for dona_at, dies in (("club", True), ("home", False)):
        state, pro = assassin_game()
        order = o("assassinate", at_club, card=pro, target=BILL, location="home")
        after, _ = run(state, {DONA: [o("location", place=dona_at), order]})
        assert (after.players[BILL].life == 2) is dies


def test_an_assassination_tied_to_a_card_played_that_day():
    """Rules: troop moves "could be dependent upon a player choosing a specific location,
    playing a specific card, a player being killed, or even a player Banking" (and so may
    assassinations, on what resolves before them)."""
    state, pro = assassin_game()
    festival = give(state, ERNESTO, "Annual Street Festival")
    order = o("assassinate", Condition("card_played", {"seat": ERNESTO,
                                                       "card": "Annual Street Festival"}),
              card=pro, target=BILL, location="home")
    after, _ = run(state, {DONA: [order], ERNESTO: [o("play_card", card=festival)]})
    assert after.players[BILL].life == 2


def test_an_assassination_cannot_depend_on_an_assassination_step_card():
    """§adjudication-order: "Locations: ... assassinations (and the cards played with them)";
    §assassinations: "All attempts of the step are simultaneous"; §conditions: "A condition
    must be settled at an earlier step of the phase's adjudication order than the order's own
    step"."""
    state, pro = assassin_game()
    for card in ("Burglar", "Bribe the Assassin"):
        condition = Condition("card_played", {"seat": ERNESTO, "card": card})
        errors = validate_order(state, DONA, o("assassinate", condition, card=pro, target=BILL,
                                               location="home"))
        assert len(errors) == 1, card
        assert f"is settled at assassinations (step 3 of the {LOCATIONS_TITLE})" in errors[0]


def test_an_assassination_cannot_depend_on_another_players_location_or_exile():
    """Rules: "Assassination attempts CAN be conditional, but only upon effects that would
    resolve chronologically prior to assassination declaration"; the official order: "1.
    Locations are designated and Assassins are dispatched" (one step). §conditions: "An
    assassination-step order (an assassin, the Secret Police, Burglar, Bank Robber, Character
    Assassin, Bribe the Assassin) may only wait for your own location or exile".
    (§ruling-assassination-conditions)."""
    state, pro = assassin_game()
    burglar = give(state, DONA, "Burglar")
    bribe = give(state, DONA, "Bribe the Assassin")
    for condition in (Condition("location", {"seat": BILL, "location": "club"}),
                      Condition("exiled", {"seat": ERNESTO})):
        for order in (o("assassinate", condition, card=pro, target=BILL, location="club"),
                      o("play_card", condition, card=burglar, target=BILL),
                      o("play_card", condition, card=bribe)):
            errors = validate_order(state, DONA, order)
            assert len(errors) == 1, order
            assert "is settled at locations and exile (step 1 of the " in errors[0]
            assert "\u201cLocations are designated and Assassins are dispatched\u201d is one " \
                   "step" in errors[0]
            assert "your own location or exile, not on another player's" in errors[0]
        # the same knowledge may still tie an any-time action or a troop move
        assert validate_order(state, DONA, o("pay", condition, to=ERNESTO, amount=1)) == []
        assert validate_order(state, ERNESTO, move_3rd_brigade_to_north_suburb(condition)) == []
    for mine in (Condition("location", {"seat": DONA, "location": "club"}),
                 Condition("exiled", {"seat": DONA})):
        assert validate_order(state, DONA, o("assassinate", mine, card=pro, target=BILL,
                                             location="club")) == []


def test_an_assassination_cannot_be_made_certain_by_one_order_per_location():
    """Rules: "Assassination attempts CAN be conditional, but only upon effects that would
    resolve chronologically prior to assassination declaration": five orders each tied to
    where the target is would make the Secret Police certain of him."""
    state = in_phase("locations")
    orders = [o("assassinate", Condition("location", {"seat": BILL, "location": place}),
                card="secret_police", target=BILL, location=place)
              for place in ("home", "hq", "bank", "club", "mistress")]
    after, events = run(state, {MARIA: orders, BILL: [o("location", place="mistress")]})
    assert after.players[BILL].life == 1
    dropped = [e for e in events if e.kind == "order_dropped"]
    assert len(dropped) == 5 and all(e.audience == (MARIA,) for e in dropped)
    assert "not on another player's" in dropped[0].text


def test_an_assassination_cannot_learn_a_location_through_a_card_played_on_it():
    """Rules: "Assassination attempts CAN be conditional, but only upon effects that would
    resolve chronologically prior to assassination declaration": a card played on condition
    that Bill is at the Club is played after the locations are known.
    (§ruling-assassination-conditions)."""
    state, pro = assassin_game()
    festival = give(state, ERNESTO, "Annual Street Festival")
    at_club = Condition("location", {"seat": BILL, "location": "club"})
    attempt = o("assassinate", Condition("card_played", {"seat": ERNESTO,
                                                         "card": "Annual Street Festival"}),
                card=pro, target=BILL, location="club")
    assert validate_order(state, DONA, attempt) == []
    after, events = run(state, {BILL: [o("location", place="club")], DONA: [attempt],
                                ERNESTO: [o("play_card", at_club, card=festival)]})
    assert festival in after.political_discard  # the card itself was played
    assert after.players[BILL].life == 1
    assert pro in after.players[DONA].hand and after.players[DONA].pocket == 4
    assert "not known before assassins are dispatched" in texts(events, DONA)
    # tied to the card player's own location, the card tells nothing about the target
    state, pro = assassin_game()
    festival = give(state, ERNESTO, "Annual Street Festival")
    own = Condition("location", {"seat": ERNESTO, "location": "hq"})
    after, _ = run(state, {BILL: [o("location", place="club")], DONA: [attempt],
                           ERNESTO: [o("location", place="hq"),
                                     o("play_card", own, card=festival)]})
    assert after.players[BILL].life == 2


def test_a_condition_on_a_card_that_cannot_be_played_in_the_phase_is_refused():
    """Rules: "Orders may be given conditionally, as long as the condition for the order
    precedes the action to be undertaken in adjudication" (a card played in another phase
    settles nothing here)."""
    state = in_phase("locations")
    state.coup_excuse = True
    condition = Condition("card_played", {"seat": BILL, "card": "Power Failure"})
    errors = validate_order(state, ERNESTO, move_3rd_brigade_to_north_suburb(condition))
    assert errors and "cannot arise" in errors[0]


# --- troop moves -----------------------------------------------------------------------------

def test_troop_moves_may_depend_on_locations_cards_kills_and_banking():
    """Rules: "Orders to move troops can be conditional upon any action which resolves prior
    to the troop movement. Thus it could be dependent upon a player choosing a specific
    location, playing a specific card, a player being killed, or even a player Banking."."""
    state, _ = assassin_game()
    for condition in (Condition("location", {"seat": BILL, "location": "bank"}),
                      Condition("card_played", {"seat": BILL, "card": "Border Incident"}),
                      killed(BILL), Condition("banks", {"seat": BILL}),
                      Condition("coup_excuse", {})):
        assert validate_order(state, ERNESTO, move_3rd_brigade_to_north_suburb(condition)) == []


def test_a_troop_move_conditional_on_banking():
    """Rules: troop moves "could be dependent upon ... even a player Banking"."""
    for banks in (True, False):
        state = in_phase("locations")
        state.players[BILL].pocket = 3
        orders = {ERNESTO: [o("location", place="hq"),
                            move_3rd_brigade_to_north_suburb(Condition("banks", {"seat": BILL}))],
                  BILL: [o("location", place="bank")]}
        if banks:
            orders[BILL].append(o("bank", action="deposit", amount=3))
        after, _ = run(state, orders)
        assert after.players[ERNESTO].rebel is banks


def test_a_troop_move_conditional_on_a_burglary():
    """Rules: troop moves "could be dependent upon a player ... playing a specific card"
    (a card of the assassination step too: it resolves before troop movements)."""
    for played in (True, False):
        state = in_phase("locations")
        burglar = give(state, DONA, "Burglar")
        condition = Condition("card_played", {"seat": DONA, "card": "Burglar"})
        move = move_3rd_brigade_to_north_suburb(condition)
        assert validate_order(state, ERNESTO, move) == []
        orders = {ERNESTO: [o("location", place="hq"), move]}
        if played:
            orders[DONA] = [o("play_card", card=burglar, target=BILL)]
        after, _ = run(state, orders)
        assert after.players[ERNESTO].rebel is played


def test_conditions_only_of_things_that_arise_in_the_phase():
    """Rules: "Orders may be given conditionally, as long as the condition for the order
    precedes the action to be undertaken in adjudication"."""
    state = in_phase("budget_vote")
    errors = validate_order(state, DONA, o("vote", killed(BILL), choice="no"))
    assert errors == ["The condition \u201cBill is assassinated\u201d cannot arise in the Budget "
                      "Vote phase."]


def test_a_condition_must_name_what_it_is_about():
    """Rules: "Orders may be as specific as the player wishes" (but a condition about a
    player must name the player)."""
    state, pro = assassin_game()
    for condition in (Condition("killed", {}), Condition("survives", {"seat": 42}),
                      Condition("location", {"seat": BILL, "location": "moon"})):
        assert validate_order(state, ERNESTO, move_3rd_brigade_to_north_suburb(condition))
    cabinet = in_phase("cabinet")
    cabinet.players[DONA].pocket = 1
    assert validate_order(cabinet, DONA, o("pay", Condition("appointed", {"seat": BILL}),
                                           to=BILL, amount=1))
    vote = in_phase("budget_vote")
    assert validate_order(vote, DONA, o("play_card", Condition("voted", {"seat": BILL}),
                                        card=give(vote, DONA, "Recount")))


# --- any-time actions tied to a later step ---------------------------------------------------

def test_any_time_action_tied_to_a_later_step_is_valid_but_not_to_its_own():
    """§any-time: any-time actions "are carried out first in the phase ..., in seat order,
    unless a condition ties them to a later step"; §conditions: "A condition must be settled
    at an earlier step of the phase's adjudication order than the order's own step"."""
    state = in_phase("locations")
    state.players[DONA].pocket = 3
    assert validate_order(state, DONA, o("pay", killed(CARLOS), to=BILL, amount=3)) == []
    same_step = Condition("card_played", {"seat": ERNESTO, "card": "Border Incident"})
    errors = validate_order(state, DONA, o("pay", same_step, to=BILL, amount=3))
    assert len(errors) == 1 and "any-time actions" in errors[0]


def test_any_time_action_tied_to_locations_sees_them():
    """Rules: "Orders may be given conditionally, as long as the condition for the order
    precedes the action to be undertaken in adjudication" (locations come first)."""
    for place, paid in (("club", 3), ("home", 0)):
        state = in_phase("locations")
        state.players[DONA].pocket = 3
        cond = Condition("location", {"seat": BILL, "location": "club"})
        after, _ = run(state, {DONA: [o("pay", cond, to=BILL, amount=3)],
                               BILL: [o("location", place=place)]})
        assert after.players[BILL].pocket == paid


# --- the official order ----------------------------------------------------------------------

def test_locations_phase_follows_the_official_order():
    """Rules: "Locations, Assassinations, Banking, Rebel-Only Moves: 1. Locations are
    designated and Assassins are dispatched 2. Banking Occurs (if Bank is open) 3. Coup Excuse
    adjudicated 4. Rebel-Only Moves are adjudicated". §adjudication-order: "Locations: locations and
    exile; any-time actions; assassinations (and the cards played with them); banking; the Coup
    Excuse; Rebel-Only moves"."""
    assert steps.ADJUDICATION_ORDER["locations"] == (
        "locations", "any_time", "assassinations", "banking", "coup_excuse", "rebel_only")


def test_every_phase_resolves_any_time_actions_before_its_own_business():
    """§any-time: any-time actions "are carried out first in the phase". Rules:
    "Cabinet is Appointed" after the draw; "New Weapons are Allocated and Budget is drawn";
    "Budget is Proposed"; "Budget is Voted upon"."""
    table = steps.ADJUDICATION_ORDER
    assert table["cabinet"] == ("any_time", "appointment")
    assert table["budget_draw"] == ("any_time", "draws")
    assert table["budget_proposal"] == ("any_time", "proposal")
    assert table["budget_vote"] == ("any_time", "vote_count", "revote_cards")
    assert table["internal_security"] == ("any_time", "seize_decision")
    assert table["election"] == ("any_time", "vote_count", "revote_cards")
    for phase, order in table.items():
        if phase != "locations":
            assert order[0] == "any_time", phase


def test_the_phases_follow_the_rules_turn():
    """Rules: "Each Turn is divided into 5 Phases: Cabinet Appointment Phase, Draw Budget /
    Assign New Weapons Phase, Budget Proposal Phase, Budget Voting Phase, Locations,
    Assassinations, Banking and Rebel Only Coup Movement Phase"."""
    state = in_phase("cabinet")
    seen = []
    for _ in range(5):
        seen.append(state.phase)
        orders = {}
        if state.phase == "budget_vote":
            orders = {seat: [o("vote", choice="yes")] for seat in range(10)}
        state, _ = run(state, orders)
    assert seen == ["cabinet", "budget_draw", "budget_proposal", "budget_vote", "locations"]
    assert state.phase == "cabinet" and state.turn == 2


def test_every_step_has_a_handler_and_every_order_a_step_in_its_phases():
    """§conditions: "A condition must be settled at an earlier step of the phase's
    adjudication order than the order's own step" (so every order and condition needs its step
    in the table, §adjudication-order)."""
    for phase, order in steps.ADJUDICATION_ORDER.items():
        for step in order:
            assert step == "any_time" or (phase, step) in HANDLERS, (phase, step)
    for kind, spec in ORDER_KINDS.items():
        for phase in spec.phases:
            assert steps.index(phase, action_step(Order(kind, {}), phase)) >= 0, (kind, phase)
    for kind, (_, phases, _) in CONDITION_KINDS.items():
        for phase in phases:
            step = condition_step(Condition(kind, {}), phase)
            assert steps.index(phase, step) >= 0, (kind, phase)


def test_assassination_cards_act_at_the_assassination_step():
    """§adjudication-order: "Locations: ... assassinations (and the cards played with them)";
    §assassinations: "All attempts of the step are simultaneous"."""
    state = in_phase("locations")
    for name in ("Burglar", "Bank Robber", "Character Assassin", "Bribe the Assassin"):
        cid = give(state, DONA, name)
        assert action_step(o("play_card", card=cid)) == "assassinations", name
    holiday = give(state, DONA, "Bank Holiday")
    assert action_step(o("play_card", card=holiday)) == "any_time"


def test_banking_comes_after_assassinations():
    """Rules: "I'm Confused. Does Banking Happen Before or After Assassinations Resolve? ...
    1. Locations are designated and Assassins are dispatched 2. Banking Occurs"."""
    state = in_phase("locations")
    state.players[ERNESTO].pocket = 4
    burglar = give(state, DONA, "Burglar")
    after, _ = run(state, {ERNESTO: [o("location", place="bank"),
                                     o("bank", action="deposit", amount=4)],
                           DONA: [o("play_card", card=burglar, target=ERNESTO)]})
    assert after.players[DONA].pocket == 2  # the burglar came first
    # the deposit of 4 MP fails whole, never cut down to the 2 MP left (§banking,
    # §ruling-dead-do-not-bank, §ruling-no-silent-orders)
    assert (after.players[ERNESTO].bank, after.players[ERNESTO].pocket) == (0, 2)


# --- the first that holds ---------------------------------------------------------------------

def budgets_and_the_audit():
    """The President's two budgets: A, with no condition; B, if the Foreign Minister plays the
    Foreign Aid Audit he holds."""
    from .option_states import FOREIGN, PRESIDENT, budget_proposal

    s = budget_proposal()
    audit = next(c for c in s.players[FOREIGN].hand if cat.card(c).name == "Foreign Aid Audit")
    plain = o("propose_budget", allocations={"1": 8}, from_pocket=0)
    if_audit = o("propose_budget", Condition("card_played", {"seat": FOREIGN,
                                                             "card": "Foreign Aid Audit"}),
                 allocations={"2": 8}, from_pocket=0)
    return s, PRESIDENT, FOREIGN, o("play_card", card=audit), plain, if_audit


def test_an_order_with_a_condition_goes_before_its_fallback():
    """Rules: "the first whose condition holds is carried out. An order with a condition is
    therefore placed before the one of its kind without a condition, which is the fallback:
    "the budget B if Maria plays Black Marketeers, else the budget A", whichever you gave
    first." """
    s, president, foreign, audit, plain, if_audit = budgets_and_the_audit()
    assert arranged([plain, if_audit]) == [if_audit, plain]
    assert arranged([if_audit, plain]) == [if_audit, plain]  # already so: unchanged
    pay = o("pay", to=3, amount=1)  # of a kind that stands beside the others: it stays
    assert arranged([pay, plain, pay, if_audit]) == [pay, if_audit, plain, pay]
    after, _ = run(s, {president: arranged([plain, if_audit]), foreign: [audit]})
    assert after.budget["proposal"]["allocations"] == {"2": 8}
    after, _ = run(s, {president: arranged([plain, if_audit])})
    assert after.budget["proposal"]["allocations"] == {"1": 8}  # the fallback


def test_an_order_that_could_never_be_carried_out_is_refused():
    """A set with the order with a condition after its fallback (as an API client may send it)
    is refused, naming both orders; the services place it first before checking."""
    s, president, _foreign, _audit, plain, if_audit = budgets_and_the_audit()
    problems = validate_orders(s, president, [plain, if_audit])
    assert [str(p) for p in problems] == [
        "Order 2 could never be carried out: order 1, of the same kind with no condition, "
        "comes before it and always holds. Give the order with a condition first."]
    assert problems[0].orders == (0, 1)
    assert validate_orders(s, president, [if_audit, plain]) == []
