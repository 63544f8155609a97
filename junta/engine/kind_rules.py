"""Where in the rules each order kind comes from, as the pages read it: each kind names the
sections of docs/rules.md and docs/rulings.md that govern it (`OrderKindSpec.rules`, the main one
first). The Orders page links each option to its kind's main section; the Rules page lists
under each section the kinds it governs, by their labels.
"""

from __future__ import annotations

from .kinds import ORDER_KINDS
from .options import OrderOption

__all__ = ["kinds_by_section", "option_rules"]


def option_rules(option: OrderOption) -> tuple[str, ...]:
    """The sections of the rules that govern an option's order, the main one first."""
    return ORDER_KINDS[option.kind].rules


def kinds_by_section() -> dict[str, tuple[str, ...]]:
    """For each section that governs one or more kinds, the labels of those kinds: the kinds
    whose main section it is first, then the others, each in the registry's order."""
    out: dict[str, list[str]] = {}
    for main in (True, False):
        for kind in ORDER_KINDS.values():
            for section in kind.rules[:1] if main else kind.rules[1:]:
                out.setdefault(section, []).append(kind.label)
    return {section: tuple(labels) for section, labels in out.items()}
