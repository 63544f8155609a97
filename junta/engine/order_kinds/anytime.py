"""Any-time orders: payments, gifts of cards, trades, card plays, discards, resignation,
exiles' returns, the Minister's decision on a returning exile and the Brother-in-Law's
position. "Ordered with a phase's orders and resolve first in that phase's adjudication"
(docs/rules.md §any-time); `anytime.py` carries them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, TypedDict

from .. import catalog
from ..assassins import THEFTS
from ..card_plays import (
    TARGETED,
    PlayArgs,
    apply_play,
    check_play,
    has_influence,
    playable_now,
)
from ..card_steps import UNIT_CARDS, card_step
from ..enums import PhaseKind, Status, Step
from ..labels import card_name, plural, zone_name, zones_with_occupants
from ..order import As, NoArgs, Order
from ..problems import Problem
from ..state import GameState
from ..steps import ANY_PHASE, COUP_PHASES, VOTING_PHASES
from ..units import AGITATORS, BRIBES, CARD_UNITS
from ..words import Card, gettext_noop, words
from .base import (
    IN_A_ZONE,
    NOTHING,
    OrderKindSpec,
    Share,
    T,
    card_uses,
    seat_of,
)
from .offering import (
    card_note,
    one,
    target_choices,
    unit_card_reason,
)

if TYPE_CHECKING:
    from ..context import Context
    from .offering import Builder


class CardArgs(TypedDict):
    card: Annotated[int, As("Card", T.CARD)]


class SafePassageArgs(TypedDict):
    seat: Annotated[int, As("Exile", T.SEAT)]
    decision: Annotated[str, As("Decision", T.CHOICE)]


class PositionArgs(TypedDict):
    position: Annotated[str, As("Position", T.POSITION)]


def card_price(card: int) -> int:
    """The most a card takes from the pocket: its price; for a Bribe of units, at least one
    unit's 1 MP (the bribe stops when the pocket is empty)."""
    name = catalog.card(card).name
    if name.startswith("Bribe the ") and name != "Bribe the Assassin":
        return 1
    if name in CARD_UNITS:
        return CARD_UNITS[name].cost
    return 0 if name in UNIT_CARDS else catalog.card(card).cost


