"""Political cards played with `play_card`: who may play which card when, and what it does.

Timing comes from each card's `when` in cards.json; the effects follow the card texts there.
Vote cards go with a vote order; assassins with an assassination order; cards that put units on
the map and the unit Bribe cards act at the Rebel-Only step or during a coup
(docs/rulings.md §ruling-unit-cards). Below the order kind that checks and carries out a play
(order_kinds/anytime.py) and the any-time step (anytime.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, NotRequired, TypedDict, cast

from . import catalog, steps
from .card_steps import PHASE_TIMINGS, UNIT_CARDS
from .enums import PhaseKind, Status
from .order import ArgType, As, Order
from .problems import Problem
from .state import GameState
from .state_shapes import Unit
from .units import AGITATORS, BRIBES, CARD_UNITS, units_now
from .voting import ballot_of, influence_votes
from .words import Card, Items, Param, Place, Term, gettext_noop, words
from .words import Zone as WordsZone

if TYPE_CHECKING:
    from .context import Context

TARGETED = frozenset({
    "Coalition Breaks Up", "Press Scandal", "Spy in Switzerland", "Informant", "Wiretap",
    "Crooked Accountant", "Private Eye", "Burglar", "Bank Robber", "Character Assassin",
    "Amnesty",
})
INTELLIGENCE_AGAINST = frozenset({
    "Spy in Switzerland", "Informant", "Wiretap", "Crooked Accountant", "Private Eye",
})
COUP_EXCUSE_CARDS = frozenset({
    "UN Condemns Torture of Political Prisoners", "Annual Street Festival", "Border Incident",
    "Press Scandal",
})
TIMING_WORDS = {
    "cabinet": "in the Cabinet Appointment phase",
    "budget_draw": "in the Draw Budget phase",
    "budget_proposal": "in the Budget Proposal phase",
    "budget_vote": "in the Budget Vote phase",
    "election": "in a Presidential Election",
    "special_motion": "in the vote on the President's competence",
    "location": "in the Locations phase",
    "assassination": "at the assassination step of the Locations phase",
    "banking": "at the banking step of the Locations phase",
    "rebel_only": "with the Rebel-Only moves",
    "coup": "during a coup",
    "coup_movement": "during a coup",
}
REQUIRES = {
    "Demand for Reform": "Christian Democrats", "Church Desecrated": "Church",
    "Bank Holiday": "Bankers", "Monarchist Assassin": "Monarchists",
}


class PlayArgs(TypedDict):
    """A card played (order_kinds/anytime.py's `PlayCard`): the card, the player a targeted
    card is played on, the zone a card that puts units on the map or bribes them names."""
    card: Annotated[int, As("Card", ArgType.CARD)]
    target: NotRequired[Annotated[int, As("Target", ArgType.SEAT)]]
    zone: NotRequired[Annotated[int, As("Zone", ArgType.ZONE)]]


def play_of(order: Order) -> PlayArgs:
    """A card play's arguments (not validated: `check_play` says what is wrong with them)."""
    return cast(PlayArgs, order.args)


def influence_names(state: GameState, seat: int) -> set[str]:
    return {catalog.card(c).name for c in state.players[seat].influence}


def playable_now(state: GameState, card: catalog.Card) -> bool:
    return card.any_time or bool(set(card.when) & PHASE_TIMINGS.get(state.phase, frozenset()))


def check_play(state: GameState, seat: int, order: Order) -> list[Problem]:
    """Why this card cannot be played now: about the "card" (not in hand, not now, not with
    this order, its influence or its moment already taken), its "target" or, for a card that
    puts units on the map, its "zone"."""
    a = play_of(order)
    card_id = a.get("card")
    p = state.players[seat]
    if card_id not in p.hand:
        return [Problem(gettext_noop("That card is not in your hand."), "card")]
    c = catalog.card(card_id)
    if c.category == "vote":
        return [Problem(words(gettext_noop("{card} is a Vote card: name it in your vote order."),
                              card=Card(c.id)), "card")]
    if c.category == "assassin" and c.name not in ("Burglar", "Bank Robber",
                                                    "Character Assassin", "Monarchist Assassin"):
        return [Problem(words(gettext_noop("{card} is sent with an assassination order."),
                              card=Card(c.id)), "card")]
    if c.name == "Secret Police Overtime":
        return [Problem(gettext_noop(
            "Secret Police Overtime is sent with an assassination order."), "card")]
    if not playable_now(state, c):
        allowed = " or ".join(TIMING_WORDS.get(w, w) for w in c.when)
        return [Problem(f"{c.name} cannot be played in {steps.phase_words(state.phase)}: it is "
                        f"played {allowed}.", "card")]
    if c.name in UNIT_CARDS:
        return check_unit_card(state, seat, c, order)
    need = REQUIRES.get(c.name)
    if need and need not in influence_names(state, seat):
        return [Problem(words(gettext_noop(
            "{card} requires {need} influence in play in front of you."), card=Card(c.id),
            need=Term(need)), "card")]
    errors = []
    if c.name in TARGETED:
        target = a.get("target")
        if not isinstance(target, int) or isinstance(target, bool) or \
                not 0 <= target < len(state.players) or target == seat:
            errors.append(Problem(words(gettext_noop(
                "{card} needs another player as its target."), card=Card(c.id)), "target"))
        elif c.name == "Amnesty":
            if state.players[target].status != Status.EXILED:
                errors.append(Problem(words(gettext_noop("{seat} is not in exile."),
                                            seat=state.name(target)), "target"))
        elif not state.players[target].active:
            errors.append(Problem(words(gettext_noop("{seat} is {status}."),
                                        seat=state.name(target),
                                        status=Term(state.players[target].status)), "target"))
    if c.name == "Alternative Budget" and state.budget.get("alternative_used"):
        errors.append(Problem(gettext_noop(
            "An Alternative Budget has already been put to the Chamber this "
                              "turn."), "card"))
    if c.name == "The President's Competence Questioned" and state.motion:
        errors.append(Problem(gettext_noop(
            "A motion on the President's competence is already before the "
                              "Chamber."), "card"))
    return errors


def has_influence(state: GameState, seat: int, name: str) -> bool:
    """"For the purposes of Events Cards... Farm and Labor Secretary is always considered to
    have both Labor Union and Peasant Influence in play.\""""
    if name in ("Labor Unions", "Peasants") and \
            catalog.FARM_LABOR in state.commanded_positions(seat):
        return True
    return name in influence_names(state, seat)


def check_unit_card(state: GameState, seat: int, c: catalog.Card, order: Order
                    ) -> list[Problem]:
    """Event cards that put units on the map and the Bribe cards, at the Rebel-Only step or
    during a coup. The zone chosen is the order's "zone"; the card's price and influence are
    about the "card"."""
    errors = []
    if state.phase == PhaseKind.LOCATIONS and seat == state.president:
        errors.append(Problem(gettext_noop("The President cannot take Rebel action.")))
    zone = play_of(order).get("zone")
    zones = catalog.zones()
    if c.name in BRIBES:
        if zone not in zones:
            errors.append(Problem(words(gettext_noop(
                "{card}: name the zone whose units you bribe."), card=Card(c.id)), "zone"))
        elif not bribable(state, seat, c.name, zone):
            errors.append(Problem(words(gettext_noop(
                "{card} finds no unit it can buy in {zone}."), card=Card(c.id),
                zone=WordsZone(zone)), "zone"))
        if state.players[seat].pocket < 1:
            errors.append(Problem(words(gettext_noop(
                "{card} costs 1 MP for each unit; your pocket is empty."), card=Card(c.id)),
                "card"))
        return errors
    spec = CARD_UNITS[c.name]
    if spec.requires and not has_influence(state, seat, spec.requires):
        errors.append(Problem(words(gettext_noop(
            "{card} requires {need} influence in play in front of you."), card=Card(c.id),
            need=Term(spec.requires)), "card"))
    if len(spec.zones) > 1 and zone not in spec.zones or zone is not None and \
            zone not in spec.zones:
        names: Param = Items(tuple(WordsZone(z) for z in spec.zones)) \
            if len(spec.zones) < 5 else Term(gettext_noop("the zones the card allows"))
        errors.append(Problem(words(gettext_noop(
            "{card}: choose where the units appear ({zones})."), card=Card(c.id), zones=names),
            "zone"))
    if spec.cost > state.players[seat].pocket:
        errors.append(Problem(words(gettext_noop("{card} costs {cost} MP; you have {amount} MP."),
                                    card=Card(c.id), cost=spec.cost,
                                    amount=state.players[seat].pocket), "card"))
    return errors


def bribable(state: GameState, seat: int, name: str, zone: int) -> list[Unit]:
    """The units a Bribe card can buy in a zone (bribes come before any movement)."""
    how, value = BRIBES[name]
    return [u for u in units_now(state) if u["zone"] == zone and u["owner"] != seat and (
        u["kind"] in AGITATORS | {"Labor Rioter"} if how == "agitators" else u.get(how) == value)]


def intelligence_blocked(ctx: Context, seat: int, target: int, card_name: str) -> bool:
    """Double Agent: "Cancel one Intelligence card just played against you".
    (docs/rulings.md §ruling-double-agent)."""
    if card_name not in INTELLIGENCE_AGAINST:
        return False
    for order in ctx.orders.get(target, []):
        cid = play_of(order).get("card")
        if order.kind == "play_card" and cid in ctx.state.players[target].hand and \
                catalog.card(cid).name == "Double Agent" and ctx.holds(order.condition):
            ctx.discard(target, cid)
            ctx.tell([seat, target], "double_agent", words(gettext_noop(
                "A Double Agent cancels the {card} that {seat} played against {target}: "
                "nothing is learned."), card=Term(card_name), seat=ctx.name(seat),
                target=ctx.name(target)))
            return True
    return False


def apply_play(ctx: Context, seat: int, order: Order) -> None:
    """Carry out a card play at its step (any-time cards and Foreign Aid Audit).
    (docs/rulings.md §ruling-coalition-breaks-up, §ruling-mole)."""
    s = ctx.state
    a = play_of(order)
    card_id = a["card"]
    p = s.players[seat]
    if card_id not in p.hand and catalog.card(card_id).name == "Double Agent" and \
            card_id in s.political_discard:
        ctx.carried_out(seat, order)
        return  # it already cancelled an Intelligence card today, and both sides were told
    if card_id not in p.hand or not p.active:
        ctx.failed(seat, order, "card_failed", words(gettext_noop(
            "Your card play did not happen: the card is no longer in your hand."))
            if p.active else words(gettext_noop(
                "Your card play did not happen: {seat} is {status}."), seat=p.name,
                status=Term(p.status)))
        return
    c = catalog.card(card_id)
    target = a.get("target")  # a seat for the TARGETED cards (check_play)
    if c.name in TARGETED and (target is None or (c.name != "Amnesty"
                                                  and not s.players[target].active)):
        # told to its player only: the target of a card hears of it only if it acts on him
        ctx.failed(seat, order, "card_failed", words(gettext_noop(
            "Your {card} found no target and stays in your hand."), card=Card(card_id)))
        return
    on = -1 if target is None else target  # a TARGETED card's seat (none refused above)
    ctx.carried_out(seat, order)
    ctx.facts.cards_played.append((seat, c.name))
    name = p.name
    if c.category == "influence":
        p.hand.remove(card_id)
        p.influence.append(card_id)
        ctx.public("influence", words(gettext_noop("{seat} puts {card} influence into play."),
                                      seat=name, card=Card(card_id)), seat=seat,
                   card=c.name)
        return
    if c.name == "Double Agent":
        return  # stays in hand until an Intelligence card is played against its holder
    if c.name in INTELLIGENCE_AGAINST and intelligence_blocked(ctx, seat, on, c.name):
        ctx.discard(seat, card_id)
        return
    ctx.discard(seat, card_id)
    victim = s.name(target) if isinstance(target, int) and target >= 0 else ""
    match c.name:
        case "Secret Political Donation":
            if s.money_deck:
                bill = s.money_deck.pop()
                p.pocket += bill
                ctx.tell(seat, "donation", words(gettext_noop(
                    "A Secret Political Donation brings you a {amount} MP bill."), amount=bill),
                    bill=bill)
            else:
                ctx.tell(seat, "donation", words(gettext_noop(
                    "The money deck is empty: your Secret Political Donation brings nothing.")))
        case "Spy in Switzerland":
            ctx.tell(seat, "intelligence", words(gettext_noop(
                "Spy in Switzerland: {seat} has {amount} MP in the Bank."), seat=victim,
                amount=s.players[on].bank))
        case "Informant":
            hand = Items(tuple(Card(i) for i in s.players[on].hand),
                         Term(gettext_noop("nothing")))
            play = Items(tuple(Card(i) for i in s.players[on].influence),
                         Term(gettext_noop("none")))
            ctx.tell(seat, "intelligence", words(gettext_noop(
                "Informant: {seat} holds {hand}; Influence in play: {play}."), seat=victim,
                hand=hand, play=play))
        case "Wiretap":
            ctx.wiretaps.setdefault(on, []).append(seat)
            ctx.tell(seat, "intelligence", words(gettext_noop(
                "Wiretap on {seat}: you will hear of every private transfer {seat} makes "
                "today."), seat=victim))
        case "Crooked Accountant":
            ctx.tell(seat, "intelligence", words(gettext_noop(
                "Crooked Accountant: {seat} has {amount} MP in his pocket."), seat=victim,
                amount=s.players[on].pocket))
        case "Private Eye":
            last = s.players[on].last_location
            where: Param = Place(last) if last in catalog.LOCATION_NAMES else \
                Term(gettext_noop("nowhere on record"))
            ctx.tell(seat, "intelligence", words(gettext_noop(
                "Private Eye: last turn {seat} was at {place}."), seat=victim, place=where))
        case "Mole in the Treasury":
            bills = s.budget.get("all_drawn")
            if bills:
                ctx.tell(seat, "intelligence", words(gettext_noop(
                    "Mole in the Treasury: this turn's budget bills are {bills} MP."),
                    bills=Items(tuple(bills))))
            else:
                s.turn_flags.setdefault("mole", []).append(seat)
                ctx.tell(seat, "intelligence", words(gettext_noop(
                    "Mole in the Treasury: you will see the budget bills when they are drawn.")))
        case "Coalition Breaks Up":
            tp = s.players[on]
            if tp.influence:
                weakest = min(tp.influence, key=lambda i: (influence_votes(s, on, i), i))
                ctx.discard(on, weakest)
                ctx.public("coalition", words(gettext_noop(
                    "The coalition breaks up: {seat} loses {card} influence."), seat=victim,
                    card=Card(weakest)), seat=target)
            else:
                ctx.public("coalition", words(gettext_noop(
                    "Coalition Breaks Up is played on {seat}, who has no Influence in play."),
                    seat=victim), seat=target)
        case "Amnesty":
            s.turn_flags.setdefault("amnesty", []).append(on)
            ctx.public("amnesty", words(gettext_noop(
                "Amnesty: {seat} may return from exile safely this turn."), seat=victim))
        case "Demand for Reform":
            s.turn_flags["demand_for_reform"] = seat
            ctx.public("reform", words(gettext_noop(
                "{seat} demands reform: until the end of the turn {seat} controls every "
                "Influence card of 5 or fewer votes."), seat=name))
        case "Church Desecrated":
            s.turn_flags.setdefault("church_desecrated", []).append(seat)
            ctx.public("church", words(gettext_noop(
                "The Church is desecrated: {seat} has 5 more votes until the end of the turn."),
                seat=name))
        case "Bank Holiday":
            s.bank_status = "closed"
            ctx.public("bank_holiday", words(gettext_noop(
                "Bank Holiday: the Bank is closed this turn.")),
                       headline=True)
        case "Student Petition Against Repression":
            ctx.public("petition", words(gettext_noop(
                "{seat} presents a Student Petition Against Repression. The government files "
                "it carefully."), seat=name))
        case "The President's Competence Questioned":
            s.motion = {"mover": seat, "president": s.president}
            ctx.public("motion", words(gettext_noop(
                "{seat} moves that the President be removed for incompetence: the Chamber "
                "will vote."), seat=name), headline=True)
        case "Foreign Aid Audit":
            bills = s.budget.get("all_drawn", [])
            ctx.public("audit", words(gettext_noop(
                "Foreign Aid Audit: the President must publish this turn's budget bills: "
                "{bills} MP."), bills=Items(tuple(bills), Term(gettext_noop("none")))),
                       headline=True, bills=bills)
        case _:
            pass
    if c.name in COUP_EXCUSE_CARDS:
        s.coup_excuse = True
        if c.name == "Press Scandal":
            s.turn_flags.setdefault("press_scandal", []).append(on)
            _bar_vote_cards(ctx, on)
            ctx.public("coup_excuse_card", words(gettext_noop(
                "Press Scandal! {seat} may not vote with Vote cards this turn. A Coup Excuse "
                "exists."), seat=victim),
                       headline=True)
        else:
            ctx.public("coup_excuse_card", words(gettext_noop(
                "{seat} plays {card}: a Coup Excuse exists."), seat=name, card=Card(card_id)),
                       headline=True)


def _bar_vote_cards(ctx: Context, seat: int) -> None:
    """Press Scandal: "he may not vote this turn with Vote cards", including a ballot he gave
    for a vote counted later in this phase: it is counted without its Vote cards.
    (docs/rules.md §vote-cards)."""
    orders = ctx.orders.get(seat, [])
    barred = False
    for i, order in enumerate(orders):
        if order.kind == "vote" and ballot_of(order).get("cards"):
            orders[i] = Order(order.kind, {**order.args, "cards": []}, order.condition)
            barred = True
    if barred:
        ctx.tell(seat, "vote_cards_barred", words(gettext_noop(
            "The Press Scandal bars your Vote cards: your vote is counted without them, and "
            "they stay in your hand.")))
