"""Any-time orders: payments, gifts of cards, trades, card plays, discards, resignation,
exiles' returns, the Minister's decision on a returning exile and the Brother-in-Law's
position. "Ordered with a phase's orders and resolve first in that phase's adjudication"
(docs/rules.md §any-time); `anytime.py` carries them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..enums import PhaseKind, Status, Step
from ..labels import card_name, zone_name
from ..problems import Problem
from ..state import GameState
from .base import (
    ANY_PHASE,
    COUP_PHASES,
    IN_A_ZONE,
    Arg,
    OrderKindSpec,
    T,
    amount_of,
    card_ids_of,
    seat_of,
    word,
)

if TYPE_CHECKING:
    from ..orders import Order

MAX_ASKED = 999  # the most MP a trade may ask for


class Pay(OrderKindSpec):
    """Payments "are ordered with any phase's orders"; one the payer cannot cover when it
    is carried out fails, and both are told (docs/rules.md §any-time)."""
    name = "pay"
    label = "Pay money"
    rules = ("any-time", "ruling-no-silent-orders")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    args = (Arg("to", "To", T.SEAT), Arg("amount", "MP", T.AMOUNT))
    template = "Pay {to} {amount} MP"
    party = "to"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        to = seat_of(state, order.args.get("to"))
        amount = amount_of(order.args.get("amount"))
        errors = []
        if to is None or to == seat:
            errors.append(Problem("Choose another player to pay.", "to"))
        elif not state.players[to].active:
            errors.append(Problem(f"{state.name(to)} is {state.players[to].status} and cannot be "
                                  "paid.", "to"))
        if amount is None or amount < 1:
            errors.append(Problem("Pay a whole number of MP, at least 1.", "amount"))
        elif amount > state.players[seat].pocket:
            errors.append(Problem(f"You have {state.players[seat].pocket} MP in your pocket; "
                                  f"you cannot pay {amount} MP.", "amount"))
        if state.phase == PhaseKind.ELECTION and state.election and \
                state.election.get("resigned") == seat:
            errors.append(Problem("A resigning President may not transfer his pocket money during "
                                  "the election."))
        return errors


class GiveCard(OrderKindSpec):
    """"A card given to a player is his from then on"; no card goes to a player at the
    limit (docs/rules.md §any-time, §hand-limit)."""
    name = "give_card"
    label = "Give a card"
    rules = ("any-time", "hand-limit", "ruling-no-silent-orders")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    args = (Arg("to", "To", T.SEAT), Arg("card", "Card", T.CARD))
    template = "Give {card} to {to}"
    party = "to"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        to = seat_of(state, order.args.get("to"))
        card_id = order.args.get("card")
        errors = []
        if to is None or to == seat:
            errors.append(Problem("Choose another player to give the card to.", "to"))
        elif not state.players[to].active:
            errors.append(Problem(f"{state.name(to)} is {state.players[to].status} and cannot take "
                                  "cards.", "to"))
        elif state.cards_held(to) >= catalog.HAND_LIMIT:
            errors.append(Problem(f"{state.name(to)} already holds {catalog.HAND_LIMIT} cards: no "
                                  "card may be passed to a player at the hand limit.", "to"))
        if card_id not in state.players[seat].hand:
            errors.append(Problem("That card is not in your hand.", "card"))
        return errors


class Trade(OrderKindSpec):
    """A trade "happens only if both players order the same trade" (docs/rules.md
    §any-time; docs/rulings.md §ruling-trade-secrecy)."""
    name = "trade"
    label = "Trade (both sides must order it)"
    rules = ("any-time", "ruling-trade-secrecy", "ruling-exiles")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    args = (Arg("with", "With", T.SEAT), Arg("give_cards", "Cards you give", T.CARDS),
            Arg("get_cards", "Cards you get", T.CARD_NAMES),
            Arg("give_money", "MP you give", T.AMOUNT),
            Arg("get_money", "MP you get", T.AMOUNT))
    party = "with"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        partner = seat_of(state, order.args.get("with"))
        errors = []
        if partner is None or partner == seat:
            errors.append(Problem("Choose another player to trade with.", "with"))
        elif not state.players[partner].active:
            errors.append(Problem(f"{state.name(partner)} is {state.players[partner].status}.",
                                  "with"))
        give_money = amount_of(order.args.get("give_money", 0))
        get_money = amount_of(order.args.get("get_money", 0))
        give_cards = card_ids_of(order.args.get("give_cards"))
        get_cards = card_ids_of(order.args.get("get_cards"))
        if give_money is None or give_money < 0 or get_money is None or get_money < 0:
            errors.append(Problem("Money in a trade is a whole number of MP, 0 or more.",
                                  "give_money" if give_money is None or give_money < 0
                                  else "get_money"))
        if give_cards is None or get_cards is None:
            errors.append(Problem("A trade names cards by their number.",
                                  "give_cards" if give_cards is None else "get_cards"))
        if errors or give_money is None or get_money is None or give_cards is None \
                or get_cards is None:  # each None was refused just above
            return errors
        if not (give_money or get_money or give_cards or get_cards):
            errors.append(Problem("A trade must exchange something."))
        if give_money > state.players[seat].pocket:
            errors.append(Problem(f"You have {state.players[seat].pocket} MP; you cannot give "
                                  f"{give_money}.", "give_money"))
        if give_money and state.phase == PhaseKind.ELECTION and state.election and \
                state.election.get("resigned") == seat:
            errors.append(Problem("A resigning President may not transfer his pocket money during "
                                  "the election.", "give_money"))
        missing = [c for c in give_cards if c not in state.players[seat].hand]
        if missing:
            errors.append(Problem("You can only trade cards in your hand.", "give_cards"))
        known = set(state.players[seat].hand).union(*(p.influence for p in state.players))
        if any(c in known for c in get_cards):
            # what he knows already: asking for it reveals nothing and could never be delivered
            errors.append(Problem("Ask only for cards that are neither in your hand nor in play "
                                  "in front of a player.", "get_cards"))
        if get_money > MAX_ASKED:
            errors.append(Problem(f"Ask for at most {MAX_ASKED} MP.", "get_money"))
        # The partner's hand is secret: a trade asking for a card he does not hold is accepted
        # here and fails when it resolves ("a card in it was no longer held").
        return errors

    def describe(self, state: GameState, args: Mapping[str, Any]) -> str:
        gives = [card_name(c) for c in args.get("give_cards") or []]
        if args.get("give_money"):
            gives.append(f"{args['give_money']} MP")
        gets = [card_name(c) for c in args.get("get_cards") or []]
        if args.get("get_money"):
            gets.append(f"{args['get_money']} MP")
        return (f"Trade with {word(state, self.args[0], args.get('with'))}: give "
                f"{', '.join(gives) or 'nothing'}, get {', '.join(gets) or 'nothing'}")


class PlayCard(OrderKindSpec):
    """The card plays "whose card allows 'any time'", and those that name their own step
    (docs/rules.md §any-time, §revote-cards; docs/rulings.md §ruling-unit-cards)."""
    name = "play_card"
    label = "Play a card"
    rules = ("any-time", "revote-cards", "ruling-unit-cards")
    step = Step.ANY_TIME  # its step is the card's
    phases = ANY_PHASE
    args = (Arg("card", "Card", T.CARD), Arg("target", "Target", T.SEAT),
            Arg("zone", "Zone", T.ZONE))
    map_form = IN_A_ZONE  # a card that names a zone

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        # a narrow import: the card plays' rules (card_plays.py) carry the cards out too
        from ..card_plays import check_play
        return check_play(state, seat, order)

    def describe(self, state: GameState, args: Mapping[str, Any]) -> str:
        target = args.get("target")
        on = f" on {state.name(target)}" if isinstance(target, int) and \
            0 <= target < len(state.players) else ""
        zone = args.get("zone")
        where = f" in {zone_name(zone)}" if zone in catalog.zones() else ""
        return f"Play {card_name(args.get('card'))}{on}{where}"


class Discard(OrderKindSpec):
    """A player over the limit "must pass, play or discard down to six"
    (docs/rules.md §hand-limit)."""
    name = "discard"
    label = "Discard a card"
    rules = ("hand-limit", "any-time")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    args = (Arg("card", "Card", T.CARD),)
    template = "Discard {card}"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        card_id = order.args.get("card")
        p = state.players[seat]
        if card_id not in p.hand and card_id not in p.influence:
            return [Problem("That card is neither in your hand nor in play in front of you.",
                            "card")]
        return []


class Resign(OrderKindSpec):
    """"The President may resign at any time except during a coup"
    (docs/rules.md §resignation)."""
    name = "resign"
    label = "Resign the Presidency"
    rules = ("resignation", "ruling-new-president-positions")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    single = True
    template = "Resign the Presidency"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.president != seat:
            return [Problem("Only the President can resign the Presidency.")]
        if state.phase in (PhaseKind.NOMINATION, PhaseKind.ELECTION):
            return [Problem("The President cannot resign during an election.")]
        if state.coup is not None:
            return [Problem("The President may resign at any time except during a Coup.")]
        return []


class ReturnFromExile(OrderKindSpec):
    """An exile "may ask to return at any time"; during a coup only through an
    embassy (docs/rules.md §exile, §embassies)."""
    name = "return_from_exile"
    label = "Return from exile"
    rules = ("exile", "embassies", "ruling-exiles")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    template = "Return from exile"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.players[seat].status != Status.EXILED:
            return [Problem("You are not in exile.")]
        if seat in state.pending_returns and state.phase not in COUP_PHASES:
            return [Problem("Your return is already before the Minister of Internal Security.")]
        return []


class SafePassage(OrderKindSpec):
    """"the Minister of Internal Security grants safe passage ... or executes him"
    (docs/rules.md §exile, §internal-security)."""
    name = "safe_passage"
    label = "Decide on a returning exile"
    rules = ("exile", "internal-security", "ruling-exiles")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    args = (Arg("seat", "Exile", T.SEAT), Arg("decision", "Decision", T.CHOICE))

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        target = seat_of(state, order.args.get("seat"))
        errors = []
        if catalog.INTERNAL_SECURITY not in state.commanded_positions(seat):
            errors.append(Problem("Only the Minister of Internal Security decides on returning "
                                  "exiles."))
        if target is None or state.players[target].status != Status.EXILED:
            errors.append(Problem("Choose an exile.", "seat"))
        elif target not in state.pending_returns:
            # "A return asked in one phase meets the Minister's decision in the next"
            errors.append(Problem(f"{state.name(target)} has not asked to return: there is no "
                                  "request to decide on.", "seat"))
        if order.args.get("decision") not in ("grant", "execute"):
            errors.append(Problem("Decide 'grant' (safe passage) or 'execute'.", "decision"))
        return errors

    def describe(self, state: GameState, args: Mapping[str, Any]) -> str:
        seat = args.get("seat")
        who = state.name(seat) if isinstance(seat, int) else "an exile"
        return f"{str(args.get('decision', '')).title()} {who} on return"


class BrotherInLaw(OrderKindSpec):
    """"the President chooses which one the Brother-in-Law keeps (an order he may
    give at any time)" (docs/rules.md §brother-in-law)."""
    name = "brother_in_law"
    label = "Position for your Brother-in-Law"
    rules = ("brother-in-law",)
    step = Step.ANY_TIME
    phases = ANY_PHASE
    args = (Arg("position", "Position", T.POSITION),)
    template = "Brother-in-Law takes {position} if vacant"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.president != seat:
            return [Problem("Only the President directs his Brother-in-Law.")]
        if order.args.get("position") not in catalog.CABINET:
            return [Problem("Choose a Cabinet position for your Brother-in-Law to take if it falls "
                            "vacant.", "position")]
        return []
