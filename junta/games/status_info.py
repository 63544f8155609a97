"""What the Status page shows beyond the player's own: what the Chamber is deciding now (all of
it public), and once the game is over, everything that was secret ("At game end everything is
revealed: every hand, pocket, bank account, order, draw and the extra-bill count")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from django.utils import timezone
from django.utils.timesince import timeuntil

from junta.engine import (
    Catalog,
    GameState,
    PhaseKind,
    PublicView,
    StateView,
    Status,
    public_owes_orders,
)
from junta.games import play
from junta.games.models import Game, Order, Phase, PhaseResult
from junta.games.rollbacks import undone

ELECTION_REASONS = {
    "initial": "the first election of the campaign",
    "competence": "the Chamber removed the President for incompetence",
    "vacancy": "the Presidency is vacant",
    "resignation": "El Presidente resigned",
}


DRAWERS = {Catalog.FOREIGN: "the Foreign Minister", Catalog.FARM_LABOR: "the Farm & Labor "
           "Secretary", Catalog.PRESIDENT: "El Presidente"}


class ElectionMatter(TypedDict):
    round: int
    reason: str
    candidates: list[str] | None


class NominationLine(TypedDict):
    candidate: str
    by: list[str]
    seconded: list[str]
    declined: bool


class MotionMatter(TypedDict):
    mover: str
    president: str


class Deciding(TypedDict, total=False):
    """What `deciding` finds before the Chamber; only the parts this phase has."""
    draws: list[tuple[str, int]]  # (who drew, how many bills)
    proposer: str
    allocations: list[tuple[str, int]]  # (family, MP)
    allocated: int
    outcome: str | None
    election: ElectionMatter
    nominations: list[NominationLine]
    motion: MotionMatter


def deciding(view: PublicView) -> Deciding | None:
    """The matter before the Chamber in this phase, from the public view only: the proposed
    budget's totals per player (and the number of bills each minister drew), the nominations
    and candidates of an election, the motion on the President's competence."""
    names: dict[int, str] = {p["seat"]: p["name"] for p in view["players"]}
    kind = view["phase"]

    def name(seat: int | str) -> str:
        return names.get(seat if isinstance(seat, int) else int(seat), f"seat {seat}")

    out: Deciding = {}
    budget = view["budget"]
    counts = budget["counts"]
    if kind in (PhaseKind.BUDGET_PROPOSAL, PhaseKind.BUDGET_VOTE, PhaseKind.INTERNAL_SECURITY) \
            and counts:
        out["draws"] = [(DRAWERS[pos], counts[pos]) for pos in DRAWERS if pos in counts]
    proposer = budget["proposer"]
    if kind in (PhaseKind.BUDGET_VOTE, PhaseKind.INTERNAL_SECURITY) and proposer is not None:
        allocations = {int(k): v for k, v in budget["allocations"].items()}
        out["proposer"] = name(proposer)
        out["allocations"] = [(p["name"], allocations.get(p["seat"], 0))
                              for p in view["players"] if allocations.get(p["seat"])
                              or p["status"] == Status.ALIVE]
        out["allocated"] = sum(allocations.values())
        out["outcome"] = budget["outcome"]
    election = view["election"]
    if kind == PhaseKind.ELECTION and election:
        candidates = election["candidates"]
        out["election"] = {
            "round": election["round"] or 1,
            "reason": ELECTION_REASONS.get(election["reason"] or "", ""),
            "candidates": [name(c) for c in candidates] if candidates else None,
        }
        out["nominations"] = [
            {"candidate": name(c), "by": [name(s) for s in n["nominated_by"]],
             "seconded": [name(s) for s in n["seconded_by"]],
             "declined": bool(n["declined"])}
            for c, n in sorted(view["nominations"].items(), key=lambda i: int(i[0]))
        ] if (election["reason"] == "initial") else []
    motion = view["motion"]
    if kind == PhaseKind.SPECIAL_MOTION and motion:
        out["motion"] = {"mover": name(motion["mover"]) if motion["mover"] is not None
                         else "", "president": name(motion["president"])
                         if motion["president"] is not None else "the President"}
    return out or None


