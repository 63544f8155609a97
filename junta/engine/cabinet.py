"""The Cabinet's rule. "Each living, non-exiled player MUST be given at least one position...
The President may not appoint any one player to more than 2 positions, nor may he give any
player two General positions. The President may himself not be given any second position,
except by use of the President's Brother in Law."
(docs/rules.md §appointment, §brother-in-law, §president)

Who may be appointed, why an appointment breaks the rule, and a legal Cabinet by lot: read by
the appointment's order kind and its form (order_kinds/), the invariants, the bots and the
phase that appoints (phases/cabinet.py), all above it.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import catalog
from .problems import Problem, keyed
from .rng import Rng
from .state import BIL, GameState


def eligible_seats(state: GameState) -> list[int]:
    """The players the Cabinet is appointed from: living, in the country, not the President,
    and not back from exile this turn ("If an Exile returns in the middle of the Turn, however,
    he will remain positionless until the next Cabinet Appointment Phase"). An exile whose
    return is settled in the Cabinet phase itself comes back after the President gave his
    orders: he stays positionless this turn, and the appointment stands.
    (docs/rulings.md §ruling-exile-back-in-cabinet)."""
    returned = state.turn_flags.get("returned_exiles", [])
    return [s for s in state.active_seats() if s != state.president and s not in returned]


def check_cabinet(state: GameState, positions: Mapping[str, int | None] | None
                  ) -> list[Problem]:
    """Every reason this appointment breaks the rules; empty when it is legal. Each is about
    the appointment as given (the order's "positions") (docs/rules.md §appointment)."""
    return keyed(_cabinet_problems(state, positions), "positions")


def _cabinet_problems(state: GameState, positions: object) -> list[str]:
    if not isinstance(positions, dict):
        return ["Give a holder for each Cabinet position."]
    president = state.president
    errors: list[str] = []
    holders: dict[str, int | None] = {}
    for pos in catalog.CABINET:
        value = positions.get(pos)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or
                                  not (value == BIL or 0 <= value < len(state.players))):
            errors.append(f"The {catalog.TITLES[pos]} must go to a player or your "
                          "Brother-in-Law.")
            continue
        holders[pos] = value
    unknown = set(positions) - set(catalog.CABINET)
    if unknown:
        errors.append("Only the nine Cabinet positions can be appointed.")
    if errors:
        return errors
    eligible = eligible_seats(state)
    counts: dict[int, list[str]] = {}
    for pos, holder in holders.items():
        if holder is None:
            continue
        if holder == president:
            errors.append(f"You may not take the {catalog.TITLES[pos]} yourself: the President "
                          "holds a second position only through his Brother-in-Law.")
            continue
        if holder == BIL and president is None:
            errors.append("Without a President there is no Brother-in-Law to hold the "
                          f"{catalog.TITLES[pos]}.")
            continue
        if holder != BIL and holder not in eligible:
            if state.players[holder].active:
                errors.append(f"{state.name(holder)} returned from exile this turn and stays "
                              "positionless until the next Cabinet Appointment.")
            else:
                errors.append(f"{state.name(holder)} is {state.players[holder].status} and "
                              "cannot hold a position.")
            continue
        counts.setdefault(holder, []).append(pos)
    for holder, held in sorted(counts.items()):
        name = state.name(holder)
        if holder == BIL and len(held) > 1:
            errors.append("Your Brother-in-Law can hold only one position.")
        elif holder != BIL and len(held) > 2:
            errors.append(f"{name} would hold {len(held)} positions; the limit is two.")
        if holder != BIL and len([p for p in held if p in catalog.GENERALS]) > 1:
            errors.append(f"{name} cannot hold two General positions.")
    for seat in eligible:
        if seat not in counts:
            errors.append(f"{state.name(seat)} must be given at least one position.")
    if errors:
        return errors
    for pos in catalog.CABINET:
        if holders.get(pos) is None and _could_fill(pos, counts, president is not None):
            errors.append(f"The {catalog.TITLES[pos]} must be filled: a player or your "
                          "Brother-in-Law can still take it.")
    return errors


def _could_fill(pos: str, counts: dict[int, list[str]], bil: bool = True) -> bool:
    """Whether a player, or the Brother-in-Law (`bil`: there is a President), could still
    take this position (docs/rules.md §appointment, docs/rulings.md §ruling-no-president)."""
    if bil and BIL not in counts:
        return True
    for holder, held in counts.items():
        if holder == BIL:
            continue
        if len(held) < 2 and not (pos in catalog.GENERALS and any(h in catalog.GENERALS
                                                                  for h in held)):
            return True
    return False


def random_cabinet(state: GameState, rng: Rng) -> dict[str, int | None]:
    """A legal cabinet chosen at random: the default when the President sends none.
    (docs/rules.md §missed-orders, docs/rulings.md §ruling-no-president)."""
    eligible = eligible_seats(state)
    rng.shuffle(eligible)
    positions = list(catalog.CABINET)
    rng.shuffle(positions)
    counts: dict[int, list[str]] = {}
    out: dict[str, int | None] = {p: None for p in catalog.CABINET}

    def fits(seat: int, pos: str) -> bool:
        held = counts.get(seat, [])
        if seat == BIL:
            return not held
        return len(held) < 2 and not (pos in catalog.GENERALS and
                                      any(h in catalog.GENERALS for h in held))

    # everyone first gets one position (generals spread out), then the rest are filled
    for seat in eligible:
        for pos in positions:
            if out[pos] is None and fits(seat, pos):
                out[pos] = seat
                counts.setdefault(seat, []).append(pos)
                break
    for pos in positions:
        if out[pos] is not None:
            continue
        options = [s for s in eligible if fits(s, pos)]
        if options:
            choice = rng.choice(options)
        elif state.president is not None and fits(BIL, pos):
            choice = BIL
        else:
            continue
        out[pos] = choice
        counts.setdefault(choice, []).append(pos)
    return out
