"""What a page that comes back after a form was sent says first: the site's messages (a vote
counted, an order given, "Not done. ...") or the errors of a form sent back to be corrected.

templates/base.html puts it at the head of the <title> ("Error: ... — Poll · Papayas · Junta"),
which works without JavaScript; the element that shows it carries `data-page-alert` (the
messages, a form's error summary in includes/form_fields.html, the Orders page's summary) and
static/js/page_alert.js moves the focus there, so a screen reader reads it out at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.contrib.messages import constants
from django.forms import BaseForm, BaseFormSet

register = template.Library()

TITLE_CHARS = 120  # a message longer than this is cut at a word in the title (it shows whole)


def form_error_lines(form: BaseForm) -> list[str]:
    """Each error of a bound form, with its field's label ("Email: Enter a valid...")."""
    lines: list[str] = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = f"{form[name].label}: " if field is not None and not field.widget.is_hidden \
            else ""
        lines.extend(f"{label}{error}" for error in errors)
    return lines


def _forms(values: Iterable[Any]) -> Iterable[BaseForm]:  # Any: Django Context's values
    # type(), not isinstance(): isinstance would evaluate the context's lazy values (the CSRF
    # token among them, which would set its cookie on every page)
    for value in values:
        if issubclass(type(value), BaseForm):
            yield value
        elif issubclass(type(value), BaseFormSet) and value.is_bound:
            yield from value.forms


def _short(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= TITLE_CHARS:
        return text
    return text[:TITLE_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:.") + "…"


def alert_text(context: template.Context) -> str:
    """The page's alert for its title ("Error: Email: Enter a valid email address."), or ""."""
    shown = list(context.get("messages") or ())
    if shown:
        errors = [m for m in shown if getattr(m, "level", 0) >= constants.ERROR]
        first = (errors or shown)[0]
        return ("Error: " if errors else "") + _short(str(first))
    for form in _forms(context.flatten().values()):
        if form.is_bound and form.errors:
            lines = form_error_lines(form)
            more = f" ({len(lines)} problems)" if len(lines) > 1 else ""
            return f"Error: {_short(lines[0])}{more}"
    return ""


@register.simple_tag(takes_context=True)
def page_alert(context: template.Context) -> str:
    """The head of the page's <title>: "<the alert> — ", or nothing."""
    text = alert_text(context)
    return f"{text} — " if text else ""


@register.filter
def fields_to_correct(form: BaseForm) -> list[tuple[str, str]]:
    """The visible fields of a form sent back with errors, each as (the id of its control, its
    label), for the links of its error summary (includes/form_fields.html); a group of radio
    buttons or checkboxes is reached at its first one."""
    return [(field.id_for_label or f"{field.auto_id}_0", str(field.label))
            for field in form.visible_fields() if field.errors]