class Family(TypedDict):
    """A family as the end of the game reveals it."""
    name: str
    status: Status
    pocket: int
    bank: int
    hand: list[str]
    influence: list[str]
    location: str


class Reveal(TypedDict):
    families: list[Family]
    extra_bills: int | None
    budgets: list[TurnBudget]
    last_turn: list[play.PhaseReport]
    turn: int


def revealed(game: Game, view: StateView, state: GameState) -> Reveal | None:
    """The full reveal of a finished game: every family's hand, pocket, bank and location,
    the extra-bill count, every turn's budget draws and what the proposer kept, and the last
    turn's phases with every order and every secret line."""
    secrets = view.get("players_secret")
    if not view["finished"] or secrets is None or game.status != Game.Status.FINISHED:
        return None
    families: list[Family] = []
    for public, secret in zip(view["players"], secrets, strict=True):
        families.append({
            "name": public["name"], "status": public["status"],
            "pocket": secret["pocket"], "bank": secret["bank"],
            "hand": [c["name"] for c in secret["hand"]],
            "influence": [c["name"] for c in public["influence"]],
            "location": Catalog.LOCATION_NAMES.get(secret["location"] or
                                                   secret["last_location"] or "", ""),
        })
    families.sort(key=lambda f: -f["bank"])
    last_turn = list(play.published_results(game).filter(phase__turn=state.turn))
    return {
        "families": families,
        "extra_bills": view.get("extra_bills"),
        "budgets": budgets(game),
        "last_turn": play.reports(game, "gm", last_turn, reveal=True),
        "turn": state.turn,
    }


class Draw(TypedDict):
    title: str  # the position that drew
    who: str
    bills: list[int]
    total: int


class TurnBudget(TypedDict):
    turn: int
    draws: list[Draw]
    kept: list[tuple[str, int]]  # (who kept it, MP) for each skim


def budgets(game: Game) -> list[TurnBudget]:
    """Every turn's budget draws (who drew which bills) and what the proposer kept unallocated:
    one query, whatever the campaign's length."""
    rows = (PhaseResult.objects.filter(phase__game=game, published_at__isnull=False,
                                       phase__kind__in=[PhaseKind.BUDGET_DRAW,
                                                        PhaseKind.BUDGET_PROPOSAL])
            .exclude(undone()).order_by("phase__number")
            .values("phase__turn", "phase__kind", "state_after__budget__drawn",
                    "state_after__positions", "state_after__players", "events"))
    turns: dict[int, TurnBudget] = {}
    for row in rows:
        turn = turns.setdefault(row["phase__turn"], {"turn": row["phase__turn"], "draws": [],
                                                     "kept": []})
        names = {p["seat"]: p["name"] for p in row["state_after__players"] or []}
        if row["phase__kind"] == PhaseKind.BUDGET_DRAW:
            positions = row["state_after__positions"] or {}
            for pos, bills in (row["state_after__budget__drawn"] or {}).items():
                holder = positions.get(pos)
                who = names.get(holder, "the Brother-in-Law" if holder == -1 else "vacant")
                turn["draws"].append({"title": Catalog.TITLES.get(pos, pos), "who": who,
                                      "bills": bills, "total": sum(bills)})
        else:
            for event in row["events"] or []:
                if event.get("kind") == "skim":
                    seats = event.get("audience") or []
                    who = names.get(seats[0], "") if isinstance(seats, list) and seats else ""
                    turn["kept"].append((who, (event.get("data") or {}).get("skim", 0)))
    return [turns[t] for t in sorted(turns)]


# --- where the phase stands: one truth for the Status page, the Orders page and the lobby -----


