"""Row locks, always taken in the same order (the game, then its phase) to avoid deadlocks.

On PostgreSQL these are `SELECT ... FOR NO KEY UPDATE`, here and wherever the project locks a row
to write one at a time: such locks exclude each other, but not the share lock of a row's key that
PostgreSQL takes to check a foreign key when a transaction commits. With `FOR UPDATE`, a writer
holding the game and waiting for a row another transaction changed twice (the campaign's revision)
deadlocked with that transaction's commit, which checks the row's key to the game
(tests/web/test_lock_order.py). On SQLite every write transaction is
`BEGIN IMMEDIATE` (see settings), which serialises writers for the whole database, so the same
code is safe there too.
"""

from __future__ import annotations

from django.db.models import QuerySet

from junta.games import revisions
from junta.games.models import Game, Phase


def lock_game(game_id: int) -> Game:
    """Lock and return the game row. Call inside `transaction.atomic()`. Whoever takes the lock
    means to write (some of it in bulk, which sends no signal), so the campaign's content
    revision is raised with it (`junta.games.revisions`)."""
    return _locked(Game.objects.filter(pk=game_id))


def _locked(games: QuerySet[Game]) -> Game:
    game = games.select_for_update(no_key=True).get()
    revisions.bump(game.pk)
    return game


def lock_phase(phase_id: int) -> tuple[Game, Phase]:
    """Lock the phase's game, then the phase, and return both fresh from the database (the
    game found from the phase inside its own locking query)."""
    try:
        game = _locked(Game.objects.filter(
            pk__in=Phase.objects.filter(pk=phase_id).values("game_id")))
    except Game.DoesNotExist:
        raise Phase.DoesNotExist(f"There is no phase {phase_id}.") from None
    phase = Phase.objects.select_for_update(no_key=True).get(pk=phase_id)
    phase.game = game
    return game, phase
