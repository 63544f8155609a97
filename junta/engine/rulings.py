"""The GameMaster's rulings on a state: what a GM may change by hand, and how (docs/rulings.md
§rulings-gm; which rulings a state admits now, with which values: `ruling_options`).

Each ruling is a pure function: it takes a state and the ruling's arguments and returns a
`Ruling` (the new state, a copy: the state ruled on is never changed; a summary in words; the
facts an audit log keeps), or raises `RulingError` with a message for the GM that names what is
wrong. The arguments are checked first; then the result is checked against the rules'
invariants (`invariants.change_problems`: the money in the game stays the same, each political
card stays in exactly one place, no pocket or bank goes negative, the dead hold nothing, units
stand on the city's zones...), so no ruling can leave a state the rules could not reach.

The rulings tell the players nothing by themselves: the GM's announcement does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import catalog
from .budget_plan import pay_plan, read_allocations
from .enums import PhaseKind, Status
from .invariants import change_problems
from .problems import Problem
from .state import GameState, Player
from .state_shapes import UnitKind
from .units import CARD_UNITS, FOREIGN_FORCES, new_unit

OUT_OF_PLAY = "out"  # the pot of money paid for card costs (`GameState.spent`)
POCKETS = ("pocket", "bank")
CARD_TARGETS = ("discard", "deck_top", "deck_bottom")  # and "hand:<seat>", "influence:<seat>"
MAX_NAME = 60
# The kinds of unit the rules put on the map: the positions' units (docs/rules.md §positions,
# §units), the unit cards' (`units.CARD_UNITS`) and the foreign forces that stand on it (the
# Airstrikes do not). A unit the GM adds is one of them, never a name he makes up.
POSITION_UNIT_KINDS: tuple[UnitKind, ...] = (
    "Palace Guard", "Police", "Soldier", "Tank", "Marine", "Paratrooper", "Bodyguard",
    "Labor Rioter")
UNIT_KINDS: tuple[UnitKind, ...] = tuple(dict.fromkeys([
    *POSITION_UNIT_KINDS, *(spec.kind for spec in CARD_UNITS.values()),
    *(kind for kind, _ in FOREIGN_FORCES.values() if kind != "Airstrike")]))
_UNIT_KIND_NAMED: dict[str, UnitKind] = {kind: kind for kind in UNIT_KINDS}


class RulingError(ValueError):
    """A ruling the rules do not allow; the message says why, for the GM. `problems` are the
    same messages keyed by the ruling's argument they are about (`Problem.arg`: "amount",
    "target"...; None for the ruling as a whole), for a form to show each by its field."""

    def __init__(self, message: str, arg: str | None = None,
                 problems: tuple[Problem, ...] = ()) -> None:
        super().__init__(message)
        self.problems: tuple[Problem, ...] = problems or (Problem(message, arg),)

    @property
    def arg(self) -> str | None:
        """The argument the (first) message is about."""
        return self.problems[0].arg


@dataclass(frozen=True)
class Ruling:
    """A ruling's outcome: the new state, what was done in words, and the facts to record."""
    state: GameState
    summary: str
    facts: dict[str, Any] = field(default_factory=dict)


def checked(before: GameState, after: GameState, summary: str, facts: dict[str, Any]
            ) -> Ruling:
    """The ruling that turns `before` into `after`, refused if it breaks an invariant."""
    problems = change_problems(before, after)
    if problems:
        raise RulingError("This ruling would break the rules: " + "; ".join(problems) + ".")
    return Ruling(after, summary, facts)


# --- where money and cards lie ----------------------------------------------------------------

def pot_label(state: GameState, key: str) -> str:
    """"out of play", "Ana's pocket", "Ana's Swiss bank account" for "out", "pocket:0",
    "bank:0"."""
    if key == OUT_OF_PLAY:
        return "out of play"
    where, _, seat = key.partition(":")
    words = {"pocket": "pocket", "bank": "Swiss bank account"}[where]
    return f"{state.name(int(seat))}'s {words}"


def parse_pot(state: GameState, key: str, arg: str | None = None
              ) -> tuple[str, Player | None]:
    """("pocket" or "bank", the player) or (`OUT_OF_PLAY`, None) for a pot's key (`arg`: the
    ruling's argument that names it, for the message)."""
    if key == OUT_OF_PLAY:
        return OUT_OF_PLAY, None
    where, _, seat = (key if isinstance(key, str) else "").partition(":")
    if where not in POCKETS or not seat.isdigit():
        raise RulingError(f"{key!r} is not a pocket, a bank account or out of play.", arg)
    return where, seat_of(state, int(seat), arg)


