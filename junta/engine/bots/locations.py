"""The bot's Locations phase: where it goes, the bank, the assassins and the thefts, a payment
tied to a victim surviving or to its own location; now and then a Rebel's first moves (the
Rebel-Only step); and what a bank order and an assassin spend."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import catalog
from ..assassins import SECRET_POLICE, THEFTS
from ..enums import PhaseKind
from ..labels import coup_units
from ..options import OrderOption
from ..order import Order
from ..order_kinds import locations as kinds
from ..units import BODYGUARD_ZONES, CARD_UNITS, stack_moves
from .anytime import played
from .core import BotCore, Spends, Spent


def _bank(order: Order) -> Spent:
    a = kinds.Bank.of(order)
    amount = a.get("amount") or 0
    action = a.get("action")
    return Spent(price=amount if action == "deposit" else 0,
                 withdrawal=amount if action == "withdraw" else 0)


SPENDS: Spends = {
    kinds.Bank.name: _bank,
    kinds.Assassinate.name: played,
}


class LocationsBot(BotCore):
    def locations(self) -> None:
        """The orders of the Locations phase, kind by kind: where the bot goes (drawn even
        when it may not choose), the bank, assassins, payments."""
        place = self.go()
        self.banking(place)
        if not self.others:
            return
        self.assassins(place)
        self.payments(place)

    def go(self) -> str:
        """Where the bot means to go: a location, the bank more often, rarely exile."""
        s, rng, seat = self.state, self.rng, self.seat
        where = self.options.get("location")
        place = rng.choice([*catalog.LOCATIONS, "bank", "bank", "home"])
        if rng.below(30) == 0 and seat != s.president:
            place = "exile"  # exiles later ask to return, some in time for the next Cabinet
        if where is not None and place in self.allowed(where, "place"):
            self.use(where, {"place": place})
            self.place = place
        return place

    def banking(self, place: str) -> None:
        """At the bank (or now and then elsewhere), a deposit or a withdrawal."""
        rng = self.rng
        p = self.state.players[self.seat]
        if place == "bank" or rng.below(10) == 0:
            deposit, withdraw = self.options.get("bank:deposit"), self.options.get(
                "bank:withdraw")
            if p.pocket and rng.below(4):
                if deposit is not None:
                    self.use(deposit, {"amount": self.number(deposit, "amount", 1, self.pocket)},
                             self.at_bank(deposit, place))
            elif p.bank and rng.below(3) == 0 and withdraw is not None:
                self.use(withdraw, {"amount": self.number(withdraw, "amount", 1, self.bank)},
                         self.at_bank(withdraw, place))

    def payments(self, place: str) -> None:
        """Now and then 1 MP to another player if a victim survives, or tied to the bot's own
        location."""
        rng = self.rng
        pay = self.options.get("pay")
        if pay is not None and self.pocket and rng.below(5) == 0:
            victim = rng.choice(self.others)
            condition = self.condition(pay, "survives", {"seat": victim})
            to = self.one(pay, "to", among=self.others)
            if condition is not None and to is not None:
                self.use(pay, {"to": to, "amount": 1}, condition)
        if pay is not None and self.pocket and rng.below(6) == 0:
            to = self.one(pay, "to", among=self.others)
            if to is not None:
                self.use(pay, {"to": to, "amount": 1}, self.own(pay, place))

    def at_bank(self, option: OrderOption, place: str) -> tuple[str, dict[str, Any]] | None:
        """A bank order waits for the player to be at the Bank, unless he goes there anyway
        (and then only now and then)."""
        if place != "bank" or self.rng.below(3) == 0:
            return self.condition(option, "location", {"seat": self.seat, "location": "bank"})
        return None

    def assassins(self, place: str) -> None:
        """Assassins from the hand now and then, the thefts and Bribe the Assassin more often;
        the Secret Police for the Minister of Internal Security."""
        rng = self.rng
        sends = self.options.get("assassinate")
        for cid in self.state.players[self.seat].hand:
            name = catalog.card(cid).name
            if not self.free(cid):
                continue
            if sends is not None and cid in self.allowed(sends, "card") and rng.below(3) == 0:
                values = {"card": cid, "target": self.one(sends, "target", among=self.others)}
                values["location"] = self.one(sends, "location", values)
                if values["target"] is not None and values["location"] is not None:
                    self.use(sends, values, self.own(sends, place))
                continue
            found = self.card(cid)
            if found is None:
                continue
            play, args = found
            if name in THEFTS and rng.below(2):
                target = self.one(play, "target")
                if target is not None:
                    self.use(play, {**args, "target": target}, self.own(play, place))
            elif name == "Bribe the Assassin" and rng.below(2):
                self.use(play, args)
        if sends is not None and SECRET_POLICE in self.allowed(sends, "card") and \
                rng.below(3) == 0:
            values = {"card": SECRET_POLICE,
                      "target": self.one(sends, "target", among=self.others)}
            values["location"] = self.one(sends, "location", values)
            if values["target"] is not None and values["location"] is not None:
                self.use(sends, values)

    def rebellion(self) -> None:
        """Now and then a player with troops (or a mob card) starts a coup."""
        s, rng, seat = self.state, self.rng, self.seat
        if seat == s.president or rng.below(6):
            return
        move = self.options.get("rebel_move")
        if move is not None:
            # the stacks where they start: the Bodyguard by the location just chosen
            stacks = {u["zone"] for u in coup_units(s) if u["owner"] == seat
                      and u["kind"] != "Bodyguard" and u["zone"] is not None}
            bodyguard = BODYGUARD_ZONES.get(self.place)
            if catalog.WAR in s.commanded_positions(seat) and bodyguard is not None:
                stacks.add(bodyguard)
            starts = self.allowed(move, "from_zone", among=stacks)
            for zone in sorted(starts)[:stack_moves(s, seat)]:
                to = self.one(move, "to_zone", {"from_zone": zone})
                if to is not None:
                    self.use(move, {"from_zone": zone, "to_zone": to})
        for cid in s.players[seat].hand:
            card = catalog.card(cid)
            found = self.card(cid)
            if found is None or card.name not in CARD_UNITS or "rebel_only" not in card.when \
                    or not self.free(cid) or rng.below(2):
                continue
            play, args = found
            zone = self.one(play, "zone")
            if zone is not None:
                self.use(play, {**args, "zone": zone})


PLAYS: Mapping[PhaseKind, tuple[Callable[[LocationsBot], None], ...]] = {
    PhaseKind.LOCATIONS: (LocationsBot.locations, LocationsBot.rebellion),
}
