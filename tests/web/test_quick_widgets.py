"""The order forms' widgets drawn in Python (`junta.games.quick_widgets`) are byte for byte what
Django's templates draw: every field of every form the engine offers in states of every kind of
phase (coups included), empty, filled in and refused with messages."""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.http import QueryDict

from junta.engine import GameState, legal_options
from junta.games.order_forms import OrderForm
from junta.games.quick_widgets import QuickRenderer
from tests.engine.helpers import campaign_states
from tests.engine.option_states import STATES


def _states() -> list[GameState]:
    played = campaign_states("quick-widgets", 30)
    coups = [s for s in played if s.coup is not None][:2]
    assert coups  # a coup's forms: stacks, zones, strikes
    return [make() for make in STATES.values()] + played[12::10] + coups


def _drawn(form: OrderForm, renderer: object) -> list[str]:
    form.renderer = renderer  # type: ignore[assignment]
    return [str(form[name].as_widget(attrs={"aria-describedby": "x-help"} if i % 2 else None))
            for i, name in enumerate(form.fields)]


def test_every_widget_is_drawn_as_django_draws_it() -> None:
    quick, django_renderer = QuickRenderer(), DjangoTemplates()
    drawn = 0
    for state in _states():
        for seat in range(0, len(state.players), 4):  # a few seats: the kinds repeat
            for option in legal_options(state, seat).orders:
                empty = OrderForm(option, state, seat)
                # a form sent back with junk in every field: its messages mark the fields
                junk = QueryDict(mutable=True)
                for name in empty.fields:
                    junk[empty.add_prefix(name)] = "<b>&\"junk'"
                for form in (empty, OrderForm(option, state, seat, junk)):
                    form.is_valid()
                    assert _drawn(form, quick) == _drawn(form, django_renderer), option.key
                    drawn += len(form.fields)
    assert drawn > 200  # the states above offer forms of many kinds
