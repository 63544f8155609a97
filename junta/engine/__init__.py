"""The rules of Junta as a pure library: state in, orders in, new state and events out.

Standard library only, no wall clock, no global random: every roll comes from the generator
whose counter lives in the state, so each phase replays exactly.

This module is the engine's public interface: code outside `junta.engine` imports only the
names below, never a submodule (an import-linter contract in pyproject.toml checks it).
"""

from typing import Any

from . import catalog as _catalog
from .assassins import attempt_of
from .bots import BOT_STYLES, bot_orders
from .card_steps import UNIT_CARDS
from .catalog import Card, Zone
from .data_words import NAMES as DATA_NAMES
from .enums import PhaseKind, Status, Step
from .events import PUBLIC, Event
from .flow import DAYS as PHASE_DAYS
from .flow import (
    PhaseInfo,
    campaign_running,
    coup_phase_title,
    current_phase,
    is_finished,
    owes_orders,
    public_owes_orders,
    why_no_orders,
)
from .guidance import Instruction, instruction_lines, instructions
from .invariants import change_problems, state_problems
from .kind_rules import kinds_by_section, option_rules
from .kinds import ORDER_KINDS, MapForm, MapShape, arranged, describe_order, takes_the_place_of
from .labels import CARD_CATEGORIES, FORCE_NAMES, unit_label, zone_name
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
from .order import Condition, Order
from .order_facts import (
    MapMark,
    is_assassination,
    is_rebel_action,
    map_mark,
    map_values,
    option_form,
    option_sentence,
    played_card,
    stack_ends,
)
from .orders import (
    OrderError,
    parse_order,
    parse_orders,
    validate_order,
    validate_orders,
)
from .problems import Problem
from .repeat import LeftOut, RepeatPlan, repeat_orders, repeated_phases
from .resolve import Resolution, resolve
from .rng import Rng
from .ruling_offers import (
    RULING_KINDS,
    RulingOption,
    RulingOptions,
    TextArg,
    rule,
    ruling_options,
)
from .rulings import (
    OUT_OF_PLAY,
    UNIT_KINDS,
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
from .state import (
    BIL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    Player,
    data_digest,
    digest,
    new_game,
)
from .state_shapes import (
    Budget,
    BudgetOutcome,
    BudgetProposal,
    Coup,
    CoupSide,
    Election,
    ElectionReason,
    ForeignForce,
    ForeignIntervention,
    GameOptions,
    Motion,
    Nomination,
    RebelOrder,
    TurnFlags,
    Unit,
    UnitKind,
)
from .steps import PHASE_TITLES
from .talk import may_write_to_gm, why_no_talk
from .units import CONTROL_POINTS, has_new_weapons
from .versions import CHANGELOG as ENGINE_CHANGELOG
from .versions import ENGINE_VERSION, changes_since, is_known_version, is_older_version
from .visibility import (
    BoardRow,
    BudgetView,
    CardView,
    CoupView,
    ElectionView,
    ForeignView,
    MoneyView,
    MotionView,
    NominationView,
    PlayerPublic,
    PrivateView,
    ProposalView,
    PublicView,
    StateView,
    UnitView,
    board_summary,
    view_for,
)
from .words import Words


class Catalog:
    """The game's fixed data, read-only (`catalog.py`): the cabinet positions and their titles,
    the locations, the money deck, the political cards and the city's zones. Outside the engine,
    pages and forms look them up here: `Catalog.TITLES[key]`, `Catalog.card(card_id).name`."""

    PRESIDENT = _catalog.PRESIDENT
    INTERNAL_SECURITY = _catalog.INTERNAL_SECURITY
    GENERAL_1 = _catalog.GENERAL_1
    GENERAL_2 = _catalog.GENERAL_2
    GENERAL_3 = _catalog.GENERAL_3
    ADMIRAL = _catalog.ADMIRAL
    AIR_FORCE = _catalog.AIR_FORCE
    WAR = _catalog.WAR
    FOREIGN = _catalog.FOREIGN
    FARM_LABOR = _catalog.FARM_LABOR
    POSITIONS = _catalog.POSITIONS
    TITLES = _catalog.TITLES
    LOCATIONS = _catalog.LOCATIONS
    LOCATION_NAMES = _catalog.LOCATION_NAMES
    MONEY_DECK = _catalog.MONEY_DECK
    KNOWN_BILLS = _catalog.KNOWN_BILLS

    @staticmethod
    def cards() -> tuple[Card, ...]:
        return _catalog.cards()

    @staticmethod
    def card(card_id: int) -> Card:
        return _catalog.card(card_id)

    @staticmethod
    def zones() -> dict[int, Zone]:
        return _catalog.zones()

    @staticmethod
    def city() -> dict[str, Any]:
        """The map's raw data (bridges, initial deployment...) as read from map.json."""
        return _catalog.city()


__all__ = [
    # the engine's version and what each changed (versions.py)
    "ENGINE_CHANGELOG", "changes_since", "is_known_version", "is_older_version",
    "BIL", "CARD_CATEGORIES", "ENGINE_VERSION", "MAX_PLAYERS", "MIN_PLAYERS", "ORDER_KINDS",
    "OUT_OF_PLAY",
    "ArgOption", "Choice", "Condition",
    "ConditionOption", "Event", "GameState", "Options", "Order", "OrderError", "OrderOption",
    "PhaseInfo", "PhaseKind", "Player", "Problem", "Resolution", "Shape", "Status", "Step",
    "board_summary", "build", "campaign_running", "condition_detail", "coup_phase_title",
    "current_phase",
    "data_digest", "describe_order", "digest",
    "instructions", "is_finished", "legal_options", "new_game", "option_for", "owes_orders",
    "public_owes_orders", "why_no_orders", "why_no_talk", "may_write_to_gm",
    "parse_order", "parse_orders", "resolve", "takes_the_place_of", "validate_order",
    "arranged",
    "validate_orders", "values_of", "view_for",
    # what each viewer sees of the state, as view_for and board_summary give it (visibility.py)
    "BoardRow", "BudgetView", "CardView", "CoupView", "ElectionView", "ForeignView",
    "MoneyView", "MotionView", "NominationView", "PlayerPublic", "PrivateView", "ProposalView",
    "PublicView", "StateView", "UnitView",
    # GM rulings and the invariants they keep (rulings.py, invariants.py)
    "Ruling", "RulingError", "add_unit", "budget_by_fiat", "card_place", "change_problems",
    "move_card", "move_money", "name_character", "place_label", "pot_label", "remove_unit",
    "set_location", "state_problems",
    # the rulings on offer now, as legal_options for orders, and one carried out as offered
    # (ruling_offers.py)
    "RULING_KINDS", "UNIT_KINDS", "RulingOption", "RulingOptions", "TextArg", "rule",
    "ruling_options",
    # each Status instruction with the rules section it explains (guidance.py)
    "Instruction", "instruction_lines",
    # for the pages: the fixed data, phase titles and lengths, labels, an event's audience
    "CONTROL_POINTS", "FORCE_NAMES", "PHASE_DAYS", "PHASE_TITLES", "PUBLIC",
    "UNIT_CARDS", "Card", "Catalog", "Zone", "has_new_weapons", "unit_label", "zone_name",
    # the map's shapes, sentences and stacks, and what an order is (order_facts.py)
    "MapForm", "MapMark", "MapShape", "is_assassination", "is_rebel_action", "map_mark",
    "attempt_of",  # an attempt's arguments, typed (assassins.py)
    "map_values", "option_form", "option_sentence", "played_card", "stack_ends",
    # the same orders as last time: which phases repeat, and the plan (repeat.py)
    "LeftOut", "RepeatPlan", "repeat_orders", "repeated_phases",
    # the sections of the rules each order kind comes from (kind_rules.py)
    "kinds_by_section", "option_rules",
    # random bots and the seeded generator they draw from (bots/, rng.py)
    "Rng", "bot_orders", "BOT_STYLES",
    # the shapes of the dicts a state holds, for the type checker (state_shapes.py)
    "Budget", "BudgetOutcome", "BudgetProposal", "Coup", "CoupSide", "Election",
    "ElectionReason", "ForeignForce", "ForeignIntervention", "GameOptions", "Motion",
    "Nomination", "RebelOrder", "TurnFlags", "Unit", "UnitKind",
    # what the engine says, as a message id and its parameters, for the pages to say it in
    # their reader's language (words.py), and the data names marked for the catalogue
    "Words", "DATA_NAMES",
]
