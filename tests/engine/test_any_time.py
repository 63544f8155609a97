"""Rule tests for "any time" actions: payments, gifts, trades and card plays.

Each test quotes the rule it checks from docs/rules.md (chiefly §any-time, §order-sets and
§secrets) or docs/rulings.md (§ruling-trade-secrecy), the published game's own words that those
paragraphs restate ("Rules"), or the card texts in `junta/engine/data/cards.json` ("Card").
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill, 3 Dona, 4 Ernesto, 5 Fidel Generals and Admiral, 8 Ines Foreign
Minister, 9 Jorge Farm & Labor Secretary.
"""

from __future__ import annotations

from junta.engine import Condition, Order, validate_order
from junta.engine import catalog as cat
from junta.engine.voting import sources

from .helpers import give, in_phase, in_play, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)
DRAWS = {INES: [Order("draw_bills", {"position": cat.FOREIGN, "count": 2})],
         JORGE: [Order("draw_bills", {"position": cat.FARM_LABOR, "count": 2})]}


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def pay(to: int, amount: int, condition: Condition | None = None) -> Order:
    return o("pay", condition, to=to, amount=amount)


def play(card: int, condition: Condition | None = None, **args) -> Order:
    return o("play_card", condition, card=card, **args)


def trade(partner: int, **terms) -> Order:
    return o("trade", **{"with": partner, **terms})


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def draw_phase(**pockets: int):
    """A Draw Budget phase (its orders besides the any-time ones are fixed: 2 bills each)."""
    state = in_phase("budget_draw")
    for seat, amount in pockets.items():
        state.players[int(seat.lstrip("s"))].pocket = amount
    return state


def go(state, orders: dict):
    merged = {seat: list(v) for seat, v in DRAWS.items()} if state.phase == "budget_draw" \
        else {}
    for seat, more in orders.items():
        merged.setdefault(seat, []).extend(more)
    return run(state, merged)


def only_told(events, kind: str, seats: tuple[int, ...]) -> list:
    found = of_kind(events, kind)
    assert found, kind
    assert all(e.audience == seats for e in found), [e.audience for e in found]
    return found


# --- payments --------------------------------------------------------------------------------

def test_a_payment_moves_money_and_is_private_to_both():
    """Rules: "This includes playing cards, paying players, trading with players ... giving
    cards or money away". §secrets: "Private to you: your hand, pocket and Bank account"."""
    state = draw_phase(s2=5)
    after, events = go(state, {BILL: [pay(DONA, 3)]})
    assert (after.players[BILL].pocket, after.players[DONA].pocket) == (2, 3)
    only_told(events, "payment", (BILL, DONA))
    assert "pays" not in texts(events, ERNESTO)


def test_a_payment_over_the_pocket_is_refused_when_ordered():
    """§order-sets: orders that "take more from your pocket than it holds" are refused when
    given; "A pocket can never go negative"."""
    state = draw_phase(s2=2)
    assert validate_order(state, BILL, pay(DONA, 3)) == [
        "You have 2 MP in your pocket; you cannot pay 3 MP."]
    assert validate_order(state, BILL, pay(DONA, 0)) == ["Pay a whole number of MP, at least 1."]
    assert validate_order(state, BILL, pay(BILL, 1)) == ["Choose another player to pay."]


def test_a_payment_not_covered_when_it_resolves_fails_and_both_are_told():
    """§any-time: "A payment the payer cannot cover when it is carried out fails, and both are
    told"."""
    state = draw_phase(s2=3)
    after, events = go(state, {BILL: [pay(DONA, 3), pay(ERNESTO, 3)]})
    assert after.players[BILL].pocket == 0
    assert after.players[DONA].pocket == 3 and after.players[ERNESTO].pocket == 0
    failed = only_told(events, "payment_failed", (BILL, ERNESTO))
    assert "had only 0 MP" in failed[0].text


