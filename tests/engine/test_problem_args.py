"""Every message `validate_order` returns says what it is about (`Problem.arg`), so that a page
can put it next to the field that causes it without trying other values.

`arg` is the name of the order's argument a player would change to mend it; "condition" for the
order's condition as a whole (its kind, when it is settled) or "condition.<detail>" for one of
its details; None for the order as a whole (who gives it, when, or what no single argument
answers). Each case quotes the rule its message applies where there is one: docs/rules.md (by
its §name), the published game's own words that it restates ("Rules") or the card texts
("Card").

The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel Admiral, 6 Gloria Air
Force Commander, 7 Hector Minister of War, 8 Ines Foreign Minister, 9 Jorge Farm & Labor
Secretary.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from junta.engine import Condition, GameState, Order, catalog, resolve, validate_order
from junta.engine.bots import play_phase
from junta.engine.orders import ORDER_KINDS, validate_condition, validate_orders
from junta.engine.phases.locations import SECRET_POLICE
from junta.engine.problems import Problem
from junta.engine.rng import Rng

from .coup_states import aftermath_state, coup_state, final_state
from .helpers import game, give, in_phase, in_play

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)

# The arguments of each kind of order, as the engine reads them from JSON.
ARGS: dict[str, tuple[str, ...]] = {
    "pay": ("to", "amount"),
    "give_card": ("to", "card"),
    "trade": ("with", "give_cards", "get_cards", "give_money", "get_money"),
    "play_card": ("card", "target", "zone"),
    "discard": ("card",),
    "resign": (),
    "return_from_exile": (),
    "safe_passage": ("seat", "decision"),
    "brother_in_law": ("position",),
    "nominate": ("candidate",),
    "second": ("candidate",),
    "decline": ("candidate",),
    "vote": ("choice", "cards", "split"),
    "appoint": ("positions",),
    "new_weapons": ("position",),
    "draw_bills": ("position", "count"),
    "propose_budget": ("allocations", "from_pocket", "bills"),
    "seize_chamber": ("seize",),
    "location": ("place",),
    "assassinate": ("card", "target", "location"),
    "bank": ("action", "amount"),
    "rebel_move": ("from_zone", "to_zone"),
    "airstrike": ("source", "zone", "target"),
    "gunboat": ("zone", "target"),
    "intervene": ("forces",),
    "transfer": ("units", "to", "after_moves"),
    "place": ("unit", "zone"),
    "move": ("from_zone", "to_zone", "units"),
    "police_response": ("zone", "units"),
    "flee": (),
    "embassy_passage": ("seat",),
    "casualties": ("last",),
    "attack": ("zone", "target"),
    "retreat": ("zone", "to_zone"),
    "permit_retreat": ("seat", "allow"),
    "coup_side": ("side",),
    "junta_vote": ("candidate",),
    "execute": ("target",),
}
CONDITION_ARGS = {"condition", *(f"condition.{detail}" for detail in (
    "seat", "location", "choice", "result", "card", "position"))}


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


# --- states ----------------------------------------------------------------------------------

def phase(name: str, **pockets: int) -> Callable[[], GameState]:
    """A game in phase `name` with the standard cabinet; `pockets` by lower-case name."""
    def build() -> GameState:
        state = in_phase(name)
        for p in state.players:
            p.pocket = pockets.get(p.name.lower(), p.pocket)
        return state
    return build


def changed(build: Callable[[], GameState], change: Callable[[GameState], object]
            ) -> Callable[[], GameState]:
    def built() -> GameState:
        state = build()
        change(state)
        return state
    return built


def setting(**values: object) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        for key, value in values.items():
            setattr(state, key, value)
    return change


def pocket(seat: int, value: int, then: Callable[[GameState], None] = lambda s: None
           ) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        state.players[seat].pocket = value
        then(state)
    return change


def two_kinds(seat: int) -> Callable[[GameState], None]:
    """A Tank beside the seat's units, so that he has two kinds to order the casualties of."""
    def change(state: GameState) -> None:
        from junta.engine.units import new_unit
        assert state.coup is not None
        new_unit(state.coup, "Tank", seat, 1, phase=-1)
    return change


def asking_to_return(seat: int) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        state.players[seat].status = "exiled"
        state.pending_returns.append(seat)
    return change


def status(seat: int, value: str) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        state.players[seat].status = value
    return change


def holding(seat: int, *names: str) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        for name in names:
            give(state, seat, name)
    return change


def with_bills(state: GameState) -> None:
    """The President holds two 3 MP budget bills."""
    state.budget = {"drawn": {catalog.FOREIGN: [], catalog.FARM_LABOR: [],
                              catalog.PRESIDENT: [3, 3]},
                    "all_drawn": [3, 3], "held": [3, 3], "holder": CARLOS, "proposer": CARLOS,
                    "proposal": None, "outcome": None}


def coup() -> GameState:
    return coup_state()[0]


def hand(state: GameState, seat: int, name: str) -> int:
    """The id of the named card in the seat's hand."""
    return next(c for c in state.players[seat].hand if catalog.card(c).name == name)


ANY_TIME = phase("cabinet", dona=5)
VOTE = phase("budget_vote")
LOCATIONS = phase("locations")
PROPOSAL = changed(phase("budget_proposal"), with_bills)

