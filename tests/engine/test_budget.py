"""Rule tests for the budget: Draw Budget / New Weapons, the proposal, the vote, the Minister
of Internal Security's decision and the end of the game.

Each test quotes the rule it checks from docs/rules.md (§budget-draw, §budget-proposal,
§budget-vote, §seize, §end and the other paragraphs it names) or docs/rulings.md (the
`§ruling-` paragraphs), the published game's own words that those paragraphs restate ("Rules"),
or the card texts in `junta/engine/data/cards.json` ("Card").
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel Admiral, 6 Gloria Air
Force Commander, 7 Hector Minister of War, 8 Ines Foreign Minister, 9 Jorge Farm & Labor
Secretary. Money tests check that `bills_total()` does not change.
"""

from __future__ import annotations

import re

from junta.engine import Condition, Order, owes_orders, parse_order, validate_order
from junta.engine import catalog as cat
from junta.engine.voting import sources

from .helpers import give, in_phase, in_play, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)
EVERYONE = range(10)


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def draw(position: str, count: int) -> Order:
    return o("draw_bills", position=position, count=count)


DRAWS = {INES: [draw(cat.FOREIGN, 2)], JORGE: [draw(cat.FARM_LABOR, 2)]}


def vote(choice: str, condition: Condition | None = None, **args) -> Order:
    return o("vote", condition, choice=choice, **args)


def propose(allocations: dict[int, int], **args) -> Order:
    return o("propose_budget", allocations={str(k): v for k, v in allocations.items()}, **args)


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def result(condition_result: str, margin: int | None = None) -> Condition:
    args: dict = {"result": condition_result}
    if margin is not None:
        args["margin_at_most"] = margin
    return Condition("vote_result", args)


def with_bills(held: list[int], phase: str = "budget_proposal", pocket: int = 0):
    """A game whose President holds these budget bills."""
    state = in_phase(phase)
    state.players[CARLOS].pocket = pocket
    state.budget = {"drawn": {cat.FOREIGN: [], cat.FARM_LABOR: [], cat.PRESIDENT: list(held)},
                    "all_drawn": list(held), "held": list(held), "holder": CARLOS,
                    "proposer": CARLOS, "proposal": None, "outcome": None}
    return state


def proposed(held: list[int], allocations: dict[int, int], pocket: int = 0, **args):
    """The Budget Vote phase on this proposal."""
    state = with_bills(held, pocket=pocket)
    after, _ = run(state, {CARLOS: [propose(allocations, **args)]})
    assert after.phase == "budget_vote"
    assert after.budget["proposal"]["allocations"] == {str(k): v for k, v in
                                                       allocations.items()}
    return after


def record(events) -> set[tuple[int, int, str]]:
    return {(r["seat"], r["votes"], r["choice"])
            for r in of_kind(events, "votes_cast")[0].data["record"]}


def totals(events) -> tuple[int, int]:
    """The announced result: (votes for, votes against)."""
    line = [e for e in events if e.kind in ("budget_passed", "budget_failed")][-1]
    found = re.search(r"(\d+) votes to (\d+)", line.text)
    assert found, line.text
    return int(found[1]), int(found[2])


def passed_phase(state):
    """A budget vote where everyone votes yes."""
    return run(state, {s: [vote("yes")] for s in EVERYONE})


# --- New Weapons and the draws --------------------------------------------------------------

def test_new_weapons_are_assigned_by_the_minister_of_war_and_made_public():
    """Rules: "The Minister of War may assign New Weapons to a General, the Admiral, the Air
    Force Commander, or no one. The New Weapons assignment will be made public knowledge when
    this Phase is complete" (§new-weapons, §war)."""
    state = in_phase("budget_draw")
    order = o("new_weapons", position=cat.ADMIRAL)
    assert validate_order(state, BILL, order) == ["Only the Minister of War assigns New Weapons."]
    assert validate_order(state, HECTOR, o("new_weapons", position=cat.WAR)) == [
        "New Weapons go to a General, the Admiral, the Air Force Commander or no one."]
    after, events = run(state, {**DRAWS, HECTOR: [order]})
    assert after.new_weapons == cat.ADMIRAL
    line = of_kind(events, "new_weapons")[0]
    assert line.audience == "public" and "Admiral of the Navy" in line.text
    nobody, events = run(state, DRAWS)
    assert nobody.new_weapons is None
    assert "no one" in of_kind(events, "new_weapons")[0].text


def test_each_minister_draws_between_one_and_six_bills():
    """Rules: "The Foreign Minister and the Farm & Labor Secretary must each secretly decide
    how many budget bills to draw from the Money Deck (between 1 and 6 bills each)".
    (§foreign, §draws)."""
    state = in_phase("budget_draw")
    assert validate_order(state, INES, draw(cat.FOREIGN, 0)) == ["Draw between 1 and 6 bills."]
    assert validate_order(state, INES, draw(cat.FOREIGN, 7)) == ["Draw between 1 and 6 bills."]
    assert validate_order(state, INES, draw(cat.FARM_LABOR, 3)) == [
        "You are not the Farm & Labor Secretary."]
    assert validate_order(state, CARLOS, draw(cat.PRESIDENT, 2)) == [
        "Budget bills are drawn by the Foreign Minister or the Farm & Labor Secretary."]
    total = state.bills_total()
    after, events = run(state, {INES: [draw(cat.FOREIGN, 6)], JORGE: [draw(cat.FARM_LABOR, 1)]})
    drawn = after.budget["drawn"]
    assert (len(drawn[cat.FOREIGN]), len(drawn[cat.FARM_LABOR])) == (6, 1)
    assert len(after.money_deck) == len(state.money_deck) - 9
    assert after.bills_total() == total


