"""A random-bot player: random legal orders for any seat, conditional ones included.

Used by the tests (hundreds of whole campaigns with invariants checked after every phase), by
the benchmark and by the web app's `simulate` command. Bots start coups now and then, move
stacks, strike, bribe, vote Pro-Junta or Pro-President and shoot the losers.

Like boardgame.io's bots, which call the game's own `enumerate`, a bot orders only from the
engine's list of what the seat may order now (`options.legal_options`): for each phase it
decides which options to use and how often (the strategy below), picks the values among
those each option offers (narrowed by the other arguments, `ArgOption.allowed`), a condition
among those offered with the option, and lets `options.build` make the order. What it knows of
the game serves only to choose among the offered values (a landing zone on a control point, a
random legal Cabinet whose holders are all offered), and to keep its orders from spending the
same money, card or unit twice, so that the set passes `validate_orders` as given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import catalog
from .enums import PhaseKind, Status
from .kinds import SINGLES
from .labels import coup_units
from .options import (
    ArgOption,
    ConditionOption,
    Options,
    OrderOption,
    build,
    legal_options,
    own_copies,
)
from .orders import UNIT_CARDS, Order, validate_orders
from .phases.cabinet import random_cabinet
from .phases.locations import SECRET_POLICE, THEFTS
from .rng import Rng
from .state import GameState
from .units import (
    BODYGUARD_ZONES,
    CARD_UNITS,
    CONTROL_POINTS,
    EMBASSIES,
    PLACED_ON_RIVER,
    RIVER_ZONES,
    on_map,
    stack_moves,
)

__all__ = ["Pick", "bot_orders", "bot_picks", "play_phase", "whole_set"]

# Cards a bot plays at any time, now and then (besides Influence, Intelligence and the Secret
# Political Donation).
ANY_TIME_CARDS = frozenset({
    "UN Condemns Torture of Political Prisoners", "Annual Street Festival", "Border Incident",
    "Press Scandal", "Coalition Breaks Up", "Student Petition Against Repression",
    "Demand for Reform", "Amnesty", "The President's Competence Questioned",
    "Foreign Aid Audit", "Bank Holiday",
})
ANY_TIME_CATEGORIES = frozenset({"influence", "secret_political_donation", "intelligence"})
REVOTES = ("Power Failure", "Summer Recess", "Recount")


@dataclass(frozen=True)
class Pick:
    """One order a bot gives: the option it used (its key in `legal_options`), the values it
    chose for the option's arguments, the condition (kind and details) and the order `build`
    made of them."""
    key: str
    values: Mapping[str, Any]
    condition: tuple[str, Mapping[str, Any]] | None
    order: Order


def bot_orders(state: GameState, seat: int, rng: Rng) -> list[Order]:
    """Random orders for `seat` in the current phase, each one legal on its own and the set
    legal together (`whole_set` remains as a safety net)."""
    return whole_set([p.order for p in bot_picks(state, seat, rng)], state, seat)


def bot_picks(state: GameState, seat: int, rng: Rng, options: Options | None = None
              ) -> list[Pick]:
    """The bot's orders for `seat`, each with the option and values it was built from;
    `options` is the seat's `legal_options(state, seat)` when the caller has it already."""
    p = state.players[seat]
    if state.finished or not p.active:
        if p.status == Status.EXILED and not state.finished and rng.below(3) == 0:
            bot = _Bot(state, seat, rng, _or_legal(state, seat, options))
            bot.use(bot.options.get("return_from_exile"), {})
            return bot.picks
        return []
    bot = _Bot(state, seat, rng, _or_legal(state, seat, options))
    bot.play()
    return bot.picks


def whole_set(orders: list[Order], state: GameState, seat: int) -> list[Order]:
    """The orders without those the set refuses (two locations, money spent twice): the
    latest order a set problem names goes, until the engine accepts the rest."""
    kept = list(orders)
    while problems := validate_orders(state, seat, kept):
        named = [i for p in problems for i in p.orders]
        kept.pop(max(named) if named else len(kept) - 1)
    return kept


