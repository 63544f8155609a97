"""The secret markers the leak tests plant (a family's pocket and bank, a payment, a note to
the GM, a private word to the GM) and the ways they plant them, shared by the players' leak
crawl (test_leaks.py) and the watchers' (test_watchers.py)."""

from __future__ import annotations

from collections.abc import Callable

from junta.engine import GameState
from junta.games import repository
from junta.games.models import Game, Phase, Player
from junta.talk import access as talk_access
from junta.talk import services as talk_services

POCKET, BANK, AMOUNT = 987651, 876541, 45678
NOTE = "NOTE-TO-GM-MARKER-31337: I bribed the Admiral."
TALK = "TALK-MARKER-31337: the Admiral is mine"


def rewrite(phase: Phase, change: Callable[[GameState], None]) -> GameState:
    """Change the phase's starting state as a GM ruling does: the board rows follow (the GM's
    Board page reads them, with the hidden extra bills; no player's page may)."""
    state = repository.state_before(phase)
    change(state)
    repository.rewrite_state_before(phase, state)
    repository.write_board(phase.game, state)
    return state


def user_at(game: Game, seat: int):
    return game.players.get(seat=seat, membership=Player.Membership.ACTIVE).user


def write_to_gm(game: Game, seat: int, text: str) -> None:
    """The family at `seat` writes to the GameMaster privately (docs/rules.md §talk)."""
    reader = talk_access.reader_for(game, user_at(game, seat))
    assert reader is not None
    talk_services.start(reader, "A private word", [], True, text)
