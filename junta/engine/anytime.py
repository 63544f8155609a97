"""Any-time actions: payments, gifts of cards, trades, discards, card plays, resignation,
exiles' returns. "Ordered with a phase's orders and resolve first in that phase's
adjudication, in seat order, unless the order ties them to a later step by a condition"
(docs/rules.md §any-time)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import catalog
from .card_plays import apply_play
from .context import Outcome
from .enums import PhaseKind, Status, Step
from .kinds import KINDS, ORDER_KINDS
from .orders import Order, action_step

if TYPE_CHECKING:
    from .context import Context
    from .state import GameState

ANY_TIME_KINDS = frozenset({"pay", "give_card", "trade", "discard", "play_card", "resign",
                            "return_from_exile", "brother_in_law"})
# The orders that deal with another player (their kind's `party`): when one cannot be carried
# out, both sides are told (docs/rules.md §any-time; docs/rulings.md §ruling-no-silent-orders).
# A hand-over of units is not an any-time order, but the same.
PARTY = frozenset(k.name for k in KINDS if k.party)


def parties(order: Order) -> tuple[int, ...]:
    """The other players an order deals with openly, told when it fails (its kind's
    `parties`)."""
    spec = ORDER_KINDS.get(order.kind)
    return spec.parties(order) if spec is not None else ()


def fails_where_it_acts(state: GameState, seat: int, order: Order) -> bool:
    """Whether an order refused at the deadline (`validate_order` on the phase's starting
    state: a GM ruling took the money or the card since it was given) is one that fails where
    it acts, telling both sides why: a payment, a gift or a trade whose owner can no longer
    deliver, or whose other side can no longer take part."""
    if not state.players[seat].active:
        return False  # never accepted from him: dropped, told to him
    if order.kind == "trade":
        return _cannot_trade(state, seat, order) is not None
    if order.kind == "transfer":
        return _units_gone(state, seat, order)
    return order.kind in PARTY and _transfer_problem(state, seat, order) is not None


def _units_gone(state: GameState, seat: int, order: Order) -> bool:
    """A hand-over of units, well formed, some of which are no longer the giver's (a ruling
    removed them) or whose receiver is out: it fails where it acts, told to both
    (phases/coup.py)."""
    ids, to = order.args.get("units"), order.args.get("to")
    if state.coup is None or not isinstance(ids, list) or not ids or \
            not all(isinstance(i, int) and not isinstance(i, bool) for i in ids) or \
            not isinstance(to, int) or isinstance(to, bool) or \
            not 0 <= to < len(state.players) or to == seat:
        return False
    owners = {u["id"]: u["owner"] for u in state.coup["units"]}
    return not state.players[to].active or any(owners.get(i) != seat for i in ids)


def is_any_time(order: Order, phase: str | None = None) -> bool:
    return order.kind in ANY_TIME_KINDS and action_step(order, phase) == Step.ANY_TIME


def run(ctx: Context, after_step: str | None) -> None:
    """Carry out the any-time orders due now: unconditional ones at the any-time step
    (after_step None), conditional ones right after the step their condition names."""
    from .orders import condition_step
    due: list[tuple[int, Order]] = []
    for seat in sorted(ctx.orders):
        for order in ctx.orders[seat]:
            if not is_any_time(order, ctx.state.phase):
                continue
            tied = condition_step(order.condition, ctx.state.phase) if order.condition \
                else None
            if after_step is None and tied is None or after_step is not None and \
                    tied == after_step:
                due.append((seat, order))
    if after_step is None:
        _first(ctx, due, "Wiretap")  # hears every transfer of the day
        _first(ctx, due, "Amnesty")  # protects an exile the Minister decides on today
        if ctx.state.coup is None or ctx.state.phase == PhaseKind.AFTERMATH:
            _exile_returns(ctx)  # during a coup exiles come back only through an embassy
    done_trades: set[int] = set()  # the trade orders settled (as a match too), by id
    for seat, order in due:
        if not ctx.holds(order.condition):
            continue
        owner = ctx.state.players[seat]
        if not owner.active and order.kind not in ("return_from_exile", *PARTY):
            ctx.failed(seat, order, "order_failed", f"Your order was not carried out: "
                       f"{owner.name} is {owner.status}.")
            continue
        _carry_out(ctx, seat, order, done_trades)
        if after_step == Step.LOCATIONS and order.kind == "play_card" and \
                order.condition is not None and order.condition.args.get("seat") != seat:
            # played knowing where another player is: no assassin may wait for it
            # (phases/locations.py, "prior to assassination declaration")
            ctx.facts.informed_plays.append((seat, catalog.card(order.args["card"]).name))


def _first(ctx: Context, due: list[tuple[int, Order]], card_name: str) -> None:
    """Play the due plays of this card before the other any-time actions."""
    def named(order: Order) -> bool:
        cid = order.args.get("card")
        return order.kind == "play_card" and isinstance(cid, int) and \
            catalog.card(cid).name == card_name
    for seat, order in due:
        if named(order) and ctx.state.players[seat].active and ctx.holds(order.condition):
            apply_play(ctx, seat, order)
    due[:] = [(s, o) for s, o in due if not named(o)]


def _carry_out(ctx: Context, seat: int, order: Order, done_trades: set[int]) -> None:
    s = ctx.state
    p = s.players[seat]
    match order.kind:
        case "pay" | "give_card":
            to = order.args["to"]
            why = _transfer_problem(s, seat, order)
            if why is not None:
                text = (f"{p.name}'s payment of {order.args['amount']} MP to {s.name(to)} "
                        f"failed: {why}." if order.kind == "pay" else
                        f"{p.name}'s card for {s.name(to)} was not passed: {why}.")
                ctx.failed(seat, order, "payment_failed" if order.kind == "pay" else
                           "gift_failed", text, parties=(to,))
            elif order.kind == "pay":
                amount = order.args["amount"]
                p.pocket -= amount
                s.players[to].pocket += amount
                ctx.carried_out(seat, order)
                ctx.transfer_note([seat, to], "payment", f"{p.name} pays {s.name(to)} "
                                  f"{amount} MP.", payer=seat, to=to, amount=amount)
            else:
                cid = order.args["card"]
                p.hand.remove(cid)
                s.players[to].hand.append(cid)
                ctx.carried_out(seat, order)
                ctx.transfer_note([seat, to], "gift", f"{p.name} gives {s.name(to)} "
                                  f"{catalog.card(cid).name}.", giver=seat, to=to)
        case "trade":
            _trade(ctx, seat, order, done_trades)
        case "discard":
            cid = order.args["card"]
            if cid in p.hand or cid in p.influence:
                public = cid in p.influence
                ctx.discard(seat, cid)
                ctx.carried_out(seat, order)
                if public:
                    ctx.public("discard", f"{p.name} discards {catalog.card(cid).name} "
                                          "influence.")
                else:
                    ctx.tell(seat, "discard", f"You discard {catalog.card(cid).name}.")
            else:
                ctx.failed(seat, order, "discard_failed", f"Your discard of "
                           f"{catalog.card(cid).name} was not carried out: the card is no "
                           "longer in your hand or in play before you.")
        case "play_card":
            apply_play(ctx, seat, order)
        case "resign":
            if s.president != seat:
                ctx.failed(seat, order, "order_failed", "Your resignation was not carried "
                           "out: you are no longer the President.")
            else:
                ctx.carried_out(seat, order)
                ctx.facts.resigned = seat
                ctx.public("resignation", f"El Presidente {p.name} resigns! The Chamber will "
                                          "elect a new President at once.", headline=True)
        case "return_from_exile":
            if s.phase in (PhaseKind.COUP, PhaseKind.COUP_FINAL):
                return  # through an embassy, after the moves (phases/coup.py)
            if p.status == Status.EXILED and seat not in s.pending_returns:
                s.pending_returns.append(seat)
                ctx.public("return_request", f"{p.name} asks to return from exile; the "
                                             "Minister of Internal Security will decide.")
        case "brother_in_law":
            s.turn_flags["bil_preference"] = order.args["position"]


def _transfer_problem(s: GameState, seat: int, order: Order) -> str | None:
    """Why a payment or a gift cannot be carried out now, in words both sides read; None when
    it can."""
    p, to = s.players[seat], order.args.get("to")
    if not p.active:
        return f"{p.name} is {p.status}"
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < len(s.players):
        return None
    if not s.players[to].active:
        return f"{s.name(to)} is {s.players[to].status}"
    if order.kind == "give_card":
        if order.args.get("card") not in p.hand:
            return f"the card is no longer in {p.name}'s hand"
        if s.cards_held(to) >= catalog.HAND_LIMIT:
            return f"{s.name(to)} is at the hand limit"
        return None
    if _resigning(s, seat):
        return f"{p.name} is the resigning President, who may not transfer his pocket money " \
               "during the election"
    amount = order.args.get("amount")
    if isinstance(amount, int) and amount > p.pocket:
        return f"{p.name} had only {p.pocket} MP"
    return None


def _resigning(s: GameState, seat: int) -> bool:
    return s.phase == PhaseKind.ELECTION and bool(s.election) and \
        (s.election or {}).get("resigned") == seat


def _cannot_trade(s: GameState, seat: int, order: Order) -> str | None:
    """Why one side of a trade cannot deliver or take part now, in words both sides read."""
    p, partner = s.players[seat], order.args.get("with")
    if not p.active:
        return f"{p.name} is {p.status}"
    if not isinstance(partner, int) or isinstance(partner, bool) or \
            not 0 <= partner < len(s.players):
        return None
    if not s.players[partner].active:
        return f"{s.name(partner)} is {s.players[partner].status}"
    give_money, give_cards, _, _ = _terms(order)
    if give_money and _resigning(s, seat):
        return f"{p.name} is the resigning President, who may not transfer his pocket money " \
               "during the election"
    if give_money > p.pocket:
        return f"{p.name} could not pay {give_money} MP"
    if not set(give_cards) <= set(p.hand):
        return "a card in it was no longer held"
    return None


def _trade(ctx: Context, seat: int, order: Order, done: set[int]) -> None:
    """"Two-sided trades that happen only when both orders match"; each order matches one
    order of the partner's, so two players may make two different trades the same day.
    (docs/rulings.md §ruling-trade-secrecy)."""
    s = ctx.state
    partner = order.args["with"]
    if id(order) in done:
        return  # settled as the match of the partner's order, both sides told
    mine = _terms(order)
    offer = (f"the trade {s.name(seat)} ordered with {s.name(partner)} ({s.name(seat)} gives "
             f"{_describe(mine[0], mine[1])}, {s.name(partner)} gives "
             f"{_describe(mine[2], mine[3])})")
    gone = next((f"{s.name(x)} is {s.players[x].status}" for x in (seat, partner)
                 if not s.players[x].active), None)
    if gone is not None:  # a failed transfer "fails and says so to both"
        ctx.failed(seat, order, "trade_failed", f"{offer[0].upper()}{offer[1:]} did not "
                   f"happen: {gone}.", parties=(partner,))
        return
    match = None
    for other in ctx.orders.get(partner, []):
        if other.kind == "trade" and other.args.get("with") == seat and \
                id(other) not in done and ctx.holds(other.condition) and \
                _terms(other) == (mine[2], mine[3], mine[0], mine[1]):
            match = other
            break
    if match is None:  # both sides are told of each order that found no match
        ctx.failed(seat, order, "trade_failed", f"{offer[0].upper()}{offer[1:]} did not "
                   f"happen: {s.name(partner)} did not order the same trade.",
                   parties=(partner,))
        return
    done.update((id(order), id(match)))
    give_money, give_cards, get_money, get_cards = mine
    a, b = s.players[seat], s.players[partner]
    problems = [why for why in (_cannot_trade(s, seat, order), _cannot_trade(s, partner, match))
                if why is not None]
    if len(a.hand) + len(a.influence) - len(give_cards) + len(get_cards) > catalog.HAND_LIMIT \
            and get_cards:
        problems.append(f"{a.name} would go over the hand limit")
    if len(b.hand) + len(b.influence) - len(get_cards) + len(give_cards) > catalog.HAND_LIMIT \
            and give_cards:
        problems.append(f"{b.name} would go over the hand limit")
    if problems:
        ctx.failed(seat, order, "trade_failed", f"The trade between {a.name} and {b.name} "
                   f"failed: {'; '.join(dict.fromkeys(problems))}.", parties=(partner,))
        ctx.outcomes.append(Outcome(partner, match, False, ctx.outcomes[-1].told))
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
    ctx.transfer_note([seat, partner], "trade", f"{a.name} and {b.name} trade: {a.name} gives "
                      f"{_describe(give_money, give_cards)}, {b.name} gives "
                      f"{_describe(get_money, get_cards)}.")


def _terms(order: Order) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
    a = order.args
    return (a.get("give_money") or 0, tuple(sorted(a.get("give_cards") or [])),
            a.get("get_money") or 0, tuple(sorted(a.get("get_cards") or [])))


def _describe(money: int, cards: tuple[int, ...]) -> str:
    parts = [f"{money} MP"] if money else []
    parts += [catalog.card(c).name for c in cards]
    return ", ".join(parts) or "nothing"


def _exile_returns(ctx: Context) -> None:
    """Requests from earlier phases meet the Minister's decision: safe passage or execution.
    With no decision ordered, the exile returns safely (no execution without an order).
    (docs/rules.md §exile; docs/rulings.md §ruling-exiles)."""
    s = ctx.state
    minister = s.commander(catalog.INTERNAL_SECURITY)
    decisions = {}
    if minister is not None:
        for order in ctx.orders.get(minister, []):
            if order.kind == "safe_passage" and ctx.holds(order.condition):
                decisions[order.args["seat"]] = order.args["decision"]
    for seat in list(s.pending_returns):
        p = s.players[seat]
        s.pending_returns.remove(seat)
        if p.status != Status.EXILED:
            continue
        amnesty = seat in s.turn_flags.get("amnesty", [])
        if decisions.get(seat) == "execute" and not amnesty and minister is not None:
            p.status = Status.ALIVE
            ctx.kill(seat, minister, "executed on returning from exile by the Minister of "
                                     "Internal Security", None)
        else:
            p.status = Status.ALIVE
            # "If an Exile returns in the middle of the Turn, however, he will remain
            # positionless until the next Cabinet Appointment Phase" (phases/cabinet.py)
            s.turn_flags.setdefault("returned_exiles", []).append(seat)
            ctx.public("returned", f"{p.name} returns from exile under safe passage, "
                                   "without a position until the next Cabinet Appointment.",
                       headline=True)
