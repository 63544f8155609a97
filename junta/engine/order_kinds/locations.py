"""The orders of the Locations phase: a location (or exile), an assassination, banking (also
after lunch, in the Coup Aftermath) and the Rebel-Only move (phases/locations.py carries them
out; the Rebel-Only step's strikes and placements are the coup's kinds, `coup.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..enums import PhaseKind, Step
from ..problems import Problem
from ..state import GameState
from .base import MOVE, Arg, OrderKindSpec, T, amount_of
from .coup import rebel_move_problems

if TYPE_CHECKING:
    from ..orders import Order


class Location(OrderKindSpec):
    """"Every player chooses Home ..., HQ ..., the Bank ..., the Club, or the Mistress";
    or exile (docs/rules.md §location, §exile)."""
    name = "location"
    label = "Choose a location"
    rules = ("location", "exile")
    step = Step.LOCATIONS
    phases = frozenset({PhaseKind.LOCATIONS})
    args = (Arg("place", "Location", T.LOCATION),)
    single = True
    first_that_holds = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        place = order.args.get("place")
        if place not in (*catalog.LOCATIONS, "exile"):
            return [Problem("Choose Home, HQ, Bank, Club, Mistress or exile.", "place")]
        return []

    def describe(self, state: GameState, args: Mapping[str, Any]) -> str:
        place: Any = args.get("place")
        return "Exile" if place == "exile" else \
            f"Location: {catalog.LOCATION_NAMES.get(place, str(place))}"


class Assassinate(OrderKindSpec):
    """"An attempt names the assassin, the target and the location"
    (docs/rules.md §assassinations)."""
    name = "assassinate"
    label = "Attempt an assassination"
    rules = ("assassinations", "ruling-assassination-step", "ruling-assassination-conditions",
             "ruling-secret-police")
    step = Step.ASSASSINATIONS
    phases = frozenset({PhaseKind.LOCATIONS})
    args = (Arg("card", "Assassin", T.CARD), Arg("target", "Target", T.SEAT),
            Arg("location", "Location", T.LOCATION))
    template = "Send {card} against {target} at the {location}"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        # a narrow import: the assassination's rule lives with the phase that carries it out
        from ..phases.locations import check_assassination
        return check_assassination(state, seat, order.args)


class Bank(OrderKindSpec):
    """"Players at the Bank deposit or withdraw, at the banking step"
    (docs/rules.md §banking, §after-lunch)."""
    name = "bank"
    label = "Deposit or withdraw"
    rules = ("banking", "after-lunch", "ruling-dead-do-not-bank", "ruling-after-lunch")
    step = Step.BANKING
    phases = frozenset({PhaseKind.LOCATIONS, PhaseKind.AFTERMATH})
    args = (Arg("action", "Action", T.CHOICE), Arg("amount", "MP", T.AMOUNT))
    single = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        action = order.args.get("action")
        amount = amount_of(order.args.get("amount"))
        errors = []
        if action not in ("deposit", "withdraw"):
            errors.append(Problem("Choose to deposit or to withdraw.", "action"))
        if amount is None or amount < 1:
            errors.append(Problem("Bank a whole number of MP, at least 1.", "amount"))
        elif action == "withdraw" and amount > state.players[seat].bank:
            errors.append(Problem(f"You have {state.players[seat].bank} MP in the Bank; you cannot "
                                  f"withdraw {amount}.", "amount"))
        elif action == "deposit" and amount > state.players[seat].pocket:
            errors.append(Problem(f"You have {state.players[seat].pocket} MP in your pocket; you "
                                  f"cannot deposit {amount}.", "amount"))
        if state.phase == PhaseKind.AFTERMATH and not state.turn_flags.get("bank_after_lunch"):
            errors.append(Problem("Banking in the Coup Aftermath is only for a Bank closed for "
                                  "lunch by a forced budget; the Bank was open in the Locations "
                                  "phase."))
        elif state.phase == PhaseKind.AFTERMATH and state.players[seat].location != "bank":
            errors.append(Problem("Only those who chose the Bank as their location bank after "
                                  "lunch."))
        if state.bank_status == "closed":
            errors.append(Problem("The Bank is closed for the rest of the turn."))
        elif state.bank_status == "closed_for_lunch" and state.phase != PhaseKind.LOCATIONS:
            errors.append(Problem("The Bank is closed for lunch until any coup has resolved."))
        return errors

    def describe(self, state: GameState, args: Mapping[str, Any]) -> str:
        return f"{str(args.get('action', '')).title()} {args.get('amount')} MP"


class RebelMove(OrderKindSpec):
    """A coup starts with "a troop move, a bombardment, a landing" at the Rebel-Only step
    (docs/rules.md §rebel-only)."""
    name = "rebel_move"
    label = "Rebel-Only move"
    rules = ("rebel-only", "ruling-rebel-action")
    step = Step.REBEL_ONLY
    phases = frozenset({PhaseKind.LOCATIONS})
    args = (Arg("from_zone", "From", T.ZONE), Arg("to_zone", "To", T.ZONE))
    template = "Rebel-Only move from {from_zone} to {to_zone}"
    map_form = MOVE
    rebel_action = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if seat == state.president:
            return [Problem("The President cannot take Rebel action.")]
        zones = catalog.zones()
        start, end = order.args.get("from_zone"), order.args.get("to_zone")
        if start not in zones or end not in zones:
            return [Problem("Choose the zones of the move from the map.",
                            "from_zone" if start not in zones else "to_zone")]
        if end not in zones[start].adjacent:
            return [Problem(f"{zones[end].name} is not next to {zones[start].name}.", "to_zone")]
        if not state.commanded_positions(seat):
            return [Problem("You command no units.")]
        return rebel_move_problems(state, seat, start)
