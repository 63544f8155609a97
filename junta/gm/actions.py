"""The GM's actions by their names in the audit log (`AuditEntry.action`), where more than one
part of the panel reads them: the services carry the rulings out (`services.rulings`), the
views build the Rulings page's forms from `PAGE_RULINGS`, and the replay check (`checks`)
explains a phase's starting state by the `RULING_ACTIONS` recorded for it."""

from __future__ import annotations

# The rulings of the Rulings page (the engine's kinds, `engine.RULING_KINDS`, less naming a
# character, which replacing a player does), each its own audit action.
PAGE_RULINGS = ("money", "card", "location", "unit_add", "unit_remove", "fiat")
# Audit actions that change the state a phase starts from (the replay check explains a start
# state that differs from the previous result by these).
RULING_ACTIONS = (*PAGE_RULINGS, "replace")
