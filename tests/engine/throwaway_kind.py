"""A throw-away kind of order that no rule of the game has: "spend a card from your hand on a
rally in a zone of the city; the card is discarded and the whole city hears of it". It is one
object, written here in the tests and nowhere in the project, so that the tests that register it
(`kinds.registered`) show a new kind needs no other file: the engine offers it, checks it (alone
and in the whole set), says it, carries it out at its step and the Map page draws it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypedDict

from junta.engine import catalog
from junta.engine.enums import Step
from junta.engine.kinds import ANY_PHASE, ArgType, OrderKindSpec
from junta.engine.order import As
from junta.engine.order_kinds.base import IN_A_ZONE, Share, card_uses, zone_of, zone_title
from junta.engine.order_kinds.offering import one
from junta.engine.problems import Problem
from junta.engine.words import Zone, gettext_noop, words

if TYPE_CHECKING:
    from junta.engine.context import Context
    from junta.engine.order_kinds.offering import Builder
    from junta.engine.orders import Order
    from junta.engine.state import GameState

NAME = "test_rally"  # not a word of the project (tests/test_order_kinds.py reads the kinds)
SENTENCE = "Hold a rally in {zone} with {card}"


class RallyArgs(TypedDict):
    """Its arguments, declared once: the form's, the JSON's and the typed reads' (`Rally.of`)."""
    card: Annotated[int, As("Card", ArgType.CARD)]
    zone: Annotated[int, As("Where", ArgType.ZONE)]


class Rally(OrderKindSpec[RallyArgs]):
    """"Spend a card from your hand on a rally in a zone of the city" (a test's kind)."""
    name = NAME
    label = "Hold a rally"
    rules = ("any-time",)
    step = Step.ANY_TIME
    phases = ANY_PHASE
    template = SENTENCE
    map_form = IN_A_ZONE
    acts_alone = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        errors = []
        a = self.of(order)
        if a.get("card") not in state.players[seat].hand:
            errors.append(Problem("That card is not in your hand.", "card"))
        if zone_of(a.get("zone")) is None:
            errors.append(Problem("Choose a zone of the city for the rally.", "zone"))
        return errors

    def share(self, state: GameState, order: Order) -> Share:
        return Share(cards=card_uses([self.of(order).get("card")], "rallying with it"))

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        a = self.of(order)
        cid, zone = a["card"], a["zone"]
        p = ctx.state.players[seat]
        if cid not in p.hand:
            ctx.failed(seat, order, "rally_failed", words(gettext_noop(
                "Your rally in {zone} was not held: the card is no longer in your hand."),
                zone=Zone(zone)))
            return
        ctx.discard(seat, cid)
        ctx.carried_out(seat, order)
        ctx.public("rally", words(gettext_noop("{seat} holds a rally in {zone}."), seat=p.name,
                                  zone=Zone(zone)), zone=zone)

    def offers(self, b: Builder, group: str = "") -> None:
        zones = [(z, zone_title(z)) for z in sorted(catalog.zones())]
        for cid, _ in b.hand():
            b.add(self.name, "Spend a card from your hand on a rally in a zone.",
                  [one("zone", "Where", zones)], key=f"{self.name}:{cid}",
                  label=f"Rally with {catalog.card(cid).name}", fixed={"card": cid})