def test_a_missing_draw_order_draws_a_random_amount():
    """Rules: "If they do not submit orders in time, then a random amount of bills will be
    selected for them"."""
    seen = set()
    for i in range(30):
        state = in_phase("budget_draw", seed=f"draw-{i}")
        after, _ = run(state, {})
        counts = (len(after.budget["drawn"][cat.FOREIGN]),
                  len(after.budget["drawn"][cat.FARM_LABOR]))
        assert all(1 <= c <= 6 for c in counts)
        seen.update(counts)
    assert len(seen) >= 4  # not a fixed number


def test_the_president_draws_exactly_two_bills_and_holds_the_whole_draw():
    """Rules: "The President draws exactly 2 bills himself and adds it to the money already
    collected"; the bills "are passed to the President"."""
    state = in_phase("budget_draw")
    top = list(reversed(state.money_deck[-9:]))
    after, _ = run(state, {INES: [draw(cat.FOREIGN, 3)], JORGE: [draw(cat.FARM_LABOR, 4)]})
    drawn = after.budget["drawn"]
    assert drawn[cat.PRESIDENT] == top[:2]
    assert drawn[cat.FOREIGN] == top[2:5] and drawn[cat.FARM_LABOR] == top[5:9]
    assert sorted(after.budget["held"]) == sorted(top)
    assert after.budget["holder"] == CARLOS == after.budget["proposer"]
    assert after.phase == "budget_proposal"


def test_each_minister_sees_only_his_own_bills_and_the_president_sees_all():
    """Rules: "both the Foreign Minister and the Farm & Labor Secretary are privately shown the
    denominations of ONLY the bills that they drew"; "Only the President knows the
    denominations of these two bills"."""
    state = in_phase("budget_draw")
    after, events = run(state, {INES: [draw(cat.FOREIGN, 3)], JORGE: [draw(cat.FARM_LABOR, 4)]})
    drawn = after.budget["drawn"]
    mine = of_kind(events, "my_draw")
    assert [(e.audience, e.data["bills"]) for e in mine] == [
        ((INES,), drawn[cat.FOREIGN]), ((JORGE,), drawn[cat.FARM_LABOR])]
    full = of_kind(events, "budget_bills")
    assert len(full) == 1 and full[0].audience == (CARLOS,)
    assert full[0].data["bills"] == after.budget["held"]
    assert not any(e.data.get("bills") for e in events if e.visible_to(BILL))


def test_the_number_of_bills_drawn_is_public():
    """Rules: "The number of bills drawn by each player becomes public knowledge, though the
    contents of the draw remain private"."""
    state = in_phase("budget_draw")
    _, events = run(state, {INES: [draw(cat.FOREIGN, 3)], JORGE: [draw(cat.FARM_LABOR, 5)]})
    line = of_kind(events, "draws")[0]
    assert line.audience == "public"
    assert line.data["counts"] == {cat.FOREIGN: 3, cat.FARM_LABOR: 5, cat.PRESIDENT: 2}
    assert "MP" not in line.text


# --- the proposal ---------------------------------------------------------------------------

def test_a_budget_that_cannot_be_paid_with_the_bills_held_is_refused_naming_why():
    """Rules: "The budget must be possible. If the money allocated cannot be given out with the
    current combination of bills in the President's pocket, then if there is time, the
    President will be given the opportunity to correct the mistake"."""
    state = with_bills([3, 3])
    # 5 MP of 6 allotted, but 1 MP and 4 MP cannot be made from two 3 MP bills
    assert validate_order(state, CARLOS, propose({BILL: 1, DONA: 4})) == [
        "This budget cannot be paid: with bills 3 MP, 3 MP you cannot make Bill 1 MP, Dona "
        "4 MP (5 MP); 2 MP is missing. Add money from your pocket or change the totals."]
    assert validate_order(state, CARLOS, propose({BILL: 3, DONA: 3})) == []
    assert validate_order(state, CARLOS, propose({BILL: 3})) == []


def test_only_the_president_proposes_and_the_totals_are_public():
    """Rules: "A proposed budget must include the total amount ... being earmarked for each
    player. A player not included in a proposed budget will be assumed to be allocated 0 MP".
    §secrets: "Public: ... the proposed budget's total for each player"."""
    state = with_bills([3, 2, 1])
    assert validate_order(state, BILL, propose({BILL: 3})) == [
        "Only the President proposes the budget."]
    after, events = run(state, {CARLOS: [propose({BILL: 3, DONA: 1})]})
    line = of_kind(events, "proposal")[0]
    assert line.audience == "public"
    assert line.text == "Carlos proposes a budget: Bill 3 MP, Dona 1 MP."


def test_skimming_is_private_to_the_president():
    """Rules: "Any money drawn in the budget not allocated in the proposed budget is pocketed
    by the President. Any such "skimming" is not public knowledge"."""
    state = with_bills([3, 2, 1, 1])
    after, events = run(state, {CARLOS: [propose({BILL: 3})]})
    skim = of_kind(events, "skim")[0]
    assert skim.audience == (CARLOS,) and skim.data["skim"] == 4
    assert "4 MP" not in texts(events, BILL)
    assert texts(events, BILL) == "Carlos proposes a budget: Bill 3 MP."
    total = after.bills_total()
    paid, _ = passed_phase(after)
    assert paid.players[BILL].pocket == 3 and paid.players[CARLOS].pocket == 4
    assert paid.bills_total() == total


