"""Rule tests for nominations, presidential elections, resignation and the competence motion.

Each test quotes the rule it checks from docs/rules.md (§first-election, §elections,
§resignation, §competence, §junta) or docs/rulings.md (§rulings-elections), the published
game's own words that those paragraphs restate ("Rules"), or the card texts in
`junta/engine/data/cards.json` ("Card").
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel Admiral, 6 Gloria Air
Force Commander, 7 Hector Minister of War, 8 Ines Foreign Minister, 9 Jorge Farm & Labor
Secretary.
"""

from __future__ import annotations

from junta.engine import Condition, Order, current_phase, owes_orders, validate_order
from junta.engine import catalog as cat
from junta.engine.voting import sources

from .helpers import game, give, in_phase, in_play, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)
DRAWS = {INES: [Order("draw_bills", {"position": cat.FOREIGN, "count": 2})],
         JORGE: [Order("draw_bills", {"position": cat.FARM_LABOR, "count": 2})]}


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def nominate(candidate: int) -> Order:
    return o("nominate", candidate=candidate)


def vote(choice, **args) -> Order:
    return o("vote", choice=choice, **args)


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def nominated(orders: dict[int, list[Order]]):
    """A new game through its nomination phase."""
    state = game()
    assert state.phase == "nomination" and state.turn == 0
    return run(state, orders)


def first_election(*candidates: int):
    """A new game in its first election with these candidates (each nominated by Carlos)."""
    state, _ = nominated({CARLOS: [nominate(c) for c in candidates]})
    assert state.phase == "election"
    return state


def merged(*order_sets: dict[int, list[Order]]) -> dict[int, list[Order]]:
    out: dict[int, list[Order]] = {}
    for orders in order_sets:
        for seat, more in orders.items():
            out.setdefault(seat, []).extend(more)
    return out


def resigned_in_draw(pocket: int = 0, **extra):
    """Carlos resigns during the Draw Budget phase; the state after that phase."""
    state = in_phase("budget_draw")
    state.players[CARLOS].pocket = pocket
    after, events = run(state, merged(DRAWS, {CARLOS: [o("resign")]}, extra))
    return state, after, events


# --- nominations ----------------------------------------------------------------------------

def test_any_player_may_nominate_another_and_the_nominees_are_the_candidates():
    """Rules: "There is a one day period in which any player may nominate any other player
    for the Presidency"."""
    state, events = nominated({CARLOS: [nominate(BILL)], DONA: [nominate(ERNESTO)]})
    assert current_phase(game()).days == 1
    assert state.phase == "election"
    assert state.election["candidates"] == [BILL, ERNESTO]
    assert state.nominations[str(BILL)]["nominated_by"] == [CARLOS]
    line = of_kind(events, "nominations")[0]
    assert line.audience == "public"
    assert "Bill, nominated by Carlos" in line.text and "Ernesto, nominated by Dona" in line.text


def test_a_nomination_may_be_seconded():
    """Rules: "any player may nominate any other player for the Presidency, as well as second
    or otherwise support a nomination." §ruling-first-candidates: "seconding someone nobody
    nominated nominates him"."""
    state, events = nominated({CARLOS: [nominate(BILL)], MARIA: [o("second", candidate=BILL)],
                               DONA: [o("second", candidate=FIDEL)]})
    assert state.nominations[str(BILL)]["seconded_by"] == [MARIA]
    assert "Bill, nominated by Carlos, seconded by Maria" in texts(events)
    assert state.election["candidates"] == [BILL, FIDEL]


def test_a_nominee_may_decline():
    """Rules: "Any nominated individual may also decline nomination"."""
    state, events = nominated({CARLOS: [nominate(BILL), nominate(DONA)], DONA: [o("decline")]})
    assert state.election["candidates"] == [BILL]
    assert state.nominations[str(DONA)]["declined"] is True
    assert "(declined)" in texts(events)
    assert validate_order(state, MARIA, vote(DONA)) == [
        "Vote for one of the candidates, or abstain."]
    assert validate_order(state, MARIA, vote(BILL)) == []