def test_a_payment_a_ruling_made_impossible_fails_and_both_are_told():
    """§any-time: "A payment the payer cannot cover when it is carried out fails, and both are
    told"; §ruling-no-silent-orders: one a GameMaster's ruling "emptied the pocket" for since it
    was given fails whole, told to its player and to the payee, and to nobody else (not to a
    wiretapper: a Wiretap hears transfers made)."""
    from junta.engine import resolve
    from junta.engine.rulings import move_money
    state = draw_phase(s2=3, s5=1)
    wiretap = give(state, FIDEL, "Wiretap")
    orders = {BILL: [pay(DONA, 3)], FIDEL: [play(wiretap, target=BILL)]}
    assert validate_order(state, BILL, orders[BILL][0]) == []
    ruled = move_money(state, f"pocket:{BILL}", f"bank:{BILL}", 2).state
    r = resolve(ruled, {**DRAWS, **orders})
    assert r.state.players[BILL].pocket == 1 and r.state.players[DONA].pocket == 0
    failed = only_told(r.events, "payment_failed", (BILL, DONA))
    assert [e.text for e in failed] == ["Bill's payment of 3 MP to Dona failed: Bill had only "
                                        "1 MP."]
    assert [(x.done, x.told) for x in r.outcomes if x.order is orders[BILL][0]] == [
        (False, (BILL, DONA))]
    # a gift of a card a ruling took: both told, the card not named
    spy = give(state, BILL, "Spy in Switzerland")
    gift = o("give_card", to=DONA, card=spy)
    ruled = move_money(state, f"pocket:{BILL}", "out", 1).state
    ruled.players[BILL].hand.remove(spy)
    ruled.political_discard.append(spy)
    _, events = go(ruled, {BILL: [gift]})
    failed = only_told(events, "gift_failed", (BILL, DONA))
    assert "Spy" not in failed[0].text and "no longer in Bill's hand" in failed[0].text


def test_any_time_actions_resolve_in_seat_order():
    """§any-time: any-time actions "are carried out first in the phase ..., in seat
    order"."""
    # Maria (seat 1) pays Bill before Bill's own payments: both of his succeed.
    state = draw_phase(s1=3, s2=3)
    after, _ = go(state, {MARIA: [pay(BILL, 3)], BILL: [pay(FIDEL, 3), pay(GLORIA, 3)]})
    assert [after.players[s].pocket for s in (MARIA, BILL, FIDEL, GLORIA)] == [0, 0, 3, 3]
    # Dona (seat 3) pays Bill after Bill's payments: his second one fails.
    state = draw_phase(s3=3, s2=3)
    after, _ = go(state, {DONA: [pay(BILL, 3)], BILL: [pay(FIDEL, 3), pay(GLORIA, 3)]})
    assert [after.players[s].pocket for s in (DONA, BILL, FIDEL, GLORIA)] == [0, 3, 3, 0]


def test_a_payment_conditioned_on_a_later_step_happens_after_that_step():
    """§any-time: any-time actions are carried out first "unless a condition ties them to a
    later step" ("pay Bill 3 if Carlos is assassinated")."""
    for killed in (True, False):
        state = in_phase("locations")
        state.players[DONA].pocket = 2
        state.players[FIDEL].pocket = 3
        pro = give(state, DONA, "Professional Assassin")
        payment = pay(BILL, 3, Condition("killed", {"seat": CARLOS}))
        assert validate_order(state, FIDEL, payment) == []
        orders = {FIDEL: [payment]}
        if killed:
            orders[DONA] = [o("assassinate", card=pro, target=CARLOS, location="home")]
        after, events = run(state, orders)
        paid = of_kind(events, "payment")
        assert bool(paid) is killed
        assert after.players[BILL].pocket == (3 if killed else 0)
        if killed:
            kinds = [e.kind for e in events]
            assert kinds.index("death") < kinds.index("payment")


# --- gifts -----------------------------------------------------------------------------------

def test_a_gift_of_a_card_is_his_from_then_on():
    """§any-time: "A card given to a player is his from then on"."""
    state = draw_phase()
    spy = give(state, BILL, "Spy in Switzerland")
    after, events = go(state, {BILL: [o("give_card", to=DONA, card=spy)]})
    assert spy in after.players[DONA].hand and spy not in after.players[BILL].hand
    only_told(events, "gift", (BILL, DONA))


def test_a_card_cannot_be_given_twice():
    """§order-sets: no set of orders may "use one card twice (given, traded, ...)"; two gifts
    of one card that reach the adjudication give it once."""
    state = draw_phase()
    spy = give(state, BILL, "Spy in Switzerland")
    after, events = go(state, {BILL: [o("give_card", to=DONA, card=spy),
                                      o("give_card", to=ERNESTO, card=spy)]})
    assert spy in after.players[DONA].hand and spy not in after.players[ERNESTO].hand
    # the second fails, told to both sides (§any-time, §ruling-no-silent-orders)
    only_told(events, "gift_failed", (BILL, ERNESTO))
    assert "no longer in Bill's hand" in texts(events, ERNESTO)


