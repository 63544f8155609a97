"""An order read from its JSON form, and its validation.

An order is `Order(kind, args, condition)` (order.py; its condition's kinds in conditions.py).
The registry of kinds (`kinds.ORDER_KINDS`) says,
for each kind, the phases it may be given in, the adjudication step it acts at (see
`steps.py`), its arguments and its check (`OrderKindSpec.check`, in `order_kinds/`).
Validation returns precise messages ("Carlos already holds two positions"), each a `Problem`
saying which argument it is about; an empty list means the order is legal now. Money and cards
are checked again when the order resolves: a payment the payer cannot cover then fails and
says so to both sides; nothing accepted is cut down (docs/rulings.md
§ruling-no-silent-orders).
"""

from __future__ import annotations

from typing import Any

from . import catalog, steps
from .card_steps import UNIT_CARDS
from .conditions import CONDITION_KINDS, condition_step, describe_condition, details
from .enums import Status, Step
from .kinds import ORDER_KINDS, ArgType
from .order import Condition, Order
from .order_kinds.base import seat_of
from .order_sets import check_set
from .problems import Problem, keyed
from .state import BIL, GameState
from .words import gettext_noop


class OrderError(ValueError):
    """An order that cannot even be read (unknown kind, malformed fields); `arg` names the field
    it is about ("kind", "amount", "condition", "condition.seat"), None for the whole order."""

    def __init__(self, message: str, arg: str | None = None) -> None:
        super().__init__(message)
        self.arg = arg


# What each argument type is read from in JSON (None, or leaving it out, gives no value): a
# whole number, true or false, or a word (a number or a text: a card is named by either), alone,
# in a list, or in an object with a row for each key.
_WHOLE, _FLAG, _WORD = "a whole number", "true or false", "a whole number or a text"
_SHAPES: dict[ArgType, tuple[str, str]] = {
    ArgType.SEAT: ("one", _WHOLE), ArgType.ZONE: ("one", _WHOLE),
    ArgType.AMOUNT: ("one", _WHOLE), ArgType.FLAG: ("one", _FLAG),
    ArgType.CARD: ("one", _WORD), ArgType.BALLOT: ("one", _WORD),
    ArgType.LOCATION: ("one", _WORD), ArgType.POSITION: ("one", _WORD),
    ArgType.UNIT_KIND: ("one", _WORD), ArgType.CHOICE: ("one", _WORD),
    ArgType.CARDS: ("list", _WHOLE), ArgType.UNITS: ("list", _WHOLE),
    ArgType.CARD_NAMES: ("list", _WORD), ArgType.UNIT_KINDS: ("list", _WORD),
    ArgType.FORCES: ("list", _WORD), ArgType.TABLE: ("table", _WORD),
}


def _is(what: str, value: Any) -> bool:
    if what == _FLAG or isinstance(value, bool):
        return what == _FLAG and isinstance(value, bool)
    return isinstance(value, int) or (isinstance(value, str) and what == _WORD)


def _fits(shape: str, what: str, value: Any) -> bool:
    """Whether `value` has the JSON shape an argument type is read from."""
    if shape == "one":
        return _is(what, value)
    if shape == "list":
        return isinstance(value, list) and all(_is(what, v) for v in value)
    return isinstance(value, dict) and all(  # a table: each row a value, a list of them or none
        isinstance(k, str) and (v is None or _is(what, v) or (
            isinstance(v, list) and all(_is(what, x) for x in v))) for k, v in value.items())


def _shape_of(shape: str, what: str) -> str:
    return {"one": what, "list": f"a list, each {what}",
            "table": f"an object with, for each row, {what} or a list of them"}[shape]


