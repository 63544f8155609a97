"""The bot's orders of any time (docs/rules.md §any-time): payments, gifts of cards, trades,
the cards played at any time, a resignation, safe passage for an exile, a return from exile;
and what those orders spend."""

from __future__ import annotations

from .. import catalog
from ..assassins import attempt_of
from ..card_steps import UNIT_CARDS
from ..order import Order
from ..order_kinds import anytime as kinds
from ..order_kinds import transfers
from ..order_kinds.transfers import own_copies
from ..units import CARD_UNITS
from .core import BotCore, Spends, Spent

# Cards a bot plays at any time, now and then (besides Influence, Intelligence and the Secret
# Political Donation).
ANY_TIME_CARDS = frozenset({
    "UN Condemns Torture of Political Prisoners", "Annual Street Festival", "Border Incident",
    "Press Scandal", "Coalition Breaks Up", "Student Petition Against Repression",
    "Demand for Reform", "Amnesty", "The President's Competence Questioned",
    "Foreign Aid Audit", "Bank Holiday",
})
ANY_TIME_CATEGORIES = frozenset({"influence", "secret_political_donation", "intelligence"})


def played(order: Order) -> Spent:
    """A card played (or an assassin sent): the card, and what it costs."""
    card = attempt_of(order).get("card")  # a card played reads alike, a number
    if not isinstance(card, int):
        return Spent()
    name = catalog.card(card).name
    if name.startswith("Bribe the ") and name != "Bribe the Assassin":
        price = 1
    elif name in UNIT_CARDS:
        price = CARD_UNITS[name].cost if name in CARD_UNITS else 0
    else:
        price = catalog.card(card).cost
    return Spent(price=price, cards=(card,))


def _card(order: Order) -> Spent:
    card = kinds.Discard.of(order).get("card")  # a gift's reads alike
    return Spent(cards=(card,)) if isinstance(card, int) else Spent()


SPENDS: Spends = {
    transfers.Pay.name: lambda order: Spent(price=transfers.Pay.of(order).get("amount") or 0),
    transfers.Trade.name: lambda order: Spent(
        price=transfers.Trade.of(order).get("give_money") or 0,
        cards=tuple(transfers.Trade.of(order).get("give_cards") or [])),
    transfers.GiveCard.name: _card,
    kinds.Discard.name: _card,
    kinds.PlayCard.name: played,
}


class AnytimeBot(BotCore):
    def return_from_exile(self) -> None:
        self.use(self.options.get("return_from_exile"), {})

    def any_time(self) -> None:
        """The orders of any time, kind by kind, when there is anyone to deal with."""
        if not self.others:
            return
        self.payment()
        self.from_hand()
        self.trade()
        self.resignation()
        self.safe_passage()

    def payment(self) -> None:
        pay = self.options.get("pay")
        if pay is not None and self.pocket and self.rng.below(6) == 0:
            to = self.one(pay, "to")
            if to is not None:
                self.use(pay, {"to": to, "amount": self.number(pay, "amount", 1, self.pocket)})

    def from_hand(self) -> None:
        """Now and then a card of any time played, or a card given away."""
        rng = self.rng
        give = self.options.get("give_card")
        for cid in self.state.players[self.seat].hand:
            c = catalog.card(cid)
            roll = rng.below(4)
            if not self.free(cid):
                continue
            if roll == 0 and (c.category in ANY_TIME_CATEGORIES or c.name in ANY_TIME_CARDS):
                found = self.card(cid)
                if found is None:
                    continue
                play, args = found
                if play.arg("target") is not None:
                    args = {**args, "target": self.one(play, "target")}
                    if args["target"] is None:
                        continue
                self.use(play, args)
            elif roll == 1 and rng.below(4) == 0 and give is not None and \
                    cid in self.allowed(give, "card"):
                to = self.one(give, "to")
                if to is not None:
                    self.use(give, {"to": to, "card": cid})

    def trade(self) -> None:
        s, rng, seat = self.state, self.rng, self.seat
        trade = self.options.get("trade")
        if trade is not None and s.players[seat].hand and rng.below(8) == 0:
            partner = self.one(trade, "with")
            cards = [c for c in self.allowed(trade, "give_cards")
                     if not self.cards & set(own_copies(s, seat, [c]))]
            if partner is not None and cards:
                self.use(trade, {"with": partner, "give_cards": [rng.choice(cards)],
                                 "get_money": 1})

    def resignation(self) -> None:
        resign = self.options.get("resign")
        if resign is not None and self.rng.below(40) == 0:
            self.use(resign, {})

    def safe_passage(self) -> None:
        passage = self.options.get("safe_passage")
        if passage is not None:
            for exile in self.allowed(passage, "seat"):
                self.use(passage, {"seat": exile, "decision": self.one(passage, "decision")})