def play_phase(state: GameState, rng: Rng) -> dict[int, list[Order]]:
    """Every seat's bot orders for the current phase (used by tests and the benchmark)."""
    return {seat: bot_orders(state, seat, rng) for seat in range(len(state.players))}


def _or_legal(state: GameState, seat: int, options: Options | None) -> Options:
    return legal_options(state, seat) if options is None else options


# --- the bot -----------------------------------------------------------------------------------

def _price(order: Order) -> int:
    """What an order takes from the pocket at most (as `order_sets` counts it, before any
    Influence discount)."""
    a = order.args
    if order.kind == "pay":
        return a.get("amount") or 0
    if order.kind == "trade":
        return a.get("give_money") or 0
    if order.kind == "bank":
        return (a.get("amount") or 0) if a.get("action") == "deposit" else 0
    if order.kind == "propose_budget":
        return a.get("from_pocket") or 0
    card = a.get("card")
    if order.kind in ("assassinate", "play_card") and isinstance(card, int):
        name = catalog.card(card).name
        if name.startswith("Bribe the ") and name != "Bribe the Assassin":
            return 1
        if name in UNIT_CARDS:
            return CARD_UNITS[name].cost if name in CARD_UNITS else 0
        return catalog.card(card).cost
    return 0


def _cards_used(order: Order) -> list[int]:
    a = order.args
    if order.kind == "trade":
        return list(a.get("give_cards") or [])
    if order.kind == "vote":
        return list(a.get("cards") or [])
    if order.kind in ("give_card", "play_card", "discard", "assassinate") and \
            isinstance(a.get("card"), int):
        return [a["card"]]
    return []


