"""The assassins: who may send which against whom, and where. "Assassins must specify the
assassin to be used, the player to be targeted, and the location at which to target them"; the
Minister of Internal Security commands the Secret Police (`SECRET_POLICE`); the thefts
(`THEFTS`) are assassin cards played as cards, not sent. Read by the order kinds (the
assassination's check, the cards offered) and the phase that carries the attempts out
(phases/locations.py), all above it.
(docs/rules.md §assassinations, §internal-security; docs/rulings.md §ruling-secret-police)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, TypedDict, cast

from . import catalog
from .order import ArgType, As, Order
from .problems import Problem
from .state import GameState
from .words import gettext_noop

SECRET_POLICE = "secret_police"
THEFTS = ("Burglar", "Bank Robber", "Character Assassin")


class AssassinArgs(TypedDict):
    """An attempt (order_kinds/locations.py's `Assassinate`): the assassin sent (a card's
    number, or the Secret Police: `SECRET_POLICE`), the target and the location struck."""
    card: Annotated[int | str, As("Assassin", ArgType.CARD)]
    target: Annotated[int, As("Target", ArgType.SEAT)]
    location: Annotated[str, As("Location", ArgType.LOCATION)]


def attempt_of(order: Order) -> AssassinArgs:
    """An attempt's arguments (not validated: `check_assassination` says what is wrong)."""
    return cast(AssassinArgs, order.args)


def check_assassination(state: GameState, seat: int, args: Mapping[str, object]
                        ) -> list[Problem]:
    """Why this attempt cannot be ordered: about the assassin sent ("card"), the "target"
    or the "location" struck (the Secret Police's Bank rule is about the location).
    (docs/rules.md §internal-security; docs/rulings.md §ruling-secret-police)."""
    errors = []
    a = cast(AssassinArgs, args)
    target, location, card_id = a.get("target"), a.get("location"), a.get("card")
    if not isinstance(target, int) or isinstance(target, bool) or \
            not 0 <= target < len(state.players) or target == seat:
        errors.append(Problem(gettext_noop("Choose another player as the target."), "target"))
    elif not state.players[target].active:
        errors.append(Problem(f"{state.name(target)} is {state.players[target].status}: not in "
                              "reach.", "target"))
    if location not in catalog.LOCATIONS:
        errors.append(Problem(gettext_noop(
            "Name the location to strike: Home, HQ, Bank, Club or Mistress."),
                              "location"))
    if card_id == SECRET_POLICE:
        if catalog.INTERNAL_SECURITY not in state.commanded_positions(seat):
            errors.append(Problem(gettext_noop(
                "Only the Minister of Internal Security commands the Secret "
                                  "Police."), "card"))
        if location == "bank" and state.secret_police_bank_turn == state.turn - 1 \
                and state.turn > 1:
            errors.append(Problem(gettext_noop(
                "The Secret Police may not be sent to the Bank two turns in a "
                                  "row."), "location"))
        return errors
    if card_id not in state.players[seat].hand:
        return errors + [Problem(gettext_noop("That assassin is not in your hand."), "card")]
    c = catalog.card(card_id)
    if c.category != "assassin" and c.name != "Secret Police Overtime" or \
            c.name in ("Burglar", "Bank Robber", "Character Assassin"):
        return errors + [Problem(f"{c.name} is not an assassin.", "card")]
    if c.name == "Foreign Assassin" and (seat == state.president or catalog.INTERNAL_SECURITY
                                         in state.commanded_positions(seat)):
        errors.append(Problem(gettext_noop(
            "The Foreign Assassin cannot be played by the President or the "
                              "Minister of Internal Security."), "card"))
    if c.name == "Monarchist Assassin" and "Monarchists" not in {
            catalog.card(i).name for i in state.players[seat].influence}:
        errors.append(Problem(gettext_noop(
            "The Monarchist Assassin requires Monarchists influence in play."),
                              "card"))
    if c.name == "Secret Police Overtime" and location == "bank" and \
            state.secret_police_bank_turn == state.turn - 1 and state.turn > 1:
        errors.append(Problem(gettext_noop(
            "The Secret Police may not be sent to the Bank two turns in a "
                              "row."), "location"))
    return errors