def test_without_a_standing_nomination_everyone_is_a_candidate():
    """Rules: "the game cannot begin until a President has been elected."
    §ruling-first-candidates: "When no nomination stands, every living player is a
    candidate"."""
    state, events = nominated({CARLOS: [nominate(BILL)], BILL: [o("decline")]})
    assert state.election["candidates"] == list(range(10))
    assert "No nomination stands" in texts(events)


def test_nominations_are_orders_of_the_nomination_phase_only():
    """Rules: "There is a one day period in which any player may nominate"."""
    state = in_phase("budget_vote")
    assert validate_order(state, CARLOS, nominate(BILL)) == [
        "Nominate a candidate is not an order of the Budget Vote phase."]


# --- the first election ---------------------------------------------------------------------

def test_the_first_election_lasts_two_days_and_gives_each_player_one_vote():
    """Rules: "Following the nominations, there is a two day election for the first
    Presidency"; "Each player will be given ONE vote in the initial election"."""
    state = first_election(BILL, DONA)
    assert current_phase(state).days == 2
    assert all(sources(state, s) == {"family": 1} for s in range(10))
    assert owes_orders(state) == list(range(10))


def test_the_first_election_is_won_by_most_votes_and_the_turn_begins():
    """Rules: "Each player will be given ONE vote in the initial election"; "The very first
    task in Junta is to elect a President"."""
    state = first_election(BILL, DONA)
    ballots = {s: [vote(BILL if s < 6 else DONA)] for s in range(10)}
    after, events = run(state, ballots)
    assert after.president == BILL
    assert after.turn == 1 and after.phase == "cabinet"
    record = of_kind(events, "votes_cast")[0].data["record"]
    assert len(record) == 10 and all(r["votes"] == 1 for r in record)
    assert "Bill is elected President" in texts(events, DONA)


def test_no_vote_cards_in_the_first_election():
    """§first-election: in the first election "every player has exactly one vote"."""
    state = first_election(BILL, DONA)
    card = give(state, MARIA, "Black Marketeers")
    assert validate_order(state, MARIA, vote(BILL, cards=[card])) == [
        "In the first election every player has exactly one vote: no cards."]


def test_a_tie_gives_a_re_vote_of_one_day():
    """Rules: "in the case of a tie, a re-vote will be taken until a President is elected."
    §first-election: "A tie gives a re-vote of one day"."""
    state = first_election(BILL, DONA)
    ballots = {s: [vote(BILL if s < 5 else DONA)] for s in range(10)}
    after, events = run(state, ballots)
    assert after.phase == "election" and after.president is None and after.turn == 0
    assert after.election["round"] == 2
    assert after.election["candidates"] == [BILL, DONA]
    assert current_phase(after).days == 1
    assert "elected" not in texts(events)
    # the re-vote decides
    ballots[FIDEL] = [vote(BILL)]
    final, _ = run(after, ballots)
    assert final.president == BILL and final.phase == "cabinet"


def test_an_election_where_nobody_votes_is_voted_again():
    """Rules: "a re-vote will be taken until a President is elected"; "Any player failing to
    vote will be assumed to abstain, as in all votes"."""
    state = first_election(BILL, DONA)
    after, _ = run(state, {})
    assert after.phase == "election" and after.president is None


def test_a_third_deadlock_is_settled_by_lot():
    """§ruling-deadlock: "From the third round a tie is settled by lot among the leaders, so a
    campaign cannot stall forever"."""
    state = first_election(BILL, DONA)
    ballots = {s: [vote(BILL if s < 5 else DONA)] for s in range(10)}
    second, _ = run(state, ballots)
    third, _ = run(second, ballots)
    assert third.phase == "election" and third.election["round"] == 3
    final, events = run(third, ballots)
    assert final.president in (BILL, DONA)
    assert of_kind(events, "lot")


# --- resignation ----------------------------------------------------------------------------

def test_a_resignation_calls_an_election_at_once():
    """Rules: "At any time, except during a Coup, the President may announce his
    resignation. A Presidential Election must then be held immediately before continuing
    with the Turn"."""
    _, after, events = resigned_in_draw()
    assert after.phase == "election"
    assert after.election["reason"] == "resignation"
    assert after.election["resigned"] == CARLOS
    assert after.resume_phase == "budget_proposal"
    assert current_phase(after).days == 1
    assert of_kind(events, "resignation")[0].headline


