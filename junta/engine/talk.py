"""The rules of talk (docs/rules.md §talk): who may speak in public and who may send a private
message, from the state alone. The site verifies nothing that is said; these rules only say who
may say it."""

from __future__ import annotations

from .enums import Status
from .state import GameState


def why_no_talk(state: GameState, seat: int) -> str | None:
    """Why the player at `seat` may not make a speech or send a private message to another
    player now, or None when he may. "The dead may talk" (they cannot act, but talking is not
    acting); an exile "may not trade or deal with anyone" (§exile), so he reads but sends
    nothing until he returns. Writing to the GameMaster is always allowed (`may_write_to_gm`)."""
    player = state.players[seat]
    if player.status == Status.EXILED:
        return (f"{player.name} is in exile and may not deal with anyone (Rules §exile): you "
                "may read, and write to the GameMaster, but send nothing to the players until "
                "you return.")
    return None


def may_write_to_gm(state: GameState, seat: int) -> bool:
    """Any seated player, dead, alive or in exile, may write to the GameMaster (§talk)."""
    return 0 <= seat < len(state.players)
