"""Transfers between players at any time: payments, gifts of cards and trades. "Ordered with
a phase's orders and resolve first in that phase's adjudication" (docs/rules.md §any-time);
each kind carries itself out (`carry_out`, run by `anytime.run`) and, when it can no longer be
carried out, fails where it acts and tells both sides why (docs/rulings.md
§ruling-no-silent-orders).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, NotRequired, TypedDict

from .. import catalog
from ..enums import PhaseKind, Step
from ..labels import card_name
from ..order import As, Order
from ..problems import Problem
from ..state import GameState
from ..steps import ANY_PHASE
from ..words import Card, Items, Param, Term, Words, gettext_noop, words
from .base import (
    NOTHING,
    OrderKindSpec,
    Share,
    T,
    amount_of,
    card_ids_of,
    card_uses,
    positive,
    seat_of,
    who,
    word,
)
from .offering import TRADE_HELP, number, one, some, wanted_cards

if TYPE_CHECKING:
    from ..context import Context
    from .offering import Builder, OrderOption

MAX_ASKED = 999  # the most MP a trade may ask for


class ToArgs(TypedDict):
    """What a payment and a gift share: the player they go to."""
    to: Annotated[int, As("To", T.SEAT)]


class PayArgs(ToArgs):
    amount: Annotated[int, As("MP", T.AMOUNT)]


class GiveCardArgs(ToArgs):
    card: Annotated[int, As("Card", T.CARD)]


# "with" is a Python keyword: the functional form. The cards asked for are named in the form
# (`from_form` makes them the copies the partner would give).
TradeArgs = TypedDict("TradeArgs", {
    "with": Annotated[int, As("With", T.SEAT)],
    "give_cards": NotRequired[Annotated[list[int], As("Cards you give", T.CARDS)]],
    "get_cards": NotRequired[Annotated[list[int], As("Cards you get", T.CARD_NAMES)]],
    "give_money": NotRequired[Annotated[int, As("MP you give", T.AMOUNT)]],
    "get_money": NotRequired[Annotated[int, As("MP you get", T.AMOUNT)]],
})

class _ToAnother[To: ToArgs](OrderKindSpec[To]):
    """A payment or a gift: from the giver's pocket or hand to another player (`to`), at the
    any-time step; one that can no longer be carried out fails where it acts, and both are told
    why (docs/rules.md §any-time; docs/rulings.md §ruling-no-silent-orders)."""
    step = Step.ANY_TIME
    phases = ANY_PHASE
    party = "to"
    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)

    def failure(self, state: GameState, seat: int, order: Order, why: Words
                ) -> tuple[str, Words]:
        """The kind of the event telling both sides it failed, and its words."""
        raise NotImplementedError

    def hand_over(self, ctx: Context, seat: int, order: Order) -> None:
        """The money or the card changes hands, told to both (and to a wiretap)."""
        raise NotImplementedError

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        why = _transfer_problem(ctx.state, seat, order)
        if why is not None:
            kind, text = self.failure(ctx.state, seat, order, why)
            ctx.failed(seat, order, kind, text, parties=(self.of(order)["to"],))
            return
        self.hand_over(ctx, seat, order)
        ctx.carried_out(seat, order)

    def fails_where_it_acts(self, state: GameState, seat: int, order: Order) -> bool:
        return state.players[seat].active and _transfer_problem(state, seat, order) is not None


class Pay(_ToAnother[PayArgs]):
    """Payments "are ordered with any phase's orders"; one the payer cannot cover when it
    is carried out fails, and both are told (docs/rules.md §any-time)."""
    name = "pay"
    label = "Pay money"
    rules = ("any-time", "ruling-no-silent-orders")
    template = "Pay {to} {amount} MP"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        a = self.of(order)
        to = seat_of(state, a.get("to"))
        amount = amount_of(a.get("amount"))
        errors = []
        if to is None or to == seat:
            errors.append(Problem(gettext_noop("Choose another player to pay."), "to"))
        elif not state.players[to].active:
            errors.append(Problem(words(gettext_noop("{seat} is {status} and cannot be paid."),
                                        seat=state.name(to),
                                        status=Term(state.players[to].status)), "to"))
        if amount is None or amount < 1:
            errors.append(Problem(gettext_noop("Pay a whole number of MP, at least 1."), "amount"))
        elif amount > state.players[seat].pocket:
            errors.append(Problem(words(gettext_noop(
                "You have {pocket} MP in your pocket; you cannot pay {amount} MP."),
                pocket=state.players[seat].pocket, amount=amount), "amount"))
        if state.phase == PhaseKind.ELECTION and state.election and \
                state.election.get("resigned") == seat:
            errors.append(Problem(gettext_noop(
                "A resigning President may not transfer his pocket money during "
                                  "the election.")))
        return errors

    def failure(self, state: GameState, seat: int, order: Order, why: Words
                ) -> tuple[str, Words]:
        a = self.of(order)
        return "payment_failed", words(gettext_noop(
            "{seat}'s payment of {amount} MP to {to} failed: {why}."), seat=state.name(seat),
            amount=a["amount"], to=state.name(a["to"]), why=why)

    def hand_over(self, ctx: Context, seat: int, order: Order) -> None:
        s = ctx.state
        a = self.of(order)
        p, to, amount = s.players[seat], a["to"], a["amount"]
        p.pocket -= amount
        s.players[to].pocket += amount
        ctx.transfer_note([seat, to], "payment", words(gettext_noop(
            "{seat} pays {to} {amount} MP."), seat=p.name, to=s.name(to), amount=amount),
                          payer=seat, to=to, amount=amount)

    def share(self, state: GameState, order: Order) -> Share:
        a = self.of(order)
        amount = positive(a.get("amount"))
        return Share(pocket=amount, pocket_words=f"your payment of {amount} MP to "
                     f"{who(state, a.get('to'))}") if amount else NOTHING

    def offers(self, b: Builder, group: str = "") -> None:
        p = b.p
        if b.resigning and p.pocket:
            b.notes.append("Paying or giving money: as the resigning President you may not "
                           "transfer your pocket money during the election.")
        if p.pocket and b.others and not b.resigning:
            b.add("pay", "Pay money from your pocket.",
                  [one("to", "To", b.others),
                   number("amount", "MP", 1, p.pocket,
                          help=f"You have {p.pocket} MP in your pocket.")])


class GiveCard(_ToAnother[GiveCardArgs]):
    """"A card given to a player is his from then on"; no card goes to a player at the
    limit (docs/rules.md §any-time, §hand-limit)."""
    name = "give_card"
    label = "Give a card"
    rules = ("any-time", "hand-limit", "ruling-no-silent-orders")
    template = "Give {card} to {to}"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        a = self.of(order)
        to = seat_of(state, a.get("to"))
        card_id = a.get("card")
        errors = []
        if to is None or to == seat:
            errors.append(Problem(gettext_noop("Choose another player to give the card to."), "to"))
        elif not state.players[to].active:
            errors.append(Problem(words(gettext_noop("{seat} is {status} and cannot take cards."),
                                        seat=state.name(to),
                                        status=Term(state.players[to].status)), "to"))
        elif state.cards_held(to) >= catalog.HAND_LIMIT:
            errors.append(Problem(words(gettext_noop(
                "{seat} already holds {n} cards: no card may be passed to a player at the hand "
                "limit."), seat=state.name(to), n=catalog.HAND_LIMIT), "to"))
        if card_id not in state.players[seat].hand:
            errors.append(Problem(gettext_noop("That card is not in your hand."), "card"))
        return errors

    def failure(self, state: GameState, seat: int, order: Order, why: Words
                ) -> tuple[str, Words]:
        return "gift_failed", words(gettext_noop("{seat}'s card for {to} was not passed: {why}."),
                                    seat=state.name(seat), to=state.name(self.of(order)["to"]),
                                    why=why)

    def hand_over(self, ctx: Context, seat: int, order: Order) -> None:
        s = ctx.state
        a = self.of(order)
        p, to, cid = s.players[seat], a["to"], a["card"]
        p.hand.remove(cid)
        s.players[to].hand.append(cid)
        ctx.transfer_note([seat, to], "gift", words(gettext_noop("{seat} gives {to} {card}."),
                                                    seat=p.name, to=s.name(to), card=Card(cid)),
                          giver=seat, to=to)

    def share(self, state: GameState, order: Order) -> Share:
        a = self.of(order)
        return Share(cards=card_uses([a.get("card")], "your gift of it to "
                                     f"{who(state, a.get('to'))}"))

    def offers(self, b: Builder, group: str = "") -> None:
        p = b.p
        if not (p.hand and b.others):
            return
        takers = [(x, n) for x, n in b.others
                  if not b.refusals("give_card", {"to": x, "card": p.hand[0]})]
        if takers:
            b.add("give_card", "Give a card (not to a player at the hand limit).",
                  [one("to", "To", takers), one("card", "Card", b.hand())])
        else:
            b.notes.append(f"Giving a card: every other player is at the hand limit "
                           f"of {catalog.HAND_LIMIT} cards.")


class Trade(OrderKindSpec[TradeArgs]):
    """A trade "happens only if both players order the same trade" (docs/rules.md
    §any-time; docs/rulings.md §ruling-trade-secrecy)."""
    name = "trade"
    label = "Trade (both sides must order it)"
    rules = ("any-time", "ruling-trade-secrecy", "ruling-exiles")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    party = "with"
    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        a = self.of(order)
        partner = seat_of(state, a.get("with"))
        errors = []
        if partner is None or partner == seat:
            errors.append(Problem(gettext_noop("Choose another player to trade with."), "with"))
        elif not state.players[partner].active:
            errors.append(Problem(words(gettext_noop("{seat} is {status}."),
                                        seat=state.name(partner),
                                        status=Term(state.players[partner].status)), "with"))
        give_money = amount_of(a.get("give_money", 0))
        get_money = amount_of(a.get("get_money", 0))
        give_cards = card_ids_of(a.get("give_cards"))
        get_cards = card_ids_of(a.get("get_cards"))
        if give_money is None or give_money < 0 or get_money is None or get_money < 0:
            errors.append(Problem(gettext_noop(
                "Money in a trade is a whole number of MP, 0 or more."),
                                  "give_money" if give_money is None or give_money < 0
                                  else "get_money"))
        if give_cards is None or get_cards is None:
            errors.append(Problem(gettext_noop("A trade names cards by their number."),
                                  "give_cards" if give_cards is None else "get_cards"))
        if errors or give_money is None or get_money is None or give_cards is None \
                or get_cards is None:  # each None was refused just above
            return errors
        if not (give_money or get_money or give_cards or get_cards):
            errors.append(Problem(gettext_noop("A trade must exchange something.")))
        if give_money > state.players[seat].pocket:
            errors.append(Problem(words(gettext_noop(
                "You have {pocket} MP; you cannot give {amount}."),
                pocket=state.players[seat].pocket, amount=give_money), "give_money"))
        if give_money and state.phase == PhaseKind.ELECTION and state.election and \
                state.election.get("resigned") == seat:
            errors.append(Problem(gettext_noop(
                "A resigning President may not transfer his pocket money during "
                                  "the election."), "give_money"))
        missing = [c for c in give_cards if c not in state.players[seat].hand]
        if missing:
            errors.append(Problem(gettext_noop(
                "You can only trade cards in your hand."), "give_cards"))
        known = set(state.players[seat].hand).union(*(p.influence for p in state.players))
        if any(c in known for c in get_cards):
            # what he knows already: asking for it reveals nothing and could never be delivered
            errors.append(Problem(gettext_noop(
                "Ask only for cards that are neither in your hand nor in play "
                                  "in front of a player."), "get_cards"))
        if get_money > MAX_ASKED:
            errors.append(Problem(words(gettext_noop("Ask for at most {amount} MP."),
                                        amount=MAX_ASKED), "get_money"))
        # The partner's hand is secret: a trade asking for a card he does not hold is accepted
        # here and fails when it resolves ("a card in it was no longer held").
        return errors

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        gives = [card_name(c) for c in a.get("give_cards") or []]
        if a.get("give_money"):
            gives.append(f"{a['give_money']} MP")
        gets = [card_name(c) for c in a.get("get_cards") or []]
        if a.get("get_money"):
            gets.append(f"{a['get_money']} MP")
        return (f"Trade with {word(state, self.args[0], a.get('with'))}: give "
                f"{', '.join(gives) or 'nothing'}, get {', '.join(gets) or 'nothing'}")

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        """"Two-sided trades that happen only when both orders match"; each order matches one
        order of the partner's, so two players may make two different trades the same day.
        (docs/rulings.md §ruling-trade-secrecy)."""
        s = ctx.state
        partner = self.of(order)["with"]
        if id(order) in ctx.facts.settled_trades:
            return  # settled as the match of the partner's order, both sides told
        mine = _terms(order)
        offer: dict[str, Param] = dict(seat=s.name(seat), partner=s.name(partner),
                                       gives=_describe(mine[0], mine[1]),
                                       gets=_describe(mine[2], mine[3]))
        gone = next((words(gettext_noop("{seat} is {status}"), seat=s.name(x),
                           status=Term(s.players[x].status)) for x in (seat, partner)
                     if not s.players[x].active), None)
        if gone is not None:  # a failed transfer "fails and says so to both"
            ctx.failed(seat, order, "trade_failed", words(gettext_noop(
                "The trade {seat} ordered with {partner} ({seat} gives {gives}, {partner} gives "
                "{gets}) did not happen: {why}."), why=gone, **offer), parties=(partner,))
            return
        match = None
        for other in ctx.orders.get(partner, []):
            if other.kind == self.name and self.of(other).get("with") == seat and \
                    id(other) not in ctx.facts.settled_trades and ctx.holds(other.condition) and \
                    _terms(other) == (mine[2], mine[3], mine[0], mine[1]):
                match = other
                break
        if match is None:  # both sides are told of each order that found no match
            ctx.failed(seat, order, "trade_failed", words(gettext_noop(
                "The trade {seat} ordered with {partner} ({seat} gives {gives}, {partner} gives "
                "{gets}) did not happen: {partner} did not order the same trade."), **offer),
                parties=(partner,))
            return
        ctx.facts.settled_trades.update((id(order), id(match)))
        give_money, give_cards, get_money, get_cards = mine
        a, b = s.players[seat], s.players[partner]
        problems: list[Param] = [
            why for why in (_cannot_trade(s, seat, order), _cannot_trade(s, partner, match))
            if why is not None]
        if len(a.hand) + len(a.influence) - len(give_cards) + len(get_cards) > catalog.HAND_LIMIT \
                and get_cards:
            problems.append(words(gettext_noop("{seat} would go over the hand limit"),
                                  seat=a.name))
        if len(b.hand) + len(b.influence) - len(get_cards) + len(give_cards) > catalog.HAND_LIMIT \
                and give_cards:
            problems.append(words(gettext_noop("{seat} would go over the hand limit"),
                                  seat=b.name))
        if problems:
            ctx.failed(seat, order, "trade_failed", words(gettext_noop(
                "The trade between {seat} and {partner} failed: {why}."), seat=a.name,
                partner=b.name, why=Items(tuple(dict.fromkeys(problems)), sep="; ")),
                parties=(partner,))
            ctx.failed_with_it(partner, match)
            return
        a.pocket += get_money - give_money
        b.pocket += give_money - get_money
        for cid in give_cards:
            a.hand.remove(cid)
            b.hand.append(cid)
        for cid in get_cards:
            b.hand.remove(cid)
            a.hand.append(cid)
        ctx.carried_out(seat, order)
        ctx.carried_out(partner, match)
        ctx.transfer_note([seat, partner], "trade", words(gettext_noop(
            "{seat} and {partner} trade: {seat} gives {gives}, {partner} gives {gets}."),
            seat=a.name, partner=b.name, gives=_describe(give_money, give_cards),
            gets=_describe(get_money, get_cards)))

    def from_form(self, state: GameState, seat: int, option: OrderOption,
                  values: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """Money offered and left blank is none; the cards given are the lowest copies of
        their names in the hand, the cards asked for by name the copies the partner would
        give."""
        for money in ("give_money", "get_money"):
            if option.arg(money) is not None:
                args.setdefault(money, 0)
        args["give_cards"] = own_copies(state, seat, args.get("give_cards") or [])
        args["get_cards"] = asked_copies(state, seat, args.get("with"),
                                         args.get("get_cards") or [])
        return args

    def to_form(self, state: GameState, order: Order, values: dict[str, Any]) -> None:
        a = self.of(order)
        if "get_cards" in a:  # asked for by name
            values["get_cards"] = [catalog.card(c).name for c in a["get_cards"] or []]

    def fails_where_it_acts(self, state: GameState, seat: int, order: Order) -> bool:
        return state.players[seat].active and _cannot_trade(state, seat, order) is not None

    def share(self, state: GameState, order: Order) -> Share:
        a = self.of(order)
        partner, money = who(state, a.get("with")), positive(a.get("give_money"))
        cards = a.get("give_cards")
        return Share(pocket=money, pocket_words=f"your trade giving {money} MP to {partner}",
                     cards=card_uses(cards if isinstance(cards, list) else [],
                                     f"your trade with {partner}"))

    def offers(self, b: Builder, group: str = "") -> None:
        p = b.p
        if not b.others:
            return
        # what changes hands: any of these, so long as something does (`combined`)
        args = [one("with", "With", b.others)]
        if p.hand:
            args.append(some("give_cards", "Cards you give", b.hand(), required=False,
                             combined=True))
        args.append(some("get_cards", "Cards you get", wanted_cards(b.s, b.seat),
                         required=False, combined=True,
                         help="Your partner's hand is secret, so every card that is not "
                              "in your hand or in play is listed: your partner must order "
                              "the same trade, giving these very cards."))
        if not b.resigning and p.pocket:
            args.append(number("give_money", "MP you give", 0, p.pocket, required=False,
                               help=f"You have {p.pocket} MP in your pocket.",
                               combined=True))
        args.append(number("get_money", "MP you get", 0, MAX_ASKED, required=False,
                           combined=True))
        b.add("trade", TRADE_HELP, args)


# --- what keeps a transfer from happening, in words both sides read -----------------------------

def _transfer_problem(s: GameState, seat: int, order: Order) -> Words | None:
    """Why a payment or a gift cannot be carried out now, in words both sides read; None when
    it can."""
    p, to = s.players[seat], Pay.of(order).get("to")
    if not p.active:
        return words(gettext_noop("{seat} is {status}"), seat=p.name, status=Term(p.status))
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < len(s.players):
        return None
    if not s.players[to].active:
        return words(gettext_noop("{seat} is {status}"), seat=s.name(to),
                     status=Term(s.players[to].status))
    if order.kind == "give_card":
        if GiveCard.of(order).get("card") not in p.hand:
            return words(gettext_noop("the card is no longer in {seat}'s hand"), seat=p.name)
        if s.cards_held(to) >= catalog.HAND_LIMIT:
            return words(gettext_noop("{seat} is at the hand limit"), seat=s.name(to))
        return None
    if _resigning(s, seat):
        return words(gettext_noop(
            "{seat} is the resigning President, who may not transfer his pocket money during "
            "the election"), seat=p.name)
    amount = Pay.of(order).get("amount")
    if isinstance(amount, int) and amount > p.pocket:
        return words(gettext_noop("{seat} had only {amount} MP"), seat=p.name, amount=p.pocket)
    return None


def _resigning(s: GameState, seat: int) -> bool:
    return s.phase == PhaseKind.ELECTION and s.election is not None and \
        s.election.get("resigned") == seat


def _cannot_trade(s: GameState, seat: int, order: Order) -> Words | None:
    """Why one side of a trade cannot deliver or take part now, in words both sides read."""
    p, partner = s.players[seat], Trade.of(order).get("with")
    if not p.active:
        return words(gettext_noop("{seat} is {status}"), seat=p.name, status=Term(p.status))
    if not isinstance(partner, int) or isinstance(partner, bool) or \
            not 0 <= partner < len(s.players):
        return None
    if not s.players[partner].active:
        return words(gettext_noop("{seat} is {status}"), seat=s.name(partner),
                     status=Term(s.players[partner].status))
    give_money, give_cards, _, _ = _terms(order)
    if give_money and _resigning(s, seat):
        return words(gettext_noop(
            "{seat} is the resigning President, who may not transfer his pocket money during "
            "the election"), seat=p.name)
    if give_money > p.pocket:
        return words(gettext_noop("{seat} could not pay {amount} MP"), seat=p.name,
                     amount=give_money)
    if not set(give_cards) <= set(p.hand):
        return words(gettext_noop("a card in it was no longer held"))
    return None


def _terms(order: Order) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
    a = Trade.of(order)
    return (a.get("give_money") or 0, tuple(sorted(a.get("give_cards") or [])),
            a.get("get_money") or 0, tuple(sorted(a.get("get_cards") or [])))


def _describe(money: int, cards: tuple[int, ...]) -> Items:
    parts: list[Param] = [words(gettext_noop("{amount} MP"), amount=money)] if money else []
    parts += [Card(c) for c in cards]
    return Items(tuple(parts), Term(gettext_noop("nothing")))


# --- the copies of a card that change hands ---------------------------------------------------

def own_copies(state: GameState, seat: int, cards: list[int]) -> list[int]:
    """The cards I give in a trade, as the lowest-numbered copies in my hand of each name:
    the copies a partner asking for them by name is matched with (see `asked_copies`)."""
    names = [catalog.card(c).name for c in cards if isinstance(c, int)]
    hand = sorted(state.players[seat].hand)
    out: list[int] = []
    for name in dict.fromkeys(names):
        out += [c for c in hand if catalog.card(c).name == name][:names.count(name)]
    return sorted(out)


def asked_copies(state: GameState, seat: int, partner: Any, names: list[Any]) -> list[int]:
    """The cards I ask for in a trade, named by the player: the copy the partner would give
    (his lowest-numbered copy of the name, as `own_copies` picks on his side), else a copy
    that is in no one's hand or play in front of me. The choice is made on the server and
    shown only by name: the partner's hand stays secret."""
    held = sorted(state.players[partner].hand) if isinstance(partner, int) and \
        0 <= partner < len(state.players) and partner != seat else []
    public = set(state.players[seat].hand).union(*(p.influence for p in state.players))
    out: list[int] = []
    for name in names:
        theirs = [c for c in held if catalog.card(c).name == name and c not in out]
        free = [c for c in catalog.cards_named(str(name)) if c not in public and c not in out]
        if theirs or free:
            out.append((theirs or free)[0])
    return sorted(out)