def test_no_card_to_a_player_at_the_hand_limit():
    """Rules: "Note: You cannot pass cards to someone who is already at the Max Hand
    Limit"; "Influence Cards in play count towards the maximum hand limit"."""
    state = draw_phase()
    spy = give(state, BILL, "Spy in Switzerland")
    for name in ("Informant", "Wiretap", "Private Eye", "Double Agent", "Crooked Accountant"):
        give(state, DONA, name)
    in_play(state, DONA, "Press")
    assert validate_order(state, BILL, o("give_card", to=DONA, card=spy)) == [
        "Dona already holds 6 cards: no card may be passed to a player at the hand limit."]


def test_a_gift_to_a_player_who_reaches_the_limit_first_fails():
    """Rules: "You cannot pass cards to someone who is already at the Max Hand Limit" (when
    the gift resolves)."""
    state = draw_phase()
    spy = give(state, BILL, "Spy in Switzerland")
    wiretap = give(state, CARLOS, "Wiretap")
    for name in ("Informant", "Private Eye", "Double Agent", "Crooked Accountant", "Press"):
        give(state, DONA, name)
    after, events = go(state, {CARLOS: [o("give_card", to=DONA, card=wiretap)],
                               BILL: [o("give_card", to=DONA, card=spy)]})
    assert wiretap in after.players[DONA].hand and spy in after.players[BILL].hand
    only_told(events, "gift_failed", (BILL, DONA))


# --- trades ----------------------------------------------------------------------------------

def test_a_trade_happens_when_both_orders_match():
    """Rules: "trading with players (Which requires the same order from two players)";
    §any-time: "A trade happens only if both players order the same trade"."""
    state = draw_phase(s3=4)
    spy = give(state, BILL, "Spy in Switzerland")
    after, events = go(state, {BILL: [trade(DONA, give_cards=[spy], get_money=4)],
                               DONA: [trade(BILL, give_money=4, get_cards=[spy])]})
    assert spy in after.players[DONA].hand
    assert (after.players[BILL].pocket, after.players[DONA].pocket) == (4, 0)
    only_told(events, "trade", (BILL, DONA))


def test_two_players_may_make_two_trades_the_same_day():
    """§any-time: "A trade happens only if both players order the same trade"; each trade two
    players both ordered happens (§ruling-no-silent-orders: an accepted order is carried out or
    told), not only the first between them."""
    state = draw_phase(s3=4)
    spy = give(state, BILL, "Spy in Switzerland")
    eye = give(state, BILL, "Private Eye")
    after, events = go(state, {BILL: [trade(DONA, give_cards=[spy], get_money=2),
                                      trade(DONA, give_cards=[eye], get_money=1)],
                               DONA: [trade(BILL, give_money=2, get_cards=[spy]),
                                      trade(BILL, give_money=1, get_cards=[eye])]})
    assert {spy, eye} <= set(after.players[DONA].hand)
    assert (after.players[BILL].pocket, after.players[DONA].pocket) == (3, 1)
    assert len(only_told(events, "trade", (BILL, DONA))) == 2


def test_mismatched_trades_fail_and_both_are_told():
    """Rules: "trading with players (Which requires the same order from two players)"."""
    state = draw_phase(s3=4)
    spy = give(state, BILL, "Spy in Switzerland")
    after, events = go(state, {BILL: [trade(DONA, give_cards=[spy], get_money=4)],
                               DONA: [trade(BILL, give_money=3, get_cards=[spy])]})
    assert spy in after.players[BILL].hand
    assert (after.players[BILL].pocket, after.players[DONA].pocket) == (0, 4)
    failed = of_kind(events, "trade_failed")
    assert {seat for e in failed for seat in e.audience} == {BILL, DONA}
    assert "trade" not in texts(events, ERNESTO)


