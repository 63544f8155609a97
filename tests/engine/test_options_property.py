"""Every option the engine lists is one it accepts: one source for the orders.

For states from random bot campaigns at every phase kind (coups included), for every seat and
every order option `legal_options` gives it: the option can be used (its starting values, or
for a trade the first thing offered, make an order `validate_order` and `validate_orders`
accept); every offered value of every argument, the others at their starting values, makes an
order the engine accepts; every condition offered, with each offered value of its details, is
accepted with the order. An argument marked `combined` (a Cabinet, a budget, what a trade
exchanges) is legal only in combination: a value of it may be refused, but only with a message
about that argument or the order as a whole. Unit tests of single options are in
tests/engine/test_options.py; this is the sweep.
"""

from __future__ import annotations

import pytest

from junta.engine import GameState, validate_order, validate_orders
from junta.engine.options import OrderOption, Shape, build, legal_options

from .bot_samples import PHASE_KINDS, sample_states


def test_the_sample_reaches_every_phase_kind_coups_included():
    assert set(PHASE_KINDS) <= set(sample_states()), sorted(sample_states())


def _refusals(state: GameState, seat: int, option: OrderOption, values: dict,
              condition: tuple | None = None) -> list[str]:
    order = build(state, seat, option, values, condition)
    return validate_order(state, seat, order) + validate_orders(state, seat, [order])


def _values_to_try(arg) -> list:  # noqa: ANN001 - an ArgOption
    if arg.shape is Shape.NUMBER:
        low, high = arg.minimum or 0, arg.maximum if arg.maximum is not None else 0
        return sorted({low, high, (low + high) // 2}) if high >= low else []
    if arg.shape is Shape.SOME:
        return [[v] for v in arg.values()]
    if arg.shape is Shape.RANKING:
        return [[v] for v in arg.values()]
    if arg.shape is Shape.TABLE:
        cells = arg.values() or [arg.minimum or 0, arg.maximum or 0]
        return [{key.value: cell} for key in arg.keys for cell in cells[:3]]
    return arg.values()


def _base(state: GameState, seat: int, option: OrderOption) -> dict:
    """Starting values that make a usable order: the defaults, or for an option whose
    arguments combine (a trade must exchange something) the first thing offered."""
    values = option.defaults()
    for arg in option.args:  # a form starts with no box ticked; a required list needs one
        if arg.shape is Shape.SOME and arg.required and not values.get(arg.name):
            values[arg.name] = arg.values()[:1]
    if not _refusals(state, seat, option, values):
        return values
    for arg in option.args:
        if not arg.combined:
            continue
        for value in _values_to_try(arg):
            if value in ([], {}, 0, None):
                continue
            trial = {**values, arg.name: value}
            if not _refusals(state, seat, option, trial):
                return trial
    raise AssertionError(f"{option.key}: no starting values the engine accepts: "
                         f"{_refusals(state, seat, option, values)}")


@pytest.mark.parametrize("kind", PHASE_KINDS)
def test_every_listed_option_and_value_is_accepted(kind):
    states = sample_states().get(kind, [])
    assert states, f"no sampled state of {kind}"
    checked = 0
    for data in states:
        checked += _check_state(GameState.from_dict(data), kind)
    assert checked


def _check_state(state: GameState, kind: str) -> int:
    checked = 0
    for seat in range(len(state.players)):
        for option in legal_options(state, seat).orders:
            base = _base(state, seat, option)
            for arg in option.args:
                for value in _values_to_try(arg):
                    values = {**base, arg.name: value}
                    for other in option.args:  # a choice narrowed by this one follows it
                        if other.depends_on == arg.name and other.shape is Shape.ONE:
                            allowed = other.allowed(values)
                            if values.get(other.name) not in allowed and allowed:
                                values[other.name] = allowed[0]
                        elif other.depends_on == arg.name and other.shape is Shape.SOME:
                            values[other.name] = []
                    if arg.depends_on is not None and arg.shape is Shape.ONE and \
                            value not in arg.allowed(values):
                        continue  # offered only with another choice of what it depends on
                    if arg.depends_on is not None and arg.shape is Shape.SOME and \
                            not set(value) <= set(arg.allowed(values)):
                        continue
                    problems = _refusals(state, seat, option, values)
                    checked += 1
                    if arg.combined:
                        combined = {a.name for a in option.args if a.combined}
                        assert all(getattr(p, "arg", None) in combined | {None}
                                   for p in problems), (option.key, arg.name, value, problems)
                    else:
                        assert problems == [], (kind, seat, option.key, arg.name, value)
            for cond in option.conditions:
                for detail in cond.args:
                    for value in _values_to_try(detail) or [None]:
                        details = {a.name: a.start() for a in cond.args}
                        details[detail.name] = value
                        problems = _refusals(state, seat, option, base, (cond.kind, details))
                        checked += 1
                        assert problems == [], (option.key, cond.kind, detail.name, value,
                                                problems)
    return checked
