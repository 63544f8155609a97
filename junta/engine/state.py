"""The complete state of a campaign, as plain data that round-trips through JSON.

Everything the rules need lives here, secrets included: hands, pockets, the order of both decks,
the hidden extra bills and the generator's counter. Nothing outside the engine reads it directly:
people get a `visibility.view_for` copy that holds only what they may see.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from . import catalog
from .enums import PhaseKind, Status
from .rng import Rng
from .state_shapes import (
    Budget,
    Coup,
    Election,
    GameOptions,
    Motion,
    Nomination,
    RebelOrder,
    TurnFlags,
)

SCHEMA = 1  # the shape of `GameState.to_dict`'s JSON: raise it with a step in UPGRADES
BIL = -1  # the President's Brother-in-Law holds a position: not a player, ordered by the President


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    status: Status = Status.ALIVE
    life: int = 1  # which character of this family (a new one after each death)
    hand: list[int] = field(default_factory=list)
    influence: list[int] = field(default_factory=list)  # Influence cards in play
    pocket: int = 0
    bank: int = 0
    location: str | None = None  # this turn's location (secret until it matters)
    last_location: str | None = None
    rebel: bool = False
    fresh: bool = True  # draws 4 cards at the next Cabinet Appointment (turn 1, after death)

    def __post_init__(self) -> None:
        self.status = Status(self.status)  # "dead" read from JSON: Status.DEAD

    def copy(self) -> Player:
        """A new Player equal to this one (as `from_dict` would rebuild it: the status a
        `Status`) that shares no list with it. Built field by field without `__init__`."""
        new = object.__new__(Player)
        new.seat = self.seat
        new.name = self.name
        status = self.status
        new.status = status if status.__class__ is Status else Status(status)
        new.life = self.life
        new.hand = list(self.hand)
        new.influence = list(self.influence)
        new.pocket = self.pocket
        new.bank = self.bank
        new.location = self.location
        new.last_location = self.last_location
        new.rebel = self.rebel
        new.fresh = self.fresh
        return new

    @property
    def alive(self) -> bool:
        return self.status == Status.ALIVE

    @property
    def active(self) -> bool:
        """Alive and in the country: may act, trade and hold a position."""
        return self.status == Status.ALIVE


@dataclass(slots=True)
class GameState:
    seed: str
    players: list[Player]
    money_deck: list[int]  # the top bill is the last element
    extra_bills: int  # hidden: known to the GM only until the end
    political_deck: list[int]  # the top card is the last element
    political_discard: list[int] = field(default_factory=list)
    rng_counter: int = 0
    schema: int = SCHEMA
    turn: int = 0
    phase: PhaseKind = PhaseKind.NOMINATION
    phase_number: int = 1
    positions: dict[str, int | None] = field(default_factory=dict)
    nominations: dict[str, Nomination] = field(default_factory=dict)  # str(seat) -> his
    election: Election | None = None  # an election under way
    motion: Motion | None = None  # a special motion under way (the President's competence)
    # the phase an inserted election or motion returns to, or "start_turn"
    resume_phase: str | None = None
    budget: Budget = field(default_factory=Budget)
    new_weapons: str | None = None
    bank_status: str = "open"  # open, closed_for_lunch, closed
    coup_excuse: bool = False
    budget_failed: bool = False
    chamber_seized: bool = False
    first_rebel: int | None = None
    rebel_orders: list[RebelOrder] = field(default_factory=list)
    coup: Coup | None = None  # the map during a coup: units, strikes used, votes, control
    secret_police_bank_turn: int | None = None
    pending_returns: list[int] = field(default_factory=list)  # exiles asking to come back
    turn_flags: TurnFlags = field(default_factory=TurnFlags)  # effects until the turn ends
    spent: int = 0  # money paid for card costs: out of play for good
    finished: bool = False
    winners: list[int] = field(default_factory=list)
    options: GameOptions = field(default_factory=GameOptions)

    def __post_init__(self) -> None:
        self.phase = PhaseKind(self.phase)  # "coup" read from JSON: PhaseKind.COUP

    # --- helpers ---------------------------------------------------------------------------
    def player(self, seat: int) -> Player:
        return self.players[seat]

    def name(self, seat: int) -> str:
        if seat == BIL:
            return "the President's Brother-in-Law"
        return self.players[seat].name

    def rng(self) -> Rng:
        return Rng(self.seed, self.rng_counter)

    def save_rng(self, rng: Rng) -> None:
        self.rng_counter = rng.counter

    @property
    def president(self) -> int | None:
        return self.positions.get(catalog.PRESIDENT)

    def positions_of(self, seat: int) -> list[str]:
        held = self.positions.get
        return [p for p in catalog.POSITIONS if held(p) == seat]

    def commanded_positions(self, seat: int) -> list[str]:
        """Positions whose powers this player exercises: his own, and the Brother-in-Law's
        when he is President (docs/rules.md §brother-in-law)."""
        own = self.positions_of(seat)
        if seat == self.president:
            own += [p for p in catalog.POSITIONS if self.positions.get(p) == BIL]
        return own

    def commander(self, position: str) -> int | None:
        holder = self.positions.get(position)
        if holder == BIL:
            return self.president
        return holder

    def active_seats(self) -> list[int]:
        return [p.seat for p in self.players if p.active]

    def cards_held(self, seat: int) -> int:
        """Cards counted against the hand limit: hand plus Influence in play."""
        p = self.players[seat]
        return len(p.hand) + len(p.influence)

    def bills_total(self) -> int:
        """Money in the game: deck, pockets, banks, budget bills in transit and spent costs."""
        in_transit: int = sum(self.budget.get("held", []))
        return (sum(self.money_deck) + sum(p.pocket + p.bank for p in self.players)
                + in_transit + self.spent)

    # --- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:  # Any: JSON's values (what `json.loads` gives back)
        """Plain data for JSON: the phase, the statuses and the resumed phase as strings. What
        `dataclasses.asdict` gives (tests/engine/test_state_copy.py), field by field: each
        value copied as `_clone` copies plain data, the players made dicts."""
        data = {name: _plain(getattr(self, name)) if name != "players" else [
            {field_name: _plain(getattr(p, field_name)) for field_name in _PLAYER_FIELDS}
            for p in self.players] for name in _STATE_FIELDS}
        for p in data["players"]:
            p["status"] = str(p["status"])
        data["phase"] = str(self.phase)
        if self.resume_phase is not None:
            data["resume_phase"] = str(self.resume_phase)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:  # Any: JSON's, as `to_dict`
        """The state `to_dict` wrote, under this schema or an older one (`upgrade`)."""
        data = upgrade(_clone(data))  # JSON's dicts and lists: the state shares none of them
        players = [Player(**p) for p in data.pop("players")]
        known = {f.name for f in fields(cls)}
        return cls(players=players, **{k: v for k, v in data.items() if k in known})

    def copy(self) -> GameState:
        """The same state as `GameState.from_dict(self.to_dict())`, built field by field
        without serialising: it shares no list, dict or Player with this one, so changing
        either never changes the other. A field added to GameState or Player must be added to
        its `copy` as well (tests/engine/test_state_copy.py fails until it is)."""
        new = object.__new__(GameState)
        new.seed = self.seed
        new.players = [p.copy() for p in self.players]
        new.money_deck = list(self.money_deck)
        new.extra_bills = self.extra_bills
        new.political_deck = list(self.political_deck)
        new.political_discard = list(self.political_discard)
        new.rng_counter = self.rng_counter
        new.schema = self.schema
        new.turn = self.turn
        phase = self.phase
        new.phase = phase if phase.__class__ is PhaseKind else PhaseKind(phase)
        new.phase_number = self.phase_number
        new.positions = dict(self.positions)
        new.nominations = _clone(self.nominations)
        new.election = _clone(self.election)
        new.motion = _clone(self.motion)
        # `to_dict` writes the resumed phase as a plain string
        new.resume_phase = None if self.resume_phase is None else str(self.resume_phase)
        new.budget = _clone(self.budget)
        new.new_weapons = self.new_weapons
        new.bank_status = self.bank_status
        new.coup_excuse = self.coup_excuse
        new.budget_failed = self.budget_failed
        new.chamber_seized = self.chamber_seized
        new.first_rebel = self.first_rebel
        new.rebel_orders = _clone(self.rebel_orders)
        new.coup = None if self.coup is None else _copy_coup(self.coup)
        new.secret_police_bank_turn = self.secret_police_bank_turn
        new.pending_returns = list(self.pending_returns)
        new.turn_flags = _clone(self.turn_flags)
        new.spent = self.spent
        new.finished = self.finished
        new.winners = list(self.winners)
        new.options = _clone(self.options)
        return new


# `to_dict`'s fields, in order (each player a dict of his own)
_STATE_FIELDS = tuple(f.name for f in fields(GameState))
_PLAYER_FIELDS = tuple(f.name for f in fields(Player))


# The steps that bring a state stored under an older schema to today's: UPGRADES[n] changes, in
# place, the JSON of a schema-n state into that of schema n + 1. A change to the shape of
# `to_dict`'s JSON raises SCHEMA and adds its step here, so that every stored state of every
# campaign still loads. None yet: every state ever stored is of schema 1.
UPGRADES: dict[int, Callable[[dict[str, Any]], None]] = {}  # Any: JSON's values


def upgrade(data: dict[str, Any]) -> dict[str, Any]:  # Any: JSON's values
    """`data`, the JSON of a stored state, brought to today's schema (changed in place): each
    step of UPGRADES from its schema on (1 when it names none)."""
    schema = data.get("schema", 1)
    if not isinstance(schema, int) or not 1 <= schema <= SCHEMA:
        raise ValueError(f"a state of schema {schema!r}: this engine reads 1 to {SCHEMA}")
    while schema < SCHEMA:
        UPGRADES[schema](data)
        schema += 1
        data["schema"] = schema
    return data


# Values that are never changed in place: a copy may share them.
_ATOMIC: frozenset[type] = frozenset({
    int, str, bool, float, type(None), Status, PhaseKind,
})


def _copy_coup(coup: Coup) -> Coup:
    """`_clone(coup)`, faster, key by key (`state_shapes.Coup`; a key added there is copied here
    too, or tests/engine/test_state_copy.py fails): the units are dicts of plain values only
    (`units.new_unit`), each copied with `dict.copy` without looking inside."""
    new = coup.copy()
    new["units"] = [unit.copy() for unit in coup["units"]]
    new["foreign"] = _clone(coup["foreign"])
    new["agitator_zones"] = list(coup["agitator_zones"])
    new["votes"] = dict(coup["votes"])
    new["control"] = dict(coup["control"])
    if "casualties_last" in coup:
        new["casualties_last"] = {seat: list(kinds)
                                  for seat, kinds in coup["casualties_last"].items()}
    return new


def _plain(value: Any) -> Any:  # Any: a field's value, as `_clone`
    return value if value.__class__ in _ATOMIC else _clone(value)


def _clone(value: Any) -> Any:  # Any: any JSON value (and the state's dicts of JSON values)
    """A copy of plain data (dicts, lists and tuples of numbers, strings, booleans and None, as
    JSON gives them) that shares no dict or list with `value`; any other kind of value is
    deep-copied."""
    cls = value.__class__
    if cls is dict:  # built by a comprehension: faster than a copy mended value by value
        return {key: item if item.__class__ in _ATOMIC else _clone(item)
                for key, item in value.items()}
    if cls is list:
        return [item if item.__class__ in _ATOMIC else _clone(item) for item in value]
    if cls in _ATOMIC:
        return value
    if cls is tuple:
        return tuple(_clone(item) for item in value)
    return copy.deepcopy(value)


def canonical_json(data: Any) -> str:  # Any: what `json.dumps` takes
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def digest(state: GameState) -> str:
    """A SHA-256 of the whole state: equal digests mean equal campaigns."""
    return data_digest(state.to_dict())


def data_digest(data: dict[str, Any]) -> str:  # Any: JSON's values
    """The digest of a state stored as `to_dict` wrote it, read from that data without building
    the state: `data_digest(s.to_dict()) == digest(s)`."""
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


MIN_PLAYERS, MAX_PLAYERS = 6, 10  # Junta is played by six to ten (docs/rules.md §about)


def new_game(seed: str, players: list[str], options: GameOptions | None = None) -> GameState:
    """A campaign before its first election: decks shuffled, extra bills hidden in the money deck.

    Six to ten players (docs/rules.md §about). options: `extra_bills_min`/`extra_bills_max`
    (default 0-14) bound the hidden extra bills (docs/rules.md §money-deck).
    """
    options = options.copy() if options else GameOptions()
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"Junta is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if len(set(players)) != len(players):
        raise ValueError("players need distinct names")
    rng = Rng(seed)
    low = int(options.get("extra_bills_min", 0))
    high = int(options.get("extra_bills_max", 14))
    if not 0 <= low <= high <= 14:
        raise ValueError("the hidden extra bills range lies within 0-14")
    extra = rng.between(low, high)
    money = [d for d, n in sorted(catalog.MONEY_DECK.items()) for _ in range(n)]
    money += [rng.between(1, 3) for _ in range(extra)]
    rng.shuffle(money)
    political = [c.id for c in catalog.cards()]
    rng.shuffle(political)
    state = GameState(
        seed=seed,
        players=[Player(seat=i, name=n) for i, n in enumerate(players)],
        money_deck=money,
        extra_bills=extra,
        political_deck=political,
        positions={p: None for p in catalog.POSITIONS},
        options=options,
    )
    state.election = None
    state.save_rng(rng)
    return state
