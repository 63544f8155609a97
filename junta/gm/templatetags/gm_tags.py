"""Small filters for the panel's pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template

from junta.engine import PHASE_TITLES
from junta.gm import selectors

if TYPE_CHECKING:
    from junta.games.public import AuditEntry

register = template.Library()


@register.filter
def phase_title(kind: str) -> str:
    """A phase kind in words: "budget_vote" -> "Budget Vote"."""
    return PHASE_TITLES.get(kind, kind.replace("_", " ").capitalize())


@register.filter
def action_name(action: str) -> str:
    """An audit log action in words: "unit_remove" -> "Removed a unit"."""
    return selectors.action_name(action)


@register.filter
def audit_summary(entry: AuditEntry) -> str:
    """What an audit log entry did, in one line."""
    return selectors.audit_summary(entry)


@register.filter
def audit_details(entry: AuditEntry) -> dict[str, Any]:  # the entry's data (JSON)
    """An audit log entry's data for its Details: not the order (its line has it in words)."""
    return selectors.audit_details(entry)