def test_the_president_may_add_his_own_pocket_money():
    """Rules: "The President may also include his own money-in-hand in a proposed budget, thus
    making the proposed budget greater than the sum of the money drawn"."""
    state = with_bills([3, 3], pocket=4)
    assert validate_order(state, CARLOS, propose({BILL: 4, DONA: 4}, from_pocket=1)) != []
    assert validate_order(state, CARLOS, propose({BILL: 4, DONA: 5}, from_pocket=5)) == [
        "You have 4 MP in your pocket; you cannot add 5 MP to the budget."]
    after = proposed([3, 3], {BILL: 4, DONA: 4}, pocket=4, from_pocket=2)
    total = after.bills_total()
    paid, _ = passed_phase(after)
    assert (paid.players[BILL].pocket, paid.players[DONA].pocket) == (4, 4)
    assert paid.players[CARLOS].pocket == 2
    assert paid.bills_total() == total


def test_pocket_money_added_to_the_budget_is_set_aside_at_the_proposal():
    """Rules: "The President may also include his own money-in-hand in a proposed budget";
    "Should the budget pass, the money is immediately distributed to the players according to
    the President's proposal": the pocket money it needs is set aside when he proposes, so he
    cannot spend it before the count (§ruling-pocket-set-aside)."""
    after = proposed([3, 3], {BILL: 4, DONA: 4}, pocket=4, from_pocket=3)
    assert after.players[CARLOS].pocket == 2  # the 2 MP the budget needs are set aside
    assert sorted(after.budget["held"]) == [1, 1, 3, 3]
    skim = of_kind(run(with_bills([3, 3], pocket=4), {CARLOS: [propose(
        {BILL: 4, DONA: 4}, from_pocket=3)]})[1], "skim")[0]
    assert skim.audience == (CARLOS,) and skim.data["set_aside"] == 2
    total = after.bills_total()
    everything = after.players[CARLOS].pocket  # he gives away all he still has
    paid, _ = run(after, {**{s: [vote("yes")] for s in EVERYONE},
                          CARLOS: [vote("yes"), o("pay", to=ERNESTO, amount=everything)]})
    assert (paid.players[BILL].pocket, paid.players[DONA].pocket) == (4, 4)
    assert paid.players[CARLOS].pocket == 0 and paid.players[ERNESTO].pocket == 2
    assert paid.budget["held"] == [] and paid.bills_total() == total


def test_set_aside_pocket_money_goes_back_when_the_budget_fails():
    """Rules: "She may allow the Budget to remain defeated in which case the money is pocketed
    by the President"; card Alternative Budget: "you take all of the President's budget bills
    but one" (his own pocket money is not a budget bill: it goes back to him).
    (§ruling-pocket-set-aside)."""
    state = proposed([3, 3], {BILL: 4, DONA: 4}, pocket=4, from_pocket=2)
    total = state.bills_total()
    failed, _ = run(state, {JORGE: [vote("no")]})
    kept, _ = run(failed, {})
    assert kept.players[CARLOS].pocket == 4 + 6 and kept.budget["held"] == []
    assert kept.bills_total() == total
    alt = give(state, BILL, "Alternative Budget")
    after, _ = run(state, {JORGE: [vote("no")], BILL: [o("play_card", card=alt)]})
    assert after.players[CARLOS].pocket == 2 + 2 + 3  # his 2 MP back and the smaller bill
    assert after.budget["held"] == [3] and after.budget["holder"] == BILL
    assert after.bills_total() == total


def test_chosen_denominations_are_honoured():
    """Rules: "the President may choose to specify which denominations of bills to give to
    which players, as long as the totals are met"."""
    after = proposed([3, 2, 1], {BILL: 3, DONA: 3}, bills={"2": [2, 1]})
    assert after.budget["proposal"]["bills"] == {"2": [2, 1], "3": [3]}
    state = with_bills([3, 2, 1])
    assert validate_order(state, CARLOS, propose({BILL: 3}, bills={"2": [1, 1, 1]})) == [
        "You hold no more 1 MP bills to give; your bills are 3 MP, 2 MP, 1 MP."]


def test_without_a_proposal_every_bill_stays_with_the_president():
    """§missed-orders: with no proposal, "a budget of zeros (every bill stays with the
    President)", voted as usual."""
    state = with_bills([3, 2])
    after, _ = run(state, {})
    assert after.phase == "budget_vote"
    assert after.budget["proposal"]["allocations"] == {}
    total = after.bills_total()
    paid, _ = passed_phase(after)
    assert paid.players[CARLOS].pocket == 5 and paid.bills_total() == total


# --- the vote: who has how many votes -------------------------------------------------------

