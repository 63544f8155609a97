"""Form widgets drawn without the template engine, byte for byte as Django's own templates draw
them.

An Orders page holds dozens of forms, each with lists of players, zones, cards and amounts:
drawn by Django's templates (one template for the list, one included for each of its options,
one more for each set of attributes) they took most of the time the page is drawn in. The
widget still builds its context as Django does (`Widget.get_context`: the options, which one
is chosen, the attributes); only the last step, writing that context out as HTML, is done here
for the select list, its options and the input fields, with the templates' escaping and
whitespace (tests/web/test_quick_widgets.py draws every form of real pages both ways). Any
other template goes to Django's renderer as before."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from django.forms.renderers import DjangoTemplates
from django.http import HttpRequest
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString, mark_safe

# Any: a widget's context as Django builds it (`Widget.get_context`), values of many kinds
type WidgetContext = Mapping[str, Any]


def _text(value: object) -> str:
    """`{{ value }}` in an autoescaping template (a plain text escaped as Django's `escape`
    does, without its lazy wrapper: the commonest case by far)."""
    if type(value) is str:
        return html.escape(value)
    return conditional_escape(str(localize(value)))


def _formatted(value: object) -> str:
    """`{{ value|stringformat:'s' }}`: the value as "%s" writes it (never a tuple here),
    escaped unless it was safe already (stringformat keeps a safe value safe)."""
    if isinstance(value, SafeData):
        return str(value)
    return html.escape(str(value))


def _attrs(attrs: Mapping[str, object]) -> str:
    """django/forms/widgets/attrs.html: each attribute but a False one; a True one bare."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {_text(name)}" if value is True else f' {_text(name)}="{_formatted(value)}"')
    return "".join(out)


def _option(option: WidgetContext) -> str:
    """django/forms/widgets/select_option.html."""
    return (f'<option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>'
            f'{_text(option["label"])}</option>\n')


def _select(widget: WidgetContext) -> str:
    """django/forms/widgets/select.html, each option as its own template draws it."""
    out = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            out.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in group_choices:
            if option["template_name"] != OPTION:
                raise _NotQuick
            out.append(f"\n  {_option(option)}")
        if group_name:
            out.append("\n  </optgroup>")
    out.append("\n</select>\n")
    return "".join(out)


def _input(widget: WidgetContext) -> str:
    """django/forms/widgets/input.html."""
    value = widget["value"]
    shown = "" if value is None else f' value="{_formatted(value)}"'
    return (f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"{shown}'
            f'{_attrs(widget["attrs"])}>\n')


class _NotQuick(Exception):
    """A context this module does not draw (an option with a template of its own)."""


OPTION = "django/forms/widgets/select_option.html"
# each template drawn here, and how (an input type's template includes input.html; the
# renderer strips what it draws, so the line breaks the templates end with go)
_DRAWN: dict[str, Callable[[WidgetContext], str]] = {
    "django/forms/widgets/select.html": _select,
    OPTION: _option,
    **{f"django/forms/widgets/{kind}.html": _input
       for kind in ("input", "number", "text", "hidden", "email")},
}


class QuickRenderer(DjangoTemplates):
    """Django's default form renderer, but the widgets above are written out in Python."""

    # Any: a template's context, as Django's renderer takes it
    def render(self, template_name: str, context: dict[str, Any],
               request: HttpRequest | None = None) -> SafeString:
        draw = _DRAWN.get(template_name)
        if draw is not None and request is None and "widget" in context:
            try:
                # escaped piece by piece above; stripped as Django's renderer strips
                return mark_safe(draw(context["widget"]).strip())
            except _NotQuick:
                pass
        return mark_safe(super().render(template_name, context, request))
