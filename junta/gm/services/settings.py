"""The campaign's settings: review mode, deadlines and phase lengths, the spectators (whether
they may watch, how far behind, by link) at any time; who may join,
the seats and the hidden extra bills while the campaign forms. In the shape of every app's
writes (README, Layout): lock, `check_update_settings`, `do_update_settings`."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.public import User
from junta.games.public import MAX_WATCH_DELAY, Game, Player, change_settings

from .common import GMError, audit, lock_as_gm

SETTINGS_ANY_TIME = ("review_mode", "deadline_time", "time_zone", "phase_days", "min_hours",
                     "players_may_poll", "archived_publicly", "watchable", "watch_delay",
                     "watch_by_link")
SETTINGS_FORMING = ("join_policy", "max_players", "extra_bills_min", "extra_bills_max")


@transaction.atomic
# changes: the settings form's cleaned data (Any values, as Django gives them)
def update_settings(game_id: int, by: User, changes: dict[str, Any]) -> list[str]:
    """Change the campaign's settings. Review mode, the daily deadline, its zone and the phase
    lengths may change at any time (new deadlines follow them); who may join, the number of
    seats and the range of hidden extra bills only while the campaign forms (the deck is dealt at
    the start). Returns the names of the settings that changed."""
    game = lock_as_gm(game_id, by)
    return do_update_settings(game, by, check_update_settings(game, changes))


def check_update_settings(game: Game, changes: dict[str, Any]) -> dict[str, Any]:
    """Whether these settings may change now (`GMError` if not): those that change, with
    their new values. Any: each setting's value."""
    unknown = set(changes) - set(SETTINGS_ANY_TIME) - set(SETTINGS_FORMING)
    if unknown:
        raise GMError(f"{', '.join(sorted(unknown))} cannot be set here.")
    changed = {name: value for name, value in changes.items()
               if value is not None and getattr(game, name) != value}
    late = [name for name in changed if name in SETTINGS_FORMING]
    if late and game.status != Game.Status.FORMING:
        raise GMError(f"{game.name} has started: who may join, the seats and the hidden extra "
                      "bills were settled when the decks were dealt.")
    if "phase_days" in changed:
        days = changed["phase_days"]
        if any(not isinstance(v, int) or not 1 <= v <= 7 for v in days.values()):
            raise GMError("A phase lasts 1 to 7 days.")
        changed["phase_days"] = {**(game.phase_days or {}), **days}
        if changed["phase_days"] == game.phase_days:
            del changed["phase_days"]
    if not 0 <= changed.get("watch_delay", 0) <= MAX_WATCH_DELAY:
        raise GMError(f"Spectators follow 0 to {MAX_WATCH_DELAY} published phases behind.")
    seated = game.players.filter(membership=Player.Membership.ACTIVE).count()
    if changed.get("max_players") is not None and changed["max_players"] < seated:
        raise GMError(f"{seated} players are seated already: the campaign needs at least "
                      f"{seated} seats.")
    return changed


@transaction.atomic
def do_update_settings(game: Game, by: User, changed: dict[str, Any]) -> list[str]:
    """The settings changed (the model's own checks refuse with a `GMError`, nothing
    written) and the audit entry (the campaign locked). Any: each setting's value."""
    old = {name: getattr(game, name) for name in changed}
    try:
        change_settings(game, changed)
    except ValidationError as error:
        raise GMError(" ".join(m for ms in error.message_dict.values() for m in ms)) from error
    if changed:
        audit(game, by, "settings", changes={
            name: [str(old[name]), str(value)] for name, value in changed.items()})
    return sorted(changed)
