"""The shapes of the plain dicts a `GameState` holds: the coup and its units, the budget, the
election, the motion, the nominations, the Rebel-Only moves, the turn's flags and the options.

They stay dicts, as JSON gives them and `GameState.to_dict` writes them (a replay's digest is
the digest of that JSON): these TypedDicts only tell the type checker which keys each holds and
what their values are, at no cost when the engine runs. A key marked `NotRequired` (or every
key of a `total=False` dict) is sometimes absent: read it with `.get`.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# --- the coup ---------------------------------------------------------------------------------

CoupSide = Literal["junta", "president"]  # a coup vote, a control point's holder, the result

UnitKind = Literal[
    # the positions' units (`units.deploy`)
    "Palace Guard", "Police", "Soldier", "Tank", "Marine", "Paratrooper", "Bodyguard",
    "Labor Rioter",
    # those the Event cards put on the map (`units.CARD_UNITS`)
    "Striker", "Rioter", "Mob", "Peasant", "Militia", "Helicopter", "Rural Guerrilla",
    "Terrorist", "Mercenary",
    # the foreign forces that land (`units.FOREIGN_FORCES`)
    "Foreign Paratrooper", "Commando",
]


class Unit(TypedDict):
    """A unit on the city map (`units.new_unit`)."""
    id: int
    kind: UnitKind
    owner: int | None  # the seat commanding it; None: leaderless, it defends the government
    zone: int | None  # None: not on the map yet (a Marine or Paratrooper before it lands)
    position: str | None  # the position whose unit it is; None for a card's or a foreign one
    armed: bool
    new_weapons: bool  # always has New Weapons (the Bodyguard, foreign forces)
    entered: int  # the coup phase it came in (-1: in place before the coup; First Fire)
    from_zone: int | None  # where it stood at the start of this phase
    moved: int | None  # the coup phase it last moved in
    temporary: bool  # a card's or a foreign force: leaves the map after the coup
    retreated: NotRequired[int]  # the coup phase it last retreated in


ForeignForce = Literal["airstrikes", "helicopter", "paratroopers", "commandos"]


class ForeignIntervention(TypedDict):
    """The Foreign Minister's forces: the die's roll, how many he may call, those called."""
    roll: int | None  # None until Coup Phase 1 begins
    allowed: int
    chosen: list[ForeignForce]
    airstrikes_used: int  # of the foreign Air Strikes


class Coup(TypedDict):
    """The map during a coup (`units.deploy`)."""
    units: list[Unit]
    next_unit: int  # the id the next unit gets
    phase: int  # the coup phase: 0 at the Rebel-Only step, then 1 to 6
    airstrikes_used: int  # of the Air Force Commander's
    foreign: ForeignIntervention
    agitator_zones: list[int]  # where agitators came in before Coup Phase 1 (Police Response)
    votes: dict[str, CoupSide]  # str(seat) -> his side, after Coup Phase 6
    control: dict[str, CoupSide]  # str(zone) -> who holds the control point
    result: CoupSide | None
    elected: int | None  # the Junta's President, in the Aftermath
    # str(seat) -> the unit kinds he lets fall last, the first named the very last
    casualties_last: NotRequired[dict[str, list[str]]]


# --- the budget -------------------------------------------------------------------------------

BudgetOutcome = Literal["passed", "defeated", "forced", "failed"]


class BudgetProposal(TypedDict):
    """A proposed budget, and the bills that pay it (`phases.budget.proposal`)."""
    allocations: dict[str, int]  # str(seat) -> MP
    from_pocket: int
    bills: dict[str, list[int]]  # str(seat) -> the budget bills he is handed
    top_up: dict[str, int]  # str(seat) -> MP of the proposer's pocket money on top
    fiat: NotRequired[bool]  # decreed by the GM (`rulings.budget_by_fiat`)


class Budget(TypedDict, total=False):
    """This turn's budget: empty until the draws (`phases.budget.draws`)."""
    drawn: dict[str, list[int]]  # position -> the bills drawn for it
    all_drawn: list[int]
    held: list[int]  # the budget bills in transit, with the proposer's pocket money set aside
    holder: int | None  # who holds the budget bills (the President, or an Alternative Budget's)
    proposer: int | None
    proposal: BudgetProposal | None
    outcome: BudgetOutcome | None
    set_aside: int  # the proposer's pocket money in "held" (1 MP units)
    alternative_used: bool


# --- votes before a turn and during it ------------------------------------------------------

ElectionReason = Literal["initial", "resignation", "vacancy", "competence"]


class Election(TypedDict):
    """An election under way."""
    reason: ElectionReason
    round: int
    candidates: list[int] | None  # None: every player in the country
    resigned: NotRequired[int]  # the President who resigned (his pocket is frozen)


class Motion(TypedDict):
    """A motion on the President's competence under way."""
    mover: int
    president: int | None


class Nomination(TypedDict):
    """A candidate of the first election (`GameState.nominations`: str(seat) -> his)."""
    nominated_by: list[int]
    seconded_by: list[int]
    declined: bool


class RebelOrder(TypedDict):
    """A Rebel-Only move that was carried out: the mover's seat and the order's arguments."""
    seat: int
    from_zone: int
    to_zone: int


class TurnFlags(TypedDict, total=False):
    """Effects that last until the turn ends."""
    bank_after_lunch: bool  # the Bank reopened after lunch: bank in the Coup Aftermath
    amnesty: list[int]  # exiles granted Amnesty
    returned_exiles: list[int]
    demand_for_reform: int  # who played Demand for Reform
    church_desecrated: list[int]
    press_scandal: list[int]
    mole: list[int]  # who learns the budget bills
    bil_preference: str  # the position the President wants for his Brother-in-Law
    influence_discount_used: dict[str, bool]  # "seat:card" -> its discount used this turn


class GameOptions(TypedDict, total=False):
    """A campaign's options (`state.new_game`)."""
    extra_bills_min: int
    extra_bills_max: int
