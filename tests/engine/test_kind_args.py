"""Each order kind declares its arguments once, as the TypedDict of what a well-formed order of
it holds (`OrderKindSpec[PayArgs]`): its form's arguments (`args`: name, label, type) are drawn
from it, and `Kind.of(order)` reads an order's arguments as it, the order's own dict, neither
copied nor validated (the JSON form of an order is unchanged)."""

from __future__ import annotations

from types import get_original_bases
from typing import Annotated, TypedDict, get_args, is_typeddict

import pytest

from junta.engine import parse_order
from junta.engine.kinds import ORDER_KINDS, ArgType, OrderKindSpec
from junta.engine.order import Arg, As, arguments
from junta.engine.order_kinds.transfers import Pay

from .throwaway_kind import Rally


def _typed(kind: type) -> type | None:
    for klass in kind.__mro__:
        for base in get_original_bases(klass):
            typed = next(iter(get_args(base)), None)
            if isinstance(typed, type) and is_typeddict(typed):
                return typed
    return None


def test_every_kind_draws_its_arguments_from_its_typeddict() -> None:
    for name, spec in ORDER_KINDS.items():
        typed = _typed(type(spec))
        assert typed is not None, f"{name} names no TypedDict of its arguments"
        assert spec.args == arguments(typed), name
        assert {a.name for a in spec.args} <= set(typed.__annotations__), name


def test_a_new_kind_declares_its_arguments_once() -> None:
    assert Rally.args == (Arg("card", "Card", ArgType.CARD), Arg("zone", "Where", ArgType.ZONE))

    class Twice(TypedDict):
        to: Annotated[int, As("To", ArgType.SEAT)]

    with pytest.raises(TypeError, match="declares its arguments twice"):
        class Both(OrderKindSpec[Twice]):  # noqa: F841 (refused when made)
            args = (Arg("to", "To", ArgType.SEAT),)


def test_reading_an_order_typed_neither_copies_nor_validates_it() -> None:
    order = parse_order({"kind": "pay", "to": 1, "amount": 3, "note": "kept"})
    assert Pay.of(order) is order.args
    assert order.to_dict() == {"kind": "pay", "to": 1, "amount": 3, "note": "kept"}
    odd = parse_order({"kind": "pay", "to": 99})  # refused by the check, read as it is
    assert Pay.of(odd).get("to") == 99 and Pay.of(odd).get("amount") is None
