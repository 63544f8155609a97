"""A random-bot player: random legal orders for any seat, conditional ones included.

Used by the tests (hundreds of whole campaigns with invariants checked after every phase), by
the benchmark and by the web app's `simulate` command. Bots start coups now and then, move
stacks, strike, bribe, vote Pro-Junta or Pro-President and shoot the losers.
"""

from __future__ import annotations

from . import catalog
from .orders import Condition, Order, validate_order, validate_orders
from .phases.cabinet import random_cabinet
from .rng import Rng
from .state import GameState
from .units import (
    CARD_UNITS,
    CONTROL_POINTS,
    EMBASSIES,
    FOREIGN_FORCES,
    RIVER_ZONES,
    deploy,
    on_map,
    stack_moves,
)
from .voting import sources


def bot_orders(state: GameState, seat: int, rng: Rng) -> list[Order]:
    """Random orders for `seat` in the current phase, each one legal on its own."""
    p = state.players[seat]
    if state.finished or not p.active:
        if p.status == "exiled" and rng.below(3) == 0:
            back = Order("return_from_exile")
            return [] if validate_order(state, seat, back) else [back]
        return []
    out: list[Order] = []
    phase = state.phase
    others = [s for s in state.active_seats() if s != seat]
    if phase == "nomination":
        if others and rng.below(2) == 0:
            out.append(Order("nominate", {"candidate": rng.choice(state.active_seats())}))
        if others and rng.below(3) == 0:
            out.append(Order("second", {"candidate": rng.choice(others)}))
    elif phase in ("election", "special_motion", "budget_vote"):
        out += _vote(state, seat, rng)
    elif phase == "cabinet" and seat == state.president:
        out.append(Order("appoint", {"positions": random_cabinet(state, rng)}))
    elif phase == "budget_draw":
        commands = state.commanded_positions(seat)
        if catalog.WAR in commands:
            out.append(Order("new_weapons", {"position": rng.choice(
                [None, *catalog.NEW_WEAPONS_TARGETS])}))
        for pos in (catalog.FOREIGN, catalog.FARM_LABOR):
            if pos in commands and rng.below(5):
                out.append(Order("draw_bills", {"position": pos, "count": rng.between(1, 6)}))
    elif phase == "budget_proposal" and seat == state.budget.get("proposer", state.president):
        out.append(_proposal(state, seat, rng))
    elif phase == "internal_security" and catalog.INTERNAL_SECURITY in \
            state.commanded_positions(seat):
        out.append(Order("seize_chamber", {"seize": rng.below(2) == 0}))
    elif phase == "locations":
        out += _locations(state, seat, rng)
        out += _rebellion(state, seat, rng)
    elif phase in ("coup", "coup_final"):
        out += _coup(state, seat, rng, others)
    elif phase == "aftermath":
        out += _aftermath(state, seat, rng, others)
    out += _any_time(state, seat, rng, others)
    return whole_set([o for o in out if not validate_order(state, seat, o)], state, seat)


def whole_set(orders: list[Order], state: GameState, seat: int) -> list[Order]:
    """The orders without those the set refuses (two locations, money spent twice): the
    latest order a set problem names goes, until the engine accepts the rest."""
    kept = list(orders)
    while problems := validate_orders(state, seat, kept):
        named = [i for p in problems for i in p.orders]
        kept.pop(max(named) if named else len(kept) - 1)
    return kept


def _vote(state: GameState, seat: int, rng: Rng) -> list[Order]:
    if not sources(state, seat):
        return []
    if state.phase == "election":
        candidates = (state.election or {}).get("candidates") or state.active_seats()
        candidates = [c for c in candidates if state.players[c].active] or [seat]
        choice: object = rng.choice(candidates)
    else:
        choice = rng.choice(["yes", "yes", "no", "abstain"])
    cards = []
    initial = (state.election or {}).get("reason") == "initial" and state.phase == "election"
    if not initial and seat not in state.turn_flags.get("press_scandal", []):
        cards = [c for c in state.players[seat].hand
                 if catalog.card(c).category == "vote" and rng.below(2) == 0]
    orders = [Order("vote", {"choice": choice, "cards": cards})]
    for cid in state.players[seat].hand:
        name = catalog.card(cid).name
        if name in ("Power Failure", "Summer Recess", "Recount") and rng.below(3) == 0 and \
                state.phase in ("budget_vote", "election"):
            result = rng.choice(["passes", "fails"]) if state.phase == "budget_vote" else None
            cond = Condition("vote_result", {"result": result, "margin_at_most": rng.between(
                1, 8)}) if result else None
            orders.append(Order("play_card", {"card": cid}, cond))
        if name == "Alternative Budget" and state.phase == "budget_vote" and rng.below(2) == 0:
            orders.append(Order("play_card", {"card": cid},
                                Condition("vote_result", {"result": "fails"})))
        if name == "Church Desecrated" and rng.below(2) == 0:
            orders.append(Order("play_card", {"card": cid}))
    return orders


