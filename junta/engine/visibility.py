"""What each person may see: the only way engine state reaches a page, a mail or an API.

`view_for(state, viewer)` copies in allowed fields (an allow-list, so a secret added to the
state later stays hidden by default), following "Who sees what" (docs/rules.md §secrets). The
viewer is a seat (a player), "gm", or None (a spectator). At game end everything is revealed.

The views are plain dicts (the pages, the API's JSON and the mails read them as such), typed
by the TypedDicts below: `PublicView` what everyone sees, `PrivateView` what a seat alone
sees of itself (`StateView["me"]`), `StateView` the whole of what `view_for` gives a viewer.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from . import catalog, flow, steps
from .enums import PhaseKind, Status
from .labels import category_label
from .order_kinds.coup import AIRSTRIKES
from .state import BIL, GameState
from .state_shapes import UnitKind
from .units import FOREIGN_FORCES, has_new_weapons

GM = "gm"


class CardView(TypedDict):
    """A political card as it is shown: in a hand, or in play as Influence."""
    id: int
    name: str
    category: str
    category_label: str
    effect: str
    when: list[str]


class PlayerPublic(TypedDict):
    """A family as everyone sees it: never its hand, money or location."""
    seat: int
    name: str
    status: Status
    life: int
    rebel: bool
    cards_held: int
    influence: list[CardView]
    positions: list[str]


class MoneyView(TypedDict):
    """The money deck as everyone knows it: the printed bills drawn (the extra ones secret)."""
    known_total: int
    drawn: int
    remaining_known: int


class BudgetView(TypedDict):
    """This turn's budget as everyone sees it: how many bills each minister drew (by
    position), who proposes, the proposed totals (by seat as a string) and the vote's outcome
    ("passed", "defeated", "forced", "failed", or None before it)."""
    counts: dict[str, int]
    proposer: int | None
    allocations: dict[str, int]
    outcome: str | None


class ElectionView(TypedDict):
    """The election under way: why ("initial", "competence", "vacancy", "resignation"), its
    round and its candidates (seats; None until they are known)."""
    reason: str | None
    round: int | None
    candidates: list[int] | None


class NominationView(TypedDict):
    """A candidate's nomination (the view's `nominations`, by seat as a string)."""
    nominated_by: list[int]
    seconded_by: list[int]
    declined: bool


class MotionView(TypedDict):
    """The motion on the President's competence: who moved it, against which President."""
    mover: int
    president: int | None


class UnitView(TypedDict):
    """A unit on the coup map. `entered`: the coup phase it came into its zone (-1 in place
    before the coup), `from_zone` where it came from."""
    id: int
    kind: UnitKind
    owner: int | None
    zone: int | None
    position: str | None
    armed: bool
    entered: int | None
    from_zone: int | None
    new_weapons: bool


class ForeignView(TypedDict):
    """The Foreign Intervention: its roll, how many forces it allows, those chosen."""
    roll: int | None
    allowed: int
    chosen: list[str]
    airstrikes_left: int


class CoupView(TypedDict):
    """The map during a coup, all of it public. `votes` and `control` by seat and zone as
    strings, "junta" or "president"; `result` the winning side, `elected` the Junta's
    President."""
    phase: int
    units: list[UnitView]
    airstrikes_left: int
    foreign: ForeignView
    agitator_zones: list[int]
    votes: dict[str, str]
    control: dict[str, str]
    result: str | None
    elected: int | None


class PublicView(TypedDict):
    """What everyone sees of the state, a spectator as much as a player."""
    turn: int
    phase: PhaseKind
    phase_title: str
    phase_number: int
    finished: bool
    winners: list[int]
    positions: dict[str, int | None]
    brother_in_law: int
    new_weapons: str | None
    bank_status: str
    coup_excuse: bool
    first_rebel: int | None
    money: MoneyView
    players: list[PlayerPublic]
    budget: BudgetView
    election: ElectionView | None
    nominations: dict[str, NominationView]
    motion: MotionView | None
    pending_returns: list[int]
    owes_orders: list[int]
    steps: list[str]
    press_scandal: list[int]
    amnesty: list[int]
    demand_for_reform: int | None
    coup: CoupView | None


class ProposalView(TypedDict):
    """The budget proposal as its proposer sees it: the totals, the pocket money added, the
    bills handed to each player and the 1 MP units topped up (by seat as strings); `fiat`
    when the GM set it by ruling."""
    allocations: dict[str, int]
    from_pocket: int
    bills: dict[str, list[int]]
    top_up: dict[str, int]
    fiat: NotRequired[bool]