def test_a_one_sided_trade_does_not_happen():
    """Rules: "trading with players (Which requires the same order from two players)"."""
    state = draw_phase(s3=4)
    spy = give(state, BILL, "Spy in Switzerland")
    after, events = go(state, {DONA: [trade(BILL, give_money=4, get_cards=[spy])]})
    assert spy in after.players[BILL].hand and after.players[DONA].pocket == 4
    # §any-time: "if the other side did not order the same trade ... both are told"
    told = ("The trade Dona ordered with Bill (Dona gives 4 MP, Bill gives Spy in Switzerland) "
            "did not happen: Bill did not order the same trade.")
    assert told in texts(events, DONA) and told in texts(events, BILL)
    assert "trade" not in texts(events, ERNESTO)


def test_no_trade_with_a_player_who_fled_into_exile_that_day():
    """Rules: "A player in Exile keeps all cards in his possession and all money in hand and
    in the Bank, but may not trade or interact with any other players" (in the Locations
    phase exile is declared before the any-time actions, §adjudication-order)."""
    state = in_phase("locations")
    state.players[DONA].pocket = 4
    spy = give(state, BILL, "Spy in Switzerland")
    after, events = run(state, {
        BILL: [trade(DONA, give_cards=[spy], get_money=4)],
        DONA: [o("location", place="exile"), trade(BILL, give_money=4, get_cards=[spy])]})
    assert after.players[DONA].status == "exiled"
    assert spy in after.players[BILL].hand and spy not in after.players[DONA].hand
    assert (after.players[BILL].pocket, after.players[DONA].pocket) == (0, 4)
    told = ("The trade Bill ordered with Dona (Bill gives Spy in Switzerland, Dona gives 4 MP) "
            "did not happen: Dona is exiled.")
    assert told in texts(events, BILL) and told in texts(events, DONA)
    assert not of_kind(events, "trade")


def test_a_trade_must_be_covered_when_ordered():
    """§order-sets: "A pocket can never go negative"."""
    state = draw_phase(s3=2)
    spy = give(state, BILL, "Spy in Switzerland")
    assert validate_order(state, DONA, trade(BILL, give_money=4, get_cards=[spy])) == [
        "You have 2 MP; you cannot give 4."]



def test_a_trade_asks_only_for_what_the_orders_page_offers():
    """§ruling-trade-secrecy: a trade may ask for any card the asker cannot see (the partner's
    hand is secret); one in his own hand or in play in front of a player, which the Orders page
    never offers and no partner could deliver, is refused when ordered, and so is more than
    the 999 MP the page offers (§ruling-no-silent-orders: accepted orders are offered)."""
    state = draw_phase(s3=4)
    spy = give(state, BILL, "Spy in Switzerland")
    church = in_play(state, ERNESTO, "Church")
    for card in (spy, church):
        assert validate_order(state, BILL, trade(DONA, give_money=0, get_cards=[card])) == [
            "Ask only for cards that are neither in your hand nor in play in front of a "
            "player."]
    assert validate_order(state, BILL, trade(DONA, get_money=1000)) == [
        "Ask for at most 999 MP."]
    assert validate_order(state, BILL, trade(DONA, get_money=999)) == []


def test_a_trade_order_reveals_nothing_of_the_partner_s_hand():
    """§secrets: your hand is "Private to you"; §ruling-trade-secrecy: a trade for a card
    the partner does not hold "is accepted when ordered and fails when it resolves"."""
    state = draw_phase(s3=2)
    spy = give(state, BILL, "Spy in Switzerland")
    absent = next(c for c in state.political_deck if c != spy)
    assert validate_order(state, DONA, trade(BILL, get_cards=[absent])) == []
    assert validate_order(state, DONA, trade(BILL, get_cards=[spy])) == []
    after, events = go(state, {BILL: [trade(DONA, give_cards=[absent])],
                               DONA: [trade(BILL, get_cards=[absent])]})
    # Bill no longer holds the card he offered: the trade fails, told to both, naming no card
    assert "The trade between Bill and Dona failed: a card in it was no longer held." in \
        texts(events, DONA)
    assert absent not in after.players[DONA].hand


def test_a_resigning_president_may_not_pay_or_trade_money_away_during_the_election():
    """Rules: "The resigning President may not transfer his Pocket money in any way during
    the course of the Election"."""
    state = draw_phase(s0=7)
    during, _ = go(state, {CARLOS: [o("resign")]})
    assert during.phase == "election" and during.election["resigned"] == CARLOS
    card = give(during, BILL, "Black Marketeers")
    refused = "A resigning President may not transfer his pocket money during the election."
    assert refused in validate_order(during, CARLOS, pay(BILL, 3))
    assert refused in validate_order(during, CARLOS, trade(BILL, give_money=3,
                                                           get_cards=[card]))
    assert validate_order(during, BILL, trade(CARLOS, give_money=0, get_money=0,
                                              give_cards=[card])) == []
    assert validate_order(during, CARLOS, trade(BILL, get_cards=[card])) == []


