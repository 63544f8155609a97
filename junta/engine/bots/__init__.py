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

The package mirrors the order kinds' modules (`order_kinds/`): `core` holds the bot's shared
state and helpers; `anytime`, `nominations`, `votes`, `turn`, `locations`, `coup` and
`aftermath` each a class of the bot's choices in its phases (`PLAYS`, by phase) and what an
order of each of its kinds spends (`SPENDS`, by kind name). The bots import the kinds and the
options, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..enums import PhaseKind, Status
from ..options import ArgOption, Options, Shape, build, legal_options
from ..order import Order
from ..orders import validate_orders
from ..rng import Rng
from ..state import GameState
from . import aftermath, anytime, coup, locations, nominations, turn, votes
from .aftermath import AftermathBot
from .anytime import AnytimeBot
from .core import Pick, Spends
from .coup import CoupBot
from .locations import LocationsBot
from .nominations import NominationsBot
from .turn import TurnBot
from .votes import VotesBot

__all__ = ["BOT_STYLES", "Pick", "bot_orders", "bot_picks", "play_phase", "whole_set"]


class _Bot(NominationsBot, VotesBot, TurnBot, LocationsBot, CoupBot, AftermathBot, AnytimeBot):
    """One seat's choices for one phase: those of the phase, then those of any time."""
    spends: ClassVar[Spends] = {**anytime.SPENDS, **votes.SPENDS, **turn.SPENDS, **locations.SPENDS,
                      **coup.SPENDS}

    def play(self) -> None:
        for choose in PLAYS.get(self.state.phase, ()):
            getattr(self, choose.__name__)()  # by name: a style's own choice, if it has one
        self.any_time()


class _CautiousBot(_Bot):
    """The cautious bot: it keeps its money in the Swiss bank. In the Locations phase it goes
    to the bank whenever it may and deposits all it has in hand; it pays nobody, sends no
    assassin, plays and trades no card, starts no coup. Elsewhere it plays as the others."""

    def go(self) -> str:
        where = self.options.get("location")
        if where is not None and "bank" in self.allowed(where, "place"):
            self.use(where, {"place": "bank"})
            self.place = "bank"
            return "bank"
        return super().go()

    def banking(self, place: str) -> None:
        deposit = self.options.get("bank:deposit")
        if deposit is None or not self.pocket:
            return
        amount = self.number(deposit, "amount", self.pocket, self.pocket) or \
            self.number(deposit, "amount", 1, self.pocket)
        if amount:
            condition = None if place == "bank" else self.condition(
                deposit, "location", {"seat": self.seat, "location": "bank"})
            self.use(deposit, {"amount": amount}, condition)

    def payments(self, place: str) -> None:
        return

    def assassins(self, place: str) -> None:
        return

    def rebellion(self) -> None:
        return

    def any_time(self) -> None:
        return


class _RandomBot(_Bot):
    """The random bot: no strategy at all. Each option the engine offers it now is used or
    not at the toss of a coin, each of its arguments a random value among those offered (a
    number in its range; a table, a list or a ranking as the form starts it); an order the
    engine would refuse on its own is left out, as the set's conflicts are (`whole_set`)."""

    def play(self) -> None:
        for option in self.options.orders:
            if self.rng.below(2):
                continue
            values: dict[str, Any] = {}
            for arg in option.args:
                if arg.name in option.fixed:
                    continue
                values[arg.name] = self._value(arg, values)
            try:
                order = build(self.state, self.seat, option, values)
            except (KeyError, TypeError, ValueError):
                continue
            if not validate_orders(self.state, self.seat, [order]):
                self.use(option, values)

    def _value(self, arg: ArgOption, chosen: Mapping[str, Any]) -> Any:
        if arg.shape is Shape.ONE:
            allowed = arg.allowed(chosen)
            return self.rng.choice(allowed) if allowed else arg.start(chosen)
        if arg.shape is Shape.NUMBER and arg.minimum is not None and arg.maximum is not None \
                and arg.minimum <= arg.maximum:
            return self.rng.between(arg.minimum, arg.maximum)
        return arg.start(chosen)


# The bots' styles (`bot_orders`' `style`): the random one, the current bots, the cautious one.
BOT_STYLES: Mapping[str, type[_Bot]] = {"random": _RandomBot, "current": _Bot,
                                        "cautious": _CautiousBot}


PLAYS: Mapping[PhaseKind, tuple[Callable[[_Bot], None], ...]] = {
    **nominations.PLAYS, **votes.PLAYS, **turn.PLAYS, **locations.PLAYS, **coup.PLAYS,
    **aftermath.PLAYS,
}


def bot_orders(state: GameState, seat: int, rng: Rng, style: str = "current") -> list[Order]:
    """Random orders for `seat` in the current phase, each one legal on its own and the set
    legal together (`whole_set` remains as a safety net); `style` one of `BOT_STYLES`."""
    return whole_set([p.order for p in bot_picks(state, seat, rng, style=style)], state, seat)


def bot_picks(state: GameState, seat: int, rng: Rng, options: Options | None = None,
              style: str = "current") -> list[Pick]:
    """The bot's orders for `seat`, each with the option and values it was built from;
    `options` is the seat's `legal_options(state, seat)` when the caller has it already."""
    p = state.players[seat]
    if state.finished or not p.active:
        if p.status == Status.EXILED and not state.finished and rng.below(3) == 0:
            bot = _Bot(state, seat, rng, _or_legal(state, seat, options))
            bot.return_from_exile()
            return bot.picks
        return []
    bot = BOT_STYLES[style](state, seat, rng, _or_legal(state, seat, options))
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
