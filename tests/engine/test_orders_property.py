"""What the engine accepts it offers, and carries out or tells: two properties over random
campaigns (docs/rulings.md §ruling-no-silent-orders).

CAMPAIGNS seeded bot campaigns are each played to a random phase (coups included). At that
phase:

(a) accepted implies offered: candidate orders are made by mutating the orders the seat's
    options build (numbers past their bounds, every seat, cards and zones from elsewhere,
    locations and choices not offered) and by carrying over the orders another campaign's state
    offers the same seat (other phase kinds, other cards, other units); every one that
    `validate_order` and `validate_orders` accept must be one `legal_options` offers (its kind,
    fixed arguments, each value among the values offered, each number within its bounds).
    tests/engine/test_options_property.py checks the other direction (offered implies accepted).

(b) not carried out implies told: the bots' orders, with payments, gifts, trades and banking
    added from the options, are given; then the GameMaster rules as the GM panel can (empties
    a pocket, moves money to the bank or out of play, takes a card, moves a player, removes a
    unit) and the phase is adjudicated. Every order that failed left its owner and every player
    it deals with (`anytime.parties`: the payee, the one given a card, the trading partner) a
    line they can read; every unconditional order of the kinds whose fate the adjudication
    records (`TRACKED`) has an outcome: carried out, or failed and told.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from junta.engine import (
    GameState,
    Order,
    RulingError,
    catalog,
    legal_options,
    move_card,
    move_money,
    new_game,
    remove_unit,
    resolve,
    set_location,
    validate_order,
    validate_orders,
)
from junta.engine.anytime import is_any_time, parties
from junta.engine.bots import play_phase
from junta.engine.options import Options, OrderOption, Shape, build
from junta.engine.rng import Rng

CAMPAIGNS = 200
MAX_PHASES = 40
TRACKED = frozenset({"pay", "give_card", "trade", "bank", "discard", "resign"})


@cache
def campaigns() -> tuple[tuple[str, dict[str, Any]], ...]:
    """(seed, state as data) at a random phase of each seeded bot campaign."""
    out = []
    for i in range(CAMPAIGNS):
        seed = f"orders-property-{i}"
        rng = Rng(seed)
        state = new_game(seed, [f"Family {n}" for n in range(6 + i % 5)])
        for _ in range(rng.between(0, MAX_PHASES)):
            if state.finished:
                break
            state = resolve(state, play_phase(state, rng)).state
        if not state.finished:
            out.append((seed, state.to_dict()))
    return tuple(out)


def test_the_campaigns_are_enough_and_reach_coups():
    kinds = {GameState.from_dict(data).phase for _, data in campaigns()}
    assert len(campaigns()) >= 190 and {"locations", "coup", "aftermath"} <= kinds, kinds


# --- (a) accepted implies offered ---------------------------------------------------------------

def _offers(option: OrderOption, order: Order) -> bool:
    if option.kind != order.kind or any(order.args.get(k) != v
                                        for k, v in option.fixed.items()):
        return False
    names = {a.name for a in option.args} | set(option.fixed)
    if any(k not in names and v not in (None, 0, [], {}) for k, v in order.args.items()):
        return False  # an argument the option does not offer, set to something
    for arg in option.args:
        value = order.args.get(arg.name)
        if arg.shape in (Shape.TABLE, Shape.RANKING):
            continue  # a Cabinet, a budget, a ranking: checked as a whole by the engine
        if value is None:
            if order.kind == "play_card" and arg.name == "zone" and \
                    len(arg.allowed(order.args)) == 1:
                continue  # a card whose units appear in one zone: the form sends that one
            if arg.required and arg.blank is None and arg.shape is not Shape.SOME:
                return False
            continue
        if arg.shape is Shape.NUMBER:
            if isinstance(value, bool) or not isinstance(value, int) or \
                    not (arg.minimum or 0) <= value <= (arg.maximum or 0):
                return False
        elif arg.shape is Shape.SOME:
            offered = arg.allowed(order.args)
            if order.kind == "trade" and arg.name == "get_cards":
                value = [catalog.card(c).name for c in value]
            if not isinstance(value, list) or not set(value) <= set(offered):
                return False
        elif value not in arg.allowed(order.args):
            return False
    return True


def offered(options: Options, order: Order) -> bool:
    return any(_offers(option, order) for option in options.of_kind(order.kind))


def _mutations(state: GameState, base: Order, option: OrderOption, rng: Rng) -> list[Order]:
    seats = list(range(len(state.players)))
    cards = [rng.below(len(catalog.cards())) for _ in range(4)] + state.players[0].hand[:2]
    zones = [rng.choice(sorted(catalog.zones())) for _ in range(3)]
    out = []
    for arg in option.args:
        values: list[Any] = []
        if arg.shape is Shape.NUMBER:
            top = arg.maximum or 0
            values = [top + 1, top + 7, (arg.minimum or 0) - 1]
        elif arg.shape is Shape.ONE:
            values = [*seats, *cards, *zones, *catalog.LOCATIONS, "exile", "grant", True]
        elif arg.shape is Shape.SOME:
            values = [[c] for c in cards]
        for value in values:
            out.append(Order(base.kind, {**base.args, arg.name: value}))
    return out


def _accepted(state: GameState, seat: int, order: Order) -> bool:
    return not validate_order(state, seat, order) and not validate_orders(state, seat, [order])


def test_every_order_the_engine_accepts_is_offered():
    rng = Rng("accepted-offered")
    states = [GameState.from_dict(data) for _, data in campaigns()]
    checked = accepted = 0
    for n, state in enumerate(states):
        elsewhere = states[n - 1]
        for seat in range(len(state.players)):
            options = legal_options(state, seat)
            candidates: list[Order] = []
            for option in options.orders:
                base = build(state, seat, option, option.defaults())
                candidates.append(base)
                candidates += _mutations(state, base, option, rng)
            if seat < len(elsewhere.players):
                candidates += [build(elsewhere, seat, o, o.defaults())
                               for o in legal_options(elsewhere, seat).orders]
            for order in candidates:
                checked += 1
                if _accepted(state, seat, order):
                    accepted += 1
                    assert offered(options, order), (state.phase, seat, order)
    assert checked > 10000 and accepted > 1000, (checked, accepted)


# --- (b) not carried out implies told -----------------------------------------------------------

def _extra_orders(state: GameState, seat: int, rng: Rng, orders: list[Order]) -> list[Order]:
    """Payments, gifts, trades and banking from the seat's options, with random offered values,
    kept while the whole set is accepted."""
    options = legal_options(state, seat)
    for option in options.orders:
        if option.kind not in ("pay", "give_card", "bank", "trade") or rng.below(2):
            continue
        values = option.defaults()
        for arg in option.args:
            if arg.shape is Shape.NUMBER and arg.maximum is not None and arg.maximum >= 1:
                values[arg.name] = rng.between(max(1, arg.minimum or 0), min(arg.maximum, 9))
            elif arg.shape is Shape.ONE and arg.values():
                values[arg.name] = arg.values()[rng.below(len(arg.values()))]
        order = build(state, seat, option, values)
        if not validate_orders(state, seat, [*orders, order]):
            orders = [*orders, order]
    if state.players[seat].active and rng.below(3) == 0:  # a trade both sides order
        others = [p.seat for p in state.players if p.active and p.seat != seat]
        if others and state.players[seat].pocket:
            partner = others[rng.below(len(others))]
            orders.append(Order("trade", {"with": partner, "give_money": 1, "get_money": 0,
                                          "give_cards": [], "get_cards": []}))
    return orders


def _rule(state: GameState, rng: Rng) -> GameState:
    """One to three rulings the GM panel can make, at random; a refused one changes nothing."""
    for _ in range(rng.between(1, 3)):
        seat = rng.below(len(state.players))
        p = state.players[seat]
        pick = rng.below(5)
        try:
            if pick == 0 and p.pocket:
                state = move_money(state, f"pocket:{seat}", "out", p.pocket).state
            elif pick == 1 and p.pocket:
                state = move_money(state, f"pocket:{seat}", f"bank:{seat}",
                                   rng.between(1, p.pocket)).state
            elif pick == 2 and p.bank:
                state = move_money(state, f"bank:{seat}", "out", rng.between(1, p.bank)).state
            elif pick == 3 and p.hand:
                state = move_card(state, p.hand[rng.below(len(p.hand))], "discard").state
            elif pick == 4 and state.coup and state.coup["units"]:
                units = state.coup["units"]
                state = remove_unit(state, units[rng.below(len(units))]["id"]).state
            elif pick == 4:
                state = set_location(state, seat, catalog.LOCATIONS[rng.below(5)]).state
        except RulingError:
            pass
    return state


def test_every_order_not_carried_out_is_told_to_everyone_it_names():
    failures = outcomes = 0
    for seed, data in campaigns():
        state = GameState.from_dict(data)
        rng = Rng(f"told-{seed}")
        orders = play_phase(state, rng)
        for seat in range(len(state.players)):
            if state.players[seat].active:
                orders[seat] = _extra_orders(state, seat, rng, orders.get(seat, []))
        for seat in range(len(state.players)):
            if state.players[seat].active and orders[seat]:
                # trades added blind may not match: each is still an order the engine accepts
                orders[seat] = [o for o in orders[seat]
                                if not validate_order(state, seat, o)]
        ruled = _rule(state, rng)
        r = resolve(ruled, orders)
        recorded = {id(x.order): x for x in r.outcomes}
        for x in r.outcomes:
            outcomes += 1
            if x.done:
                continue
            failures += 1
            named = {x.seat, *parties(x.order)}
            assert named <= set(x.told), (seed, x)
            for s in named:  # a private line saying it failed, for each of them
                assert any(s in e.audience and ("not" in e.text or "fail" in e.text)
                           for e in r.events if e.audience not in ("public", "gm")), \
                    (seed, x, s)
        for seat, given in orders.items():
            if not state.players[seat].active:
                continue
            for order in given:
                if order.kind in TRACKED and order.condition is None and (
                        order.kind == "bank" or is_any_time(order, state.phase)):
                    assert id(order) in recorded, (seed, state.phase, seat, order,
                                                   [e.text for e in r.events
                                                    if e.visible_to(seat)])
    assert outcomes > 500 and failures > 50, (outcomes, failures)