# --- card timing -----------------------------------------------------------------------------

def test_a_card_not_playable_in_this_phase_is_refused_naming_when_it_is_played():
    """§any-time: card plays are any-time "whose card allows "any time""; others act at the
    step they name. Card, Bank Holiday: "the Bank is closed this turn" (Locations phase)."""
    state = in_phase("budget_vote")
    holiday = give(state, DONA, "Bank Holiday")
    in_play(state, DONA, "Bankers")
    errors = validate_order(state, DONA, play(holiday))
    assert len(errors) == 1
    assert "Bank Holiday cannot be played in the Budget Vote phase" in errors[0]
    assert "Locations" in errors[0]
    motion = give(state, BILL, "The President's Competence Questioned")
    errors = validate_order(state, BILL, play(motion))
    assert "Cabinet Appointment" in errors[0]
    cabinet = in_phase("cabinet")
    motion = give(cabinet, BILL, "The President's Competence Questioned")
    assert validate_order(cabinet, BILL, play(motion)) == []


def test_any_time_cards_are_playable_in_every_phase():
    """§any-time: card plays "whose card allows "any time"" are ordered with any phase's
    orders."""
    for phase in ("cabinet", "budget_draw", "budget_proposal", "budget_vote",
                  "internal_security", "locations"):
        state = in_phase(phase)
        church = give(state, DONA, "Church")
        assert validate_order(state, DONA, play(church)) == [], phase


def test_assassin_cards_are_not_any_time_plays():
    """Rules: "Players wishing to attempt an assassination must specify the assassin to be
    used, the player to be targeted, and the location"."""
    state = in_phase("locations")
    pro = give(state, DONA, "Professional Assassin")
    assert validate_order(state, DONA, play(pro, target=BILL)) == [
        "Professional Assassin is sent with an assassination order."]
    state = in_phase("budget_vote")
    burglar = give(state, DONA, "Burglar")
    errors = validate_order(state, DONA, play(burglar, target=BILL))
    assert errors and "cannot be played in the Budget Vote phase" in errors[0]


def test_influence_goes_into_play_in_public():
    """§secrets: "Public: ... the Influence cards in play"."""
    state = draw_phase()
    church = give(state, DONA, "Church")
    after, events = go(state, {DONA: [play(church)]})
    assert after.players[DONA].influence == [church]
    assert "Dona puts Church influence into play." in texts(events, None)


# --- Intelligence ----------------------------------------------------------------------------

def intelligence(name: str):
    state = draw_phase(s4=7)
    state.players[ERNESTO].bank = 12
    state.players[ERNESTO].last_location = "mistress"
    give(state, ERNESTO, "Ballot Stuffers")
    in_play(state, ERNESTO, "Landowners")
    cid = give(state, BILL, name)
    return state, cid


def test_intelligence_results_go_only_to_the_player_who_played_it():
    """§secrets: "Private to you: ... what your Intelligence cards learn"."""
    expected = {"Spy in Switzerland": "12 MP in the Bank",
                "Informant": "holds Ballot Stuffers; Influence in play: Landowners",
                "Crooked Accountant": "7 MP in his pocket",
                "Private Eye": "last turn Ernesto was at Mistress"}
    for name, result in expected.items():
        state, cid = intelligence(name)
        after, events = go(state, {BILL: [play(cid, target=ERNESTO)]})
        found = only_told(events, "intelligence", (BILL,))
        assert result in found[0].text, (name, found[0].text)
        for viewer in (ERNESTO, DONA, None):
            assert result not in texts(events, viewer)
        assert cid in after.political_discard


