"""What the Status page shows beyond the player's own: what the Chamber is deciding now (all of
it public), and once the game is over, everything that was secret ("At game end everything is
revealed: every hand, pocket, bank account, order, draw and the extra-bill count")."""

from __future__ import annotations

from typing import Any

from junta.engine import Catalog, GameState, PhaseKind, Status
from junta.games import play
from junta.games.models import Game, PhaseResult

ELECTION_REASONS = {
    "initial": "the first election of the campaign",
    "competence": "the Chamber removed the President for incompetence",
    "vacancy": "the Presidency is vacant",
    "resignation": "El Presidente resigned",
}


DRAWERS = {Catalog.FOREIGN: "the Foreign Minister", Catalog.FARM_LABOR: "the Farm & Labor "
           "Secretary", Catalog.PRESIDENT: "El Presidente"}


def deciding(view: dict[str, Any]) -> dict[str, Any] | None:
    """The matter before the Chamber in this phase, from the public view only: the proposed
    budget's totals per player (and the number of bills each minister drew), the nominations
    and candidates of an election, the motion on the President's competence."""
    names = {p["seat"]: p["name"] for p in view["players"]}
    kind = view["phase"]

    def name(seat: Any) -> str:
        return names.get(seat if isinstance(seat, int) else int(seat), f"seat {seat}")

    out: dict[str, Any] = {}
    budget = view.get("budget") or {}
    counts = budget.get("counts") or {}
    if kind in (PhaseKind.BUDGET_PROPOSAL, PhaseKind.BUDGET_VOTE, PhaseKind.INTERNAL_SECURITY) \
            and counts:
        out["draws"] = [(DRAWERS[pos], counts[pos]) for pos in DRAWERS if pos in counts]
    if kind in (PhaseKind.BUDGET_VOTE, PhaseKind.INTERNAL_SECURITY) \
            and budget.get("proposer") is not None:
        allocations = {int(k): v for k, v in (budget.get("allocations") or {}).items()}
        out["proposer"] = name(budget["proposer"])
        out["allocations"] = [(p["name"], allocations.get(p["seat"], 0))
                              for p in view["players"] if allocations.get(p["seat"])
                              or p["status"] == Status.ALIVE]
        out["allocated"] = sum(allocations.values())
        out["outcome"] = budget.get("outcome")
    election = view.get("election")
    if kind == PhaseKind.ELECTION and election:
        candidates = election.get("candidates")
        out["election"] = {
            "round": election.get("round") or 1,
            "reason": ELECTION_REASONS.get(election.get("reason") or "", ""),
            "candidates": [name(c) for c in candidates] if candidates else None,
        }
        out["nominations"] = [
            {"candidate": name(c), "by": [name(s) for s in n.get("nominated_by", [])],
             "seconded": [name(s) for s in n.get("seconded_by", [])],
             "declined": bool(n.get("declined"))}
            for c, n in sorted((view.get("nominations") or {}).items(), key=lambda i: int(i[0]))
        ] if (election.get("reason") == "initial") else []
    motion = view.get("motion")
    if kind == PhaseKind.SPECIAL_MOTION and motion:
        out["motion"] = {"mover": name(motion["mover"]) if motion.get("mover") is not None
                         else "", "president": name(motion["president"])
                         if motion.get("president") is not None else "the President"}
    return out or None


def revealed(game: Game, view: dict[str, Any], state: GameState) -> dict[str, Any] | None:
    """The full reveal of a finished game: every family's hand, pocket, bank and location,
    the extra-bill count, every turn's budget draws and what the proposer kept, and the last
    turn's phases with every order and every secret line."""
    secrets = view.get("players_secret")
    if not view.get("finished") or secrets is None or game.status != Game.Status.FINISHED:
        return None
    families = []
    for public, secret in zip(view["players"], secrets, strict=True):
        families.append({
            "name": public["name"], "status": public["status"],
            "pocket": secret["pocket"], "bank": secret["bank"],
            "hand": [c["name"] for c in secret["hand"]],
            "influence": [c["name"] for c in public["influence"]],
            "location": Catalog.LOCATION_NAMES.get(secret.get("location") or
                                                   secret.get("last_location") or "", ""),
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


def budgets(game: Game) -> list[dict[str, Any]]:
    """Every turn's budget draws (who drew which bills) and what the proposer kept unallocated:
    one query, whatever the campaign's length."""
    rows = (PhaseResult.objects.filter(phase__game=game, published_at__isnull=False,
                                       phase__kind__in=[PhaseKind.BUDGET_DRAW,
                                                        PhaseKind.BUDGET_PROPOSAL])
            .exclude(play.undone()).order_by("phase__number")
            .values("phase__turn", "phase__kind", "state_after__budget__drawn",
                    "state_after__positions", "state_after__players", "events"))
    turns: dict[int, dict[str, Any]] = {}
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
