"""The rules of Junta as a pure library: state in, orders in, new state and events out.

Standard library only, no wall clock, no global random: every roll comes from the generator
whose counter lives in the state, so each phase replays exactly.
"""

from .enums import PhaseKind, Status, Step
from .events import Event
from .flow import PhaseInfo, campaign_running, current_phase, is_finished, owes_orders
from .guidance import Instruction, instruction_lines, instructions
from .invariants import change_problems, state_problems
from .kinds import ORDER_KINDS, describe_order, takes_the_place_of
from .options import (
    ArgOption,
    Choice,
    ConditionOption,
    Options,
    OrderOption,
    Shape,
    build,
    condition_detail,
    legal_options,
    option_for,
    values_of,
)
from .orders import (
    Condition,
    Order,
    OrderError,
    parse_order,
    parse_orders,
    validate_order,
    validate_orders,
)
from .problems import Problem
from .resolve import Resolution, resolve
from .rulings import (
    OUT_OF_PLAY,
    Ruling,
    RulingError,
    add_unit,
    budget_by_fiat,
    card_place,
    move_card,
    move_money,
    name_character,
    place_label,
    pot_label,
    remove_unit,
    set_location,
)
from .state import BIL, GameState, Player, digest, new_game
from .views import board_summary, view_for

ENGINE_VERSION = "1.0"

__all__ = [
    "BIL", "ENGINE_VERSION", "ORDER_KINDS", "OUT_OF_PLAY", "ArgOption", "Choice", "Condition",
    "ConditionOption", "Event", "GameState", "Options", "Order", "OrderError", "OrderOption",
    "PhaseInfo", "PhaseKind", "Player", "Problem", "Resolution", "Shape", "Status", "Step",
    "board_summary", "build",
    "campaign_running", "condition_detail", "current_phase", "describe_order", "digest",
    "instructions", "is_finished", "legal_options", "new_game", "option_for", "owes_orders",
    "parse_order", "parse_orders", "resolve", "takes_the_place_of", "validate_order",
    "validate_orders", "values_of", "view_for",
    # GM rulings and the invariants they keep (rulings.py, invariants.py)
    "Ruling", "RulingError", "add_unit", "budget_by_fiat", "card_place", "change_problems",
    "move_card", "move_money", "name_character", "place_label", "pot_label", "remove_unit",
    "set_location", "state_problems",
    # each Status instruction with the rules section it explains (guidance.py)
    "Instruction", "instruction_lines",
]
