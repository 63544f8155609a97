"""The campaign check the GM runs from the panel.

Two parts:
- the replay (`junta.games.replay`): every adjudicated phase is resolved again from its stored
  starting state and orders, and the digest compared with the stored result's (a phase an older
  engine adjudicated may differ, the rules having changed since: its stored result stands, and
  the report lists it with what the engine's versions changed since);
- the chain: every phase starts where the one before it ended (its published result), or where a
  GM rollback put it, or differs by GM rulings recorded in the audit log (the last one's digest
  must be the phase's). Character names are left out of the comparison: a phase takes them from
  the current characters when it opens.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from junta.games.public import (
    AuditEntry,
    Game,
    Phase,
    PhaseResult,
    ReplayLine,
    changelog_for,
    older_notes,
    replay_game,
    state_before,
)
from junta.gm.actions import RULING_ACTIONS


@dataclass(frozen=True)
class ChainLine:
    number: int
    kind: str
    status: str
    origin: str
    ok: bool


@dataclass
class CampaignCheck:
    replay: list[ReplayLine] = field(default_factory=list)
    chain: list[ChainLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.replay) and all(line.ok for line in self.chain)

    @property
    def older(self) -> list[str]:
        """The phases adjudicated by an older engine that stand, in words."""
        return older_notes(self.replay)

    @property
    def changed(self) -> list[ReplayLine]:
        """The phases that resolve otherwise today, standing: the rules changed since."""
        return [line for line in self.replay if line.stands_changed]

    @property
    def changelog(self) -> list[tuple[str, str]]:
        """What the engine changed since the oldest engine of the phases in `changed`."""
        return changelog_for(self.replay)


def _without_names(data: dict[str, Any]) -> str:  # a stored state (JSON)
    data = copy.deepcopy(data)
    for player in data.get("players", []):
        player["name"] = ""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
                          ).hexdigest()


def chain_lines(game: Game) -> list[ChainLine]:
    phases = list(game.phases.order_by("number"))
    results = {r.phase_id: r for r in PhaseResult.objects.filter(phase__game=game)
               .only("phase_id", "state_after", "published_at")}
    by_number = {p.number: p for p in phases}
    rollbacks: dict[int, int] = {}
    rulings: dict[int, list[AuditEntry]] = {}
    for entry in AuditEntry.objects.filter(game=game).order_by("id"):
        if entry.action == "rollback" and entry.data.get("new_phase"):
            rollbacks[int(entry.data["new_phase"])] = int(entry.data["to_phase"])
        elif entry.action in RULING_ACTIONS and entry.data.get("digest_after"):
            rulings.setdefault(int(entry.data["phase"]), []).append(entry)
    lines = []
    for phase in phases:
        ok, origin = _origin(phase, by_number, results, rollbacks, rulings)
        lines.append(ChainLine(phase.number, phase.kind, phase.get_status_display(), origin, ok))
    return lines


def _origin(phase: Phase, by_number: dict[int, Phase], results: dict[int, PhaseResult],
            rollbacks: dict[int, int], rulings: dict[int, list[AuditEntry]]) -> tuple[bool, str]:
    try:
        state_before(phase)  # checks the stored state against its digest
    except RuntimeError:
        return False, "its stored starting state does not match its digest"
    if phase.number == 1:
        origin, expected = "the start of the campaign", None
    elif phase.number in rollbacks:
        target = by_number.get(rollbacks[phase.number])
        origin = f"rolled back to the start of phase {rollbacks[phase.number]}"
        expected = _without_names(target.state_before) if target else None
    else:
        previous = by_number.get(phase.number - 1)
        result = results.get(previous.id) if previous else None
        if result is None or result.published_at is None:
            return False, f"phase {phase.number - 1} has no published result to follow"
        origin = f"continues from phase {phase.number - 1}"
        expected = _without_names(result.state_after)
    if expected is None or expected == _without_names(phase.state_before):
        return True, origin
    ruled = rulings.get(phase.number, [])
    if ruled and ruled[-1].data.get("digest_after") == phase.state_digest:
        count = len(ruled)
        return True, f"{origin}, changed by {count} GM ruling{'s' if count != 1 else ''}"
    return False, f"{origin}, but its starting state differs and no GM ruling explains it"


def check_campaign(game: Game) -> CampaignCheck:
    return CampaignCheck(replay=replay_game(game), chain=chain_lines(game))
