"""The rules of Junta as a pure library: state in, orders in, new state and events out.

Standard library only, no wall clock, no global random: every roll comes from the generator
whose counter lives in the state, so each phase replays exactly.
"""

from .events import Event
from .flow import PhaseInfo, campaign_running, current_phase, is_finished, owes_orders
from .orders import (
    Condition,
    Order,
    OrderError,
    parse_order,
    parse_orders,
    validate_order,
    validate_orders,
)
from .resolve import Resolution, resolve
from .state import BIL, GameState, Player, digest, new_game
from .views import board_summary, view_for

ENGINE_VERSION = "1.0"

__all__ = [
    "BIL", "ENGINE_VERSION", "Condition", "Event", "GameState", "Order", "OrderError",
    "PhaseInfo", "Player", "Resolution", "board_summary", "campaign_running", "current_phase",
    "digest", "is_finished", "new_game", "owes_orders", "parse_order", "parse_orders",
    "resolve", "validate_order", "validate_orders", "view_for",
]
