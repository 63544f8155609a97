"""The engine's legal options as plain JSON, and an option filled in by a client read back into
the engine's order (`junta.engine.build`), so that a bot may order from the options alone.
Nothing is decided here: the lists, labels and conditions are the engine's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from junta.engine import (
    ArgOption,
    GameState,
    Options,
    Order,
    OrderOption,
    Shape,
    build,
    option_rules,
)


def _arg(arg: ArgOption) -> dict[str, object]:
    return {
        "name": arg.name, "label": arg.label, "shape": str(arg.shape),
        "choices": [{"value": c.value, "label": c.label} for c in arg.choices],
        "minimum": arg.minimum, "maximum": arg.maximum, "required": arg.required,
        "help": arg.help, "keys": [{"value": k.value, "label": k.label} for k in arg.keys],
        "blank": arg.blank, "default": arg.default, "depends_on": arg.depends_on,
        "choices_for": [{"when": k, "values": list(v)} for k, v in arg.choices_for.items()],
        "combined": arg.combined,
    }


def option_json(option: OrderOption) -> dict[str, object]:
    return {
        "key": option.key, "kind": option.kind, "label": option.label, "help": option.help,
        "fixed": dict(option.fixed), "args": [_arg(a) for a in option.args],
        "defaults": option.defaults(),
        "conditions": [{"kind": c.kind, "label": c.label, "args": [_arg(a) for a in c.args]}
                       for c in option.conditions],
        "refused_conditions": list(option.refused_conditions),
        "rules": list(option_rules(option)),
        "likely": option.likely,
    }


def options_json(options: Options) -> dict[str, object]:
    return {"seat": options.seat, "orders": [option_json(o) for o in options.orders],
            "notes": list(options.notes)}


class Unfilled(ValueError):
    """An option filled in wrongly: the message and the argument it is about."""

    def __init__(self, message: str, arg: str | None = None) -> None:
        super().__init__(message)
        self.arg = arg


# value: the client's JSON; the rows by the engine's key values (Any, as the engine's options
# give them), each cell as the client sent it
def _table(arg: ArgOption, value: Any) -> dict[Any, Any]:
    """A TABLE's rows by key value (JSON writes a number key as text: "3" is row 3)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise Unfilled(f"{arg.label}: give an object with one entry for each row.", arg.name)
    by_text = {str(k.value): k.value for k in arg.keys}
    out = {}
    for key, cell in value.items():
        if str(key) not in by_text:
            raise Unfilled(f"{arg.label}: {key!r} is not one of its rows.", arg.name)
        out[by_text[str(key)]] = cell
    return out


# item: the client's JSON (Any values, as pydantic reads them)
def filled(state: GameState, options: Options, item: Mapping[str, Any]) -> Order:
    """The engine's order for {"option": key, "values": {...}, "condition": {"kind", ...}}."""
    option = options.get(str(item.get("option", "")))
    if option is None:
        raise Unfilled("That order cannot be given now: the phase or your position changed. "
                       "Read the options again.", "option")
    values = item.get("values") or {}
    if not isinstance(values, Mapping):
        raise Unfilled("Give the values as an object, by argument name.", "values")
    known = {a.name for a in option.args}
    for name in values:
        if name not in known:
            raise Unfilled(f"This order has no argument {name!r}.", f"values.{name}")
    chosen = {**option.defaults(), **values}
    for arg in option.args:
        if arg.shape is Shape.TABLE:
            chosen[arg.name] = _table(arg, chosen.get(arg.name))
    condition = item.get("condition")
    cond: tuple[str, dict[str, Any]] | None = None  # the client's JSON, as `build` takes it
    if condition:
        if not isinstance(condition, Mapping) or option.condition(
                str(condition.get("kind"))) is None:
            raise Unfilled("This condition is not one offered with this order.", "condition")
        details = dict(condition)
        cond = (str(details.pop("kind")), details)
    try:
        return build(state, options.seat, option, chosen, cond)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise Unfilled(f"These values do not fit this order ({error}).") from None