def test_each_position_has_one_vote_and_farm_and_labor_five():
    """Rules: each position is "Entitled to 1 vote in the Chamber of Deputies"; the Farm &
    Labor Secretary is "Entitled to 5 votes in the Chamber of Deputies" (§positions, §votes)."""
    state = proposed([2, 1], {BILL: 2})
    assert sources(state, JORGE) == {"position:farm_labor": 5}
    assert all(sources(state, s) == {f"position:{state.positions_of(s)[0]}": 1}
               for s in range(9))
    # eight single votes against the Secretary's five: the budget passes 8 to 5
    ballots = {s: [vote("yes")] for s in range(1, 9)}
    ballots[JORGE] = [vote("no")]
    after, events = run(state, ballots)
    assert totals(events) == (8, 5)
    assert after.phase == "locations"
    # the Secretary's five and Carlos's one against four: defeated 4 to 6
    ballots = {s: [vote("yes")] for s in range(1, 5)}
    ballots[JORGE] = [vote("no")]
    ballots[CARLOS] = [vote("no")]
    after, events = run(state, ballots)
    assert totals(events) == (4, 6)
    assert after.phase == "internal_security"


def test_socialists_count_double_with_labor_unions_or_peasants():
    """Card: Socialists "5 votes in every vote while in play; 10 votes if you also have Labor
    Unions or Peasants"."""
    state = proposed([2], {BILL: 2})
    socialists = in_play(state, BILL, "Socialists")
    assert sources(state, BILL)[f"influence:{socialists}"] == 5
    unions = in_play(state, BILL, "Labor Unions")
    assert sources(state, BILL)[f"influence:{socialists}"] == 10
    state.players[BILL].influence.remove(unions)
    in_play(state, BILL, "Peasants")
    assert sources(state, BILL)[f"influence:{socialists}"] == 10


def test_farm_and_labor_always_counts_as_having_labor_unions_and_peasants():
    """Rules: "For the purposes of Events Cards, and the Socialist Influence Voting Bonus, Farm
    and Labor Secretary is always considered to have both Labor Union and Peasant Influence in
    play"."""
    state = proposed([2], {BILL: 2})
    socialists = in_play(state, JORGE, "Socialists")
    assert sources(state, JORGE) == {"position:farm_labor": 5, f"influence:{socialists}": 10}
    after, events = run(state, {JORGE: [vote("no")], BILL: [vote("yes")]})
    assert totals(events) == (1, 15)


def test_christian_democrats_count_double_with_the_church():
    """Card: Christian Democrats "5 votes in every vote while in play; 10 votes if you also
    have Church influence"."""
    state = proposed([2], {BILL: 2})
    cd = in_play(state, DONA, "Christian Democrats")
    assert sources(state, DONA)[f"influence:{cd}"] == 5
    church = in_play(state, DONA, "Church")
    assert sources(state, DONA) == {"position:general_2": 1, f"influence:{cd}": 10,
                                    f"influence:{church}": 10}
    other = proposed([2], {BILL: 2})
    cd2 = in_play(other, DONA, "Christian Democrats")
    in_play(other, BILL, "Church")  # another player's Church gives no bonus
    assert sources(other, DONA)[f"influence:{cd2}"] == 5


def test_university_counts_double_with_students():
    """Card: University "3 votes in every vote while in play; 6 votes if you also have
    Students influence"."""
    state = proposed([2], {BILL: 2})
    uni = in_play(state, DONA, "University")
    assert sources(state, DONA)[f"influence:{uni}"] == 3
    in_play(state, DONA, "Students")
    assert sources(state, DONA)[f"influence:{uni}"] == 6


def test_a_plain_vote_uses_all_votes_but_no_vote_card():
    """Rules: "An order of "I vote pro-budget (or anti-budget) will be assumed to use all
    available (non-vote card votes)." "Any vote cards to be counted must be specifically
    ordered to the GameMaster"."""
    state = proposed([2], {BILL: 2})
    church = in_play(state, DONA, "Church")
    ghosts = give(state, DONA, "Ghost Voters")
    after, events = run(state, {DONA: [vote("no")]})
    assert record(events) == {(DONA, 1, "no"), (DONA, 10, "no")}
    assert ghosts in after.players[DONA].hand and church in after.players[DONA].influence


def test_a_named_vote_card_counts_and_is_discarded():
    """Card: "Adds 3 votes to one vote; discarded after use." Rules: "Any vote cards to be
    counted must be specifically ordered to the GameMaster" (§vote-cards)."""
    state = proposed([2], {BILL: 2})
    ghosts = give(state, DONA, "Ghost Voters")
    after, events = run(state, {DONA: [vote("no", cards=[ghosts])], BILL: [vote("yes")],
                                ERNESTO: [vote("yes")], FIDEL: [vote("yes")]})
    assert record(events) >= {(DONA, 3, "no")}
    assert totals(events) == (3, 4)
    assert ghosts in after.political_discard and ghosts not in after.players[DONA].hand
    other = give(state, BILL, "Middle Class")
    assert validate_order(state, DONA, vote("no", cards=[other])) == [
        "A Vote card you named is not in your hand."]
    church = give(state, DONA, "Church")
    assert validate_order(state, DONA, vote("no", cards=[church])) == [
        "Church is not a Vote card."]


def test_electoral_fraud_doubles_vote_cards():
    """Card: Electoral Fraud "Influence: 2 votes in every vote while in play. your one-shot
    Vote cards count double" (§vote-cards)."""
    state = proposed([2], {BILL: 2})
    in_play(state, DONA, "Electoral Fraud")
    market = give(state, DONA, "Black Marketeers")
    _, events = run(state, {DONA: [vote("no", cards=[market])]})
    assert record(events) == {(DONA, 1, "no"), (DONA, 2, "no"), (DONA, 6, "no")}
    assert totals(events) == (0, 9)


