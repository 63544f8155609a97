"""The engine's order options and the Orders page's forms for them, as the tests read them:
an option by its key, a form filled in as a player submits it, read back into an order.
Shared by the tests of the Orders page (tests/web/test_orders_page.py) and of the coup's
orders (tests/web/test_coup_orders.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from junta.engine import GameState, Order, OrderOption, Shape, legal_options, values_of
from junta.games.order_forms import OrderForm, token

# the kinds of order of a coup: its Rebel-Only step, Coup Phases 1-6 and the Aftermath
COUP_KINDS = frozenset({
    "rebel_move", "airstrike", "gunboat", "intervene", "transfer", "place", "move",
    "police_response", "flee", "embassy_passage", "casualties", "attack", "retreat",
    "permit_retreat", "coup_side", "junta_vote", "execute",
})


def keys(s: GameState, seat: int) -> set[str]:
    """The keys of the seat's options ("pay", "bank:deposit", "place:Marine",
    "play_card:17")."""
    return {o.key for o in legal_options(s, seat).orders}


def kinds(s: GameState, seat: int) -> set[str]:
    return legal_options(s, seat).kinds


def builder(s: GameState, seat: int, key: str) -> OrderOption:
    """The seat's option `key` (the form the Orders page draws for it)."""
    option = legal_options(s, seat).get(key)
    assert option is not None, (key, sorted(keys(s, seat)))
    return option


def choices(option: OrderOption, name: str) -> dict[str, str]:
    """An argument's choices as its form offers them: {token sent: label shown}."""
    arg = option.arg(name)
    assert arg is not None, (option.key, name)
    return {token(c.value): c.label for c in arg.choices}


def field_names(form: OrderForm, arg: str) -> list[str]:
    """The form's fields (unprefixed) for one argument: one, or a TABLE's rows, or a
    RANKING's places."""
    return next(g for g in form.groups if g.arg == arg).names


def fill(s: GameState, seat: int, option: OrderOption, /, **values: Any) -> QueryDict:
    """The form as a player submits it, every name with its prefix: the values given, and for
    every other field what the form starts with (a list with nothing marked sends its first
    choice; a zone to move or retreat to, one next to the zone chosen to leave).

    A value is given by argument: a token (a string) or a list of tokens; a TABLE by a dict
    {row key: token}, a RANKING by a list. Any other name is a field's own ("if", "if_seat")."""
    form = OrderForm(option, s, seat)
    given: dict[str, Any] = {}
    for name, value in values.items():
        arg = option.arg(name)
        if arg is not None and arg.shape is Shape.TABLE:
            cells = {token(k): v for k, v in value.items()}
            for key, field in zip(arg.keys, field_names(form, name), strict=True):
                if token(key.value) in cells:
                    given[field] = token(cells[token(key.value)])
        elif arg is not None and arg.shape is Shape.RANKING:
            for i, field in enumerate(field_names(form, name)):
                given[field] = value[i] if i < len(value) else ""
        else:
            given[name] = value
    for arg in option.args:  # a choice narrowed by another one the test chose
        if arg.depends_on in given and arg.name not in given and arg.shape is Shape.ONE:
            chosen = next(c.value for c in option.arg(arg.depends_on).choices
                          if token(c.value) == given[arg.depends_on])
            given[arg.name] = token(arg.allowed({arg.depends_on: chosen})[0])
    q = QueryDict(mutable=True)
    for name, field in form.fields.items():
        key = form.add_prefix(name)
        value = given[name] if name in given else form[name].value()
        if isinstance(field, forms.MultipleChoiceField):
            if name not in given and field.required and not value:
                value = [field.choices[0][0]]
            q.setlist(key, [token(v) for v in value or []])
        elif isinstance(field, forms.ChoiceField):
            offered = [v for v, _ in field.choices]
            q[key] = value if name in given or value in offered else offered[0]
        else:
            q[key] = token(value)
    unknown = set(given) - set(form.fields)
    assert not unknown, (option.key, unknown, list(form.fields))
    return q


def read(s: GameState, seat: int, option: OrderForm | OrderOption, data: QueryDict
         ) -> tuple[Order | None, OrderForm]:
    """The submitted form read back: the engine's order (None if the form itself refuses
    it) and the bound form with its messages."""
    form = OrderForm(option, s, seat, data)
    return (form.order() if form.is_valid() else None), form


def round_trip(s: GameState, seat: int, option: OrderOption, order: Order) -> Order | None:
    """The order read back from its option's form filled in to change it in place."""
    condition = (order.condition.kind, dict(order.condition.args)) \
        if order.condition is not None else None
    form = OrderForm(option, s, seat, values=values_of(s, option, order), condition=condition)
    data = QueryDict(mutable=True)
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.MultipleChoiceField):
            data.setlist(form.add_prefix(name), [token(v) for v in value or []])
        else:
            data[form.add_prefix(name)] = token(value)
    return read(s, seat, option, data)[0]
