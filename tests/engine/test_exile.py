"""Rule tests for exile: leaving, life abroad, the Brother-in-Law, returning, execution.

Each test quotes the rule it checks from docs/rules.md (§exile, §brother-in-law) or
docs/rulings.md (§ruling-exiles, §ruling-exile-back-in-cabinet), the published game's own words
that those paragraphs restate ("Rules", from its "Exile Rules"), or the card texts ("Card").
The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 3 Dona 2nd General, 4 Ernesto 3rd General.
"""

from __future__ import annotations

from junta.engine import BIL, Order, validate_order
from junta.engine import catalog as cat

from .helpers import give, in_phase, in_play, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL = range(6)
DRAWS = {8: [Order("draw_bills", {"position": cat.FOREIGN, "count": 2})],
         9: [Order("draw_bills", {"position": cat.FARM_LABOR, "count": 2})]}


def o(kind: str, **args) -> Order:
    return Order(kind, args)


def dona_in_exile(phase: str = "budget_draw"):
    """Dona abroad with 4 MP in pocket, 6 MP banked, a card in hand and Influence in play;
    her position (the 2nd General) open."""
    state = in_phase(phase)
    dona = state.players[DONA]
    dona.status, dona.pocket, dona.bank = "exiled", 4, 6
    state.positions[cat.GENERAL_2] = None
    give(state, DONA, "Informant")
    in_play(state, DONA, "Press")
    return state


def with_draws(orders: dict) -> dict:
    out = {seat: list(v) for seat, v in DRAWS.items()}
    for seat, more in orders.items():
        out.setdefault(seat, []).extend(more)
    return out


# --- going into exile ------------------------------------------------------------------------

def test_an_exile_keeps_his_cards_and_money():
    """Rules: "A player in Exile keeps all cards in his possession and all money in hand and
    in the Bank"."""
    state = in_phase("locations")
    dona = state.players[DONA]
    dona.pocket, dona.bank = 4, 6
    spy = give(state, DONA, "Spy in Switzerland")
    press = in_play(state, DONA, "Press")
    after, events = run(state, {DONA: [o("location", place="exile")]})
    dona = after.players[DONA]
    assert dona.status == "exiled"
    assert (dona.pocket, dona.bank, dona.hand, dona.influence) == (4, 6, [spy], [press])
    assert "Dona flees the country into exile." in texts(events, None)


def test_exile_is_chosen_in_the_location_phase_only():
    """Rules: "During the Location Phase a player may choose to go into Exile instead of to
    one of the usual Locations"."""
    state = in_phase("budget_vote")
    errors = validate_order(state, DONA, o("location", place="exile"))
    assert errors and "not an order of the Budget Vote phase" in errors[0]


def test_an_exile_is_out_of_the_game_and_draws_no_cards():
    """Rules: "An Exiled player is essentially out of the game until he returns." (no cards
    are dealt to him at the next turn)."""
    state = in_phase("locations")
    after, _ = run(state, {DONA: [o("location", place="exile")]})
    assert after.turn == 2
    assert after.players[DONA].hand == []
    assert len(after.players[ERNESTO].hand) == 2


def test_an_exile_cannot_be_assassinated():
    """Rules: "An Exiled player is essentially out of the game until he returns"."""
    state = dona_in_exile("locations")
    state.players[ERNESTO].pocket = 2
    pro = give(state, ERNESTO, "Professional Assassin")
    errors = validate_order(state, ERNESTO, o("assassinate", card=pro, target=DONA,
                                              location="home"))
    assert errors == ["Dona is exiled: not in reach."]


# --- no interaction --------------------------------------------------------------------------

def test_an_exile_may_not_trade_or_interact():
    """Rules: "but may not trade or interact with any other players"."""
    state = dona_in_exile()
    informant = state.players[DONA].hand[0]
    refused = ["An exile may not trade or interact with other players; he may only return."]
    for order in (o("pay", to=ERNESTO, amount=1), o("give_card", to=ERNESTO, card=informant),
                  o("trade", **{"with": ERNESTO, "give_money": 1}),
                  o("play_card", card=informant, target=ERNESTO)):
        assert validate_order(state, DONA, order) == refused
    after, events = run(state, with_draws({DONA: [o("pay", to=ERNESTO, amount=4)]}))
    assert after.players[DONA].pocket == 4 and after.players[ERNESTO].pocket == 0
    assert "may only return" in texts(events, DONA)


