"""Small filters for the panel's pages."""

from __future__ import annotations

from django import template

from junta.engine.steps import PHASE_TITLES

register = template.Library()


@register.filter
def phase_title(kind: str) -> str:
    """A phase kind in words: "budget_vote" -> "Budget Vote"."""
    return PHASE_TITLES.get(kind, kind.replace("_", " ").capitalize())