def test_votes_may_be_split_between_yes_and_no():
    """Rules: "Influence Card votes and multiple positions may cast votes contrary to the vote
    of the primary position, at the discretion of the player. In other words, your votes can
    be used to both support and oppose a motion" (§votes)."""
    state = proposed([2], {BILL: 2})
    church = in_play(state, DONA, "Church")
    ghosts = give(state, DONA, "Ghost Voters")
    ballot = vote("yes", cards=[ghosts], split={f"influence:{church}": "no",
                                                f"card:{ghosts}": "no"})
    assert validate_order(state, DONA, ballot) == []
    _, events = run(state, {DONA: [ballot]})
    assert record(events) == {(DONA, 1, "yes"), (DONA, 10, "no"), (DONA, 3, "no")}
    assert totals(events) == (1, 13)
    assert validate_order(state, DONA, vote("yes", split={"position:farm_labor": "no"})) == [
        "You cannot cast the votes of Farm & Labor Secretary."]


def test_multiple_positions_may_vote_differently():
    """Rules: "Influence Card votes and multiple positions may cast votes contrary to the vote
    of the primary position"."""
    state = proposed([2], {BILL: 2})
    state.positions[cat.FARM_LABOR] = BILL  # Bill: Generalissimo and Secretary
    ballot = vote("yes", split={"position:farm_labor": "no"})
    _, events = run(state, {BILL: [ballot]})
    assert record(events) == {(BILL, 1, "yes"), (BILL, 5, "no")}


def test_abstention_and_missing_votes_count_for_nothing_and_a_tie_fails():
    """Rules: "Any player failing to vote will be assumed to abstain, as in all votes."
    §ruling-budget-tie: "A budget needs more votes for than against"."""
    state = proposed([2], {BILL: 2})
    after, events = run(state, {BILL: [vote("yes")], DONA: [vote("no")],
                                JORGE: [vote("abstain")]})
    assert record(events) == {(BILL, 1, "yes"), (DONA, 1, "no")}
    assert totals(events) == (1, 1)
    assert after.phase == "internal_security" and after.budget_failed


def test_vote_no_if_bill_votes_yes_is_refused_naming_both_steps():
    """Rules: "An order to "Vote no on the budget if Bill votes yes," is invalid because all
    votes are counted simultaneously"."""
    state = proposed([2], {BILL: 2})
    order = parse_order({"kind": "vote", "choice": "no",
                         "condition": {"kind": "voted", "seat": BILL, "choice": "yes"}})
    assert validate_order(state, DONA, order) == [
        "This condition cannot be used: \u201cBill votes yes\u201d is settled at the vote "
        "count (step 2 of the Budget Vote phase), and your order acts at the vote count (step "
        "2 of the Budget Vote phase). A condition must be settled at an earlier step than its "
        "order."]


# --- cards that annul a vote ----------------------------------------------------------------

def close_defeat(state):
    """Eight yes against the Secretary, Ines and Ines's 6 votes of Vote cards: 8 to 12."""
    market = give(state, INES, "Black Marketeers")
    ghosts = give(state, INES, "Ghost Voters")
    ballots = {s: [vote("yes")] for s in range(8)}
    ballots[INES] = [vote("no", cards=[market, ghosts])]
    ballots[JORGE] = [vote("no")]
    return ballots, (market, ghosts)


def test_power_failure_reruns_the_vote_without_vote_cards():
    """Rules: "An order of, "If the budget fails by 5 votes or less, play Power Failure" is
    perfectly acceptable." Card: "the vote is annulled and re-run at once from the same
    orders, but every one-shot Vote card played in it is discarded without counting"."""
    state = proposed([2, 1], {BILL: 3})
    ballots, cards = close_defeat(state)
    failure = give(state, CARLOS, "Power Failure")
    ballots[CARLOS] = [vote("yes"), o("play_card", result("fails", 5), card=failure)]
    total = state.bills_total()
    after, events = run(state, ballots)
    assert of_kind(events, "power_failure")[0].headline
    assert totals(events) == (8, 6)  # 8 to 12 first, then without the cards
    assert after.phase == "locations" and after.players[BILL].pocket == 3
    assert all(c in after.political_discard for c in (*cards, failure))
    assert after.bills_total() == total


def test_a_revote_card_waits_for_its_condition():
    """Rules: "Cards that call for a revote must be accompanied by an order specifying what
    conditions under which they should be played" (§revote-cards)."""
    state = proposed([2, 1], {BILL: 3})
    ballots, _ = close_defeat(state)
    failure = give(state, CARLOS, "Power Failure")
    ballots[CARLOS] = [vote("yes"), o("play_card", result("fails", 3), card=failure)]
    after, events = run(state, ballots)  # it fails by 4
    assert not of_kind(events, "power_failure")
    assert failure in after.players[CARLOS].hand
    assert after.phase == "internal_security"