def test_nobody_may_trade_with_an_exile():
    """Rules: "but may not trade or interact with any other players"."""
    state = dona_in_exile()
    state.players[ERNESTO].pocket = 3
    spy = give(state, ERNESTO, "Spy in Switzerland")
    assert validate_order(state, ERNESTO, o("pay", to=DONA, amount=1)) == [
        "Dona is exiled and cannot be paid."]
    assert validate_order(state, ERNESTO, o("give_card", to=DONA, card=spy)) == [
        "Dona is exiled and cannot take cards."]
    assert validate_order(state, ERNESTO, o("trade", **{"with": DONA, "give_money": 1})) == [
        "Dona is exiled."]
    assert validate_order(state, ERNESTO, o("play_card", card=spy, target=DONA)) == [
        "Dona is exiled."]


# --- the Brother-in-Law ----------------------------------------------------------------------

def test_an_exiles_position_is_open_to_the_brother_in_law():
    """Rules: "His position is open to the President's Brother-in-Law, until the beginning of
    the next turn"; §exile: "his position goes to the Brother-in-Law"."""
    state = in_phase("locations")
    after, events = run(state, {DONA: [o("location", place="exile")]})
    assert after.positions[cat.GENERAL_2] == BIL
    assert DONA not in after.positions.values()
    assert "Brother-in-Law takes over as Generalissimo of the 2nd Army Brigade" in texts(events)


def test_the_president_chooses_between_an_exiles_and_a_victims_position():
    """Rules: "the President may only give one of the positions to his Brother-in-Law, and he
    may choose which position to retain"."""
    state = in_phase("locations")
    state.players[MARIA].pocket = 0
    after, _ = run(state, {DONA: [o("location", place="exile")],
                           MARIA: [o("assassinate", card="secret_police", target=BILL,
                                     location="home")],
                           CARLOS: [o("brother_in_law", position=cat.GENERAL_2)]})
    assert after.positions[cat.GENERAL_2] == BIL
    assert after.positions[cat.GENERAL_1] is None


# --- returning -------------------------------------------------------------------------------

def test_an_exile_may_ask_to_return_at_any_time():
    """Rules: "An Exiled player may choose to return from Exile at any time, provided the
    Minister of Internal Security agrees to grant him safe passage"."""
    state = dona_in_exile()
    assert validate_order(state, DONA, o("return_from_exile")) == []
    after, events = run(state, with_draws({DONA: [o("return_from_exile")]}))
    assert after.pending_returns == [DONA]
    assert after.players[DONA].status == "exiled"
    assert "Dona asks to return from exile" in texts(events, None)
    assert validate_order(in_phase("budget_draw"), DONA, o("return_from_exile")) == [
        "You are not in exile."]


def test_safe_passage_returns_the_exile_without_a_position():
    """Rules: "A player who is granted safe passage returns immediately, and is able to
    interact with the other players normally. If an Exile returns in the middle of the Turn,
    however, he will remain positionless until the next Cabinet Appointment Phase."."""
    state = dona_in_exile("budget_proposal")
    state.pending_returns = [DONA]
    state.budget = {"held": [], "all_drawn": [], "holder": CARLOS, "proposer": CARLOS}
    after, events = run(state, {MARIA: [o("safe_passage", seat=DONA, decision="grant")]})
    dona = after.players[DONA]
    assert dona.status == "alive" and after.pending_returns == []
    assert (dona.pocket, dona.bank, len(dona.hand), len(dona.influence)) == (4, 6, 1, 1)
    assert after.positions_of(DONA) == []
    assert "returns from exile under safe passage" in texts(events, None)
    assert after.phase == "budget_vote"
    assert validate_order(after, DONA, o("pay", to=ERNESTO, amount=1)) == []