def test_only_the_president_resigns_and_not_during_an_election():
    """Rules: "the President may announce his resignation"."""
    state = in_phase("budget_draw")
    assert validate_order(state, BILL, o("resign")) == [
        "Only the President can resign the Presidency."]
    _, after, _ = resigned_in_draw()
    assert validate_order(after, CARLOS, o("resign")) == [
        "The President cannot resign during an election."]


def test_later_elections_use_chamber_votes():
    """§resignation: "The Chamber then elects a successor at once (Chamber votes: positions,
    Influence, Vote cards)"."""
    _, after, _ = resigned_in_draw()
    assert sources(after, JORGE) == {"position:farm_labor": 5}
    church = in_play(after, DONA, "Church")
    assert sources(after, DONA) == {"position:general_2": 1, f"influence:{church}": 10}
    ghosts = give(after, BILL, "Ghost Voters")
    # Jorge's 5 beat Bill's one vote and Ghost Voters (3); Dona's 11 beat them all.
    ballots = {JORGE: [vote(JORGE)], BILL: [vote(BILL, cards=[ghosts])]}
    final, events = run(after, ballots)
    assert final.president == JORGE
    assert ghosts in final.political_discard
    record = of_kind(events, "votes_cast")[0].data["record"]
    assert {(r["seat"], r["votes"]) for r in record} == {(JORGE, 5), (BILL, 1), (BILL, 3)}
    final2, _ = run(after, {**ballots, DONA: [vote(DONA)]})
    assert final2.president == DONA


def test_the_resigning_president_votes_with_his_presidential_vote_and_influence():
    """Rules: "The resigning President is able to use his Presidential Vote as well as any
    Influence in the election"."""
    _, after, _ = resigned_in_draw()
    students = in_play(after, CARLOS, "Students")
    assert sources(after, CARLOS) == {"position:president": 1, f"influence:{students}": 3}
    final, _ = run(after, {CARLOS: [vote(BILL)], JORGE: [vote(DONA, split={
        "position:farm_labor": "abstain"})], DONA: [vote(DONA)]})
    assert final.president == BILL  # 4 votes to Dona's 1


def test_the_resigning_president_may_be_re_elected():
    """Rules: "he may himself be reelected, if he is willing to serve"."""
    _, after, _ = resigned_in_draw(pocket=5)
    final, events = run(after, {CARLOS: [vote(CARLOS)], JORGE: [vote(CARLOS)]})
    assert final.president == CARLOS
    assert final.players[CARLOS].pocket == 5
    assert final.positions == after.positions
    assert "Carlos is elected President" in texts(events)
    assert final.phase == "budget_proposal"


def test_the_resigning_presidents_pocket_goes_to_his_successor():
    """Rules: "All money in the resigning President's Pocket is given immediately to the new
    President upon resolution of the election"."""
    _, after, _ = resigned_in_draw(pocket=7)
    after.players[JORGE].pocket = 2
    total = after.bills_total()
    assert after.players[CARLOS].pocket == 7  # not before the election resolves
    final, events = run(after, {JORGE: [vote(JORGE)]})
    assert final.president == JORGE
    assert final.players[CARLOS].pocket == 0 and final.players[JORGE].pocket == 9
    handover = of_kind(events, "pocket_handover")[0]
    assert handover.audience == (CARLOS, JORGE)
    assert final.bills_total() == total


def test_the_resigning_president_cannot_pay_during_the_election():
    """Rules: "The resigning President may not transfer his Pocket money in any way during
    the course of the Election"."""
    _, after, _ = resigned_in_draw(pocket=7)
    total = after.bills_total()
    pay = o("pay", to=BILL, amount=3)
    assert validate_order(after, CARLOS, pay) == [
        "A resigning President may not transfer his pocket money during the election."]
    assert validate_order(after, DONA, pay) == [
        "You have 0 MP in your pocket; you cannot pay 3 MP."]
    final, events = run(after, {CARLOS: [pay], JORGE: [vote(JORGE)]})
    assert final.players[BILL].pocket == 0
    assert final.players[JORGE].pocket == 7
    # fails where it acts, told to both sides (docs/rulings.md §ruling-no-silent-orders)
    failed = of_kind(events, "payment_failed")
    assert [e.audience for e in failed] == [(CARLOS, BILL)]
    assert "resigning President" in failed[0].text
    assert final.bills_total() == total