def test_mole_in_the_treasury_shows_the_bills_to_its_player_only():
    """Card: "See the denominations of every bill drawn for this turn's budget." (§ruling-mole)."""
    state = draw_phase()
    mole = give(state, BILL, "Mole in the Treasury")
    after, events = go(state, {BILL: [play(mole)]})
    bills = after.budget["all_drawn"]
    told = only_told(events, "intelligence", (BILL,))
    assert told[-1].text.endswith(", ".join(f"{b} MP" for b in bills) + ".")
    later = in_phase("budget_proposal")
    later.budget = {"all_drawn": [3, 1, 2], "held": [3, 1, 2]}
    mole = give(later, BILL, "Mole in the Treasury")
    _, events = go(later, {BILL: [play(mole)]})
    told = only_told(events, "intelligence", (BILL,))
    assert "3, 1, 2 MP" in told[0].text


def test_wiretap_hears_the_targets_transfers_of_the_day():
    """Card: "See all private trades/transfers one named player makes this day."."""
    state = draw_phase(s4=5, s0=2)
    wiretap = give(state, BILL, "Wiretap")
    after, events = go(state, {BILL: [play(wiretap, target=ERNESTO)],
                               CARLOS: [pay(DONA, 2)],
                               ERNESTO: [pay(FIDEL, 5)]})
    heard = [e for e in of_kind(events, "payment") if BILL in e.audience]
    assert len(heard) == 1 and "Ernesto pays Fidel 5 MP" in heard[0].text
    assert heard[0].audience == (BILL, ERNESTO, FIDEL)
    assert "Wiretap" not in texts(events, ERNESTO)


def test_double_agent_cancels_an_intelligence_card():
    """Card: "Cancel one Intelligence card just played against you; its player learns
    nothing." (§ruling-double-agent)."""
    for seat_of_spy in (BILL, FIDEL):  # before and after the Double Agent's holder
        state, cid = intelligence("Spy in Switzerland")
        if seat_of_spy != BILL:
            state.players[BILL].hand.remove(cid)
            state.players[seat_of_spy].hand.append(cid)
        agent = give(state, ERNESTO, "Double Agent")
        after, events = go(state, {seat_of_spy: [play(cid, target=ERNESTO)],
                                   ERNESTO: [play(agent)]})
        assert "12 MP" not in texts(events, seat_of_spy)
        cancelled = only_told(events, "double_agent", tuple(sorted((seat_of_spy, ERNESTO))))
        assert len(cancelled) == 1
        assert agent in after.political_discard and cid in after.political_discard
        assert "card_failed" not in {e.kind for e in events}  # no "card play did not happen"


# --- other cards -----------------------------------------------------------------------------

def test_secret_political_donation_draws_the_top_bill_seen_only_by_its_player():
    """Card: "Discard to draw the top bill of the Money Deck into your pocket (seen only by
    you)."."""
    state = in_phase("budget_vote")
    state.budget = {"held": [], "holder": CARLOS, "proposer": CARLOS,
                    "proposal": {"allocations": {}, "bills": {}, "top_up": {}}}
    donation = give(state, BILL, "Secret Political Donation")
    top = state.money_deck[-1]
    after, events = run(state, {BILL: [play(donation)]})
    assert after.players[BILL].pocket == top
    assert len(after.money_deck) == len(state.money_deck) - 1
    only_told(events, "donation", (BILL,))
    assert donation in after.political_discard


def test_foreign_aid_audit_publishes_the_budget_bills():
    """Card: "The President must publish the denominations of all bills drawn this turn."
    (played in the Budget Proposal phase)."""
    state = in_phase("budget_proposal")
    state.budget = {"all_drawn": [3, 1, 2], "held": [3, 1, 2], "holder": CARLOS,
                    "proposer": CARLOS}
    audit = give(state, DONA, "Foreign Aid Audit")
    assert validate_order(state, DONA, play(audit)) == []
    after, events = run(state, {DONA: [play(audit)]})
    published = of_kind(events, "audit")
    assert len(published) == 1 and published[0].audience == "public"
    assert "3, 1, 2 MP" in published[0].text
    assert audit in after.political_discard
    vote = in_phase("budget_vote")
    audit = give(vote, DONA, "Foreign Aid Audit")
    errors = validate_order(vote, DONA, play(audit))
    assert errors and "it is played in the Budget Proposal phase" in errors[0]