class PlayCard(OrderKindSpec[PlayArgs]):
    """The card plays "whose card allows 'any time'", and those that name their own step
    (docs/rules.md §any-time, §revote-cards; docs/rulings.md §ruling-unit-cards)."""
    name = "play_card"
    label = "Play a card"
    rules = ("any-time", "revote-cards", "ruling-unit-cards")
    step = Step.ANY_TIME  # its step is the card's
    phases = ANY_PHASE
    map_form = IN_A_ZONE  # a card that names a zone

    plays_card = True
    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        return check_play(state, seat, order)

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        target = a.get("target")
        on = f" on {state.name(target)}" if isinstance(target, int) and \
            0 <= target < len(state.players) else ""
        zone = a.get("zone")
        where = f" in {zone_name(zone)}" if zone in catalog.zones() else ""
        return f"Play {card_name(a.get('card'))}{on}{where}"

    def step_of(self, order: Order, phase: str | None) -> Step:
        """The card's step (`card_steps.card_step`): a card that annuls a vote, one played at the
        assassinations, a unit card at the Rebel-Only step or with the coup's bribes or moves."""
        card = self.of(order).get("card")
        if isinstance(card, int) and not isinstance(card, bool) and \
                0 <= card < len(catalog.cards()):
            return card_step(catalog.card(card), phase)
        return super().step_of(order, phase)

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        apply_play(ctx, seat, order)

    def share(self, state: GameState, order: Order) -> Share:
        uses = card_uses([self.of(order).get("card")], "playing it")
        if not uses:
            return NOTHING
        card = uses[0][0]
        name = catalog.card(card).name
        cost = card_price(card)
        if name == "Bribe the Assassin":
            words = f"the {cost} MP for {name} if an attempt on you comes"
        elif name.startswith("Bribe the "):
            words = f"the price of {name} (1 MP for each unit it buys)"
        else:
            words = f"the {cost} MP price of {name}"
        return Share(pocket=cost, pocket_words=words, discounted=name.startswith("Bribe the "),
                     cards=uses)

    def offers(self, b: Builder, group: str = "") -> None:
        """group "units": the cards that put units on the map and the Bribe cards, offered
        with the coup's orders; otherwise the other cards of the hand."""
        if group == "units":
            self._unit_cards(b)
        else:
            self._hand(b)

    def _hand(self, b: Builder) -> None:
        """Card plays the engine accepts now. Unit and Bribe cards have a form each (added with
        the coup's options); a card that needs a target, or that acts at a step of its own
        (re-votes, assassination-time cards), has a form of its own with the targets the engine
        accepts; the other cards share one form. Every card not offered gets a note."""
        s, seat, p = b.s, b.seat, b.p
        offered = {o.key for o in b.out}
        general: list[tuple[int, str]] = []
        own_forms: list[tuple[int, list[tuple[int, str]]]] = []
        for cid in p.hand:
            c = catalog.card(cid)
            if c.name in UNIT_CARDS:
                if f"play_card:{cid}" not in offered:
                    b.notes.append(card_note(c.name, unit_card_reason(s, seat, cid)))
                continue
            if c.category == "vote":
                if s.phase not in VOTING_PHASES:
                    b.notes.append(f"{c.name}: a Vote card, played with your vote in a vote "
                                   "of the Chamber.")
                continue
            if (c.category == "assassin" and c.name not in (*THEFTS, "Monarchist Assassin")) \
                    or c.name == "Secret Police Overtime":
                if s.phase != PhaseKind.LOCATIONS:
                    b.notes.append(f"{c.name}: sent with an assassination order in the "
                                   "Locations phase.")
                continue
            refused = check_play(s, seat, Order("play_card", {"card": cid}))
            if c.name in TARGETED:
                # the form chooses the target: a missing one is no reason to refuse the card
                refused = [m for m in refused if m != f"{c.name} needs another player as its "
                           "target."]
            if refused:
                b.notes.append(card_note(c.name, refused[0]))
                continue
            targets = [(t, label) for t, label in target_choices(s, seat)
                       if not check_play(s, seat, Order("play_card", {"card": cid,
                                                                      "target": t}))
                       ] if c.name in TARGETED else []
            if c.name in TARGETED and not targets:
                b.notes.append(f"{c.name}: there is no player it can be played on now.")
                continue
            if c.name in TARGETED or card_step(c, s.phase) != Step.ANY_TIME:
                own_forms.append((cid, targets))
            else:
                general.append((cid, c.name))
        if general:
            b.add("play_card", "Play a card from your hand; Influence cards go into play in "
                  "front of you.", [one("card", "Card", general)])
        for cid, targets in own_forms:
            c = catalog.card(cid)
            args = [one("target", "Target", targets)] if c.name in TARGETED else []
            b.add("play_card", c.effect, args, key=f"play_card:{cid}",
                  label=f"Play {c.name}", fixed={"card": cid})

    def _unit_cards(self, b: Builder) -> None:
        """Event cards that put units on the map and the Bribe cards, each with the zones it
        may use: in the Rebel-Only step (before anyone moves) and during the coup."""
        s, seat, p = b.s, b.seat, b.p
        rebel_step = s.phase == PhaseKind.LOCATIONS
        if not (rebel_step and seat != s.president or s.phase in COUP_PHASES):
            return
        units = b.units
        for cid in p.hand:
            card = catalog.card(cid)
            if card.name not in UNIT_CARDS or not playable_now(s, card):
                continue
            if card.name in BRIBES:
                how, value = BRIBES[card.name]
                targets = [u for u in units if u["zone"] is not None and u["owner"] != seat and (
                    u["kind"] in AGITATORS | {"Labor Rioter"} if how == "agitators"
                    else u.get(how) == value)]
                if not targets or p.pocket < 1:
                    continue
                zones = sorted({zone for u in targets if (zone := u["zone"]) is not None})
                help_text = (f"Name a zone: for each unit there the card can buy you pay 1 MP "
                             f"and roll a die; on 4-6 the unit is yours for the rest of the "
                             f"coup. You have {p.pocket} MP.")
                zone_arg = one("zone", "Zone", zones_with_occupants(s, targets, zones))
            else:
                spec = CARD_UNITS[card.name]
                if spec.requires and not has_influence(s, seat, spec.requires) or \
                        spec.cost > p.pocket:
                    continue
                help_text = f"{spec.count} {plural(spec.kind, spec.count)} appear under your " \
                    "control"
                help_text += f" in {zone_name(spec.zones[0])}." if len(spec.zones) == 1 else \
                    " in the zone you choose."
                if spec.cost:
                    help_text += f" Costs {spec.cost} MP."
                if rebel_step:
                    help_text += " Rebel action: it makes you a Rebel" + (
                        " and gives a Coup Excuse." if spec.excuse else ".")
                zone_arg = one("zone", "Where", [(z, zone_name(z)) for z in spec.zones])
            b.add("play_card", help_text, [zone_arg], key=f"play_card:{cid}",
                  label=f"Play {card.name}", fixed={"card": cid})