def test_summer_recess_annuls_the_vote_and_it_is_held_again():
    """Rules: "if I am anti-budget, I might make my orders, "Vote against the budget with all
    available votes, and if the budget passes, play Summer Recess."" Card: "the result is
    annulled and the vote is held again in a new one-day phase with fresh orders. Vote cards
    played in the annulled vote stay discarded" (§revote-cards)."""
    state = proposed([2, 1], {BILL: 3})
    recess = give(state, JORGE, "Summer Recess")
    market = give(state, BILL, "Black Marketeers")
    ballots = {s: [vote("yes")] for s in range(9)}
    ballots[BILL] = [vote("yes", cards=[market])]
    ballots[JORGE] = [vote("no"), o("play_card", result("passes"), card=recess)]
    total = state.bills_total()
    after, events = run(state, ballots)
    assert of_kind(events, "annulled")[0].headline
    assert after.phase == "budget_vote" and after.phase_number == state.phase_number + 1
    assert not of_kind(events, "budget_passed") and after.players[BILL].pocket == 0
    assert market in after.political_discard and recess in after.political_discard
    assert after.budget["held"] == state.budget["held"]
    again, _ = run(after, {JORGE: [vote("no")]})
    assert again.phase == "internal_security"
    assert after.bills_total() == total == again.bills_total()


def test_recount_returns_the_vote_cards():
    """Card: Recount: "The result is annulled and the vote is held again in a new one-day
    phase with fresh orders; one-shot Vote cards played in the annulled vote go back to their
    owners' hands"."""
    state = proposed([2, 1], {BILL: 3})
    ballots, cards = close_defeat(state)
    recount = give(state, CARLOS, "Recount")
    ballots[CARLOS] = [vote("yes"), o("play_card", result("fails"), card=recount)]
    after, events = run(state, ballots)
    assert after.phase == "budget_vote"
    assert all(c in after.players[INES].hand for c in cards)
    assert recount in after.political_discard
    assert "Recount" in of_kind(events, "annulled")[0].text


def test_alternative_budget_takes_the_bills_but_one_and_proposes_again():
    """Card: Alternative Budget: "When the budget is defeated, you take all of the President's
    budget bills but one, propose a new budget and it is voted; if it passes you must pay it
    out". Rules: "If the budget fails, there is immediately a Coup Excuse".
    (§ruling-alternative-budget)."""
    state = proposed([3, 2, 1], {CARLOS: 6})
    alt = give(state, BILL, "Alternative Budget")
    total = state.bills_total()
    after, events = run(state, {JORGE: [vote("no")], BILL: [vote("no"), o(
        "play_card", result("fails"), card=alt)]})
    assert of_kind(events, "alternative_budget")[0].headline
    assert after.phase == "budget_proposal" and owes_orders(after) == [BILL]
    assert after.budget["holder"] == BILL and sorted(after.budget["held"]) == [2, 3]
    assert after.players[CARLOS].pocket == 1  # he keeps the smallest bill
    assert after.coup_excuse  # "If the budget fails, there is immediately a Coup Excuse"
    assert validate_order(after, CARLOS, propose({CARLOS: 5})) == [
        "Only the President proposes the budget."]
    assert after.bills_total() == total
    voting, _ = run(after, {BILL: [propose({DONA: 2})]})
    paid, _ = run(voting, {JORGE: [vote("yes")]})
    assert paid.players[DONA].pocket == 2 and paid.players[BILL].pocket == 3
    assert paid.players[CARLOS].pocket == 1
    assert paid.bills_total() == total


def test_alternative_budget_defeated_leaves_the_bills_with_its_player():
    """Card: Alternative Budget: "otherwise the Minister may force it or you keep the
    bills" (§ruling-alternative-budget)."""
    state = proposed([3, 2, 1], {CARLOS: 6})
    alt = give(state, BILL, "Alternative Budget")
    total = state.bills_total()
    after, _ = run(state, {JORGE: [vote("no")], BILL: [o("play_card", card=alt)]})
    voting, _ = run(after, {BILL: [propose({DONA: 2})]})
    failed, _ = run(voting, {JORGE: [vote("no")]})
    assert failed.phase == "internal_security"
    kept, _ = run(failed, {})
    assert kept.players[BILL].pocket == 5 and kept.players[DONA].pocket == 0
    forced, _ = run(failed, {MARIA: [o("seize_chamber", seize=True)]})
    assert forced.players[DONA].pocket == 2 and forced.players[BILL].pocket == 3
    assert kept.bills_total() == total == forced.bills_total()


def test_alternative_budget_only_when_the_budget_is_defeated():
    """Card: Alternative Budget: "When the budget is defeated"."""
    state = proposed([3, 2, 1], {CARLOS: 6})
    alt = give(state, BILL, "Alternative Budget")
    after, events = run(state, {JORGE: [vote("yes")], BILL: [o("play_card", card=alt)]})
    assert not of_kind(events, "alternative_budget")
    assert after.phase == "locations" and alt in after.players[BILL].hand


# --- after the vote ------------------------------------------------------------------------

def test_a_passed_budget_is_paid_out_at_once():
    """Rules: "Should the budget pass, the money is immediately distributed to the players
    according to the President's proposal"."""
    state = proposed([3, 2, 2, 1], {BILL: 3, DONA: 2, JORGE: 3})
    total = state.bills_total()
    after, events = passed_phase(state)
    assert [after.players[s].pocket for s in (CARLOS, BILL, DONA, JORGE)] == [0, 3, 2, 3]
    assert after.budget["held"] == [] and after.budget["outcome"] == "passed"
    assert of_kind(events, "budget_passed")[0].headline
    paid = of_kind(events, "budget_paid")
    assert {e.audience for e in paid} == {(BILL,), (DONA,), (JORGE,)}
    assert not after.coup_excuse and after.bank_status == "open"
    assert after.bills_total() == total