class _Bot:
    """One seat's choices for one phase, and what its orders so far spend."""

    def __init__(self, state: GameState, seat: int, rng: Rng, options: Options) -> None:
        self.state, self.seat, self.rng, self.options = state, seat, rng, options
        self.picks: list[Pick] = []
        p = state.players[seat]
        self.pocket, self.bank = p.pocket, p.bank  # what the orders so far leave
        self.cards: set[int] = set()  # cards the orders so far use
        self.units: set[int] = set()  # units the orders so far name
        self.singles: set[str] = set()  # kinds of one order a phase given unconditionally
        self.moves = 0  # unconditional stack moves (a coup phase)
        self.others = [s for s in state.active_seats() if s != seat]
        self.place = "home"  # where the bot goes in the Locations phase

    # -- choosing among what an option offers --
    def allowed(self, option: OrderOption, name: str, chosen: Mapping[str, Any] | None = None,
                among: Iterable[Any] | None = None) -> list[Any]:
        """The values the option offers for argument `name` once `chosen` are chosen; only
        those in `among` when given."""
        arg = option.arg(name)
        if arg is None:
            return []
        values = arg.allowed(chosen or {})
        if among is not None:
            wanted = list(among)
            values = [v for v in values if v in wanted]
        return values

    def one(self, option: OrderOption, name: str, chosen: Mapping[str, Any] | None = None,
            among: Iterable[Any] | None = None) -> Any:
        """A random offered value (None when none is offered)."""
        values = self.allowed(option, name, chosen, among)
        return self.rng.choice(values) if values else None

    def number(self, option: OrderOption, name: str, low: int, high: int) -> int | None:
        """A random whole number in [low, high] within the argument's range."""
        arg = option.arg(name)
        if arg is None:
            return None
        low = max(low, arg.minimum if arg.minimum is not None else low)
        high = min(high, arg.maximum if arg.maximum is not None else high)
        return self.rng.between(low, high) if low <= high else None

    def condition(self, option: OrderOption, kind: str, details: Mapping[str, Any]
                  ) -> tuple[str, dict[str, Any]] | None:
        """The condition `kind` with these details, when the option offers it and each detail
        among the values offered for it."""
        offered: ConditionOption | None = option.condition(kind)
        if offered is None:
            return None
        out: dict[str, Any] = {}
        for arg in offered.args:
            value = details.get(arg.name)
            if not _offered(arg, value):
                return None
            out[arg.name] = value
        return kind, out

    def own(self, option: OrderOption, place: str) -> tuple[str, dict[str, Any]] | None:
        """Now and then tie an order to the bot's own location or exile (the only location
        conditions an assassination may have)."""
        roll = self.rng.below(8)
        if roll == 0:
            where = self.rng.choice([*catalog.LOCATIONS, place if place != "exile" else "home"])
            return self.condition(option, "location", {"seat": self.seat, "location": where})
        if roll == 1:
            return self.condition(option, "exiled", {"seat": self.seat})
        return None

    def use(self, option: OrderOption | None, values: Mapping[str, Any],
            condition: tuple[str, Mapping[str, Any]] | None = None) -> Order | None:
        """Give the order `build` makes of this option and these values, unless it would spend
        what the bot's earlier orders already spend (money, a card, a unit, a single order)."""
        if option is None:
            return None
        order = build(self.state, self.seat, option, values, condition)
        price = _price(order)
        withdrawal = (order.args.get("amount") or 0) if order.kind == "bank" and \
            order.args.get("action") == "withdraw" else 0
        cards = _cards_used(order)
        units = list(order.args.get("units") or []) \
            if order.kind in ("transfer", "move", "police_response") else []
        single = order.kind in SINGLES and order.condition is None
        moving = order.kind == "move" and order.condition is None
        if price > self.pocket or withdrawal > self.bank or \
                len(set(cards)) < len(cards) or self.cards & set(cards) or \
                self.units & set(units) or (single and order.kind in self.singles) or \
                (moving and self.moves >= stack_moves(self.state, self.seat)):
            return None
        self.pocket -= price
        self.bank -= withdrawal
        self.cards |= set(cards)
        self.units |= set(units)
        if single:
            self.singles.add(order.kind)
        self.moves += int(moving)
        self.picks.append(Pick(option.key, dict(values), condition, order))
        return order

    def card(self, cid: int) -> tuple[OrderOption, dict[str, Any]] | None:
        """The option that plays this card now (a form of its own or the shared one)."""
        option = self.options.get(f"play_card:{cid}")
        if option is not None:
            return option, {}
        shared = self.options.get("play_card")
        if shared is not None and cid in self.allowed(shared, "card"):
            return shared, {"card": cid}
        return None

    def free(self, cid: int) -> bool:
        return cid not in self.cards

    # -- the phases --
    def play(self) -> None:
        phase = self.state.phase
        if phase == PhaseKind.NOMINATION:
            self.nominations()
        elif phase in (PhaseKind.ELECTION, PhaseKind.SPECIAL_MOTION, PhaseKind.BUDGET_VOTE):
            self.vote()
        elif phase == PhaseKind.CABINET:
            self.cabinet()
        elif phase == PhaseKind.BUDGET_DRAW:
            self.budget_draw()
        elif phase == PhaseKind.BUDGET_PROPOSAL:
            self.proposal()
        elif phase == PhaseKind.INTERNAL_SECURITY:
            option = self.options.get("seize_chamber")
            if option is not None:
                seize = self.rng.below(2) == 0
                if seize in self.allowed(option, "seize"):
                    self.use(option, {"seize": seize})
        elif phase == PhaseKind.LOCATIONS:
            self.locations()
            self.rebellion()
        elif phase in (PhaseKind.COUP, PhaseKind.COUP_FINAL):
            self.coup()
        elif phase == PhaseKind.AFTERMATH:
            self.aftermath()
        self.any_time()

    def nominations(self) -> None:
        if not self.others:
            return
        nominate, second = self.options.get("nominate"), self.options.get("second")
        if nominate is not None and self.rng.below(2) == 0:
            self.use(nominate, {"candidate": self.one(nominate, "candidate")})
        if second is not None and self.rng.below(3) == 0:
            candidate = self.one(second, "candidate", among=self.others)
            if candidate is not None:
                self.use(second, {"candidate": candidate})

    def vote(self) -> None:
        s, rng = self.state, self.rng
        option = self.options.get("vote")
        if option is None:  # no votes in this vote
            return
        if s.phase == PhaseKind.ELECTION:
            choice = self.one(option, "choice", among=[
                v for v in self.allowed(option, "choice") if v != "abstain"])
            if choice is None:
                choice = "abstain"
        else:
            choice = rng.choice(["yes", "yes", "no", "abstain"])
        values: dict[str, Any] = {"choice": choice}
        cards = [c for c in self.allowed(option, "cards") if rng.below(2) == 0]
        if cards:
            values["cards"] = cards
        split = option.arg("split")
        if split is not None and rng.below(10) == 0:
            # a source of votes goes another way: the player's own, or a card he plays
            rows = [k.value for k in split.keys if not str(k.value).startswith("card:")
                    or str(k.value)[5:].isdigit() and int(str(k.value)[5:]) in cards]
            ways = [v for v in split.values() if v != choice]
            if rows and ways:
                values["split"] = {rng.choice(rows): rng.choice(ways)}
        self.use(option, values)
        for cid in s.players[self.seat].hand:
            name = catalog.card(cid).name
            found = self.card(cid)
            if found is None or not self.free(cid):
                continue
            play, args = found
            if name in REVOTES and rng.below(3) == 0 and s.phase in (PhaseKind.BUDGET_VOTE,
                                                                     PhaseKind.ELECTION):
                condition = None
                if s.phase == PhaseKind.BUDGET_VOTE:
                    condition = self.condition(play, "vote_result", {
                        "result": rng.choice(["passes", "fails"]),
                        "margin_at_most": rng.between(1, 8)})
                    if condition is None:
                        continue
                self.use(play, args, condition)
            elif name == "Alternative Budget" and s.phase == PhaseKind.BUDGET_VOTE and \
                    rng.below(2) == 0:
                condition = self.condition(play, "vote_result", {"result": "fails"})
                if condition is not None:
                    self.use(play, args, condition)
            elif name == "Church Desecrated" and rng.below(2) == 0:
                self.use(play, args)

    def cabinet(self) -> None:
        """A random legal Cabinet (the engine's own lot) when every holder it names is offered;
        else the Cabinet the form starts with."""
        option = self.options.get("appoint")
        arg = option.arg("positions") if option is not None else None
        if option is None or arg is None:
            return
        cabinet = random_cabinet(self.state, self.rng)
        holders = arg.values()
        keys = [k.value for k in arg.keys]
        if set(cabinet) != set(keys) or any(h is not None and h not in holders
                                            for h in cabinet.values()):
            cabinet = dict(arg.default or {})
        self.use(option, {"positions": cabinet})

    def budget_draw(self) -> None:
        weapons = self.options.get("new_weapons")
        if weapons is not None:
            arg = weapons.arg("position")
            blank = [None] if arg is not None and arg.blank is not None else []
            self.use(weapons, {"position": self.rng.choice(
                [*blank, *self.allowed(weapons, "position")])})
        draw = self.options.get("draw_bills")
        if draw is not None:
            for position in self.allowed(draw, "position"):
                if self.rng.below(5):
                    self.use(draw, {"position": position, "count": self.number(
                        draw, "count", 1, 6)})

    def proposal(self) -> None:
        """Each bill to a random player, now and then one skimmed; sometimes the bills named,
        sometimes money added from the pocket."""
        rng = self.rng
        option = self.options.get("propose_budget")
        totals = option.arg("allocations") if option is not None else None
        if option is None or totals is None:
            return
        held = sorted(self.state.budget.get("held", []), reverse=True)  # the bills' rows
        rows = list(range(len(held)))
        rng.shuffle(rows)
        seats = [k.value for k in totals.keys]
        allocations: dict[int, int] = {}
        bills: dict[int, int] = {}
        for row in rows:
            if rng.below(4) == 0 or not seats:
                continue  # skimmed
            to = rng.choice(seats)
            allocations[to] = allocations.get(to, 0) + held[row]
            bills[row] = to
        values: dict[str, Any] = {"allocations": allocations}
        bill_arg = option.arg("bills")
        if bill_arg is not None and rng.below(2) == 0 and \
                all(to in bill_arg.values() for to in bills.values()):
            values["bills"] = bills
        if self.pocket and rng.below(4) == 0 and allocations:
            extra = self.number(option, "from_pocket", 1, self.pocket)
            if extra:
                first = min(allocations)
                allocations[first] += extra
                values["from_pocket"] = extra
        self.use(option, values)

    def locations(self) -> None:
        s, rng, seat = self.state, self.rng, self.seat
        p = s.players[seat]
        where = self.options.get("location")
        place = rng.choice([*catalog.LOCATIONS, "bank", "bank", "home"])
        if rng.below(30) == 0 and seat != s.president:
            place = "exile"  # exiles later ask to return, some in time for the next Cabinet
        if where is not None and place in self.allowed(where, "place"):
            self.use(where, {"place": place})
            self.place = place
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
        if not self.others:
            return
        self.assassins(place)
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
            if catalog.WAR in s.commanded_positions(seat):
                stacks.add(BODYGUARD_ZONES.get(self.place))
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

    def coup(self) -> None:
        s, rng, seat = self.state, self.rng, self.seat
        coup = s.coup or {"units": []}
        mine = [u for u in on_map(coup) if u["owner"] == seat]
        move = self.options.get("move")
        if move is not None:
            stacks = list(self.allowed(move, "from_zone"))
            rng.shuffle(stacks)
            for zone in stacks[:stack_moves(s, seat)]:
                if rng.below(3):
                    values: dict[str, Any] = {"from_zone": zone,
                                              "to_zone": self.one(move, "to_zone",
                                                                  {"from_zone": zone})}
                    units = self.allowed(move, "units", values)
                    if len(units) > 1 and rng.below(6) == 0:  # split the stack
                        values["units"] = [u for u in units if rng.below(2)][:len(units) - 1]
                    if values["to_zone"] is not None:
                        self.use(move, values)
        waiting: dict[str, int] = {}
        for u in coup["units"]:
            if u["owner"] == seat and u["zone"] is None:
                waiting[u["kind"]] = waiting.get(u["kind"], 0) + 1
        for kind, count in sorted(waiting.items()):
            land = self.options.get(f"place:{kind}")
            if land is None or rng.below(1 << min(count, 4)) == 0:
                continue
            where = RIVER_ZONES if kind in PLACED_ON_RIVER else CONTROL_POINTS
            zone = self.one(land, "zone", among=where)
            if zone is None:
                zone = self.one(land, "zone")
            if zone is not None:
                self.use(land, {"zone": zone})
        enemies = [u for u in on_map(coup) if u["owner"] is not None and u["owner"] != seat
                   and u["zone"] not in EMBASSIES
                   and s.players[u["owner"]].rebel != s.players[seat].rebel]
        if enemies:
            airstrike = self.options.get("airstrike")
            if airstrike is not None and "air_force" in self.allowed(airstrike, "source") and \
                    rng.below(2) == 0:
                self.strike(airstrike, enemies, {"source": "air_force"})
            gunboat = self.options.get("gunboat")
            if gunboat is not None and rng.below(2) == 0:
                self.strike(gunboat, enemies)
            attack = self.options.get("attack")
            if attack is not None and rng.below(3) == 0:
                self.strike(attack, enemies)
        intervene = self.options.get("intervene")
        if intervene is not None:
            forces = self.allowed(intervene, "forces")
            if forces:
                self.use(intervene, {"forces": [rng.choice(forces)]})
        police = self.options.get("police_response")
        if police is not None:
            self.use(police, {"zone": self.one(police, "zone")})
        transfer = self.options.get("transfer")
        if transfer is not None and mine and self.others and rng.below(12) == 0:
            units = self.allowed(transfer, "units", among=[u["id"] for u in mine])
            units = [u for u in units if u not in self.units]
            to = self.one(transfer, "to", among=self.others)
            if units and to is not None:
                self.use(transfer, {"units": [rng.choice(units)], "to": to,
                                    "after_moves": rng.below(2) == 0})
        flee = self.options.get("flee")
        if flee is not None and mine and rng.below(40) == 0:
            self.use(flee, {})
        for cid in s.players[seat].hand:
            name = catalog.card(cid).name
            found = self.card(cid)
            if found is None or not self.free(cid):
                continue
            play, args = found
            if name in CARD_UNITS and rng.below(3) == 0:
                zone = self.one(play, "zone")
                if zone is not None:
                    self.use(play, {**args, "zone": zone})
            elif name.startswith("Bribe the ") and name != "Bribe the Assassin" and \
                    enemies and rng.below(3) == 0:
                zone = self.one(play, "zone", among=[u["zone"] for u in enemies])
                if zone is None:
                    zone = self.one(play, "zone")
                if zone is not None:
                    self.use(play, {**args, "zone": zone})
        side = self.options.get("coup_side")
        if side is not None:
            choice = "junta" if s.players[seat].rebel and rng.below(5) else "president"
            if rng.below(10) and choice in self.allowed(side, "side"):
                self.use(side, {"side": choice})

    def strike(self, option: OrderOption, enemies: list[dict[str, Any]],
               fixed: Mapping[str, Any] | None = None) -> None:
        """Strike or attack a random enemy unit: its zone and owner, when both are offered."""
        zones, owners = self.allowed(option, "zone"), self.allowed(option, "target")
        targets = [u for u in enemies if u["zone"] in zones and u["owner"] in owners]
        if targets:
            u = self.rng.choice(targets)
            self.use(option, {**(fixed or {}), "zone": u["zone"], "target": u["owner"]})

    def aftermath(self) -> None:
        s, rng = self.state, self.rng
        vote = self.options.get("junta_vote")
        if vote is not None and rng.below(6):
            self.use(vote, {"candidate": self.one(vote, "candidate")})
        execute = self.options.get("execute")
        if execute is not None and rng.below(2) == 0:
            coup = s.coup or {}
            wanted = [x for x in self.others if coup.get("result") == "junta"
                      or s.players[x].rebel]
            target = self.one(execute, "target", among=wanted)
            if target is not None:
                self.use(execute, {"target": target})

    def any_time(self) -> None:
        s, rng, seat = self.state, self.rng, self.seat
        p = s.players[seat]
        if not self.others:
            return
        pay = self.options.get("pay")
        if pay is not None and self.pocket and rng.below(6) == 0:
            to = self.one(pay, "to")
            if to is not None:
                self.use(pay, {"to": to, "amount": self.number(pay, "amount", 1, self.pocket)})
        give = self.options.get("give_card")
        for cid in p.hand:
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
        trade = self.options.get("trade")
        if trade is not None and p.hand and rng.below(8) == 0:
            partner = self.one(trade, "with")
            cards = [c for c in self.allowed(trade, "give_cards")
                     if not self.cards & set(own_copies(s, seat, [c]))]
            if partner is not None and cards:
                self.use(trade, {"with": partner, "give_cards": [rng.choice(cards)],
                                 "get_money": 1})
        resign = self.options.get("resign")
        if resign is not None and rng.below(40) == 0:
            self.use(resign, {})
        passage = self.options.get("safe_passage")
        if passage is not None:
            for exile in self.allowed(passage, "seat"):
                self.use(passage, {"seat": exile, "decision": self.one(passage, "decision")})


def _offered(arg: ArgOption, value: Any) -> bool:
    """Whether a condition's detail (a ONE or a NUMBER) takes this value."""
    if value is None:
        return arg.blank is not None or not arg.required
    if arg.choices:
        return value in arg.values()
    if arg.minimum is not None and value < arg.minimum:
        return False
    return arg.maximum is None or value <= arg.maximum