class Discard(OrderKindSpec[CardArgs]):
    """A player over the limit "must pass, play or discard down to six"
    (docs/rules.md §hand-limit)."""
    name = "discard"
    label = "Discard a card"
    rules = ("hand-limit", "any-time")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    template = "Discard {card}"

    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        card_id = self.of(order).get("card")
        p = state.players[seat]
        if card_id not in p.hand and card_id not in p.influence:
            return [Problem(gettext_noop(
                "That card is neither in your hand nor in play in front of you."),
                            "card")]
        return []

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        p, cid = ctx.state.players[seat], self.of(order)["card"]
        if cid not in p.hand and cid not in p.influence:
            ctx.failed(seat, order, "discard_failed", words(gettext_noop(
                "Your discard of {card} was not carried out: the card is no longer in your "
                "hand or in play before you."), card=Card(cid)))
            return
        public = cid in p.influence
        ctx.discard(seat, cid)
        ctx.carried_out(seat, order)
        if public:
            ctx.public("discard", words(gettext_noop("{seat} discards {card} influence."),
                                        seat=p.name, card=Card(cid)))
        else:
            ctx.tell(seat, "discard", words(gettext_noop("You discard {card}."), card=Card(cid)))

    def share(self, state: GameState, order: Order) -> Share:
        return Share(cards=card_uses([self.of(order).get("card")], "discarding it"))

    def offers(self, b: Builder, group: str = "") -> None:
        discardable = b.hand() + [(c, f"{catalog.card(c).name} (in play)")
                                  for c in b.p.influence]
        if discardable:
            b.add("discard", "Discard a card (the hand limit is 6, Influence in play "
                  "counts).", [one("card", "Card", discardable)])


class Resign(OrderKindSpec[NoArgs]):
    """"The President may resign at any time except during a coup"
    (docs/rules.md §resignation)."""
    name = "resign"
    label = "Resign the Presidency"
    rules = ("resignation", "ruling-new-president-positions")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    single = True
    template = "Resign the Presidency"

    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.president != seat:
            return [Problem(gettext_noop("Only the President can resign the Presidency."))]
        if state.phase in (PhaseKind.NOMINATION, PhaseKind.ELECTION):
            return [Problem(gettext_noop("The President cannot resign during an election."))]
        if state.coup is not None:
            return [Problem(gettext_noop(
                "The President may resign at any time except during a Coup."))]
        return []

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        if ctx.state.president != seat:
            ctx.failed(seat, order, "order_failed", words(gettext_noop(
                "Your resignation was not carried out: you are no longer the President.")))
            return
        ctx.carried_out(seat, order)
        ctx.facts.resigned = seat
        ctx.public("resignation", words(gettext_noop(
            "El Presidente {seat} resigns! The Chamber will elect a new President at once."),
            seat=ctx.state.players[seat].name), headline=True)

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if b.seat == s.president and s.phase not in (PhaseKind.NOMINATION, PhaseKind.ELECTION) \
                and s.coup is None:
            b.add("resign", "Resign the Presidency: the Chamber elects a successor at once.")