def card_place(state: GameState, card_id: int) -> str:
    """Where a political card lies: "deck", "discard", "hand:<seat>" or "influence:<seat>"
    ("nowhere" in a broken state)."""
    if card_id in state.political_deck:
        return "deck"
    if card_id in state.political_discard:
        return "discard"
    for p in state.players:
        if card_id in p.hand:
            return f"hand:{p.seat}"
        if card_id in p.influence:
            return f"influence:{p.seat}"
    return "nowhere"


def place_label(state: GameState, place: str) -> str:
    """A card's place (`card_place`, or a target of `move_card`) in words."""
    if place in ("deck", "deck_top"):
        return "the top of the draw pile" if place == "deck_top" else "the draw pile"
    if place == "deck_bottom":
        return "the bottom of the draw pile"
    if place == "discard":
        return "the discard pile"
    where, _, seat = place.partition(":")
    if where == "hand":
        return f"{state.name(int(seat))}'s hand"
    if where == "influence":
        return f"in play before {state.name(int(seat))}"
    return place


def seat_of(state: GameState, seat: Any, arg: str | None = "seat") -> Player:
    """The player at `seat`, or a `RulingError` (about `arg`) when there is none."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise RulingError(f"There is no seat {seat} in this campaign.", arg)
    return state.players[seat]


# --- the rulings ------------------------------------------------------------------------------

def move_money(state: GameState, source: str, target: str, amount: int) -> Ruling:
    """Move money between pockets, bank accounts and out of play (money paid for card costs):
    the money in the game stays the same."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise RulingError("Move a whole number of MP, 1 or more.", "amount")
    if source == target:
        raise RulingError("The money would go where it already is.", "target")
    new = state.copy()
    src_kind, src = parse_pot(new, source, "source")
    dst_kind, dst = parse_pot(new, target, "target")
    if src_kind == OUT_OF_PLAY:
        if new.spent < amount:
            raise RulingError(f"Only {new.spent} MP is out of play.", "amount")
        new.spent -= amount
    else:
        assert src is not None
        have = getattr(src, src_kind)
        if have < amount:
            raise RulingError(f"{pot_label(new, source)} holds {have} MP, not {amount} MP.",
                              "amount")
        setattr(src, src_kind, have - amount)
    if dst_kind == OUT_OF_PLAY:
        new.spent += amount
    else:
        assert dst is not None
        if dst_kind == "pocket" and dst.status == Status.DEAD:
            raise RulingError(f"{dst.name} is dead: the dead keep no pocket money (the bank "
                              "account survives). Pay into the bank account instead.",
                              "target")
        setattr(dst, dst_kind, getattr(dst, dst_kind) + amount)
    summary = f"{amount} MP from {pot_label(new, source)} to {pot_label(new, target)}"
    return checked(state, new, summary, {"source": source, "target": target, "amount": amount})


def move_card(state: GameState, card_id: int, target: str) -> Ruling:
    """Move a political card to a hand, into play before a player (Influence cards), onto the
    discard pile or the draw pile (top or bottom). Each card stays in exactly one place."""
    if isinstance(card_id, bool) or not isinstance(card_id, int) \
            or not 0 <= card_id < len(catalog.cards()):
        raise RulingError("There is no such political card.", "card")
    card = catalog.card(card_id)
    new = state.copy()
    origin = card_place(new, card_id)
    if origin == "nowhere":
        raise RulingError(f"{card.name} lies nowhere in this state: run the replay check.",
                          "card")
    where, _, seat_text = (target if isinstance(target, str) else "").partition(":")
    if target == origin or (target == "deck_top" and origin == "deck"
                            and new.political_deck[-1] == card_id):
        raise RulingError(f"{card.name} is already there.", "target")
    dest = None
    if where in ("hand", "influence"):
        if not seat_text.isdigit():
            raise RulingError("Name the player who gets the card.", "target")
        dest = seat_of(new, int(seat_text), "target")
        if dest.status == Status.DEAD:
            raise RulingError(f"{dest.name} is dead: the dead hold no cards.", "target")
        if where == "influence" and card.category != "influence":
            raise RulingError(f"Only Influence cards lie in play before a player; {card.name} "
                              f"is {_a(card.category.replace('_', ' '))} card.", "target")
        moving_within = origin.partition(":")[2] == seat_text
        if not moving_within and new.cards_held(dest.seat) >= catalog.HAND_LIMIT:
            raise RulingError(f"{dest.name} already holds {new.cards_held(dest.seat)} cards "
                              "(hand and Influence in play), the limit: move one away first.",
                              "target")
    elif target not in CARD_TARGETS:
        raise RulingError(f"{target!r} is not a place for a card.", "target")
    lift(new, card_id, origin)
    if dest is not None:
        getattr(dest, where).append(card_id)
    elif target == "discard":
        new.political_discard.append(card_id)
    elif target == "deck_top":
        new.political_deck.append(card_id)  # the top card is the last element
    else:
        new.political_deck.insert(0, card_id)
    summary = (f"{card.name} (card {card_id}) from {place_label(new, origin)} to "
               f"{place_label(new, target)}")
    return checked(state, new, summary, {"card": card_id, "card_name": card.name,
                                         "origin": origin, "target": target})