def test_a_failed_budget_gives_a_coup_excuse_and_the_ministers_decision():
    """Rules: "If the budget fails, there is immediately a Coup Excuse, and the Minister of
    Internal Security has 1 extra day to decide between two possible courses of action".
    (§coup-excuse)."""
    state = proposed([3, 2], {BILL: 5})
    total = state.bills_total()
    after, events = run(state, {JORGE: [vote("no")]})
    assert after.coup_excuse and after.budget_failed
    assert after.phase == "internal_security" and owes_orders(after) == [MARIA]
    assert of_kind(events, "budget_failed")[0].headline
    assert after.players[BILL].pocket == 0 and sorted(after.budget["held"]) == [2, 3]
    assert after.bills_total() == total
    assert validate_order(after, BILL, o("seize_chamber", seize=True)) == [
        "Only the Minister of Internal Security decides whether to seize the Chamber."]


def failed_budget():
    state = proposed([3, 2, 1], {BILL: 3, DONA: 1})
    after, _ = run(state, {JORGE: [vote("no")]})
    assert after.phase == "internal_security"
    return after


def test_the_minister_may_seize_the_chamber_and_force_the_budget():
    """Rules: "She may choose to seize the Chamber of Deputies and force the Budget's passage
    at gunpoint in which case the Budget is distributed as proposed, and the turn continues.
    The Bank becomes "Closed for Lunch," which means that no banking may occur until AFTER
    there has been an opportunity for a coup to resolve"."""
    state = failed_budget()
    total = state.bills_total()
    after, events = run(state, {MARIA: [o("seize_chamber", seize=True)]})
    assert (after.players[BILL].pocket, after.players[DONA].pocket) == (3, 1)
    assert after.players[CARLOS].pocket == 2
    assert after.chamber_seized and after.coup_excuse
    assert after.bank_status == "closed_for_lunch" and after.phase == "locations"
    assert of_kind(events, "chamber_seized")[0].headline
    assert after.bills_total() == total


def test_the_minister_may_let_the_budget_stay_defeated():
    """Rules: "She may allow the Budget to remain defeated in which case the money is pocketed
    by the President, and the Bank is closed for THE REST of the turn"."""
    state = failed_budget()
    total = state.bills_total()
    after, events = run(state, {MARIA: [o("seize_chamber", seize=False)]})
    assert after.players[CARLOS].pocket == 6
    assert after.players[BILL].pocket == 0 and after.players[DONA].pocket == 0
    assert after.bank_status == "closed" and after.coup_excuse and not after.chamber_seized
    assert of_kind(events, "budget_stays_defeated")[0].headline
    assert after.bills_total() == total
    after.players[BILL].pocket = 1
    assert validate_order(after, BILL, o("bank", action="deposit", amount=1)) == [
        "The Bank is closed for the rest of the turn."]
    nxt, _ = run(after, {})
    assert nxt.phase == "cabinet" and nxt.bank_status == "open"


def test_without_a_decision_the_budget_stays_defeated():
    """§missed-orders: with no decision, "the budget stays defeated for the Minister of
    Internal Security"."""
    state = failed_budget()
    after, _ = run(state, {})
    assert after.players[CARLOS].pocket == 6 and after.bank_status == "closed"
    assert not after.chamber_seized


def test_the_closed_for_lunch_bank_reopens_when_no_coup_comes():
    """Rules: "If no Coup results in this phase, the Bank reopens (if it was Closed for
    Lunch)"."""
    state = failed_budget()
    seized, _ = run(state, {MARIA: [o("seize_chamber", seize=True)]})
    after, events = run(seized, {})
    assert of_kind(events, "bank_reopens")


# --- the end of the game --------------------------------------------------------------------

def test_the_game_ends_when_the_budget_cannot_be_drawn():
    """Rules: "The game ends as soon as the President, Foreign Minister and Farm & Labor
    Secretary are unable to draw their Budget bills. So, if there are 3 bills left in the Money
    Deck, the Foreign Minister and Farm & Labor Secretary will be unable to draw a budget, even
    if they both choose to draw only 1 bill each (plus the President's automatic 2 bills), and
    the game will end." "The player with the most Banked money is declared the winner"."""
    state = in_phase("locations", turn=6)
    state.money_deck = [1, 2, 3]
    state.players[DONA].bank = 12
    state.players[BILL].bank = 9
    state.players[JORGE].pocket = 30
    after, events = run(state, {})
    assert after.finished and after.phase == "finished"
    assert after.winners == [DONA]
    over = of_kind(events, "game_over")[0]
    assert over.headline and "only 3 bills remain" in over.text
    assert "Dona wins with 12 MP in the Bank" in over.text
    assert of_kind(events, "reveal")


def test_a_tie_for_the_most_banked_money_shares_the_win():
    """§money-deck: "The family with the most money in the Bank wins; ties share the win"."""
    state = in_phase("locations", turn=6)
    state.money_deck = [2, 2]
    state.players[DONA].bank = 12
    state.players[FIDEL].bank = 12
    after, events = run(state, {})
    assert after.winners == [DONA, FIDEL]
    assert "Dona and Fidel share the win" in of_kind(events, "game_over")[0].text


