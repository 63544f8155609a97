"""A seat's legal options now: every order the player may give in the current phase, each
argument's allowed values, and the conditions allowed with it.

`legal_options(state, seat)` is the one list of what may be ordered. The Orders page builds its
forms from it, the GM gives orders for a player through it, the bots choose among it, the API
lists it. Only choices the engine accepts are offered; what a player might look for and cannot
order now (a card out of its timing, the Bank closed) comes with a note saying why.

`build(state, seat, option, values, condition)` turns the chosen values into the engine's
`Order`; `values_of(state, option, order)` is its inverse, for changing an order in place.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import catalog, steps
from .conditions import CONDITION_KINDS, condition_step
from .enums import PhaseKind, Status, Step
from .kinds import ORDER_KINDS, Kind, generation, offer_steps
from .order import Condition, Order
from .order_kinds.offering import (
    LOCATION_CHOICES,
    ArgOption,
    Builder,
    Choice,
    ConditionOption,
    OrderOption,
    Shape,
    standing_cabinet,
    wanted_cards,
)
from .order_kinds.offering import number as _number
from .order_kinds.offering import one as _one
from .orders import action_step, validate_order
from .problems import Problem
from .state import GameState

__all__ = ["ArgOption", "Choice", "ConditionOption", "OrderOption", "Options",
           "Shape", "build", "condition_detail", "legal_options", "option_for",
           "standing_cabinet", "values_of", "wanted_cards"]


@dataclass(frozen=True)
class Options:
    seat: int
    orders: tuple[OrderOption, ...]
    notes: tuple[str, ...]  # what is not offered now, and why

    def get(self, key: str) -> OrderOption | None:
        return next((o for o in self.orders if o.key == key), None)

    def of_kind(self, kind: str) -> list[OrderOption]:
        return [o for o in self.orders if o.kind == kind]

    @property
    def kinds(self) -> set[str]:
        return {o.kind for o in self.orders}


# --- a seat's options --------------------------------------------------------------------------

@cache
def _steps(phase: str, exiled: bool, generation: int) -> tuple[tuple[Kind, str], ...]:
    """The steps of a phase (`kinds.offer_steps`, under the registry's `generation`): a kind is
    asked for its offers only in the phases it may be given in (it offers nothing in the others,
    not even a note)."""
    return tuple((kind, group) for kind, group in offer_steps(exiled) if phase in kind.phases)


def legal_options(state: GameState, seat: int) -> Options:
    """Every order this player may give now, with the values the engine accepts.
    (docs/rules.md §orders)."""
    b = _Builder(state, seat)
    p = b.p
    if state.finished or (not p.active and p.status != Status.EXILED):
        return Options(seat, (), ())
    for kind, group in _steps(state.phase, p.status == Status.EXILED, generation()):
        kind.offers(b, group)
    return Options(seat, tuple(b.out), tuple(b.notes))


class _Builder(Builder):
    """The builder the kinds' offers add to: each option with the conditions it may wait for
    (`condition_options`), a trial order checked as the engine checks orders."""

    def __init__(self, state: GameState, seat: int) -> None:
        super().__init__(state, seat)
        self._details: dict[str, ArgOption] | None = None  # the state's condition details
        # by the step an order acts at
        self._conditions: dict[str, tuple[tuple[ConditionOption, ...], tuple[str, ...]]] = {}

    def add(self, kind: str, help_text: str, args: Iterable[ArgOption] = (), key: str = "",
            label: str = "", fixed: Mapping[str, Any] | None = None) -> None:
        if self.s.phase not in ORDER_KINDS[kind].phases:
            return
        act = action_step(Order(kind, dict(fixed or {})), self.s.phase)
        cached = self._conditions.get(act)
        if cached is None:
            if self._details is None:
                self._details = _condition_details(self.s)
            cached = condition_options(self.s, kind, fixed, self.seat, self._details)
            self._conditions[act] = cached
        offered, refused = cached
        self.out.append(OrderOption(key or kind, kind, label or ORDER_KINDS[kind].label,
                                    help_text, tuple(args), dict(fixed or {}), offered,
                                    refused, likely=ORDER_KINDS[kind].likely))

    def refusals(self, kind: str, args: dict[str, Any]) -> list[Problem]:
        return validate_order(self.s, self.seat, Order(kind, args))


# --- conditions --------------------------------------------------------------------------------

def condition_options(state: GameState, kind: str, fixed: Mapping[str, Any] | None = None,
                      seat: int | None = None, details: dict[str, ArgOption] | None = None
                      ) -> tuple[tuple[ConditionOption, ...], tuple[str, ...]]:
    """The conditions an order of `kind` given by `seat` may wait for (settled at an earlier
    step than its own), each with its details; and why the others are not offered. An
    assassination-step order may wait only for the player's own location or exile
    (docs/rulings.md §ruling-assassination-conditions: "Locations are designated and Assassins
    are dispatched" is one step). `details`: the
    state's condition details, when the caller has them."""
    phase = state.phase
    act = action_step(Order(kind, dict(fixed or {})), phase)
    details = dict(details or _condition_details(state))
    cards = _cards_in_time(phase, act)
    details["card"] = _card_detail(phase, act)
    own = details
    if act == Step.ASSASSINATIONS and seat is not None:
        own = {**details, "seat": _one("seat", "Player", [(seat, state.name(seat))])}
    offered: list[ConditionOption] = []
    refused: list[str] = []
    for cond, step in _condition_steps(phase):
        if cond == "card_played" and not cards:
            continue
        label = condition_label(cond)
        if _before(phase, step, act):
            names = own if cond in ("location", "exiled") else details
            offered.append(ConditionOption(cond, label, tuple(
                names[name] for name in condition_detail(cond))))
        else:
            refused.append(f"\u201c{label}\u201d is settled at {steps.describe(phase, step)}, "
                           f"not before this order ({steps.describe(phase, act)}).")
    if act == Step.ASSASSINATIONS and any(c.kind in ("location", "exiled") for c in offered):
        refused.append("\u201ca player is at a location\u201d and \u201ca player goes into "
                       "exile\u201d may only name you: assassins are dispatched as locations "
                       "are chosen, so an assassination-time order cannot wait for another "
                       "player's.")
    return tuple(offered), tuple(refused)


def _before(phase: str, step: str, act: str) -> bool:
    """Whether a condition settled at `step` may govern an order acting at `act` (the rule of
    `orders.validate_condition`)."""
    cond_index, act_index = steps.index(phase, step), steps.index(phase, act)
    return cond_index >= 0 and (cond_index < act_index or (
        act == Step.ANY_TIME and cond_index > act_index))


@cache
def _condition_steps(phase: str) -> tuple[tuple[str, str], ...]:
    """The kinds of condition that exist in a phase, with the step that settles each."""
    out = []
    for cond, (_, phases, _template) in CONDITION_KINDS.items():
        step = condition_step(Condition(cond, {}), phase)
        if phase in phases and steps.index(phase, step) >= 0:
            out.append((cond, step))
    return tuple(out)


@cache
def _card_detail(phase: str, act: str) -> ArgOption:
    return _one("card", "Card", [(n, n) for n in _cards_in_time(phase, act)])


@cache
def _fixed_details() -> dict[str, ArgOption]:
    """The condition details that do not depend on the state."""
    return {
        "location": _one("location", "Location", LOCATION_CHOICES),
        "result": _one("result", "Result", [("passes", "passes"), ("fails", "fails")],
                       blank="either way", required=False),
        "margin_at_most": _number("margin_at_most", "By at most (votes)", 0, 999,
                                  required=False, help="Leave empty for any margin."),
        "card": _one("card", "Card", list(_card_names())),
        "position": _one("position", "Position", [(k, catalog.TITLES[k])
                                                  for k in catalog.CABINET]),
    }


@cache
def _cards_in_time(phase: str, act: str) -> tuple[str, ...]:
    """The cards whose play is settled before an order acting at `act`: a card played is
    settled at the card's own step."""
    return tuple(n for n, _ in _card_names() if _before(
        phase, condition_step(Condition("card_played", {"card": n}), phase), act))


def condition_label(kind: str) -> str:
    return CONDITION_KINDS[kind][2].format(seat="a player", choice="a way",
                                           location="a location", card="a card",
                                           position="a position", result="ends")


def condition_detail(kind: str) -> tuple[str, ...]:
    """The details a kind of condition names: ("seat", "location") for "location"."""
    if kind not in CONDITION_KINDS:
        return ()
    names = [n for _, n, _, _ in string.Formatter().parse(CONDITION_KINDS[kind][2]) if n]
    if kind == "vote_result":
        names.append("margin_at_most")
    return tuple(names)


@cache
def _card_names() -> tuple[tuple[str, str], ...]:
    return tuple((n, n) for n in sorted({c.name for c in catalog.cards()}))


def _condition_details(state: GameState) -> dict[str, ArgOption]:
    people = [(p.seat, p.name) for p in state.players if p.status != Status.DEAD]
    if state.phase == PhaseKind.ELECTION:
        cands = (state.election and state.election["candidates"]) or state.active_seats()
        votes: list[tuple[Any, str]] = [(c, f"for {state.name(c)}") for c in cands]
    else:
        votes = [("yes", "yes"), ("no", "no")]
    votes.append(("abstain", "abstains"))
    return {**_fixed_details(), "seat": _one("seat", "Player", people),
            "choice": _one("choice", "Vote", votes)}


# --- from chosen values to an order, and back -------------------------------------------------

def build(state: GameState, seat: int, option: OrderOption, values: Mapping[str, Any],
          condition: tuple[str, Mapping[str, Any]] | None = None) -> Order:
    """The engine's order for an option with these values (as its arguments describe them:
    a TABLE as a dict by key, a RANKING as a list); a blank value leaves the argument out.
    `condition` is (kind, details). The engine validates the result."""
    args: dict[str, Any] = dict(option.fixed)
    for a in option.args:
        value = values.get(a.name)
        if a.shape is Shape.TABLE:
            rows = {k: v for k, v in (value or {}).items() if v not in (None, "")}
            if rows:
                args[a.name] = rows
        elif a.shape is Shape.RANKING:
            args[a.name] = [v for v in value or [] if v not in (None, "")]
        elif a.shape is Shape.SOME:
            if value or a.required:
                args[a.name] = list(value or [])
        elif a.shape is Shape.NUMBER:
            if value is not None:
                args[a.name] = value
        elif value is not None or a.blank is not None:
            args[a.name] = value
    # the kind reads some arguments its own way (the Cabinet's every position, the budget's
    # bills by row, the cards of a trade)
    args = ORDER_KINDS[option.kind].from_form(state, seat, option, values, args)
    cond = None
    if condition is not None:
        kind, details = condition
        cond = Condition(kind, {k: v for k, v in details.items()
                                if k in condition_detail(kind) and v not in (None, "")})
    return Order(option.kind, args, cond)


def values_of(state: GameState, option: OrderOption, order: Order) -> dict[str, Any]:
    """The values an option's form starts with to change `order` in place (the inverse of
    `build`)."""
    out = option.defaults()
    for arg in option.args:
        value = order.args.get(arg.name)
        if value is not None:
            out[arg.name] = value
    ORDER_KINDS[option.kind].to_form(state, order, out)
    return out


def option_for(options: Options, order: Order) -> OrderOption | None:
    """The option an existing order was given through (to change it in place): the one of its
    kind whose fixed arguments it has and whose lists offer its values; the most specific when
    several do (a card with a form of its own, rather than the form shared by other cards)."""
    def offers(option: OrderOption) -> bool:
        if any(order.args.get(k) != v for k, v in option.fixed.items()):
            return False
        for arg in option.args:
            value = order.args.get(arg.name)
            if arg.shape is Shape.ONE and arg.depends_on is None and value is not None \
                    and arg.choices and value not in arg.values():
                return False
        return True

    matching = [o for o in options.of_kind(order.kind) if offers(o)]
    return max(matching, key=lambda o: len(o.fixed), default=None)