@dataclass(frozen=True)
class Clock:
    """Where the current phase stands, as every page that shows it says it (docs/rules.md
    §timing). One of `paused`, `passed`, `counting` at most (`reviewing` may come with
    `paused`: a draft waiting while the campaign is paused):
    - `paused`: the GM stopped the clock; no deadline passes and no orders are taken until he
      resumes (`order_intake._open_phase_for_orders` refuses them), so nothing counts down;
    - `reviewing`: the phase is adjudicated and its draft awaits the GM's review: nobody owes
      orders any more;
    - `passed`: the deadline is behind us and the minute sweep has not adjudicated yet;
    - `counting`: open for orders, the deadline ahead (the only case with a countdown).
    `all_final`: everyone who owes orders is final, so the phase closes at the next sweep."""
    paused: bool = False
    reviewing: bool = False
    passed: bool = False
    counting: bool = False
    all_final: bool = False
    review_mode: bool = False
    left: str = ""  # while paused: the time the deadline had to go when the clock stopped


def clock(game: Game, phase: Phase | None, *, all_final: bool = False,
          now: datetime | None = None) -> Clock:
    """The `Clock` of the campaign's current phase (`phase`: its latest). A page that shows
    it is kept only until the open phase's deadline (`page_cache.deadlines`), so `passed` is
    never late."""
    now = now or timezone.now()
    review_mode = game.review_mode == Game.ReviewMode.REVIEW
    if phase is None or game.status in (Game.Status.FORMING, Game.Status.FINISHED):
        return Clock(review_mode=review_mode)
    is_open = phase.status == Phase.Status.OPEN
    reviewing = phase.status == Phase.Status.DRAFTED
    if game.status == Game.Status.PAUSED:
        left = ""
        if is_open and game.paused_at is not None:
            left = timeuntil(phase.deadline, game.paused_at) \
                if phase.deadline > game.paused_at else ""
        return Clock(paused=True, reviewing=reviewing, review_mode=review_mode, left=left)
    if reviewing or not is_open:
        return Clock(reviewing=reviewing, review_mode=review_mode)
    if phase.deadline <= now:
        return Clock(passed=True, review_mode=review_mode, all_final=all_final)
    return Clock(counting=True, all_final=all_final, review_mode=review_mode)


ORDERS_NONE, ORDERS_IN, ORDERS_FINAL = "none", "in", "final"


@dataclass(frozen=True)
class InOrders:
    """One family whose turn to order everyone can see, and how far its orders are."""
    seat: int
    name: str
    orders: str  # ORDERS_NONE, ORDERS_IN or ORDERS_FINAL


def who_is_in(phase: Phase, state: GameState, orders: list[Order] | None = None
              ) -> tuple[list[InOrders], bool]:
    """For each seat whose owing orders is public (`public_owes_orders`: docs/rules.md
    §secrets, "the list of who owes orders names only those whose turn to order everyone can
    see"), whether its orders for the open phase are final, in (at least one order given) or
    not given (none, or a row emptied of its orders); and whether every
    seat that owes orders (`phase.owing_seats`, secret ones included) is final, which closes the
    phase at the next sweep (`adjudication.is_due`). One query, whatever the number of seats.

    A seat that owes orders in secret (who is at the Bank after lunch) is never named, and while
    one owes orders the early close is not announced either: it would tell that the secret
    seats are final (the phase still closes at the next sweep; the pages show it then)."""
    if phase.status != Phase.Status.OPEN:
        return [], False
    if orders is not None:  # the phase's orders with their players, read by the caller
        rows = {o.player.seat: (o.final, bool(o.payload)) for o in orders
                if o.player.seat is not None}
    else:
        rows = {seat: (final, bool(payload)) for seat, final, payload in
                Order.objects.filter(phase=phase)
                .values_list("player__seat", "final", "payload") if seat is not None}
    owing = set(phase.owing_seats or [])
    public = public_owes_orders(state)
    all_final = bool(owing) and owing == set(public) \
        and all(rows.get(s, (False, False))[0] for s in owing)
    out = []
    for seat in public:
        final, given = rows.get(seat, (False, False))
        out.append(InOrders(seat, state.name(seat), ORDERS_FINAL if final
                            else ORDERS_IN if given else ORDERS_NONE))
    return out, all_final
