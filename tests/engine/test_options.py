"""A seat's legal options (`junta.engine.legal_options`): only choices the engine accepts,
each card, assassin, gift and bank order offered only when the engine would take it, and a note
saying why what is not offered is not; the conditions an order may wait for, with the details
each names. The Orders page draws its forms from these (tests/web/test_orders_page.py reads the
forms back; tests/web/test_coup_orders.py covers the coup's options).

The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel Admiral, 6 Gloria Air
Force Commander, 7 Hector Minister of War, 8 Ines Foreign Minister, 9 Jorge Farm & Labor
Secretary.
"""

from __future__ import annotations

from typing import Any

from junta.engine import (
    Condition,
    GameState,
    OrderOption,
    build,
    condition_detail,
    legal_options,
    validate_order,
)
from junta.engine import catalog as cat

from .helpers import give, in_phase
from .option_states import (
    ADMIRAL,
    AIR_FORCE,
    FARM,
    FOREIGN,
    GENERAL_1,
    GENERAL_3,
    PRESIDENT,
    WAR,
    budget_draw,
    election,
    locations,
)


def option(s: GameState, seat: int, key: str) -> OrderOption:
    found = legal_options(s, seat).get(key)
    assert found is not None, (key, [o.key for o in legal_options(s, seat).orders])
    return found


def keys(s: GameState, seat: int) -> set[str]:
    return {o.key for o in legal_options(s, seat).orders}


def card_id(state: GameState, seat: int, name: str) -> int:
    return next(c for c in state.players[seat].hand if cat.card(c).name == name)


def labels(o: OrderOption, name: str) -> dict[Any, str]:
    """An argument's choices: {the engine's value: its label}."""
    arg = o.arg(name)
    assert arg is not None, (o.key, name)
    return {c.value: c.label for c in arg.choices}


# --- trades with cards -------------------------------------------------------------------------

def test_a_trade_can_ask_for_cards_by_name_without_seeing_the_partners_hand():
    s = locations()
    trade = option(s, GENERAL_3, "trade")
    wanted = labels(trade, "get_cards")
    assert "Spy in Switzerland" in wanted and "Ballot Stuffers" in wanted
    assert "Informant" not in wanted  # the only copy is in my hand
    assert "Bankers" not in wanted and "Monarchists" not in wanted  # in play: public
    assert "Secret Political Donation" in wanted  # one copy is elsewhere
    # the list says nothing of what the others hold
    assert labels(option(s, ADMIRAL, "trade"), "get_cards").keys() >= {"Informant"}
    give(s, WAR, "Ballot Stuffers")
    give(s, ADMIRAL, "Wiretap")
    assert labels(option(s, GENERAL_3, "trade"), "get_cards") == wanted
    assert "your partner must order the same trade" in trade.arg("get_cards").help
    assert "same trade" in trade.help
    # the cards I give are from my hand
    assert labels(trade, "give_cards") == {c: cat.card(c).name
                                           for c in s.players[GENERAL_3].hand}


# --- only legal choices -----------------------------------------------------------------------

def test_the_card_options_offer_only_what_the_engine_accepts_and_say_why_not():
    s = budget_draw()
    for name in ("Bank Holiday", "Power Failure", "Ballot Stuffers", "Amateur Assassin",
                 "Secret Police Overtime", "Demand for Reform", "Informant", "Church",
                 "Amnesty", "Helicopter"):
        give(s, GENERAL_3, name)
    options = legal_options(s, GENERAL_3)
    offered = options.of_kind("play_card")
    names = {c.label for o in offered if o.arg("card") for c in o.arg("card").choices}
    names |= {cat.card(o.fixed["card"]).name for o in offered if "card" in o.fixed}
    assert names == {"Informant", "Church"}
    # every card that may be offered is one the engine accepts (a target: every one offered)
    plays = 0
    for o in offered:
        for value in labels(o, "card") if o.arg("card") else [None]:
            targets = labels(o, "target") if o.arg("target") else {None: ""}
            for target in targets:
                values = {"card": value, "target": target}
                order = build(s, GENERAL_3, o, {k: v for k, v in values.items() if v is not None})
                assert validate_order(s, GENERAL_3, order) == [], order
                plays += 1
    assert plays >= 2
    notes = "\n".join(options.notes)
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
    assert labels(option(s, AIR_FORCE, f"play_card:{card_id(s, AIR_FORCE, 'Amnesty')}"),
                  "target") == {FARM: f"{s.name(FARM)} (in exile)"}
    informant = option(s, GENERAL_3, f"play_card:{card_id(s, GENERAL_3, 'Informant')}")
    assert informant.fixed == {"card": card_id(s, GENERAL_3, "Informant")}
    assert FARM not in labels(informant, "target")
    assert GENERAL_3 not in labels(informant, "target")
    # re-vote and assassination-time cards have an option of their own: their own conditions
    burglar = option(s, GENERAL_3, f"play_card:{card_id(s, GENERAL_3, 'Burglar')}")
    assert burglar.condition("banks") is None
    assert option(s, GENERAL_3, "play_card").condition("banks") is not None