def test_with_four_bills_left_the_budget_is_still_drawn():
    """§money-deck: "The game ends at the Draw Budget phase when fewer than 4 bills remain"
    (§draws: the President's 2, then at least 1 each for the two ministers).
    (§ruling-draws-near-end)."""
    state = in_phase("locations", turn=6)
    state.money_deck = [1, 2, 3, 1]
    after, _ = run(state, {})
    assert not after.finished and after.phase == "cabinet"
    state = in_phase("budget_draw", turn=6)
    state.money_deck = [1, 2, 3, 1]
    after, events = run(state, {INES: [draw(cat.FOREIGN, 6)], JORGE: [draw(cat.FARM_LABOR, 6)]})
    assert of_kind(events, "draws")[0].data["counts"] == {
        cat.FOREIGN: 1, cat.FARM_LABOR: 1, cat.PRESIDENT: 2}
    assert after.money_deck == [] and not after.finished
    # each minister's draw, cut short, says so (§ruling-no-silent-orders)
    told = {e.audience: e.text for e in of_kind(events, "my_draw")}
    assert told[(INES,)].endswith("You asked for 6: only 1 could be drawn, the money deck "
                                  "running out.")
    assert "You asked" in told[(JORGE,)]


def test_the_game_ends_at_the_draw_when_bills_ran_low_during_the_cabinet_phase():
    """Rules: "As soon as the budget cannot be drawn, the game has ended"."""
    state = in_phase("cabinet", turn=6)
    state.money_deck = [1, 2, 3, 1]
    donation = give(state, BILL, "Secret Political Donation")
    positions = {p: state.positions[p] for p in cat.CABINET}
    total = state.bills_total()
    after, _ = run(state, {BILL: [o("play_card", card=donation)],
                           CARLOS: [o("appoint", positions=positions)]})
    assert after.finished and len(after.money_deck) == 3
    assert after.players[BILL].pocket == 1
    assert after.bills_total() == total


def test_the_game_ends_when_a_donation_leaves_too_few_bills_for_the_draw():
    """Rules: "The game ends as soon as the President, Foreign Minister and Farm & Labor
    Secretary are unable to draw their Budget bills"; each minister draws "between 1 and 6
    bills each"."""
    state = in_phase("budget_draw", turn=6)
    state.money_deck = [1, 2, 3, 1]
    state.players[GLORIA].bank = 4
    donation = give(state, BILL, "Secret Political Donation")
    total = state.bills_total()
    after, events = run(state, {**DRAWS, BILL: [o("play_card", card=donation)]})
    assert after.players[BILL].pocket == 1
    assert after.finished and after.winners == [GLORIA]
    assert len(after.money_deck) == 3 and not of_kind(events, "draws")
    assert after.bills_total() == total


# --- rulings the rules text left open ----------------------------------------------------------

def test_a_vacant_minister_s_draw_is_random():
    """§ruling-vacant-draw: "A vacant minister's draw is random (as for a missed order)"."""
    seen = set()
    for i in range(30):
        state = in_phase("budget_draw", seed=f"vacant-{i}")
        state.positions[cat.FOREIGN] = None
        after, _ = run(state, {JORGE: [draw(cat.FARM_LABOR, 2)]})
        count = len(after.budget["drawn"][cat.FOREIGN])
        assert 1 <= count <= 6
        seen.add(count)
    assert len(seen) >= 4  # not a fixed number


def test_only_the_first_annulling_card_in_seat_order_takes_effect():
    """§ruling-one-annulling-card: "Power Failure, Summer Recess, Recount and Alternative Budget
    are checked in seat order after the count; the first whose condition holds takes effect"."""
    state = proposed([2, 1], {BILL: 3})
    recount = give(state, BILL, "Recount")
    recess = give(state, JORGE, "Summer Recess")
    ballots = {s: [vote("yes")] for s in range(9)}
    ballots[BILL] = [vote("yes"), o("play_card", result("passes"), card=recount)]
    ballots[JORGE] = [vote("no"), o("play_card", result("passes"), card=recess)]
    after, events = run(state, ballots)
    assert after.phase == "budget_vote"  # annulled once, to be held again
    assert recount in after.political_discard  # Bill's, the first in seat order
    assert recess in after.players[JORGE].hand  # Jorge's never took effect
    assert len(of_kind(events, "annulled")) == 1
    # and Jorge is told so (§ruling-no-silent-orders)
    assert [(e.audience, e.text) for e in of_kind(events, "card_failed")] == [((JORGE,), (
        "Your Summer Recess was not played: Bill's Recount already annulled this count (one "
        "card a count). It stays in your hand."))]


def test_the_share_of_a_player_killed_before_the_payout_stays_with_the_proposer():
    """§ruling-share-of-the-dead: a share for a player killed before the payout "stays with
    the proposer"."""
    state = proposed([3, 2, 2, 1], {BILL: 3, DONA: 2})
    dead = state.players[DONA]
    dead.status, dead.pocket = "dead", 0
    state.political_discard += dead.hand + dead.influence
    dead.hand, dead.influence = [], []
    total = state.bills_total()
    after, _ = run(state, {s: [vote("yes")] for s in EVERYONE if s != DONA})
    assert after.budget["outcome"] == "passed"
    assert after.players[BILL].pocket == 3 and after.players[DONA].pocket == 0
    assert after.players[CARLOS].pocket == 2 + 3  # Dona's share and the unallocated bills
    assert after.bills_total() == total
