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
from ..labels import card_name, plural, zone_name, zones_with_occupants
from ..problems import Problem
from ..state import GameState
from ..units import AGITATORS, BRIBES, CARD_UNITS
from .base import (
    ANY_PHASE,
    COUP_PHASES,
    IN_A_ZONE,
    VOTING_PHASES,
    Arg,
    OrderKindSpec,
    T,
    amount_of,
    card_ids_of,
    seat_of,
    word,
)
from .offering import (
    TRADE_HELP,
    card_note,
    number,
    one,
    some,
    target_choices,
    unit_card_reason,
    wanted_cards,
)

if TYPE_CHECKING:
    from ..orders import Order
    from .offering import Builder

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
        # narrow imports: the card plays' rules (card_plays.py) carry the cards out too
        from ..card_plays import TARGETED, check_play
        from ..orders import UNIT_CARDS, Order, card_step
        from ..phases.locations import THEFTS

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
        # narrow imports: the card plays' rules (card_plays.py) carry the cards out too
        from ..card_plays import has_influence, playable_now
        from ..orders import UNIT_CARDS

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
                zones = sorted({u["zone"] for u in targets})
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

    def offers(self, b: Builder, group: str = "") -> None:
        discardable = b.hand() + [(c, f"{catalog.card(c).name} (in play)")
                                  for c in b.p.influence]
        if discardable:
            b.add("discard", "Discard a card (the hand limit is 6, Influence in play "
                  "counts).", [one("card", "Card", discardable)])


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

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if b.seat == s.president and s.phase not in (PhaseKind.NOMINATION, PhaseKind.ELECTION) \
                and s.coup is None:
            b.add("resign", "Resign the Presidency: the Chamber elects a successor at once.")


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

    def offers(self, b: Builder, group: str = "") -> None:
        """An exile's one order (the only options he has)."""
        if b.seat not in b.s.pending_returns or b.s.phase in COUP_PHASES:
            b.add("return_from_exile", "Ask the Minister of Internal Security for safe "
                  "passage.")
        else:
            b.notes.append("Your return is already before the Minister of Internal Security.")


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

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if catalog.INTERNAL_SECURITY in b.commands and s.pending_returns:
            b.add("safe_passage", "Decide on an exile asking to return.",
                  [one("seat", "Exile", [(x, s.name(x)) for x in s.pending_returns]),
                   one("decision", "Decision", [("grant", "Grant safe passage"),
                                                ("execute", "Execute")])])


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

    def offers(self, b: Builder, group: str = "") -> None:
        if b.seat == b.s.president:
            b.add("brother_in_law", "If several positions fall vacant, your Brother-in-Law "
                  "takes this one.",
                  [one("position", "Position", [(k, catalog.TITLES[k])
                                                for k in catalog.CABINET])])
