"""The invariants of the rules: what holds in every state, and what no change may break.

One statement of them, shared by everything that checks a state: the random campaigns of the
soak test check every resolved phase against them, and every GM ruling (`rulings`) is refused
when its result would break one. Each check returns readable messages, empty when all holds.

Of a state (`state_problems`):
- no pocket, bank account or out-of-play sum is negative; every bill is of 1, 2 or 3 MP;
- the dead keep no cards and no pocket money (the bank account survives);
- outside the Cabinet phase nobody holds more than the hand limit (hand plus Influence in
  play): new cards are drawn at its start "even if this puts them over the Max Hand Limit", and
  the excess is discarded at its deadline;
- each political card lies in exactly one place: the draw pile, the discard pile, a hand, or in
  play before a player, and only Influence cards lie in play;
- positions are held by players in the country, or by the President's Brother-in-Law: at most
  one position, never the Presidency, and only while there is a President;
- during a coup every unit is on the map once, in a zone of the city (or not yet placed), with
  an id the map has given out, commanded by nobody or by a player in the country; no position
  has more units than it brings to a coup.

Of a change from one state to the next (`change_problems`), besides the state's invariants that
the first state kept:
- the money in the game (`GameState.bills_total`) stays the same;
- in the Cabinet phase nobody's cards grow beyond the hand limit, except when the phase opens a
  new turn (the draw), and a phase that resolves into a Cabinet phase of the same turn leaves
  nobody over it;
- the turn and the phase number never go back; units destroyed in a coup do not come back;
- when a phase resolves: the Cabinet is legal after the Cabinet Appointment; a coup opens with
  Coup Phase 1 (or an election first); after Coup Phase 6 control of the city follows the units
  ("Any territory shared by players supporting both Pro-Junta and Pro-President defaults to
  Pro-President control, as do any unoccupied territories"), 3 of the 5 control points win the
  coup, and the Aftermath follows; after the Aftermath the units leave the map and a new turn
  begins (or an election first, or the game ends).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sized

from . import catalog
from .cabinet import check_cabinet
from .enums import PhaseKind, Status
from .state import BIL, GameState
from .state_shapes import Coup, CoupSide
from .units import CONTROL_POINTS

# Units each position brings to a coup (docs/rules.md §positions: 4 Palace Guards, 4 Police, 5
# Soldiers and a Tank for each General, the Admiral's Marine, the Air Force's Paratrooper, the
# Minister of War's Bodyguard, the Farm & Labor Secretary's Labor Rioter; §units).
POSITION_UNITS: dict[str, int] = {
    catalog.PRESIDENT: 4, catalog.INTERNAL_SECURITY: 4, catalog.GENERAL_1: 6,
    catalog.GENERAL_2: 6, catalog.GENERAL_3: 6, catalog.ADMIRAL: 1, catalog.AIR_FORCE: 1,
    catalog.WAR: 1, catalog.FARM_LABOR: 1,
}
BILLS = (1, 2, 3)


def state_problems(state: GameState) -> list[str]:
    """Every invariant `state` breaks, one message each; empty when the state is sound."""
    return (_money(state) + _the_dead(state) + _hands(state) + _cards(state)
            + _positions(state) + _units(state))


def change_problems(before: GameState, after: GameState) -> list[str]:
    """What changing `before` into `after` breaks: the invariants of a state that `before`
    kept and `after` does not, and those of a change (see the module's docstring)."""
    kept = set(state_problems(before))
    problems = [p for p in state_problems(after) if p not in kept]
    if after.bills_total() != before.bills_total():
        problems.append(f"the money in the game goes from {before.bills_total()} MP to "
                        f"{after.bills_total()} MP")
    resolved = after.phase_number > before.phase_number
    if after.phase == PhaseKind.CABINET and not after.turn > before.turn:
        for p in after.players:
            held = after.cards_held(p.seat)
            grew = p.seat >= len(before.players) or held > before.cards_held(p.seat)
            if held > catalog.HAND_LIMIT and (grew or resolved):
                problems.append(f"{p.name} holds {held} cards, over the limit of "
                                f"{catalog.HAND_LIMIT}")
    if after.turn < before.turn:
        problems.append(f"the turn goes back from {before.turn} to {after.turn}")
    if after.phase_number < before.phase_number:
        problems.append(f"the phase number goes back from {before.phase_number} to "
                        f"{after.phase_number}")
    if before.coup is not None and after.coup is not None:
        old = {u["id"] for u in before.coup["units"]}
        back = sorted(u["id"] for u in after.coup["units"]
                      if u["id"] not in old and u["id"] < before.coup["next_unit"])
        if back:
            problems.append(f"units destroyed in the coup come back: {_ids(back)}")
    if resolved:
        problems += _resolution(before, after)
    return problems


# --- a state ----------------------------------------------------------------------------------

def _money(state: GameState) -> list[str]:
    problems = []
    for p in state.players:
        if p.pocket < 0 or p.bank < 0:
            problems.append(f"{p.name} has {p.pocket} MP in pocket and {p.bank} MP in the bank")
    if state.spent < 0:
        problems.append(f"{state.spent} MP is out of play")
    held = state.budget.get("held", [])
    if any(b not in BILLS for b in [*state.money_deck, *held]):
        problems.append("a bill is not of 1, 2 or 3 MP")
    return problems


def _the_dead(state: GameState) -> list[str]:
    return [f"{p.name} is dead and keeps cards or pocket money" for p in state.players
            if p.status == Status.DEAD and (p.hand or p.influence or p.pocket)]


def _hands(state: GameState) -> list[str]:
    if state.phase == PhaseKind.CABINET:
        return []  # drawn over the limit at its start, discarded down at its deadline
    return [f"{p.name} holds {state.cards_held(p.seat)} cards, over the limit of "
            f"{catalog.HAND_LIMIT}" for p in state.players
            if state.cards_held(p.seat) > catalog.HAND_LIMIT]


def card_places(state: GameState) -> dict[int, list[str]]:
    """Every place each political card lies: "deck", "discard", "hand:<seat>",
    "influence:<seat>" (a sound state has exactly one for each card of the catalogue)."""
    places: dict[int, list[str]] = {c.id: [] for c in catalog.cards()}

    def put(card_id: int, place: str) -> None:
        places.setdefault(card_id, []).append(place)

    for card_id in state.political_deck:
        put(card_id, "deck")
    for card_id in state.political_discard:
        put(card_id, "discard")
    for p in state.players:
        for card_id in p.hand:
            put(card_id, f"hand:{p.seat}")
        for card_id in p.influence:
            put(card_id, f"influence:{p.seat}")
    return places


def _cards(state: GameState) -> list[str]:
    places = card_places(state)
    known = {c.id for c in catalog.cards()}
    problems = []
    nowhere = sorted(c for c, where in places.items() if not where)
    twice = sorted(c for c, where in places.items() if len(where) > 1)
    unknown = sorted(c for c in places if c not in known)
    if nowhere:
        problems.append(f"political card{_s(nowhere)} {_ids(nowhere)} "
                        f"{'is' if len(nowhere) == 1 else 'are'} in no place")
    for card_id in twice:
        problems.append(f"political card {card_id} is in {len(places[card_id])} places "
                        f"({', '.join(places[card_id])})")
    if unknown:
        problems.append(f"no political card has the number{_s(unknown)} {_ids(unknown)}")
    for p in state.players:
        for card_id in p.influence:
            if card_id in known and catalog.card(card_id).category != "influence":
                problems.append(f"{catalog.card(card_id).name} lies in play before {p.name} "
                                "but is not an Influence card")
    return problems


def _positions(state: GameState) -> list[str]:
    problems = []
    president = state.president
    for pos, holder in state.positions.items():
        title = catalog.TITLES.get(pos, pos)
        if holder == BIL:
            if pos == catalog.PRESIDENT or president is None or president == BIL:
                problems.append(f"the Brother-in-Law holds the {title} without a President")
        elif holder is not None:
            if not 0 <= holder < len(state.players):
                problems.append(f"the {title} is held by seat {holder}, which is not in the "
                                "game")
            elif not state.players[holder].active:
                problems.append(f"the {title} is held by {state.name(holder)}, who is "
                                f"{state.players[holder].status}")
    if list(state.positions.values()).count(BIL) > 1:
        problems.append("the Brother-in-Law holds more than one position")
    return problems


def _units(state: GameState) -> list[str]:
    coup = state.coup
    if coup is None:
        return []
    problems = []
    units = coup["units"]
    ids = [u["id"] for u in units]
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    if twice:
        problems.append(f"unit{_s(twice)} {_ids(twice)} {'is' if len(twice) == 1 else 'are'} "
                        "on the map twice")
    beyond = sorted(i for i in ids if i >= coup["next_unit"])
    if beyond:
        problems.append(f"unit{_s(beyond)} {_ids(beyond)} {'has' if len(beyond) == 1 else 'have'}"
                        f" an id the map has not given out (the next is {coup['next_unit']})")
    per_position = Counter(pos for u in units if (pos := u["position"]))
    for pos, n in sorted(per_position.items()):
        if n > POSITION_UNITS.get(pos, 0):
            problems.append(f"the {catalog.TITLES.get(pos, pos)} has {n} units on the map, "
                            f"more than the {POSITION_UNITS.get(pos, 0)} it brings")
    for u in units:
        if u["zone"] is not None and u["zone"] not in catalog.zones():
            problems.append(f"unit {u['id']} ({u['kind']}) stands in no zone of the city "
                            f"(zone {u['zone']})")
        owner = u["owner"]
        if owner is not None and not (0 <= owner < len(state.players)
                                      and state.players[owner].active):
            problems.append(f"unit {u['id']} ({u['kind']}) is commanded by "
                            f"{_who(state, owner)}, who is not in the country")
    return problems


# --- a phase resolved -------------------------------------------------------------------------

def city_control(coup: Coup) -> dict[str, CoupSide]:
    """Who controls each control point, from the units on it and their commanders' votes:
    "junta" when every unit there is commanded by a player supporting the Junta, else
    "president" (a shared or unoccupied control point)."""
    out: dict[str, CoupSide] = {}
    for zone in CONTROL_POINTS:
        owners = {u["owner"] for u in coup["units"] if u["zone"] == zone}
        junta = bool(owners) and all(o is not None and coup["votes"].get(str(o)) == "junta"
                                     for o in owners)
        out[str(zone)] = "junta" if junta else "president"
    return out


def _resolution(before: GameState, after: GameState) -> list[str]:
    """What resolving `before` into `after` (a later phase) breaks."""
    problems = []
    coup = after.coup
    if before.phase == PhaseKind.CABINET:
        illegal = check_cabinet(after, {pos: after.positions.get(pos) for pos in catalog.CABINET})
        if illegal:
            problems.append(f"the Cabinet is illegal after its appointment: {'; '.join(illegal)}")
    if before.phase == PhaseKind.LOCATIONS and coup is not None and (
            after.phase not in (PhaseKind.COUP, PhaseKind.ELECTION) or coup["phase"] != 1):
        problems.append("a coup does not open with Coup Phase 1 (or an election first)")
    if before.phase == PhaseKind.COUP_FINAL:
        if coup is None:
            problems.append("the map is gone after Coup Phase 6, before the Aftermath")
        else:
            if coup["control"] != city_control(coup):
                problems.append("control of the city does not follow the units on it")
            wins = sum(1 for v in coup["control"].values() if v == "junta")
            if (coup["result"] == "junta") != (wins >= 3):
                problems.append(f"the coup is won by {coup['result']} with {wins} of 5 control "
                                "points for the Junta")
        if after.phase != PhaseKind.AFTERMATH:
            problems.append(f"Coup Phase 6 is followed by {after.phase}, not the Aftermath")
    if before.phase == PhaseKind.AFTERMATH:
        if coup is not None:
            problems.append("units stay on the map after the coup")
        new_turn = after.phase == PhaseKind.CABINET and after.turn == before.turn + 1
        if not (after.finished or after.phase == PhaseKind.ELECTION or new_turn):
            problems.append(f"the Aftermath is followed by {after.phase}, not a new turn")
    return problems


# --- words ------------------------------------------------------------------------------------

def _ids(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _s(items: Sized) -> str:
    return "s" if len(items) != 1 else ""


def _who(state: GameState, seat: int) -> str:
    return state.name(seat) if 0 <= seat < len(state.players) else f"seat {seat}"
