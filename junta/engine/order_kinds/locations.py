"""The orders of the Locations phase: a location (or exile), an assassination, banking (also
after lunch, in the Coup Aftermath) and the Rebel-Only move (phases/locations.py carries them
out; the Rebel-Only step's strikes and placements are the coup's kinds, `coup.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from .. import catalog
from ..assassins import SECRET_POLICE, THEFTS, AssassinArgs, check_assassination
from ..enums import PhaseKind, Step
from ..labels import moves_reason, zone_name
from ..order import As, Order
from ..problems import Problem
from ..state import GameState
from ..units import BODYGUARD_ZONES
from ..words import gettext_noop
from .anytime import card_price
from .base import MOVE, NOTHING, OrderKindSpec, Share, T, amount_of, card_uses, positive, who
from .coup import rebel_move_problems
from .offering import LOCATION_CHOICES, REBEL_WARNING, move_args, number, one, stacks_by_zone

if TYPE_CHECKING:
    from .offering import Builder


class PlaceArgs(TypedDict):
    place: Annotated[str, As("Location", T.LOCATION)]  # a location, or "exile"


class BankArgs(TypedDict):
    action: Annotated[str, As("Action", T.CHOICE)]  # "deposit" or "withdraw"
    amount: Annotated[int, As("MP", T.AMOUNT)]


class RouteArgs(TypedDict):
    from_zone: Annotated[int, As("From", T.ZONE)]
    to_zone: Annotated[int, As("To", T.ZONE)]


class Location(OrderKindSpec[PlaceArgs]):
    """"Every player chooses Home ..., HQ ..., the Bank ..., the Club, or the Mistress";
    or exile (docs/rules.md §location, §exile)."""
    name = "location"
    label = "Choose a location"
    rules = ("location", "exile")
    step = Step.LOCATIONS
    phases = frozenset({PhaseKind.LOCATIONS})
    single = True
    first_that_holds = True
    likely = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        place = self.of(order).get("place")
        if place not in (*catalog.LOCATIONS, "exile"):
            return [Problem(gettext_noop(
                "Choose Home, HQ, Bank, Club, Mistress or exile."), "place")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        place = self.read(args).get("place")
        return "Exile" if place == "exile" else \
            f"Location: {catalog.LOCATION_NAMES.get(str(place), str(place))}"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase == PhaseKind.LOCATIONS:
            b.add("location", "Where you spend the day.",
                  [one("place", "Location", [*LOCATION_CHOICES, ("exile", "Exile")])])


class Assassinate(OrderKindSpec[AssassinArgs]):
    """"An attempt names the assassin, the target and the location"
    (docs/rules.md §assassinations)."""
    name = "assassinate"
    label = "Attempt an assassination"
    rules = ("assassinations", "ruling-assassination-step", "ruling-assassination-conditions",
             "ruling-secret-police")
    attempt_on_life = True
    step = Step.ASSASSINATIONS
    phases = frozenset({PhaseKind.LOCATIONS})
    template = "Send {card} against {target} at the {location}"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        return check_assassination(state, seat, order.args)

    def once(self, order: Order) -> tuple[str, str] | None:
        """The Secret Police make one attempt a turn (docs/rulings.md §ruling-secret-police)."""
        if self.of(order).get("card") == SECRET_POLICE:
            return "secret_police", ("The Secret Police make one attempt a turn: give them one "
                                     "unconditional order.")
        return None

    def share(self, state: GameState, order: Order) -> Share:
        a = self.of(order)
        uses = card_uses([a.get("card")], f"sending it against {who(state, a.get('target'))}")
        if not uses:
            return NOTHING
        card = uses[0][0]
        cost = card_price(card)
        name = catalog.card(card).name
        return Share(pocket=cost, pocket_words=f"the {cost} MP price of {name}",
                     discounted=True, cards=uses)

    def offers(self, b: Builder, group: str = "") -> None:
        """The assassins the engine would send now: the Secret Police for the Minister,
        assassin cards and Secret Police Overtime from the hand."""
        s, seat = b.s, b.seat
        others = b.others
        if s.phase != PhaseKind.LOCATIONS or not others:
            return
        trial = {"target": others[0][0], "location": "home"}
        candidates: list[tuple[Any, str]] = b.hand(
            lambda c: (c.category == "assassin" and c.name not in THEFTS)
            or c.name == "Secret Police Overtime")
        if catalog.INTERNAL_SECURITY in b.commands:
            candidates.insert(0, (SECRET_POLICE, "the Secret Police"))
        assassins = []
        for value, name in candidates:
            refused = check_assassination(s, seat, {**trial, "card": value})
            if refused:
                b.notes.append(f"{name}: {refused[0]}")
            else:
                assassins.append((value, name))
        if not assassins:
            return
        police_bank = s.secret_police_bank_turn == s.turn - 1 and s.turn > 1
        where = {value: tuple(loc for loc in catalog.LOCATIONS
                              if not check_assassination(s, seat, {**trial, "card": value,
                                                                   "location": loc}))
                 for value, _ in assassins}
        b.add("assassinate", "Name the assassin, the target and the location to strike." + (
            " The Secret Police (and Secret Police Overtime) went to the Bank last turn: they "
            "may not go there again this turn." if police_bank else ""),
            [one("card", "Assassin", assassins), one("target", "Target", others),
             one("location", "Location", LOCATION_CHOICES, depends_on="card",
                 choices_for=where)])


class Bank(OrderKindSpec[BankArgs]):
    """"Players at the Bank deposit or withdraw, at the banking step"
    (docs/rules.md §banking, §after-lunch)."""
    name = "bank"
    label = "Deposit or withdraw"
    rules = ("banking", "after-lunch", "ruling-dead-do-not-bank", "ruling-after-lunch")
    step = Step.BANKING
    phases = frozenset({PhaseKind.LOCATIONS, PhaseKind.AFTERMATH})
    single = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        a = self.of(order)
        action = a.get("action")
        amount = amount_of(a.get("amount"))
        errors = []
        if action not in ("deposit", "withdraw"):
            errors.append(Problem(gettext_noop("Choose to deposit or to withdraw."), "action"))
        if amount is None or amount < 1:
            errors.append(Problem(gettext_noop("Bank a whole number of MP, at least 1."), "amount"))
        elif action == "withdraw" and amount > state.players[seat].bank:
            errors.append(Problem(f"You have {state.players[seat].bank} MP in the Bank; you cannot "
                                  f"withdraw {amount}.", "amount"))
        elif action == "deposit" and amount > state.players[seat].pocket:
            errors.append(Problem(f"You have {state.players[seat].pocket} MP in your pocket; you "
                                  f"cannot deposit {amount}.", "amount"))
        if state.phase == PhaseKind.AFTERMATH and not state.turn_flags.get("bank_after_lunch"):
            errors.append(Problem(gettext_noop(
                "Banking in the Coup Aftermath is only for a Bank closed for "
                                  "lunch by a forced budget; the Bank was open in the Locations "
                                  "phase.")))
        elif state.phase == PhaseKind.AFTERMATH and state.players[seat].location != "bank":
            errors.append(Problem(gettext_noop(
                "Only those who chose the Bank as their location bank after "
                                  "lunch.")))
        if state.bank_status == "closed":
            errors.append(Problem(gettext_noop("The Bank is closed for the rest of the turn.")))
        elif state.bank_status == "closed_for_lunch" and state.phase != PhaseKind.LOCATIONS:
            errors.append(Problem(gettext_noop(
                "The Bank is closed for lunch until any coup has resolved.")))
        return errors

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        a = self.read(args)
        return f"{str(a.get('action', '')).title()} {a.get('amount')} MP"

    def share(self, state: GameState, order: Order) -> Share:
        a = self.of(order)
        amount, action = positive(a.get("amount")), a.get("action")
        if action == "deposit":
            return Share(pocket=amount, pocket_words=f"your deposit of {amount} MP")
        if action == "withdraw":
            return Share(bank=amount, bank_words=f"your withdrawal of {amount} MP")
        return NOTHING

    def offers(self, b: Builder, group: str = "") -> None:
        """In the Locations phase; in the Coup Aftermath, at the Bank when it reopens after
        lunch."""
        s, p = b.s, b.p
        after_lunch = s.phase == PhaseKind.AFTERMATH
        if not (s.phase == PhaseKind.LOCATIONS or (
                after_lunch and p.location == "bank" and s.turn_flags.get("bank_after_lunch"))):
            return
        closed = b.refusals("bank", {"action": "deposit", "amount": 1})
        closed = [m for m in closed if m.arg != "amount"]  # an empty pocket closes no Bank
        if closed:
            b.notes.append(f"Banking: {closed[0]}")
            return
        note = ("The Bank reopens after lunch: it is carried out after the post-coup "
                "execution, if you survive it." if after_lunch else
                "Only from the Bank location, and only when the Bank is open.")
        for action, have, where in (("deposit", p.pocket, "pocket"),
                                    ("withdraw", p.bank, "Bank account")):
            verb = "Deposit money in the Bank" if action == "deposit" else \
                "Withdraw money from the Bank"
            if have < 1:
                b.notes.append(f"{verb}: your {where} is empty.")
                continue
            b.add("bank", f"{note} You have {p.pocket} MP in your pocket and {p.bank} MP "
                  "in the Bank.", [number("amount", "MP", 1, have)], key=f"bank:{action}",
                  label=verb, fixed={"action": action})


class RebelMove(OrderKindSpec[RouteArgs]):
    """A coup starts with "a troop move, a bombardment, a landing" at the Rebel-Only step
    (docs/rules.md §rebel-only)."""
    name = "rebel_move"
    label = "Rebel-Only move"
    rules = ("rebel-only", "ruling-rebel-action")
    step = Step.REBEL_ONLY
    phases = frozenset({PhaseKind.LOCATIONS})
    template = "Rebel-Only move from {from_zone} to {to_zone}"
    map_form = MOVE
    rebel_action = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if seat == state.president:
            return [Problem(gettext_noop("The President cannot take Rebel action."))]
        zones = catalog.zones()
        a = self.of(order)
        start, end = a.get("from_zone"), a.get("to_zone")
        if start not in zones or end not in zones:
            return [Problem(gettext_noop("Choose the zones of the move from the map."),
                            "from_zone" if start not in zones else "to_zone")]
        if end not in zones[start].adjacent:
            return [Problem(f"{zones[end].name} is not next to {zones[start].name}.", "to_zone")]
        if not state.commanded_positions(seat):
            return [Problem(gettext_noop("You command no units."))]
        return rebel_move_problems(state, seat, start)

    def offers(self, b: Builder, group: str = "") -> None:
        """"Players wishing to initiate a Coup must order a movement of troops, or a
        bombardment of some kind during this phase" (with a Coup Excuse, or from HQ); it makes
        them Rebels."""
        s, seat = b.s, b.seat
        if not b.rebel_step:
            return
        mine = [u for u in b.units if u["owner"] == seat and u["kind"] != "Bodyguard"]
        extra: list[tuple[int, str]] = []
        if catalog.WAR in b.commands:  # the Bodyguard starts by the Minister's location
            extra = [(z, f"{zone_name(z)}: your Bodyguard, if you are at "
                         f"{catalog.LOCATION_NAMES[loc]}")
                     for loc, z in BODYGUARD_ZONES.items() if loc in catalog.LOCATION_NAMES]
        stacks = stacks_by_zone(mine)
        if stacks or extra:
            args, reach = move_args(stacks, extra)
            b.add("rebel_move", f"Move a stack from where it starts to a zone next to it; "
                  f"you may move {moves_reason(s, seat)}. {reach}{REBEL_WARNING}", args)
