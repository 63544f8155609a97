"""What each person may see: the only way engine state reaches a page, a mail or an API.

`view_for(state, viewer)` copies in allowed fields (an allow-list, so a secret added to the
state later stays hidden by default), following "Who sees what" (docs/rules.md §secrets). The
viewer is a seat (a player), "gm", or None (a spectator). At game end everything is revealed.
"""

from __future__ import annotations

from typing import Any

from . import catalog, flow, steps
from .enums import PhaseKind
from .labels import category_label
from .order_kinds.coup import AIRSTRIKES
from .state import BIL, GameState
from .units import FOREIGN_FORCES, has_new_weapons

GM = "gm"


def _card(cid: int) -> dict[str, Any]:
    c = catalog.card(cid)
    return {"id": cid, "name": c.name, "category": c.category,
            "category_label": category_label(c.category), "effect": c.effect,
            "when": list(c.when)}


def public_view(state: GameState) -> dict[str, Any]:
    drawn = catalog.KNOWN_BILLS + state.extra_bills - len(state.money_deck)
    players = []
    for p in state.players:
        players.append({
            "seat": p.seat, "name": p.name, "status": p.status, "life": p.life,
            "rebel": p.rebel, "cards_held": len(p.hand) + len(p.influence),
            "influence": [_card(c) for c in p.influence],
            "positions": state.positions_of(p.seat),
        })
    budget = state.budget
    proposal = budget.get("proposal")
    info = flow.current_phase(state)
    view: dict[str, Any] = {
        "turn": state.turn, "phase": info.kind, "phase_title": info.title,
        "phase_number": state.phase_number, "finished": state.finished,
        "winners": list(state.winners),
        "positions": {p: state.positions.get(p) for p in catalog.POSITIONS},
        "brother_in_law": BIL,
        "new_weapons": state.new_weapons, "bank_status": state.bank_status,
        "coup_excuse": state.coup_excuse, "first_rebel": state.first_rebel,
        "money": {"known_total": catalog.KNOWN_BILLS, "drawn": drawn,
                  "remaining_known": max(0, catalog.KNOWN_BILLS - drawn)},
        "players": players,
        "budget": {
            "counts": {k: len(v) for k, v in budget.get("drawn", {}).items()},
            "proposer": budget.get("proposer"),
            "allocations": dict(proposal["allocations"]) if proposal else {},
            "outcome": budget.get("outcome"),
        },
        "election": ({"reason": state.election.get("reason"),
                      "round": state.election.get("round"),
                      "candidates": state.election.get("candidates")}
                     if state.election else None),
        "nominations": {k: dict(v) for k, v in state.nominations.items()},
        "motion": dict(state.motion) if state.motion else None,
        "pending_returns": list(state.pending_returns),
        "owes_orders": flow.public_owes_orders(state),
        "steps": [steps.STEP_TITLES.get(s, s) for s in info.steps],
        "press_scandal": list(state.turn_flags.get("press_scandal", [])),
        "amnesty": list(state.turn_flags.get("amnesty", [])),
        "demand_for_reform": state.turn_flags.get("demand_for_reform"),
        "coup": coup_view(state),
    }
    return view


UNIT_FIELDS = ("id", "kind", "owner", "zone", "position", "armed", "entered", "from_zone")


def coup_view(state: GameState) -> dict[str, Any] | None:
    """"Everything on the map is public during a coup" (units, strikes left, the Foreign
    Intervention roll and choices, and after Coup Phase 6 the votes and control)."""
    coup = state.coup
    if coup is None:
        return None
    foreign = coup["foreign"]
    return {
        "phase": coup["phase"],
        "units": [{**{k: u.get(k) for k in UNIT_FIELDS},
                   "new_weapons": has_new_weapons(state, u)} for u in coup["units"]],
        "airstrikes_left": AIRSTRIKES - coup["airstrikes_used"],
        "foreign": {"roll": foreign["roll"], "allowed": foreign["allowed"],
                    "chosen": list(foreign["chosen"]),
                    "airstrikes_left": (FOREIGN_FORCES["airstrikes"][1]
                                        - foreign["airstrikes_used"])
                    if "airstrikes" in foreign["chosen"] else 0},
        "agitator_zones": list(coup["agitator_zones"]),
        "votes": dict(coup["votes"]), "control": dict(coup["control"]),
        "result": coup["result"], "elected": coup["elected"],
    }


def private_view(state: GameState, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    budget = state.budget
    me: dict[str, Any] = {
        "seat": seat, "hand": [_card(c) for c in p.hand], "pocket": p.pocket, "bank": p.bank,
        "location": p.location, "last_location": p.last_location,
        "commands": state.commanded_positions(seat),
        "owes_orders": seat in flow.owes_orders(state),
    }
    drawn = budget.get("drawn", {})
    for pos in (catalog.FOREIGN, catalog.FARM_LABOR):
        if state.commander(pos) == seat and pos in drawn:
            me.setdefault("my_draws", {})[pos] = list(drawn[pos])
    # The President's full draw is his alone; after an Alternative Budget its player holds all
    # the bills but the one the President kept, and his proposal (pocket money, skim) is his.
    if budget and seat in (state.president, budget.get("holder")):
        me["budget_bills"] = list(budget.get("held", []))
    if budget and seat == state.president:
        me["all_drawn"] = list(budget.get("all_drawn", []))
    proposal = budget.get("proposal")
    if proposal and seat == budget.get("proposer", state.president):
        me["proposal"] = dict(proposal)
    if state.phase == PhaseKind.ELECTION and state.election is not None \
            and state.election.get("resigned") == seat:
        me["pocket_frozen"] = True
    return me


def view_for(state: GameState, viewer: int | str | None) -> dict[str, Any]:
    """The state as `viewer` may see it."""
    seat = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
    # -1 (BIL) would index the last seat
    if seat is not None and not 0 <= seat < len(state.players):
        raise ValueError(f"no player sits at seat {viewer}")
    view = public_view(state)
    if viewer == GM or state.finished:
        view["full"] = state.to_dict()
        view["players_secret"] = [private_view(state, p.seat) for p in state.players]
        view["extra_bills"] = state.extra_bills
    if seat is not None:
        view["me"] = private_view(state, seat)
    return view


def board_summary(state: GameState) -> dict[int, dict[str, Any]]:
    """Per seat, what the board rows hold (for the web app's queries; not for display)."""
    return {p.seat: {"pocket": p.pocket, "bank": p.bank, "status": p.status,
                     "hand": list(p.hand), "influence": list(p.influence),
                     "positions": state.positions_of(p.seat), "rebel": p.rebel}
            for p in state.players}
