"""Where an order form's rule is written: the section of the rules (docs/rules.md or
docs/rulings.md) its kind comes from, which the form links to as the Status page links each
instruction (`/rules/#<section>`)."""

from __future__ import annotations

from django import template

from junta.engine import OrderOption, option_rules

register = template.Library()


@register.filter
def main_rule(option: OrderOption) -> str:
    """The main section of the rules that govern an option's order (`§name` without the §)."""
    return option_rules(option)[0]