class ReturnFromExile(OrderKindSpec[NoArgs]):
    """An exile "may ask to return at any time"; during a coup only through an
    embassy (docs/rules.md §exile, §embassies)."""
    name = "return_from_exile"
    label = "Return from exile"
    rules = ("exile", "embassies", "ruling-exiles")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    template = "Return from exile"

    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)
    exiles_give = True  # an exile's one order

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.players[seat].status != Status.EXILED:
            return [Problem(gettext_noop("You are not in exile."))]
        if seat in state.pending_returns and state.phase not in COUP_PHASES:
            return [Problem(gettext_noop(
                "Your return is already before the Minister of Internal Security."))]
        return []

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        """The request goes before the Minister of Internal Security, who decides on it in the
        next phase (`anytime.run`); during a coup an exile returns through an embassy, after
        the moves (phases/coup.py)."""
        s = ctx.state
        if s.phase in COUP_PHASES:
            return
        if s.players[seat].status == Status.EXILED and seat not in s.pending_returns:
            s.pending_returns.append(seat)
            ctx.public("return_request", words(gettext_noop(
                "{seat} asks to return from exile; the Minister of Internal Security will "
                "decide."), seat=s.players[seat].name))

    def offers(self, b: Builder, group: str = "") -> None:
        """An exile's one order (the only options he has)."""
        if b.seat not in b.s.pending_returns or b.s.phase in COUP_PHASES:
            b.add("return_from_exile", "Ask the Minister of Internal Security for safe "
                  "passage.")
        else:
            b.notes.append("Your return is already before the Minister of Internal Security.")


class SafePassage(OrderKindSpec[SafePassageArgs]):
    """"the Minister of Internal Security grants safe passage ... or executes him"
    (docs/rules.md §exile, §internal-security)."""
    name = "safe_passage"
    label = "Decide on a returning exile"
    rules = ("exile", "internal-security", "ruling-exiles")
    step = Step.ANY_TIME
    phases = ANY_PHASE
    repeats = False  # about one return (docs/rules.md §repeat-orders)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        a = self.of(order)
        target = seat_of(state, a.get("seat"))
        errors = []
        if catalog.INTERNAL_SECURITY not in state.commanded_positions(seat):
            errors.append(Problem(gettext_noop(
                "Only the Minister of Internal Security decides on returning "
                                  "exiles.")))
        if target is None or state.players[target].status != Status.EXILED:
            errors.append(Problem(gettext_noop("Choose an exile."), "seat"))
        elif target not in state.pending_returns:
            # "A return asked in one phase meets the Minister's decision in the next"
            errors.append(Problem(f"{state.name(target)} has not asked to return: there is no "
                                  "request to decide on.", "seat"))
        if a.get("decision") not in ("grant", "execute"):
            errors.append(Problem(gettext_noop(
                "Decide 'grant' (safe passage) or 'execute'."), "decision"))
        return errors

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        seat = a.get("seat")
        who = state.name(seat) if isinstance(seat, int) else "an exile"
        return f"{str(a.get('decision', '')).title()} {who} on return"

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if catalog.INTERNAL_SECURITY in b.commands and s.pending_returns:
            b.add("safe_passage", "Decide on an exile asking to return.",
                  [one("seat", "Exile", [(x, s.name(x)) for x in s.pending_returns]),
                   one("decision", "Decision", [("grant", "Grant safe passage"),
                                                ("execute", "Execute")])])


class BrotherInLaw(OrderKindSpec[PositionArgs]):
    """"the President chooses which one the Brother-in-Law keeps (an order he may
    give at any time)" (docs/rules.md §brother-in-law)."""
    name = "brother_in_law"
    label = "Position for your Brother-in-Law"
    rules = ("brother-in-law",)
    step = Step.ANY_TIME
    phases = ANY_PHASE
    template = "Brother-in-Law takes {position} if vacant"

    acts_alone = True
    repeats = False  # a deal of its day (docs/rules.md §repeat-orders)

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.president != seat:
            return [Problem(gettext_noop("Only the President directs his Brother-in-Law."))]
        if self.of(order).get("position") not in catalog.CABINET:
            return [Problem(gettext_noop(
                "Choose a Cabinet position for your Brother-in-Law to take if it falls "
                            "vacant."), "position")]
        return []

    def carry_out(self, ctx: Context, seat: int, order: Order) -> None:
        """Read when positions fall vacant (flow.py)."""
        ctx.state.turn_flags["bil_preference"] = self.of(order)["position"]

    def offers(self, b: Builder, group: str = "") -> None:
        if b.seat == b.s.president:
            b.add("brother_in_law", "If several positions fall vacant, your Brother-in-Law "
                  "takes this one.",
                  [one("position", "Position", [(k, catalog.TITLES[k])
                                                for k in catalog.CABINET])])