def test_coup_excuse_cards_give_a_coup_excuse():
    """Rules: "A Coup Excuse can be provided by: A card that grants a Coup Excuse".
    §secrets: "Public: ... a Coup Excuse"."""
    for name in ("UN Condemns Torture of Political Prisoners", "Annual Street Festival",
                 "Border Incident", "Press Scandal"):
        state = in_phase("locations")
        cid = give(state, DONA, name)
        args = {"target": BILL} if name == "Press Scandal" else {}
        after, events = run(state, {DONA: [play(cid, **args)],
                                    ERNESTO: [o("rebel_move", from_zone=17, to_zone=24)]})
        assert "There is a Coup Excuse this turn." in texts(events, None), name
        assert after.players[ERNESTO].rebel, name  # the excuse came before Rebel-Only moves


def test_press_scandal_bars_vote_cards_for_the_rest_of_the_turn():
    """Card: "Coup Excuse; name a player - he may not vote this turn with Vote cards."."""
    state = draw_phase()
    scandal = give(state, DONA, "Press Scandal")
    stuffers = give(state, BILL, "Ballot Stuffers")
    after, _ = go(state, {DONA: [play(scandal, target=BILL)]})
    assert after.coup_excuse
    after.phase = "budget_vote"  # later in the same turn
    assert validate_order(after, BILL, o("vote", choice="yes", cards=[stuffers])) == [
        "A Press Scandal bars you from voting with Vote cards this turn."]
    assert validate_order(after, BILL, o("vote", choice="yes")) == []


def test_press_scandal_in_the_vote_itself_bars_the_targets_vote_cards():
    """Card: "name a player - he may not vote this turn with Vote cards." §any-time: card
    plays "are carried out first in the phase"."""
    state = in_phase("budget_vote")
    state.budget = {"held": [], "holder": CARLOS, "proposer": CARLOS,
                    "proposal": {"allocations": {}, "bills": {}, "top_up": {}}}
    scandal = give(state, DONA, "Press Scandal")
    stuffers = give(state, BILL, "Ballot Stuffers")
    after, events = run(state, {DONA: [play(scandal, target=BILL)],
                                BILL: [o("vote", choice="yes", cards=[stuffers])]})
    record = of_kind(events, "votes_cast")[0].data["record"]
    assert any(r["seat"] == BILL and r["source"] != "Ballot Stuffers" for r in record)
    assert not any(r["seat"] == BILL and r["source"] == "Ballot Stuffers" for r in record)
    assert stuffers in after.players[BILL].hand
    assert only_told(events, "vote_cards_barred", (BILL,))


def test_coalition_breaks_up_discards_one_of_the_targets_influence_cards():
    """Card: "Target player discards one of his Influence cards (his choice)." (ruling: the
    weakest) (§ruling-coalition-breaks-up)."""
    state = draw_phase()
    church = in_play(state, BILL, "Church")
    press = in_play(state, BILL, "Press")
    coalition = give(state, DONA, "Coalition Breaks Up")
    after, events = go(state, {DONA: [play(coalition, target=BILL)]})
    assert after.players[BILL].influence == [church]
    assert press in after.political_discard
    assert "Bill loses Press influence" in texts(events, None)


def test_demand_for_reform_takes_control_of_small_influence_cards():
    """Card: "Requires Christian Democrats. Until end of turn you control every Influence card
    of 5 or fewer votes held by other players."."""
    state = draw_phase()
    reform = give(state, DONA, "Demand for Reform")
    assert validate_order(state, DONA, play(reform)) == [
        "Demand for Reform requires Christian Democrats influence in play in front of you."]
    in_play(state, DONA, "Christian Democrats")
    press = in_play(state, BILL, "Press")
    landowners = in_play(state, BILL, "Landowners")
    after, events = go(state, {DONA: [play(reform)]})
    assert f"influence:{press}" in sources(after, DONA)
    assert f"influence:{press}" not in sources(after, BILL)
    assert f"influence:{landowners}" in sources(after, BILL)
    assert "Dona demands reform" in texts(events, None)
    after.phase = "locations"
    nxt, _ = run(after, {})
    assert f"influence:{press}" in sources(nxt, BILL)  # "Until end of turn"


def test_a_played_card_leaves_the_hand():
    """Card, Spy in Switzerland: "Secretly look at one player's Swiss bank total." (one use:
    played cards are discarded)."""
    state, cid = intelligence("Spy in Switzerland")
    after, events = go(state, {BILL: [play(cid, target=ERNESTO), play(cid, target=DONA)]})
    assert len(only_told(events, "intelligence", (BILL,))) == 1
    assert "no longer in your hand" in texts(events, BILL)