def test_assassins_and_vote_cards_the_engine_refuses_are_not_offered():
    s = in_phase("locations")
    give(s, PRESIDENT, "Foreign Assassin")
    give(s, PRESIDENT, "Monarchist Assassin")  # without Monarchists in play
    give(s, PRESIDENT, "Amateur Assassin")
    assert set(labels(option(s, PRESIDENT, "assassinate"), "card").values()) == {
        "Amateur Assassin"}
    notes = "\n".join(legal_options(s, PRESIDENT).notes)
    assert "Foreign Assassin: The Foreign Assassin cannot be played by the President" in notes
    assert "Monarchist Assassin requires Monarchists influence" in notes
    s = in_phase("election")
    s.election = {"reason": "initial", "candidates": [0, 1]}
    give(s, FARM, "Ballot Stuffers")
    assert option(s, FARM, "vote").arg("cards") is None
    assert "In the first election every player has exactly one vote" in \
        "\n".join(legal_options(s, FARM).notes)


def test_the_bank_is_not_offered_while_it_is_closed():
    """ "Players wishing to deposit or withdraw money from the Bank must have chosen the Bank
    as their location": a deposit and a withdrawal, each with its amount, while the Bank is
    open or closed only for lunch."""
    s = locations()
    assert {"bank:deposit", "bank:withdraw"} <= keys(s, GENERAL_3)
    deposit = option(s, GENERAL_3, "bank:deposit")
    withdraw = option(s, GENERAL_3, "bank:withdraw")
    assert (deposit.kind, withdraw.kind) == ("bank", "bank")
    assert (deposit.fixed, withdraw.fixed) == ({"action": "deposit"}, {"action": "withdraw"})
    assert [a.name for a in deposit.args] == [a.name for a in withdraw.args] == ["amount"]
    assert (deposit.arg("amount").minimum, deposit.arg("amount").maximum) == (1, 5)
    assert (withdraw.arg("amount").minimum, withdraw.arg("amount").maximum) == (1, 3)
    s.bank_status = "closed"
    assert "bank" not in legal_options(s, GENERAL_3).kinds
    assert "Banking: The Bank is closed for the rest of the turn." in \
        legal_options(s, GENERAL_3).notes
    s.bank_status = "closed_for_lunch"  # a forced budget: banking waits for after lunch
    assert {"bank:deposit", "bank:withdraw"} <= keys(s, GENERAL_3)
    # an empty pocket or account: that one is not offered, and a note says why
    s = locations()
    s.players[GENERAL_3].bank = 0
    assert "bank:withdraw" not in keys(s, GENERAL_3) and "bank:deposit" in keys(s, GENERAL_3)
    assert "Withdraw money from the Bank: your Bank account is empty." in \
        legal_options(s, GENERAL_3).notes


def test_a_gift_is_offered_only_to_players_under_the_hand_limit():
    s = locations()
    for name in ("Students", "Peasants", "Labor Unions", "Press", "Radicals", "Landowners"):
        give(s, ADMIRAL, name)
    gift = option(s, GENERAL_3, "give_card")
    assert ADMIRAL not in labels(gift, "to") and WAR in labels(gift, "to")


# --- conditions -------------------------------------------------------------------------------

def test_each_condition_names_only_its_own_details():
    assert condition_detail("location") == ("seat", "location")
    assert condition_detail("killed") == ("seat",)
    assert condition_detail("coup_excuse") == ()
    assert condition_detail("vote_result") == ("result", "margin_at_most")
    s = locations()
    pay = option(s, GENERAL_3, "pay")
    for cond in pay.conditions:
        assert tuple(a.name for a in cond.args) == condition_detail(cond.kind), cond.kind
    # the details chosen beyond the kind's own are left out of the order
    order = build(s, GENERAL_3, pay, {"to": ADMIRAL, "amount": 2},
                  ("location", {"seat": WAR, "location": "club", "card": "Informant",
                                "position": cat.WAR}))
    assert order.condition == Condition("location", {"seat": WAR, "location": "club"})


def test_an_assassination_time_order_waits_only_for_the_players_own_location():
    """ "Assassination attempts CAN be conditional, but only upon effects that would resolve
    chronologically prior to assassination declaration": locations are chosen as assassins are
    dispatched, so an assassination-time card may wait for the player's own location or exile
    only, and only he is offered."""
    s = locations()
    burglar = option(s, GENERAL_3, f"play_card:{card_id(s, GENERAL_3, 'Burglar')}")
    for kind in ("location", "exiled"):
        seat = next(a for a in burglar.condition(kind).args if a.name == "seat")
        assert [c.value for c in seat.choices] == [GENERAL_3], kind
    assert any("may only name you" in why for why in burglar.refused_conditions)
    # an order that waits for any player at all, in the pay option
    killed = next(a for a in option(s, GENERAL_3, "pay").condition("location").args
                  if a.name == "seat")
    assert WAR in [c.value for c in killed.choices]


def test_a_vote_condition_in_an_election_names_a_candidate():
    s = election()
    s.players[FOREIGN].pocket = 3
    voted = option(s, FOREIGN, "pay").condition("voted")
    choice = next(a for a in voted.args if a.name == "choice")
    assert {c.value for c in choice.choices} == {GENERAL_1, ADMIRAL, "abstain"}