def _check_types(kind: str, args: dict[str, Any], condition: dict[str, Any]) -> None:
    """Refuse, with the field, a value of a JSON type the engine never reads (a list for a
    seat, an object for a zone, a number for a list of cards)."""
    spec = ORDER_KINDS[kind]
    for name, value in args.items():
        arg = spec.arg(name)
        if arg is None or value is None:
            continue
        shape, what = _SHAPES[arg.type]
        if not _fits(shape, what, value):
            raise OrderError(f"{arg.label}: give {_shape_of(shape, what)}.", name)
    for name, value in condition.items():
        if value is not None and not _is(_WORD, value) and not isinstance(value, bool):
            raise OrderError(f"The condition's {name!r}: give a whole number, a text or true "
                             "or false.", f"condition.{name}")


def parse_order(data: dict[str, Any]) -> Order:
    """Read an order from its JSON form: {"kind": ..., fields..., "condition": {...}}. A field
    of a JSON type the engine never reads is refused here (`OrderError`, with the field)."""
    if not isinstance(data, dict) or "kind" not in data:
        raise OrderError("An order needs a kind.", "kind")
    data = dict(data)
    kind = data.pop("kind")
    if not isinstance(kind, str) or kind not in ORDER_KINDS:
        raise OrderError(f"There is no order of kind {kind!r}.", "kind")
    raw_condition = data.pop("condition", None)
    condition = None
    if raw_condition:
        if not isinstance(raw_condition, dict) or not isinstance(
                raw_condition.get("kind"), str) or raw_condition["kind"] not in CONDITION_KINDS:
            raise OrderError("The condition of this order is not one the engine knows.",
                             "condition")
        raw_condition = dict(raw_condition)
        condition = Condition(raw_condition.pop("kind"), raw_condition)
    _check_types(kind, data, condition.args if condition else {})
    return Order(kind, data, condition)


def parse_orders(items: list[dict[str, Any]]) -> list[Order]:
    return [parse_order(item) for item in items]


# --- the step an order acts at (a card's: card_steps.py; a condition's: conditions.py) --------

def action_step(order: Order, phase: str | None = None) -> Step:
    """The step of `phase`'s adjudication at which this order acts (its kind's `step_of`)."""
    return ORDER_KINDS[order.kind].step_of(order, phase)


def played_card(order: Order) -> int | None:
    """The political card an order plays (a card given, discarded or sent as an assassin is
    not played), None for another order."""
    card = order.args.get("card")
    if type(card) is not int:  # most orders name no card (and True is no card number)
        return None
    spec = ORDER_KINDS.get(order.kind)
    if spec is not None and spec.plays_card and 0 <= card < len(catalog.cards()):
        return card
    return None


def is_rebel_action(order: Order) -> bool:
    """Whether an order is Rebel action at the Rebel-Only step: a troop move, a strike, a
    landing (its kind's `rebel_action`), or a card that puts units on the map or bribes them;
    the first to give it is the First Rebel (docs/rules.md §rebel-only, §first-rebel;
    docs/rulings.md §ruling-rebel-action)."""
    spec = ORDER_KINDS.get(order.kind)
    card = played_card(order)
    return spec is not None and spec.rebel_action or card is not None and \
        catalog.card(card).name in UNIT_CARDS


# --- validation ------------------------------------------------------------------------------