def lift(state: GameState, card_id: int, origin: str) -> None:
    """Take a card from where it lies (`card_place`), in place."""
    if origin == "deck":
        state.political_deck.remove(card_id)
    elif origin == "discard":
        state.political_discard.remove(card_id)
    else:
        pile, _, seat = origin.partition(":")
        getattr(state.players[int(seat)], pile).remove(card_id)


NO_LOCATIONS_YET = ("Nobody has a location yet this turn: locations are chosen when the "
                    "Locations phase is carried out, and the players' location orders would "
                    "replace one set now. In the Locations phase, give a player's location "
                    "order for him instead.")


def locations_chosen(state: GameState) -> bool:
    """Whether this turn's locations are chosen: from the Locations step to the end of the turn
    (through a coup) the living have one; before it nobody has (docs/rules.md §location)."""
    return any(p.location for p in state.players if p.alive)


def set_location(state: GameState, seat: int, location: str | None) -> Ruling:
    """Set a player's location this turn (or clear it, with None), once the turn's locations
    are chosen: before, the location orders would replace it."""
    if not locations_chosen(state):
        raise RulingError(NO_LOCATIONS_YET)
    new = state.copy()
    player = seat_of(new, seat)
    if not player.alive:
        raise RulingError(f"{player.name} is {player.status}: only the living have a location.",
                          "seat")
    value = location or None
    if value is not None and value not in catalog.LOCATIONS:
        raise RulingError(f"{value!r} is not a location (Home, HQ, Bank, Club, Mistress).",
                          "location")
    old = player.location
    label = catalog.LOCATION_NAMES.get(value or "", "no location")
    if old == value:
        where = f"is at {label}" if value else "has no location"
        raise RulingError(f"{player.name} {where} already: nothing would change.", "location")
    player.location = value
    return checked(state, new, f"{player.name}'s location set to {label}",
                   {"seat": seat, "location": value, "was": old})


NO_COUP = "There is no coup under way: units are on the map only in a coup."


def add_unit(state: GameState, kind: str, owner: int | None, zone: int,
             armed: bool | None = None) -> Ruling:
    """Put a unit of one of the rules' kinds (`UNIT_KINDS`) on the city map during a coup,
    armed or not as the rules have that kind unless `armed` says otherwise. It is the GM's
    creation, like a card's units: it leaves the map when the coup ends."""
    if state.coup is None:
        raise RulingError(NO_COUP)
    name = _UNIT_KIND_NAMED.get(kind) if isinstance(kind, str) else None
    if name is None:
        raise RulingError(f"{kind!r} is not a kind of unit in the rules: choose one of "
                          f"{', '.join(UNIT_KINDS)}.", "kind")
    if isinstance(zone, bool) or zone not in catalog.zones():
        raise RulingError(f"There is no zone {zone} in the city (1-{len(catalog.zones())}).",
                          "zone")
    if armed is not None and not isinstance(armed, bool):
        raise RulingError("Say whether the unit is armed: yes, no, or as the rules have it.",
                          "armed")
    new = state.copy()
    if owner is not None:
        player = seat_of(new, owner, "owner")
        if not player.active:
            raise RulingError(f"{player.name} is {player.status} and commands no units.",
                              "owner")
    assert new.coup is not None
    unit = new_unit(new.coup, name, owner, zone, phase=new.coup["phase"], temporary=True,
                    armed=armed)
    who = new.name(owner) if owner is not None else "nobody"
    summary = (f"{_a(name)} (unit {unit['id']}) commanded by {who} in zone {zone} "
               f"{catalog.zones()[zone].name}")
    return checked(state, new, summary, {"unit": unit["id"], "kind": name, "owner": owner,
                                         "zone": zone, "armed": unit["armed"]})