def test_only_the_minister_of_internal_security_decides_on_a_return():
    """Rules: "provided the Minister of Internal Security agrees to grant him safe passage"."""
    state = dona_in_exile()
    assert validate_order(state, MARIA, o("safe_passage", seat=DONA, decision="grant")) == [
        "Dona has not asked to return: there is no request to decide on."]
    state.pending_returns.append(DONA)
    assert validate_order(state, MARIA, o("safe_passage", seat=DONA, decision="grant")) == []
    assert validate_order(state, ERNESTO, o("safe_passage", seat=DONA, decision="execute"))[0] \
        == "Only the Minister of Internal Security decides on returning exiles."
    state.positions[cat.INTERNAL_SECURITY] = BIL
    assert validate_order(state, CARLOS, o("safe_passage", seat=DONA, decision="execute")) == []


def test_the_minister_may_execute_a_returning_exile():
    """Rules: "The Minister of Internal Security may also choose to execute the returning
    player, in which case the returning player's pocket money is given to the Minister of
    Internal Security, his cards are discarded, and he functions as if he were normally
    assassinated"."""
    state = dona_in_exile()
    state.pending_returns = [DONA]
    cards = list(state.players[DONA].hand + state.players[DONA].influence)
    after, events = run(state, with_draws({MARIA: [o("safe_passage", seat=DONA,
                                                       decision="execute")]}))
    dona = after.players[DONA]
    assert dona.status == "dead"
    assert (dona.pocket, dona.hand, dona.influence) == (0, [], [])
    assert all(c in after.political_discard for c in cards)
    assert after.players[MARIA].pocket == 4
    assert dona.bank == 6  # "the bank account survives death"
    death = [e for e in events if e.kind == "death"]
    assert death and death[0].audience == "public" and "executed" in death[0].text


def test_an_executed_exile_returns_with_the_next_turn():
    """Rules: "he functions as if he were normally assassinated"; "At the beginning of this
    phase, all dead players "respawn."" with 4 cards."""
    state = dona_in_exile("locations")
    state.pending_returns = [DONA]
    after, _ = run(state, {MARIA: [o("safe_passage", seat=DONA, decision="execute")]})
    dona = after.players[DONA]
    assert after.turn == 2 and dona.status == "alive" and dona.life == 2
    assert len(dona.hand) == 4 and dona.bank == 6 and after.players[MARIA].pocket == 4


def test_without_a_decision_the_exile_returns_safely():
    """§ruling-exiles: "A return asked in one phase meets the Minister's decision in the next
    (his `safe_passage` order); with no decision the exile returns safely." (§exile: "with no
    decision the exile returns safely".)"""
    state = dona_in_exile()
    state.pending_returns = [DONA]
    after, _ = run(state, DRAWS)
    assert after.players[DONA].status == "alive"


def test_amnesty_played_earlier_in_the_turn_prevents_execution():
    """Card: "One exile may return safely this turn (Minister cannot execute him)."."""
    state = dona_in_exile()
    amnesty = give(state, ERNESTO, "Amnesty")
    after, events = run(state, with_draws({
        DONA: [o("return_from_exile")], ERNESTO: [o("play_card", card=amnesty, target=DONA)]}))
    assert "Amnesty" in texts(events, None)
    after2, _ = run(after, {MARIA: [o("safe_passage", seat=DONA, decision="execute")]})
    assert after2.players[DONA].status == "alive" and after2.players[DONA].life == 1
    assert after2.players[MARIA].pocket == 0


def test_amnesty_played_with_the_ministers_decision_prevents_execution():
    """Card: "One exile may return safely this turn (Minister cannot execute him)." §any-time:
    card plays "are carried out first in the phase"."""
    state = dona_in_exile()
    state.pending_returns = [DONA]
    amnesty = give(state, ERNESTO, "Amnesty")
    after, _ = run(state, with_draws({
        MARIA: [o("safe_passage", seat=DONA, decision="execute")],
        ERNESTO: [o("play_card", card=amnesty, target=DONA)]}))
    assert after.players[DONA].status == "alive" and after.players[DONA].life == 1
    assert after.players[MARIA].pocket == 0


def test_amnesty_targets_an_exile():
    """Card: "One exile may return safely this turn"."""
    state = in_phase("budget_draw")
    amnesty = give(state, ERNESTO, "Amnesty")
    assert validate_order(state, ERNESTO, o("play_card", card=amnesty, target=DONA)) == [
        "Dona is not in exile."]


