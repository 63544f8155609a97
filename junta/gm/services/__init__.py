"""The GameMaster's actions.

Each action is one function in the zulip shape (README, Layout): inside one transaction it locks
the game row as the GM (then its current phase, `junta.games.locking`'s order), calls its
`check_<verb>`, which checks whether the action is valid (raising `GMError` with a message for
the GM) and changes nothing, then its `do_<verb>`, which changes the campaign and writes one
`AuditEntry`. Engine state is read and written only through `junta.games.repository`.

A manual ruling changes the state the current phase starts from (`Phase.state_before`). What it
may change is the engine's: `junta.engine.ruling_options` offers the rulings the state admits,
with their values, and `junta.engine.rule` checks one against that offer and the rules' invariants
(`junta.engine.invariants`: money conserved, every political card in exactly one place, no
negative pocket or bank, the dead hold nothing, units on the city's zones) and returns the new
state; the service bumps `Game.state_version` so that open order forms become stale, and redrafts
the result when the phase was waiting for review, so a published result is always what the
engine makes of the stored state and orders (and replays to the same digest).

The modules follow the panel's sections: `common` (errors, locking, audit, the checks of a form
sent late or twice), `review` (drafting and publishing), `time` (start, pause, resume, extend),
`settings`, `players`, `orders`, `rulings` and `rollback` (with the replay check). Callers use
this package: `from junta.gm import services; services.move_money(...)`.
"""

from __future__ import annotations

# the panel's forms and pages name pots and places as the rulings do
from junta.engine import OUT_OF_PLAY, card_place, place_label, pot_label
from junta.gm.actions import PAGE_RULINGS, RULING_ACTIONS

from .common import MAX_TEXT, STALE_FORM, GMError, NotTheGM
from .orders import GMOrderRefused, add_order, annul_order
from .players import approve_player, remove_player, replace_player
from .review import adjudicate_now, draft, publish, redraft
from .rollback import replay_check, rollback
from .rulings import (
    RulingRefused,
    add_unit,
    budget_by_fiat,
    move_card,
    move_money,
    remove_unit,
    rule,
    set_location,
)
from .settings import SETTINGS_ANY_TIME, SETTINGS_FORMING, update_settings
from .time import extend_deadline, pause, resume, start_campaign

__all__ = [
    "MAX_TEXT", "OUT_OF_PLAY", "PAGE_RULINGS", "RULING_ACTIONS", "SETTINGS_ANY_TIME",
    "SETTINGS_FORMING", "RulingRefused", "rule",
    "STALE_FORM", "GMError", "GMOrderRefused", "NotTheGM", "add_order", "add_unit",
    "adjudicate_now", "annul_order", "approve_player", "budget_by_fiat", "card_place", "draft",
    "extend_deadline", "move_card", "move_money", "pause", "place_label", "pot_label",
    "publish", "redraft", "remove_player", "remove_unit", "replace_player", "replay_check",
    "resume", "rollback", "set_location", "start_campaign", "update_settings",
]