# (state, seat, order or a function of the state giving it, [(message, arg), ...])
Case = tuple[Callable[[], GameState], int, Order | Callable[[GameState], Order],
             list[tuple[str, str | None]]]

CASES: dict[str, Case] = {
    # --- the order as a whole: who gives it and when, not one argument ---------------------
    "game over": (changed(ANY_TIME, setting(finished=True)), DONA,
                  o("pay", to=BILL, amount=1), [("The game is over.", None)]),
    "not this phase": (ANY_TIME, DONA, o("location", place="home"), [
        ("Choose a location is not an order of the Cabinet Appointment phase.", None)]),
    # Rules: "though you won't be able to take any in-game actions until that time".
    "dead": (changed(ANY_TIME, status(DONA, "dead")), DONA, o("pay", to=BILL, amount=1), [
        ("The dead give no orders: prepare your next character for the next turn.", None)]),
    # Rules: "but may not trade or interact with any other players".
    "exile": (changed(ANY_TIME, status(DONA, "exiled")), DONA, o("pay", to=BILL, amount=1), [
        ("An exile may not trade or interact with other players; he may only return.", None)]),

    # --- any time ----------------------------------------------------------------------------
    "pay: yourself": (ANY_TIME, DONA, o("pay", to=DONA, amount=1), [
        ("Choose another player to pay.", "to")]),
    "pay: the dead": (changed(ANY_TIME, status(BILL, "dead")), DONA,
                      o("pay", to=BILL, amount=1), [("Bill is dead and cannot be paid.", "to")]),
    "pay: nothing": (ANY_TIME, DONA, o("pay", to=BILL, amount=0), [
        ("Pay a whole number of MP, at least 1.", "amount")]),
    "pay: more than the pocket": (ANY_TIME, DONA, o("pay", to=BILL, amount=9), [
        ("You have 5 MP in your pocket; you cannot pay 9 MP.", "amount")]),
    # Rules: "Note: You cannot pass cards to someone who is already at the Max Hand Limit".
    "give_card: hand limit": (
        changed(ANY_TIME, holding(BILL, "Church", "Bankers", "Press", "Students", "Radicals",
                                  "Monarchists")), DONA,
        o("give_card", to=BILL, card=0), [
            ("Bill already holds 6 cards: no card may be passed to a player at the hand "
             "limit.", "to"),
            ("That card is not in your hand.", "card")]),
    "trade: yourself": (ANY_TIME, DONA, o("trade", give_money=1, **{"with": DONA}), [
        ("Choose another player to trade with.", "with")]),
    "trade: money given": (ANY_TIME, DONA, o("trade", give_money=-1, **{"with": BILL}), [
        ("Money in a trade is a whole number of MP, 0 or more.", "give_money")]),
    "trade: money asked": (ANY_TIME, DONA, o("trade", get_money="2", **{"with": BILL}), [
        ("Money in a trade is a whole number of MP, 0 or more.", "get_money")]),
    "trade: cards given": (ANY_TIME, DONA, o("trade", give_cards="Spy", **{"with": BILL}), [
        ("A trade names cards by their number.", "give_cards")]),
    "trade: cards asked": (ANY_TIME, DONA, o("trade", get_cards=[999], **{"with": BILL}), [
        ("A trade names cards by their number.", "get_cards")]),
    "trade: nothing": (ANY_TIME, DONA, o("trade", **{"with": BILL}), [
        ("A trade must exchange something.", None)]),
    "trade: more than the pocket": (ANY_TIME, DONA, o("trade", give_money=9, **{"with": BILL}),
                                    [("You have 5 MP; you cannot give 9.", "give_money")]),
    "trade: a card not held": (ANY_TIME, DONA, o("trade", give_cards=[0], **{"with": BILL}), [
        ("You can only trade cards in your hand.", "give_cards")]),
    "play_card: not in hand": (ANY_TIME, DONA, o("play_card", card=0), [
        ("That card is not in your hand.", "card")]),
    # Rules: Vote cards are used "only when named in the order" of the vote.
    "play_card: a vote card": (
        changed(ANY_TIME, holding(DONA, "Peasant Vote")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Peasant Vote")), [
            ("Peasant Vote is a Vote card: name it in your vote order.", "card")]),
    "play_card: not now": (
        changed(ANY_TIME, holding(DONA, "Bank Holiday")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Bank Holiday")), [
            ("Bank Holiday cannot be played in the Cabinet Appointment phase: it is played in "
             "the Locations phase.", "card")]),
    # Card, Demand for Reform: "Requires Christian Democrats".
    "play_card: influence required": (
        changed(ANY_TIME, holding(DONA, "Demand for Reform")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Demand for Reform")), [
            ("Demand for Reform requires Christian Democrats influence in play in front of "
             "you.", "card")]),
    "play_card: yourself as the target": (
        changed(ANY_TIME, holding(DONA, "Spy in Switzerland")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Spy in Switzerland"), target=DONA), [
            ("Spy in Switzerland needs another player as its target.", "target")]),
    "play_card: amnesty for no exile": (
        changed(ANY_TIME, holding(DONA, "Amnesty")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Amnesty"), target=BILL), [
            ("Bill is not in exile.", "target")]),
    "play_card: a dead target": (
        changed(changed(ANY_TIME, holding(DONA, "Informant")), status(BILL, "dead")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Informant"), target=BILL), [
            ("Bill is dead.", "target")]),
    # Card, Provincial Pretender: "3 armed rural units enter at zone 24 or 25 (your choice)".
    "play_card: where units appear": (
        changed(LOCATIONS, holding(ERNESTO, "Provincial Pretender")), ERNESTO,
        lambda s: o("play_card", card=hand(s, ERNESTO, "Provincial Pretender"), zone=1), [
            ("Provincial Pretender: choose where the units appear (North Suburb, South "
             "Suburb).", "zone")]),
    "play_card: the President's rebel action": (
        changed(LOCATIONS, holding(CARLOS, "Demonstrators")), CARLOS,
        lambda s: o("play_card", card=hand(s, CARLOS, "Demonstrators")), [
            ("The President cannot take Rebel action.", None)]),
    "play_card: the price of mercenaries": (
        changed(coup, holding(DONA, "Mercenaries")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Mercenaries")), [
            ("Mercenaries costs 2 MP; you have 0 MP.", "card")]),
    # Card, Bribe the Police: "Name a zone; for each Police unit there you pay 1 MP".
    "play_card: the bribe's zone": (
        changed(changed(coup, holding(DONA, "Bribe the Police")),
                lambda s: setattr(s.players[DONA], "pocket", 2)), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Bribe the Police")), [
            ("Bribe the Police: name the zone whose units you bribe.", "zone")]),
    "play_card: a bribe with an empty pocket": (
        changed(coup, holding(DONA, "Bribe the Police")), DONA,
        lambda s: o("play_card", card=hand(s, DONA, "Bribe the Police"), zone=10), [
            ("Bribe the Police costs 1 MP for each unit; your pocket is empty.", "card")]),
    "discard": (ANY_TIME, DONA, o("discard", card=0), [
        ("That card is neither in your hand nor in play in front of you.", "card")]),
    "resign": (ANY_TIME, DONA, o("resign"), [
        ("Only the President can resign the Presidency.", None)]),
    "return_from_exile": (ANY_TIME, DONA, o("return_from_exile"), [
        ("You are not in exile.", None)]),
    "safe_passage: not the minister": (
        changed(ANY_TIME, asking_to_return(DONA)), BILL,
        o("safe_passage", seat=DONA, decision="grant"), [
            ("Only the Minister of Internal Security decides on returning exiles.", None)]),
    "safe_passage: no exile": (ANY_TIME, MARIA, o("safe_passage", seat=BILL, decision="grant"),
                               [("Choose an exile.", "seat")]),
    "safe_passage: not asked": (
        changed(ANY_TIME, status(DONA, "exiled")), MARIA,
        o("safe_passage", seat=DONA, decision="grant"), [
            ("Dona has not asked to return: there is no request to decide on.", "seat")]),
    "safe_passage: decision": (
        changed(ANY_TIME, asking_to_return(DONA)), MARIA,
        o("safe_passage", seat=DONA, decision="pardon"), [
            ("Decide 'grant' (safe passage) or 'execute'.", "decision")]),
    "brother_in_law: not the president": (ANY_TIME, DONA, o("brother_in_law", position="war"), [
        ("Only the President directs his Brother-in-Law.", None)]),
    "brother_in_law: position": (ANY_TIME, CARLOS, o("brother_in_law", position="president"), [
        ("Choose a Cabinet position for your Brother-in-Law to take if it falls vacant.",
         "position")]),

    # --- nominations and votes -----------------------------------------------------------------
    "nominate": (phase("nomination"), DONA, o("nominate", candidate=99), [
        ("Choose a living player in the country.", "candidate")]),
    "second": (changed(phase("nomination"), status(BILL, "dead")), DONA,
               o("second", candidate=BILL), [
                   ("Choose a living player in the country.", "candidate")]),
    "vote: choice": (VOTE, DONA, o("vote", choice="maybe"), [
        ("Vote yes, no or abstain.", "choice")]),
    "vote: a candidate": (
        changed(phase("election"), setting(election={"reason": "vacancy",
                                                    "candidates": [BILL, DONA]})), DONA,
        o("vote", choice=CARLOS), [("Vote for one of the candidates, or abstain.", "choice")]),
    "vote: no votes": (
        changed(VOTE, lambda s: s.positions.update({catalog.GENERAL_2: None})), DONA,
        o("vote", choice="yes"), [("You have no votes in this vote.", None)]),
    "vote: a card not held": (VOTE, DONA, o("vote", choice="yes", cards=[0]), [
        ("A Vote card you named is not in your hand.", "cards")]),
    "vote: not a vote card": (
        changed(VOTE, holding(DONA, "Spy in Switzerland")), DONA,
        lambda s: o("vote", choice="yes", cards=[hand(s, DONA, "Spy in Switzerland")]), [
            ("Spy in Switzerland is not a Vote card.", "cards")]),
    "vote: split": (VOTE, DONA, o("vote", choice="yes", split="no"), [
        ("A split gives a choice for each source of votes.", "split")]),
    # Rules: "Influence Card votes and multiple positions may cast votes contrary to the vote
    # of the primary position": only one's own.
    "vote: another's votes": (VOTE, DONA, o("vote", choice="yes", split={"position:war": "no"}),
                              [("You cannot cast the votes of Minister of War.", "split")]),

    # --- the turn ------------------------------------------------------------------------------
    "appoint: not the president": (phase("cabinet"), DONA, o("appoint", positions={}), [
        ("Only the President appoints the Cabinet.", None)]),
    "appoint: not a cabinet": (phase("cabinet"), CARLOS, o("appoint", positions="x"), [
        ("Give a holder for each Cabinet position.", "positions")]),
    # Rules: "The President may himself not be given any second position, except by use of the
    # President's Brother in Law"; "Each living, non-exiled player MUST be given at least one
    # position".
    "appoint: the president's second position": (
        phase("cabinet"), CARLOS,
        o("appoint", positions={**{p: i for i, p in enumerate(catalog.CABINET, 1)},
                                catalog.GENERAL_1: CARLOS}), [
            ("You may not take the Generalissimo of the 1st Army Brigade yourself: the "
             "President holds a second position only through his Brother-in-Law.",
             "positions"),
            ("Bill must be given at least one position.", "positions")]),
    "new_weapons: not the minister": (phase("budget_draw"), DONA,
                                      o("new_weapons", position="admiral"), [
                                          ("Only the Minister of War assigns New Weapons.",
                                           None)]),
    "new_weapons: position": (phase("budget_draw"), HECTOR, o("new_weapons", position="war"), [
        ("New Weapons go to a General, the Admiral, the Air Force Commander or no one.",
         "position")]),
    # Rules: "(between 1 and 6 bills each)".
    "draw_bills: count": (phase("budget_draw"), INES, o("draw_bills", position="foreign",
                                                         count=7), [
        ("Draw between 1 and 6 bills.", "count")]),
    "draw_bills: another's draw": (phase("budget_draw"), INES,
                                   o("draw_bills", position="farm_labor", count=2), [
                                       ("You are not the Farm & Labor Secretary.", "position")]),
    "draw_bills: no such draw": (phase("budget_draw"), CARLOS,
                                 o("draw_bills", position="president", count=2), [
        ("Budget bills are drawn by the Foreign Minister or the Farm & Labor Secretary.",
         "position")]),
    "propose_budget: not the president": (PROPOSAL, BILL,
                                          o("propose_budget", allocations={"2": 3}), [
                                              ("Only the President proposes the budget.",
                                               None)]),
    "propose_budget: allocations": (PROPOSAL, CARLOS, o("propose_budget", allocations="x"), [
        ("Give the budget as an amount for each player.", "allocations")]),
    "propose_budget: a stranger": (PROPOSAL, CARLOS, o("propose_budget", allocations={"42": 1}),
                                   [("The budget names a player who is not in this game.",
                                     "allocations")]),
    "propose_budget: from_pocket": (PROPOSAL, CARLOS,
                                    o("propose_budget", allocations={"2": 3}, from_pocket=5), [
        ("You have 0 MP in your pocket; you cannot add 5 MP to the budget.", "from_pocket")]),
    "propose_budget: bills": (PROPOSAL, CARLOS,
                              o("propose_budget", allocations={"2": 3}, bills={"2": [4]}), [
                                  ("Denominations are bills of 1, 2 or 3 MP.", "bills")]),
    # Rules: "The budget must be possible. If the money allocated cannot be given out with the
    # current combination of bills in the President's pocket..."
    "propose_budget: cannot be paid": (PROPOSAL, CARLOS,
                                       o("propose_budget", allocations={"2": 1, "3": 4}), [
        ("This budget cannot be paid: with bills 3 MP, 3 MP you cannot make Bill 1 MP, Dona "
         "4 MP (5 MP); 2 MP is missing. Add money from your pocket or change the totals.",
         "allocations")]),
    "seize_chamber: not the minister": (phase("internal_security"), BILL,
                                        o("seize_chamber", seize=True), [
        ("Only the Minister of Internal Security decides whether to seize the Chamber.",
         None)]),
    "seize_chamber: seize": (phase("internal_security"), MARIA, o("seize_chamber", seize="yes"),
                             [("Decide: seize the Chamber (true) or let the budget stay "
                               "defeated (false).", "seize")]),
    # Rules: "All players must choose one location from a possible five".
    "location": (LOCATIONS, DONA, o("location", place="beach"), [
        ("Choose Home, HQ, Bank, Club, Mistress or exile.", "place")]),
    # Rules: assassins "must specify the assassin to be used, the player to be targeted, and
    # the location at which to target them".
    "assassinate: target": (
        changed(LOCATIONS, holding(DONA, "Amateur Assassin")), DONA,
        lambda s: o("assassinate", card=hand(s, DONA, "Amateur Assassin"), target=DONA,
                    location="home"), [("Choose another player as the target.", "target")]),
    "assassinate: location": (
        changed(LOCATIONS, holding(DONA, "Amateur Assassin")), DONA,
        lambda s: o("assassinate", card=hand(s, DONA, "Amateur Assassin"), target=BILL,
                    location="beach"), [
            ("Name the location to strike: Home, HQ, Bank, Club or Mistress.", "location")]),
    "assassinate: not held": (LOCATIONS, DONA, o("assassinate", card=43, target=BILL,
                                                 location="home"), [
        ("That assassin is not in your hand.", "card")]),
    "assassinate: not an assassin": (
        changed(LOCATIONS, holding(DONA, "Burglar")), DONA,
        lambda s: o("assassinate", card=hand(s, DONA, "Burglar"), target=BILL,
                    location="home"), [("Burglar is not an assassin.", "card")]),
    "assassinate: another's police": (LOCATIONS, DONA, o("assassinate", card=SECRET_POLICE,
                                                         target=BILL, location="home"), [
        ("Only the Minister of Internal Security commands the Secret Police.", "card")]),
    # Rules: "though they may not be sent to the Bank two turns in a row".
    "assassinate: the bank again": (
        changed(LOCATIONS, setting(turn=2, secret_police_bank_turn=1)),
        MARIA, o("assassinate", card=SECRET_POLICE, target=BILL, location="bank"), [
            ("The Secret Police may not be sent to the Bank two turns in a row.", "location")]),
    "bank: action": (LOCATIONS, DONA, o("bank", action="steal", amount=1), [
        ("Choose to deposit or to withdraw.", "action")]),
    "bank: amount": (LOCATIONS, DONA, o("bank", action="withdraw", amount=3), [
        ("You have 0 MP in the Bank; you cannot withdraw 3.", "amount")]),
    "bank: deposit": (changed(LOCATIONS, pocket(DONA, 2)), DONA,
                      o("bank", action="deposit", amount=3), [
                          ("You have 2 MP in your pocket; you cannot deposit 3.", "amount")]),
    # Card, Bank Holiday: "the Bank is closed this turn".
    "bank: closed": (changed(LOCATIONS, pocket(DONA, 1, setting(bank_status="closed"))), DONA,
                     o("bank", action="deposit", amount=1), [
                         ("The Bank is closed for the rest of the turn.", None)]),
    "rebel_move: from": (LOCATIONS, ERNESTO, o("rebel_move", from_zone=99, to_zone=24), [
        ("Choose the zones of the move from the map.", "from_zone")]),
    "rebel_move: to": (LOCATIONS, ERNESTO, o("rebel_move", from_zone=17, to_zone=1), [
        ("Presidential Palace is not next to 3rd Brigade Barracks.", "to_zone")]),
    "rebel_move: the president": (LOCATIONS, CARLOS, o("rebel_move", from_zone=1, to_zone=2), [
        ("The President cannot take Rebel action.", None)]),

    # --- the coup -----------------------------------------------------------------------------
    # Rules: the Air Force Commander "Controls 3 Airstrikes".
    "airstrike: source": (coup, DONA, o("airstrike", zone=24, target=ERNESTO), [
        ("Only the Air Force Commander orders the Airstrikes.", "source")]),
    "airstrike: no such source": (coup, GLORIA, o("airstrike", source="navy", zone=24,
                                                  target=ERNESTO), [
        ("An airstrike comes from the Air Force or the foreign intervention.", "source")]),
    # Rules: "The orders for such an action must include the area to be struck, as well as the
    # player whose units are to be attacked".
    "airstrike: zone": (coup, GLORIA, o("airstrike", target=ERNESTO), [
        ("Name the zone to strike.", "zone")]),
    "airstrike: own units": (coup, GLORIA, o("airstrike", zone=24, target=GLORIA), [
        ("You cannot strike your own units.", "target")]),
    "gunboat: not the admiral": (coup, DONA, o("gunboat", zone=24, target=ERNESTO), [
        ("Only the Admiral commands the Gunboat.", None)]),
    # §incoming-fire: "Embassies are no-combat zones".
    "gunboat: embassy": (coup, FIDEL, o("gunboat", zone=19, target=ERNESTO), [
        ("North American Embassy is an embassy: no combat there.", "zone")]),
    "gunboat: target": (coup, FIDEL, o("gunboat", zone=24), [
        ("Name the player whose units are to be struck.", "target")]),
    "intervene": (coup, INES, o("intervene", forces=["tanks"]), [
        ("Choose forces among Air Strikes, Helicopter, Paratroopers and Commandos, each once.",
         "forces")]),
    "transfer: units": (coup, ERNESTO, o("transfer", units=[5], to=BILL), [
        ("You do not command every unit you named.", "units")]),
    "transfer: to": (coup, ERNESTO, o("transfer", units=[21], to=ERNESTO), [
        ("Choose another player to take the units.", "to")]),
    "place: unit": (coup, FIDEL, o("place", unit="Tank", zone=4), [
        ("Only Paratroopers, Marines, Commandos and the Helicopter are placed on the map.",
         "unit")]),
    "place: none waiting": (coup, DONA, o("place", unit="Marine", zone=4), [
        ("You have no Marine waiting to be placed.", "unit")]),
    # Rules: "The Marine may be deployed to any River-bordering zone".
    "place: zone": (coup, FIDEL, o("place", unit="Marine", zone=1), [
        ("Marines land in a river zone; Presidential Palace is not on the river.", "zone")]),
    # §movement: "every player moves one stack (any of his units in one zone) to an adjacent
    # zone".
    "move: to": (coup, ERNESTO, o("move", from_zone=24, to_zone=1), [
        ("Presidential Palace is not next to North Suburb.", "to_zone")]),
    "move: from": (coup, ERNESTO, o("move", to_zone=18), [
        ("Choose the zones of the move from the map.", "from_zone")]),
    "move: nowhere": (coup, ERNESTO, o("move", from_zone=24, to_zone=24), [
        ("A move goes to another zone.", "to_zone")]),
    "move: another's units": (coup, ERNESTO, o("move", from_zone=24, to_zone=18, units=[5]), [
        ("You do not command every unit you named.", "units")]),
    "move: units elsewhere": (coup, ERNESTO, o("move", from_zone=18, to_zone=24, units=[21]), [
        ("Not every unit you named stands in Wealthy Neighborhood.", "units")]),
    # Rules: the Minister "may respond... by moving any or all Police units to an area in which
    # these units were deployed".
    "police_response: zone": (coup, MARIA, o("police_response", zone=9), [
        ("The Police may respond only where Mob, Striker or Rioter units were deployed in the "
         "Rebel-Only phase.", "zone")]),
    "police_response: not the minister": (coup, DONA, o("police_response", zone=9), [
        ("Only the Minister of Internal Security orders the Police Response.", None)]),
    # Rules: a player may flee "only if he can move one of his active units into an Embassy".
    "flee": (coup, FIDEL, o("flee"), [
        ("You have no unit on the map to reach an embassy with.", None)]),
    "embassy_passage": (coup, ERNESTO, o("embassy_passage", seat=BILL), [
        ("Choose an exile.", "seat")]),
    "casualties": (changed(coup, two_kinds(CARLOS)), CARLOS, o("casualties", last=["Dragon"]), [
        ("Name up to three kinds of your units to lose last, each once.", "last")]),
    "attack: embassy": (coup, ERNESTO, o("attack", zone=19, target=CARLOS), [
        ("North American Embassy is an embassy: no combat there.", "zone")]),
    "attack: yourself": (coup, ERNESTO, o("attack", zone=24, target=ERNESTO), [
        ("Choose another player to attack.", "target")]),
    "retreat: to": (coup, ERNESTO, o("retreat", zone=24, to_zone=1), [
        ("A retreat goes to an adjacent zone; Presidential Palace is not next to North "
         "Suburb.", "to_zone")]),
    "retreat: from": (coup, ERNESTO, o("retreat", to_zone=18), [
        ("Choose the zone to retreat from and the zone to retreat to.", "zone")]),
    "permit_retreat: seat": (coup, ERNESTO, o("permit_retreat", seat=ERNESTO, allow=True), [
        ("Choose another player.", "seat")]),
    "permit_retreat: allow": (coup, ERNESTO, o("permit_retreat", seat=BILL, allow="yes"), [
        ("Say whether you allow or deny the retreat.", "allow")]),
    # Rules: "Players must submit as an order a vote of either Pro-Junta or Pro-President. The
    # President cannot vote Pro-Junta".
    "coup_side: the president": (final_state, CARLOS, o("coup_side", side="junta"), [
        ("The President cannot vote Pro-Junta.", "side")]),
    "coup_side: side": (final_state, BILL, o("coup_side", side="neutral"), [
        ("Vote Pro-Junta or Pro-President.", "side")]),
    # Rules: "Players that are Rebels make up a Junta".
    "junta_vote: not a rebel": (lambda: aftermath_state("junta"), BILL,
                                o("junta_vote", candidate=BILL), [
                                    ("Only Rebels sit in the Junta.", None)]),
    "junta_vote: candidate": (lambda: aftermath_state("junta"), GLORIA,
                              o("junta_vote", candidate=99), [
                                  ("Choose a living player in the country.", "candidate")]),
    # Rules: "Loyalist players are immune from execution by a sitting President".
    "execute: a loyalist": (lambda: aftermath_state("president"), CARLOS,
                            o("execute", target=BILL), [
        ("Loyalist players are immune from execution by a sitting President: choose a Rebel.",
         "target")]),
    "execute: yourself": (lambda: aftermath_state("president"), CARLOS,
                          o("execute", target=CARLOS), [
                              ("Choose another player to execute.", "target")]),
    "execute: not the president": (lambda: aftermath_state("president"), BILL,
                                   o("execute", target=ERNESTO), [
        ("The President won the coup: only he may order an execution.", None)]),

    # --- conditions ---------------------------------------------------------------------------
    "condition: cannot arise": (
        ANY_TIME, DONA, o("pay", Condition("location", {"seat": BILL, "location": "home"}),
                          to=BILL, amount=1), [
            ("The condition \u201cBill is at Home\u201d cannot arise in the Cabinet Appointment "
             "phase.", "condition")]),
    "condition: seat": (
        LOCATIONS, DONA, o("location", Condition("location", {"seat": 99, "location": "home"}),
                           place="home"), [
            ("The condition names a player who is not in this game.", "condition.seat")]),
    "condition: location": (
        changed(LOCATIONS, pocket(DONA, 1)), DONA,
        o("bank", Condition("location", {"seat": BILL, "location": "beach"}),
          action="deposit", amount=1), [
            ("The condition names a location that does not exist.", "condition.location")]),
    "condition: result": (VOTE, DONA, o("vote", Condition("vote_result", {"result": "maybe"}),
                                        choice="yes"), [
        ("A vote result is 'passes' or 'fails'.", "condition.result")]),
    "condition: choice": (VOTE, DONA, o("vote", Condition("voted", {"seat": BILL}),
                                        choice="yes"), [
        ("The condition must say how the player votes.", "condition.choice")]),
    "condition: position": (
        ANY_TIME, DONA, o("pay", Condition("appointed", {"seat": BILL, "position": "king"}),
                          to=BILL, amount=1), [
            ("The condition must name a Cabinet position.", "condition.position")]),
    "condition: card": (
        ANY_TIME, DONA, o("pay", Condition("card_played", {"seat": BILL, "card": "Nothing"}),
                          to=BILL, amount=1), [
            ("The condition must name the card.", "condition.card")]),
    # Rules: "Assassination attempts CAN be conditional, but only upon effects that would
    # resolve chronologically prior to assassination declaration".
    "condition: another's location": (
        changed(LOCATIONS, holding(DONA, "Amateur Assassin")), DONA,
        lambda s: o("assassinate", Condition("location", {"seat": BILL, "location": "home"}),
                    card=hand(s, DONA, "Amateur Assassin"), target=BILL, location="home"), [
            ("This condition cannot be used: \u201cBill is at Home\u201d is settled at "
             "locations and exile (step 1 of the Locations, Assassinations, Banking and "
             "Rebel-Only Moves phase), when assassins are dispatched (\u201cLocations are "
             "designated and Assassins are dispatched\u201d is one step). An assassination-step "
             "order may depend on your own location or exile, not on another player's.",
             "condition.seat")]),
    "condition: not settled before": (
        VOTE, DONA, o("vote", Condition("voted", {"seat": BILL, "choice": "yes"}),
                      choice="no"), [
            ("This condition cannot be used: \u201cBill votes yes\u201d is settled at the "
             "vote count (step 2 of the Budget Vote phase), and your order acts at the vote "
             "count (step 2 of the Budget Vote phase). A condition must be settled at an "
             "earlier step than its order.", "condition")]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_message_names_what_it_is_about(name):
    build, seat, order, expected = CASES[name]
    state = build()
    if callable(order):
        order = order(state)
    problems = validate_order(state, seat, order)
    assert all(type(p) is Problem for p in problems)
    assert [(str(p), p.arg) for p in problems] == expected
    # The numbered form of a set of orders keeps what each message is about.
    numbered = validate_orders(state, seat, [order])[:len(expected)]
    assert [(str(p), p.arg, p.orders) for p in numbered] == [
        (f"Order 1: {text}", arg, (0,)) for text, arg in expected]


def test_every_order_kind_with_arguments_has_a_case():
    assert set(ARGS) == set(ORDER_KINDS)
    covered = {(order if isinstance(order, Order) else order(build())).kind
               for build, _, order, _ in CASES.values()}
    assert {kind for kind, args in ARGS.items() if args} - {"decline"} <= covered
    details = {arg for *_, expected in CASES.values() for _, arg in expected
               if arg and arg.startswith("condition")}
    assert details == CONDITION_ARGS


# --- many orders -----------------------------------------------------------------------------

JUNK = (None, "x", True, -1, 999)


def _value(rng: random.Random, name: str, state: GameState, seat: int):
    """A value for argument `name`: often legal, sometimes not."""
    p = state.players[seat]
    units = (state.coup or {}).get("units", [])
    seats = list(range(len(state.players)))
    if rng.random() < 0.15:
        return rng.choice(JUNK)
    if name in ("to", "with", "target", "seat", "candidate"):
        return rng.choice(seats)
    if name in ("amount", "give_money", "get_money", "from_pocket", "count"):
        return rng.choice([0, 1, 2, 3, 7, 30, p.pocket, p.bank, -2])
    if name == "card":
        return rng.choice([*p.hand, *p.influence, rng.randrange(len(catalog.cards())),
                           SECRET_POLICE])
    if name in ("give_cards", "get_cards", "cards"):
        pool = [*p.hand, rng.randrange(len(catalog.cards()))]
        return rng.sample(pool, k=min(len(pool), rng.choice([0, 1, 2])))
    if name in ("zone", "from_zone", "to_zone"):
        own = [u["zone"] for u in units if u["owner"] == seat and u["zone"] is not None]
        return rng.choice([*own, *range(30)])
    if name == "units":
        pool = [u["id"] for u in units if u["owner"] == seat] + [u["id"] for u in units[:5]]
        return rng.sample(pool + [9999], k=min(len(pool) + 1, rng.choice([1, 2, 3])))
    if name == "position":
        return rng.choice([*catalog.POSITIONS, None])
    if name == "positions":
        return {pos: rng.choice([None, *seats]) for pos in catalog.CABINET}
    if name == "allocations":
        return {str(rng.choice([*seats, 42])): rng.choice([0, 1, 2, 3, 6, -1])
                for _ in range(rng.choice([0, 1, 2, 3]))}
    if name == "bills":
        return rng.choice([None, {"1": [1]}, {"2": [3, 3]}, {"x": [1]}, {"1": [4]}, [1]])
    if name == "split":
        return rng.choice([{}, {"position:war": "no"}, {"family": "yes"}, {"card:5": "maybe"},
                           "x"])
    choices = {
        "decision": ["grant", "execute", "maybe"],
        "choice": ["yes", "no", "abstain", "maybe", *seats],
        "seize": [True, False, "yes"], "allow": [True, False, "yes"],
        "after_moves": [True, False],
        "place": [*catalog.LOCATIONS, "exile", "beach"],
        "location": [*catalog.LOCATIONS, "beach"],
        "action": ["deposit", "withdraw", "steal"],
        "source": ["air_force", "foreign", "navy"],
        "forces": [["airstrikes"], ["helicopter", "commandos"], ["tanks"]],
        "unit": ["Paratrooper", "Marine", "Commando", "Helicopter", "Tank"],
        "last": [["Soldier"], ["Tank", "Police"], ["Dragon"]],
        "side": ["junta", "president", "neutral"],
    }
    return rng.choice(choices[name])


def _condition(rng: random.Random) -> Condition | None:
    if rng.random() < 0.6:
        return None
    kind = rng.choice(["card_played", "location", "exiled", "killed", "banks", "coup_excuse",
                       "voted", "vote_result", "elected", "appointed"])
    args: dict = {"seat": rng.choice([0, 2, 3, 99])}
    extra = {"location": ("location", [*catalog.LOCATIONS, "beach"]),
             "voted": ("choice", ["yes", None]),
             "vote_result": ("result", ["passes", "fails", "maybe"]),
             "appointed": ("position", [*catalog.CABINET, "king"]),
             "card_played": ("card", ["Bank Holiday", "Power Failure", "Nothing"])}
    if kind in extra:
        key, values = extra[kind]
        args[key] = rng.choice(values)
    if kind in ("vote_result", "coup_excuse"):
        args.pop("seat")
    return Condition(kind, args)


def _states() -> list[GameState]:
    states = [in_phase(p) for p in ("nomination", "cabinet", "budget_draw", "budget_proposal",
                                    "budget_vote", "internal_security", "locations")]
    for state in states:
        in_play(state, DONA, "Church")
        give(state, DONA, "Peasant Vote")
        give(state, BILL, "Amateur Assassin")
        give(state, ERNESTO, "Provincial Pretender")
        if state.phase == "budget_proposal":
            with_bills(state)
    states += [coup(), final_state(), aftermath_state("junta"), aftermath_state("president")]
    state, rng = game(7, "walk"), Rng("walk")
    for _ in range(40):
        if state.finished:
            break
        states.append(state)
        state = resolve(state, play_phase(state, rng)).state
    return states


def test_every_problem_of_many_orders_names_an_argument_of_its_kind():
    """Whatever is wrong with an order, each message is about one of its arguments, its
    condition or the order as a whole; every check returns `Problem`s, not bare text."""
    rng = random.Random(7)
    seen: set[str | None] = set()
    for state in _states():
        for seat in range(len(state.players)):
            for kind, names in ARGS.items():
                for _ in range(3):
                    order = o(kind, _condition(rng),
                              **{n: _value(rng, n, state, seat) for n in names
                                 if rng.random() < 0.9})
                    problems = validate_order(state, seat, order)
                    for p in problems:
                        assert type(p) is Problem, (kind, p)
                        assert p.arg is None or p.arg in CONDITION_ARGS or p.arg in names, (
                            kind, order.args, str(p), p.arg)
                        seen.add(p.arg)
                    if state.phase in ORDER_KINDS[kind].phases and state.players[seat].active:
                        assert all(type(p) is Problem
                                   for p in ORDER_KINDS[kind].check(state, seat, order))
                    if order.condition:
                        assert all(type(p) is Problem and p.arg in CONDITION_ARGS
                                   for p in validate_condition(state, order, seat))
    assert len(seen) > 30  # the walk reaches most arguments


def test_an_order_of_a_wrong_json_type_is_refused_when_read_naming_its_field():
    """A field of a JSON type the engine never reads (a list for a kind, a seat or a
    condition's detail; a number for a list of cards) is refused when the order is read, with
    the field, rather than failing later in a check."""
    from junta.engine import OrderError, parse_order

    cases = {
        "kind": {"kind": ["pay"]},
        "condition": {"kind": "pay", "condition": {"kind": {"voted": 1}}},
        "condition.seat": {"kind": "pay", "condition": {"kind": "voted", "seat": [1]}},
        "to": {"kind": "pay", "to": [1], "amount": 2},
        "amount": {"kind": "pay", "to": 1, "amount": True},
        "cards": {"kind": "vote", "cards": 3},
        "units": {"kind": "move", "units": [[1]]},
        "allocations": {"kind": "propose_budget", "allocations": {"2": {"a": 1}}},
        "seize": {"kind": "seize_chamber", "seize": 1},
    }
    for arg, data in cases.items():
        with pytest.raises(OrderError) as refused:
            parse_order(data)
        assert refused.value.arg == arg, (data, str(refused.value))
    # what the bots and the pages give is read as before
    assert parse_order({"kind": "vote", "choice": 3, "cards": [12],
                        "split": {"0": "yes", "1": 2}}).args["split"] == {"0": "yes", "1": 2}
    assert parse_order({"kind": "propose_budget", "bills": {"2": [4, 5]}, "allocations": {},
                        "from_pocket": 0}).args["bills"] == {"2": [4, 5]}
    assert parse_order({"kind": "new_weapons", "position": None}).args == {"position": None}