class PrivateView(TypedDict):
    """What a seat alone sees of itself (and the GM of every seat). The budget's secrets only
    for those who hold them: the bills a minister drew (`my_draws`, by position), the budget
    bills held (`budget_bills`), the President's whole draw (`all_drawn`), the proposal, and
    `pocket_frozen` for a President who resigned."""
    seat: int
    hand: list[CardView]
    pocket: int
    bank: int
    location: str | None
    last_location: str | None
    commands: list[str]
    owes_orders: bool
    my_draws: NotRequired[dict[str, list[int]]]
    budget_bills: NotRequired[list[int]]
    all_drawn: NotRequired[list[int]]
    proposal: NotRequired[ProposalView]
    pocket_frozen: NotRequired[bool]


class StateView(PublicView):
    """What `view_for` gives a viewer: the public view; for a seated player his own (`me`);
    for the GM, and for everyone once the game is over, the whole state (`full`, its JSON),
    every seat's own view (`players_secret`) and the extra bills' count."""
    me: NotRequired[PrivateView]
    full: NotRequired[dict[str, object]]
    players_secret: NotRequired[list[PrivateView]]
    extra_bills: NotRequired[int]


class BoardRow(TypedDict):
    """A seat's board row as the web app stores it for its queries (not for display)."""
    pocket: int
    bank: int
    status: Status
    hand: list[int]
    influence: list[int]
    positions: list[str]
    rebel: bool


def _card(cid: int) -> CardView:
    c = catalog.card(cid)
    return {"id": cid, "name": c.name, "category": c.category,
            "category_label": category_label(c.category), "effect": c.effect,
            "when": list(c.when)}


def public_view(state: GameState) -> PublicView:
    return _public(state)


def _public(state: GameState) -> StateView:
    """The public view, as the start of every viewer's (`view_for` adds to it)."""
    drawn = catalog.KNOWN_BILLS + state.extra_bills - len(state.money_deck)
    players: list[PlayerPublic] = []
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
    view: StateView = {
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
        "nominations": {k: {"nominated_by": v["nominated_by"],
                            "seconded_by": v["seconded_by"], "declined": v["declined"]}
                        for k, v in state.nominations.items()},
        "motion": ({"mover": state.motion["mover"], "president": state.motion["president"]}
                   if state.motion else None),
        "pending_returns": list(state.pending_returns),
        "owes_orders": flow.public_owes_orders(state),
        "steps": [steps.STEP_TITLES.get(s, s) for s in info.steps],
        "press_scandal": list(state.turn_flags.get("press_scandal", [])),
        "amnesty": list(state.turn_flags.get("amnesty", [])),
        "demand_for_reform": state.turn_flags.get("demand_for_reform"),
        "coup": coup_view(state),
    }
    return view


def coup_view(state: GameState) -> CoupView | None:
    """"Everything on the map is public during a coup" (units, strikes left, the Foreign
    Intervention roll and choices, and after Coup Phase 6 the votes and control)."""
    coup = state.coup
    if coup is None:
        return None
    foreign = coup["foreign"]
    return {
        "phase": coup["phase"],
        "units": [{"id": u.get("id"), "kind": u.get("kind"), "owner": u.get("owner"),
                   "zone": u.get("zone"), "position": u.get("position"),
                   "armed": u.get("armed"), "entered": u.get("entered"),
                   "from_zone": u.get("from_zone"), "new_weapons": has_new_weapons(state, u)}
                  for u in coup["units"]],
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


def private_view(state: GameState, seat: int) -> PrivateView:
    p = state.players[seat]
    budget = state.budget
    me: PrivateView = {
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
        me["proposal"] = proposal.copy()
    if state.phase == PhaseKind.ELECTION and state.election is not None \
            and state.election.get("resigned") == seat:
        me["pocket_frozen"] = True
    return me


def view_for(state: GameState, viewer: int | str | None) -> StateView:
    """The state as `viewer` may see it."""
    seat = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
    # -1 (BIL) would index the last seat
    if seat is not None and not 0 <= seat < len(state.players):
        raise ValueError(f"no player sits at seat {viewer}")
    view = _public(state)
    if viewer == GM or state.finished:
        view["full"] = state.to_dict()
        view["players_secret"] = [private_view(state, p.seat) for p in state.players]
        view["extra_bills"] = state.extra_bills
    if seat is not None:
        view["me"] = private_view(state, seat)
    return view


def board_summary(state: GameState) -> dict[int, BoardRow]:
    """Per seat, what the board rows hold (for the web app's queries; not for display)."""
    return {p.seat: {"pocket": p.pocket, "bank": p.bank, "status": p.status,
                     "hand": list(p.hand), "influence": list(p.influence),
                     "positions": state.positions_of(p.seat), "rebel": p.rebel}
            for p in state.players}