def test_the_resigning_president_cannot_trade_money_away_during_the_election():
    """Rules: "The resigning President may not transfer his Pocket money in any way during
    the course of the Election"."""
    _, after, _ = resigned_in_draw(pocket=7)
    card = give(after, BILL, "Black Marketeers")
    sale = o("trade", **{"with": BILL, "give_money": 3, "get_cards": [card]})
    assert validate_order(after, CARLOS, sale) == [
        "A resigning President may not transfer his pocket money during the election."]
    mine = give(after, CARLOS, "Ghost Voters")
    swap = o("trade", **{"with": BILL, "give_cards": [mine], "get_cards": [card]})
    assert validate_order(after, CARLOS, swap) == []  # cards are not pocket money


def test_a_new_presidents_old_position_passes_to_the_former_president():
    """Rules: "Each living, non-exiled player MUST be given at least one position."
    §ruling-new-president-positions: "A new President's old positions pass to the former
    President when he is alive and in the country (so every player keeps a position)"."""
    _, after, _ = resigned_in_draw()
    final, _ = run(after, {JORGE: [vote(BILL)]})
    assert final.president == BILL
    assert final.positions[cat.GENERAL_1] == CARLOS
    assert final.positions_of(BILL) == [cat.PRESIDENT]


def test_the_budget_bills_and_the_proposal_pass_to_the_new_president():
    """Rules: "The President is given one day to propose a budget, using the money drawn by
    herself, the Foreign Minister and the Farm & Labor Secretary"; "All money in the
    resigning President's Pocket is given immediately to the new President"."""
    _, after, _ = resigned_in_draw()
    held = list(after.budget["held"])
    final, _ = run(after, {JORGE: [vote(BILL)]})
    assert final.phase == "budget_proposal"
    assert owes_orders(final) == [BILL]
    proposal = o("propose_budget", allocations={})
    assert validate_order(final, BILL, proposal) == []
    assert validate_order(final, CARLOS, proposal) == [
        "Only the President proposes the budget."]
    total = final.bills_total()
    voted, _ = run(final, {BILL: [proposal]})
    passed, _ = run(voted, {JORGE: [vote("yes")]})
    assert passed.players[BILL].pocket == sum(held)  # unallocated money: the new President's
    assert passed.players[CARLOS].pocket == 0
    assert passed.bills_total() == total


# --- the motion on the President's competence -----------------------------------------------

def motion_state():
    """The Cabinet phase in which Bill plays The President's Competence Questioned."""
    state = in_phase("cabinet")
    card = give(state, BILL, "The President's Competence Questioned")
    positions = {p: state.positions[p] for p in cat.CABINET}
    after, events = run(state, {BILL: [o("play_card", card=card)],
                                CARLOS: [o("appoint", positions=positions)]})
    return after, events


def test_the_competence_motion_is_voted_after_the_cabinet_appointment():
    """Card: "During cabinet appointment, move to remove the President for incompetence;
    passes with 2/3 of votes (then a presidential election)"."""
    after, events = motion_state()
    assert after.phase == "special_motion"
    assert after.motion == {"mover": BILL, "president": CARLOS}
    assert of_kind(events, "motion")[0].headline
    assert sources(after, CARLOS) == {"position:president": 1}


def test_the_competence_motion_card_only_in_the_cabinet_phase():
    """Card: "During cabinet appointment, move to remove the President for incompetence"."""
    state = in_phase("budget_draw")
    card = give(state, BILL, "The President's Competence Questioned")
    errors = validate_order(state, BILL, o("play_card", card=card))
    assert errors == ["The President's Competence Questioned cannot be played in the Draw "
                      "Budget / New Weapons phase: it is played in the Cabinet Appointment "
                      "phase."]