def remove_unit(state: GameState, unit_id: int) -> Ruling:
    """Take a unit off the city map during a coup."""
    if state.coup is None:
        raise RulingError(NO_COUP)
    new = state.copy()
    assert new.coup is not None
    unit = next((u for u in new.coup["units"] if u["id"] == unit_id), None)
    if unit is None:
        raise RulingError(f"There is no unit {unit_id} on the map.", "unit")
    new.coup["units"].remove(unit)
    who = new.name(unit["owner"]) if unit["owner"] is not None else "nobody"
    zone = unit["zone"]
    where = (f"zone {zone} {catalog.zones()[zone].name}" if zone in catalog.zones()
             else "the map")
    return checked(state, new, f"{unit['kind']} (unit {unit_id}) of {who} removed from {where}",
                   {"unit": unit_id, "removed": dict(unit)})


NO_FIAT = ("A budget by fiat replaces the proposal being voted on, in the Budget Vote phase. In "
           "the Budget Proposal phase the budget is the proposer's order: give it for him from "
           "the Rulings page instead.")


def fiat_bills(state: GameState) -> list[int]:
    """The budget bills a budget by fiat pays from: those held, less the proposer's pocket
    money set aside with them (1 MP units, docs/rulings.md §ruling-pocket-set-aside)."""
    held = list(state.budget.get("held", []))
    for _ in range(state.budget.get("set_aside") or 0):
        held.remove(1)
    return held


def budget_by_fiat(state: GameState, allocations: dict[int, int]) -> Ruling:
    """Replace the budget put to the vote by one the GM decrees, paid out of the budget bills
    alone (when the proposal cannot be paid in time). Pocket money the proposer set aside goes
    back to him; what is not allocated stays with the budget holder, as in the rules."""
    if state.phase != PhaseKind.BUDGET_VOTE:
        raise RulingError(NO_FIAT)
    new = state.copy()
    budget = new.budget
    held = fiat_bills(new)
    set_aside = budget.get("set_aside") or 0
    proposer = budget.get("proposer", new.president)
    raw = ({str(k): v for k, v in allocations.items()} if isinstance(allocations, dict)
           else allocations)
    wanted, errors = read_allocations(new, {"allocations": raw})
    if errors:
        raise RulingError(" ".join(errors), "allocations")
    plan, _ = pay_plan(held, wanted, 0, None, new)
    if plan is None:
        bills = ", ".join(f"{b} MP" for b in sorted(held, reverse=True)) or "no bills"
        raise RulingError(f"The budget bills ({bills}; {sum(held)} MP) cannot pay these "
                          "amounts exactly: lower or change them (what is not allocated stays "
                          "with the budget holder).", "allocations")
    if set_aside:
        if proposer is not None:
            new.players[proposer].pocket += set_aside
        else:
            new.spent += set_aside
    budget["held"] = held
    budget["set_aside"] = 0
    given = {str(k): v for k, v in sorted(wanted.items())}
    budget["proposal"] = {
        "allocations": given, "from_pocket": 0,
        "bills": {str(k): v for k, v in plan["bills"].items()}, "top_up": {}, "fiat": True,
    }
    lines = ", ".join(f"{new.name(k)} {v} MP" for k, v in sorted(wanted.items()))
    return checked(state, new, f"budget by fiat: {lines or 'nothing for anyone'}",
                   {"allocations": dict(given), "returned_to_proposer": set_aside})


def name_character(state: GameState, seat: int, name: str) -> Ruling:
    """Give the character at `seat` another name (a new player takes the seat over)."""
    new = state.copy()
    player = seat_of(new, seat)
    value = (name if isinstance(name, str) else "").strip()[:MAX_NAME]
    if not value:
        raise RulingError("Give the character a name.", "name")
    old = player.name
    player.name = value
    return checked(state, new, f"seat {seat + 1}'s character {old} is now called {value}",
                   {"seat": seat, "name": value, "was": old})


def _a(word: str) -> str:
    """"a card", "an assassin card"."""
    return f"a{'n' if word[:1].lower() in 'aeiou' else ''} {word}"