def _proposal(state: GameState, seat: int, rng: Rng) -> Order:
    held = list(state.budget.get("held", []))
    rng.shuffle(held)
    allocations: dict[str, int] = {}
    bills: dict[str, list[int]] = {}
    active = state.active_seats()
    for bill in held:
        if rng.below(4) == 0:
            continue  # skimmed
        to = rng.choice(active)
        allocations[str(to)] = allocations.get(str(to), 0) + bill
        bills.setdefault(str(to), []).append(bill)
    args: dict = {"allocations": allocations}
    if rng.below(2) == 0:
        args["bills"] = bills
    if state.players[seat].pocket and rng.below(4) == 0 and allocations:
        extra = rng.between(1, state.players[seat].pocket)
        first = sorted(allocations)[0]
        allocations[first] += extra
        args["from_pocket"] = extra
    return Order("propose_budget", args)


def _locations(state: GameState, seat: int, rng: Rng) -> list[Order]:
    p = state.players[seat]
    place = rng.choice([*catalog.LOCATIONS, "bank", "bank", "home"])
    if rng.below(30) == 0 and seat != state.president:
        place = "exile"  # exiles later ask to return, some in time for the next Cabinet

    def own() -> Condition | None:
        """Now and then tie an order to the bot's own location or exile (the only location
        conditions an assassination may have)."""
        roll = rng.below(8)
        if roll == 0:
            return Condition("location", {"seat": seat, "location": rng.choice(
                [*catalog.LOCATIONS, place if place != "exile" else "home"])})
        return Condition("exiled", {"seat": seat}) if roll == 1 else None

    out = [Order("location", {"place": place})]
    if place == "bank" or rng.below(10) == 0:
        mine = Condition("location", {"seat": seat, "location": "bank"}) \
            if place != "bank" or rng.below(3) == 0 else None
        if p.pocket and rng.below(4):
            out.append(Order("bank", {"action": "deposit", "amount": rng.between(1, p.pocket)},
                             mine))
        elif p.bank and rng.below(3) == 0:
            out.append(Order("bank", {"action": "withdraw", "amount": rng.between(1, p.bank)},
                             mine))
    others = [s for s in state.active_seats() if s != seat]
    if others:
        for cid in p.hand:
            c = catalog.card(cid)
            target = rng.choice(others)
            where = rng.choice(list(catalog.LOCATIONS))
            if c.category == "assassin" and c.name not in (
                    "Burglar", "Bank Robber", "Character Assassin") and rng.below(3) == 0:
                out.append(Order("assassinate", {"card": cid, "target": target,
                                                 "location": where}, own()))
            elif c.name in ("Burglar", "Bank Robber", "Character Assassin") and rng.below(2):
                out.append(Order("play_card", {"card": cid, "target": target}, own()))
            elif c.name in ("Bribe the Assassin",) and rng.below(2):
                out.append(Order("play_card", {"card": cid}))
        if catalog.INTERNAL_SECURITY in state.commanded_positions(seat) and rng.below(3) == 0:
            out.append(Order("assassinate", {"card": "secret_police",
                                             "target": rng.choice(others),
                                             "location": rng.choice(list(catalog.LOCATIONS))}))
        if p.pocket and rng.below(5) == 0:
            victim = rng.choice(others)
            out.append(Order("pay", {"to": rng.choice(others), "amount": 1},
                             Condition("survives", {"seat": victim})))
        if p.pocket and rng.below(6) == 0:
            out.append(Order("pay", {"to": rng.choice(others), "amount": 1}, own()))
    return out


def _rebellion(state: GameState, seat: int, rng: Rng) -> list[Order]:
    """Now and then a player with troops (or a mob card) starts a coup."""
    if seat == state.president or rng.below(6):
        return []
    out: list[Order] = []
    units = [u for u in deploy(state)["units"] if u["owner"] == seat and u["zone"] is not None]
    zones = catalog.zones()
    for zone in sorted({u["zone"] for u in units})[:stack_moves(state, seat)]:
        out.append(Order("rebel_move", {"from_zone": zone,
                                        "to_zone": rng.choice(list(zones[zone].adjacent))}))
    for cid in state.players[seat].hand:
        spec = CARD_UNITS.get(catalog.card(cid).name)
        if spec and "rebel_only" in catalog.card(cid).when and rng.below(2) == 0:
            out.append(Order("play_card", {"card": cid, "zone": rng.choice(list(spec.zones))}))
    return out