def validate_condition(state: GameState, order: Order, seat: int | None = None
                       ) -> list[Problem]:
    """Why this order's condition cannot be used; `seat` is the player giving the order. Each
    message is about "condition" (the condition as a whole) or "condition.<detail>"."""
    c = order.condition
    if c is None:
        return []
    phase = state.phase
    _, phases, _ = CONDITION_KINDS[c.kind]
    kind_step = condition_step(c, phase)
    if phase not in phases or steps.index(phase, kind_step) < 0:
        return [Problem(f"The condition \u201c{describe_condition(state, c)}\u201d cannot arise "
                        f"in the {steps.PHASE_TITLES.get(phase, phase)} phase.", "condition")]
    errors = []
    a = details(c)
    needs_seat = "{seat}" in CONDITION_KINDS[c.kind][2]
    if (needs_seat or "seat" in a) and seat_of(state, a.get("seat")) is None:
        errors.append(Problem(gettext_noop("The condition names a player who is not in this game."),
                              "condition.seat"))
    if c.kind == "location" and a.get("location") not in catalog.LOCATIONS:
        errors.append(Problem(gettext_noop("The condition names a location that does not exist."),
                              "condition.location"))
    if c.kind == "vote_result" and a.get("result") not in ("passes", "fails", None):
        errors.append(Problem(gettext_noop(
            "A vote result is 'passes' or 'fails'."), "condition.result"))
    if c.kind == "voted" and a.get("choice") is None:
        errors.append(Problem(gettext_noop("The condition must say how the player votes."),
                              "condition.choice"))
    if c.kind == "appointed" and a.get("position") not in catalog.CABINET:
        errors.append(Problem(gettext_noop("The condition must name a Cabinet position."),
                              "condition.position"))
    card = a.get("card")
    if c.kind == "card_played" and (not isinstance(card, str) or not catalog.cards_named(card)):
        errors.append(Problem(gettext_noop("The condition must name the card."), "condition.card"))
    if errors:
        return errors
    act = action_step(order, phase)
    if act == Step.ASSASSINATIONS and kind_step == Step.LOCATIONS and a.get("seat") != seat:
        # "Assassination attempts CAN be conditional, but only upon effects that would resolve
        # chronologically prior to assassination declaration"; the official order has
        # "Locations are designated and Assassins are dispatched" as one step. The player to
        # change is the one the condition names: his own location or exile would do.
        return [Problem(
            f"This condition cannot be used: \u201c{describe_condition(state, c)}\u201d is "
            f"settled at {steps.describe(phase, kind_step)}, when assassins are dispatched "
            f"(\u201cLocations are designated and Assassins are dispatched\u201d is one step). "
            f"An assassination-step order may depend on your own location or exile, not on "
            f"another player's.", "condition.seat")]
    cond_index = steps.index(phase, kind_step)
    act_index = steps.index(phase, act)
    any_time_action = act == Step.ANY_TIME
    if cond_index < act_index or (any_time_action and cond_index > act_index):
        return []
    return [Problem(
        f"This condition cannot be used: \u201c{describe_condition(state, c)}\u201d is settled at "
        f"{steps.describe(phase, kind_step)}, and your order acts at "
        f"{steps.describe(phase, act)}. A condition must be settled at an earlier step "
        f"than its order.", "condition")]


def validate_order(state: GameState, seat: int, order: Order) -> list[Problem]:
    """Messages saying why this player cannot give this order now; empty when it is legal.
    Each says what it is about (`Problem.arg`): one of the order's arguments, its condition
    ("condition", "condition.<detail>"), or None for the order as a whole."""
    if state.finished:
        return [Problem(gettext_noop("The game is over."))]
    spec = ORDER_KINDS.get(order.kind)
    if spec is None:
        return [Problem(f"There is no order of kind {order.kind!r}.")]
    player = state.players[seat]
    if state.phase not in spec.phases:
        return [Problem(f"{spec.label} is not an order of {steps.phase_words(state.phase)}.")]
    if player.status == Status.DEAD:
        return [Problem(gettext_noop(
            "The dead give no orders: prepare your next character for the next "
                        "turn."))]
    if player.status == Status.EXILED and not spec.exiles_give:
        return [Problem(gettext_noop(
            "An exile may not trade or interact with other players; he may only "
                        "return."))]
    errors = keyed(spec.check(state, seat, order), None)
    return errors or validate_condition(state, order, seat)


def validate_orders(state: GameState, seat: int, orders: list[Order]) -> list[Problem]:
    """Every order on its own ("Order 2: ..."), then the set (`order_sets.check_set`): one
    vote, one location, one appointment; nothing spent twice."""
    errors: list[Problem] = []
    for i, order in enumerate(orders):
        errors += [m.numbered(i) for m in validate_order(state, seat, order)]
    return errors + check_set(state, seat, orders)


__all__ = ["BIL", "Condition", "Order", "OrderError", "parse_order", "validate_order"]