def test_the_competence_motion_passes_with_two_thirds():
    """Card: "passes with 2/3 of votes (then a presidential election)".
    (§competence, §ruling-competence)."""
    after, _ = motion_state()
    # F&L's 5 against 10 yes votes: exactly two thirds.
    yes = {s: [vote("yes")] for s in range(CARLOS, INES + 1)}
    yes[CARLOS] = [vote("yes", split={"position:president": "abstain"})]
    ballots = {**yes, JORGE: [vote("no")]}
    ballots[DONA] = [vote("yes", cards=[give(after, DONA, "Peasant Vote")])]  # 1 + 2
    passed, events = run(after, ballots)
    result = of_kind(events, "motion_result")[0]
    assert (result.data["yes"], result.data["no"]) == (10, 5)
    assert passed.phase == "election" and passed.election["reason"] == "competence"
    assert passed.resume_phase == "budget_draw"
    assert passed.motion is None
    assert "passes" in result.text and result.headline
    final, _ = run(passed, {JORGE: [vote(JORGE)]})
    assert final.president == JORGE and final.phase == "budget_draw"


def test_the_competence_motion_fails_below_two_thirds():
    """Card: "passes with 2/3 of votes"."""
    after, _ = motion_state()
    ballots = {s: [vote("yes")] for s in range(MARIA, INES + 1)}  # 8 yes
    ballots[JORGE] = [vote("no")]  # 5 no: 8/13 is less than two thirds
    failed, events = run(after, ballots)
    result = of_kind(events, "motion_result")[0]
    assert (result.data["yes"], result.data["no"]) == (8, 5)
    assert "fails" in result.text
    assert failed.phase == "budget_draw" and failed.president == CARLOS
    assert failed.motion is None


def test_a_defeated_budget_left_by_a_resigning_president_goes_to_his_successor():
    """Rules: the Minister "may allow the Budget to remain defeated in which case the money is
    pocketed by the President"; "All money in the resigning President's Pocket is given
    immediately to the new President upon resolution of the election"."""
    state = in_phase("budget_vote")
    state.budget = {"held": [3, 2], "all_drawn": [3, 2], "holder": CARLOS,
                    "proposer": CARLOS, "outcome": None,
                    "proposal": {"allocations": {"2": 5}, "from_pocket": 0,
                                 "bills": {"2": [3, 2]}, "top_up": {}}}
    total = state.bills_total()
    after, _ = run(state, {CARLOS: [o("resign"), vote("yes")], JORGE: [vote("no")]})
    assert after.phase == "election" and after.resume_phase == "internal_security"
    elected, _ = run(after, {JORGE: [vote(DONA)]})
    assert elected.president == DONA and elected.phase == "internal_security"
    final, _ = run(elected, {MARIA: [o("seize_chamber", seize=False)]})
    assert final.players[DONA].pocket == 5 and final.players[CARLOS].pocket == 0
    assert final.players[BILL].pocket == 0
    assert final.bills_total() == total


# --- a President killed ---------------------------------------------------------------------

def test_a_killed_president_is_replaced_by_an_election_at_once():
    """§resignation: "A President killed or gone into exile is replaced the same way" (by the
    Chamber's votes). §ruling-president-gone: "An election is held at once (Chamber votes),
    then the turn resumes where it was"."""
    state = in_phase("locations", turn=2)
    state.players[DONA].pocket = 4
    pro = give(state, DONA, "Professional Assassin")
    after, _ = run(state, {DONA: [o("assassinate", card=pro, target=CARLOS,
                                    location="home")]})
    assert after.players[CARLOS].status == "dead" and after.president is None
    assert after.phase == "election" and after.election["reason"] == "vacancy"
    assert after.turn == 2 and current_phase(after).days == 1
    assert validate_order(after, CARLOS, vote(JORGE)) == [
        "The dead give no orders: prepare your next character for the next turn."]
    final, events = run(after, {JORGE: [vote(JORGE)], BILL: [vote(BILL)]})
    assert final.president == JORGE
    assert final.turn == 3 and final.phase == "cabinet"
    assert "Jorge is elected President" in texts(events)