def test_amnesty_lasts_this_turn_only():
    """Card: "One exile may return safely this turn"."""
    state = dona_in_exile("locations")
    amnesty = give(state, ERNESTO, "Amnesty")
    after, _ = run(state, {ERNESTO: [o("play_card", card=amnesty, target=DONA)],
                           DONA: [o("return_from_exile")]})
    assert after.turn == 2 and after.pending_returns == [DONA]
    next_phase, _ = run(after, {MARIA: [o("safe_passage", seat=DONA, decision="execute")],
                                CARLOS: [o("appoint", positions={
                                    pos: after.positions[pos] for pos in cat.CABINET})]})
    assert next_phase.players[DONA].status == "dead"


def test_an_exile_back_at_the_cabinet_appointment_stays_positionless_and_the_cabinet_stands():
    """Rules: "A player who is granted safe passage returns immediately... If an Exile returns
    in the middle of the Turn, however, he will remain positionless until the next Cabinet
    Appointment Phase." (§ruling-exile-back-in-cabinet: a return settled in the Cabinet phase
    comes after the President gave his orders; the returned exile waits for the next turn's
    appointment.)"""
    from junta.engine.phases.cabinet import check_cabinet
    state = dona_in_exile("locations")
    asked, _ = run(state, {DONA: [o("return_from_exile")]})
    assert asked.phase == "cabinet" and asked.pending_returns == [DONA]
    cabinet = {pos: asked.positions[pos] for pos in cat.CABINET}
    cabinet[cat.GENERAL_2] = FIDEL  # Fidel is Admiral and 2nd General; Dona is abroad
    appoint = o("appoint", positions=cabinet)
    assert validate_order(asked, CARLOS, appoint) == []
    after, events = run(asked, {CARLOS: [appoint],
                                MARIA: [o("safe_passage", seat=DONA, decision="grant")]})
    assert after.players[DONA].status == "alive" and after.positions_of(DONA) == []
    assert "returns from exile under safe passage" in texts(events, None)
    assert not [e for e in events if e.kind == "cabinet_default"]
    assert {pos: after.positions[pos] for pos in cat.CABINET} == cabinet
    assert check_cabinet(after, cabinet) == []
    assert check_cabinet(after, {**cabinet, cat.GENERAL_2: DONA}) == [
        "Dona returned from exile this turn and stays positionless until the next Cabinet "
        "Appointment."]
    # without an appointment the lot leaves her out too; the next turn she must be appointed
    by_lot, _ = run(asked, {})
    assert by_lot.players[DONA].status == "alive" and by_lot.positions_of(DONA) == []
    next_turn = by_lot.copy()
    next_turn.turn_flags = {}  # a new turn begins
    assert "Dona must be given at least one position." in check_cabinet(next_turn, cabinet)


def test_an_attempt_on_a_player_who_fled_into_exile_is_not_made_and_costs_nothing():
    """Rules: "An Exiled player is essentially out of the game until he returns"; the assassin
    "must specify... the player to be targeted": with the target abroad there is no attempt, so
    the attacker keeps his card and money (and the Secret Police their Bank turn).
    (§ruling-attempt-on-exile)."""
    state = in_phase("locations")
    state.players[DONA].pocket = 4
    state.players[ERNESTO].bank = 5
    pro = give(state, DONA, "Professional Assassin")
    robber = give(state, DONA, "Bank Robber")
    after, events = run(state, {
        ERNESTO: [o("location", place="exile")],
        DONA: [o("assassinate", card=pro, target=ERNESTO, location="home"),
               o("play_card", card=robber, target=ERNESTO)],
        MARIA: [o("assassinate", card="secret_police", target=ERNESTO, location="bank")]})
    dona = after.players[DONA]
    assert pro in dona.hand and robber in dona.hand and dona.pocket == 4
    assert after.players[ERNESTO].status == "exiled" and after.players[ERNESTO].bank == 5
    assert after.secret_police_bank_turn is None
    told = texts(events, DONA)
    assert "Ernesto fled into exile: your Professional Assassin was not sent against him, " \
           "and you keep the card and pay nothing." in told
    assert "Ernesto fled into exile: your Bank Robber was not sent" in told
    assert "Ernesto fled into exile: the Secret Police were not sent against him and stay " \
           "at their posts." in texts(events, MARIA)
    assert "not sent" not in texts(events, ERNESTO)