def _coup(state: GameState, seat: int, rng: Rng, others: list[int]) -> list[Order]:
    coup = state.coup or {"units": []}
    out: list[Order] = []
    zones = catalog.zones()
    mine = [u for u in on_map(coup) if u["owner"] == seat]
    stacks = sorted({u["zone"] for u in mine})
    rng.shuffle(stacks)
    for zone in stacks[:stack_moves(state, seat)]:
        if rng.below(3):
            out.append(Order("move", {"from_zone": zone,
                                      "to_zone": rng.choice(list(zones[zone].adjacent))}))
    for u in coup["units"]:
        if u["owner"] == seat and u["zone"] is None and rng.below(2) == 0:
            where = RIVER_ZONES if u["kind"] in ("Marine", "Commando") else CONTROL_POINTS
            out.append(Order("place", {"unit": u["kind"], "zone": rng.choice(list(where))}))
    enemies = [u for u in on_map(coup) if u["owner"] is not None and u["owner"] != seat
               and u["zone"] not in EMBASSIES
               and state.players[u["owner"]].rebel != state.players[seat].rebel]
    commands = state.commanded_positions(seat)
    if enemies:
        for kind, position in (("airstrike", catalog.AIR_FORCE), ("gunboat", catalog.ADMIRAL)):
            if position in commands and rng.below(2) == 0:
                u = rng.choice(enemies)
                out.append(Order(kind, {"zone": u["zone"], "target": u["owner"]}))
        if rng.below(3) == 0:
            u = rng.choice(enemies)
            out.append(Order("attack", {"zone": u["zone"], "target": u["owner"]}))
    foreign = coup.get("foreign", {})
    if catalog.FOREIGN in commands and len(foreign.get("chosen", [])) < foreign.get("allowed", 0):
        free = [f for f in FOREIGN_FORCES if f not in foreign["chosen"]]
        out.append(Order("intervene", {"forces": [rng.choice(free)]}))
    if catalog.INTERNAL_SECURITY in commands and coup.get("agitator_zones") and \
            coup.get("phase") == 1:
        out.append(Order("police_response", {"zone": rng.choice(coup["agitator_zones"])}))
    if mine and others and rng.below(12) == 0:
        out.append(Order("transfer", {"units": [rng.choice(mine)["id"]],
                                      "to": rng.choice(others),
                                      "after_moves": rng.below(2) == 0}))
    if mine and rng.below(40) == 0:
        out.append(Order("flee"))
    for cid in state.players[seat].hand:
        name = catalog.card(cid).name
        spec = CARD_UNITS.get(name)
        if spec and rng.below(3) == 0:
            out.append(Order("play_card", {"card": cid, "zone": rng.choice(list(spec.zones))}))
        elif name.startswith("Bribe the ") and name != "Bribe the Assassin" and \
                enemies and rng.below(3) == 0:
            out.append(Order("play_card", {"card": cid, "zone": rng.choice(enemies)["zone"]}))
    if state.phase == "coup_final":
        side = "junta" if state.players[seat].rebel and rng.below(5) else "president"
        if seat == state.president:
            side = "president"
        if rng.below(10):
            out.append(Order("coup_side", {"side": side}))
    return out


def _aftermath(state: GameState, seat: int, rng: Rng, others: list[int]) -> list[Order]:
    coup = state.coup or {}
    out: list[Order] = []
    if coup.get("result") == "junta" and state.players[seat].rebel and rng.below(6):
        living = [p.seat for p in state.players if p.status == "alive"]
        out.append(Order("junta_vote", {"candidate": rng.choice(living)}))
    targets = [s for s in others if coup.get("result") == "junta" or state.players[s].rebel]
    if targets and rng.below(2) == 0:
        out.append(Order("execute", {"target": rng.choice(targets)}))
    return out


def _any_time(state: GameState, seat: int, rng: Rng, others: list[int]) -> list[Order]:
    p = state.players[seat]
    out: list[Order] = []
    if not others:
        return out
    if p.pocket and rng.below(6) == 0:
        out.append(Order("pay", {"to": rng.choice(others), "amount": rng.between(1, p.pocket)}))
    for cid in p.hand:
        c = catalog.card(cid)
        roll = rng.below(4)
        if roll == 0 and (c.category in ("influence", "secret_political_donation",
                                         "intelligence") or c.name in (
                "UN Condemns Torture of Political Prisoners", "Annual Street Festival",
                "Border Incident", "Press Scandal", "Coalition Breaks Up",
                "Student Petition Against Repression", "Demand for Reform", "Amnesty",
                "The President's Competence Questioned", "Foreign Aid Audit",
                "Bank Holiday")):
            args = {"card": cid}
            if c.name == "Amnesty":
                exiles = [x.seat for x in state.players if x.status == "exiled"]
                if not exiles:
                    continue
                args["target"] = rng.choice(exiles)
            else:
                args["target"] = rng.choice(others)
            out.append(Order("play_card", args))
        elif roll == 1 and rng.below(4) == 0:
            to = rng.choice(others)
            out.append(Order("give_card", {"to": to, "card": cid}))
    if p.hand and rng.below(8) == 0:
        partner = rng.choice(others)
        out.append(Order("trade", {"with": partner, "give_cards": [rng.choice(p.hand)],
                                   "get_money": 1}))
    if seat == state.president and rng.below(40) == 0:
        out.append(Order("resign"))
    if catalog.INTERNAL_SECURITY in state.commanded_positions(seat):
        for exile in state.pending_returns:
            out.append(Order("safe_passage", {"seat": exile,
                                              "decision": rng.choice(["grant", "execute"])}))
    return out


def play_phase(state: GameState, rng: Rng):
    """Every seat's bot orders for the current phase (used by tests and the benchmark)."""
    return {seat: bot_orders(state, seat, rng) for seat in range(len(state.players))}
