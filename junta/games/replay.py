"""Replay: re-run every adjudicated phase of a campaign from its stored state and orders and
compare the digests with the stored results. Equal digests prove that the stored history is
what the engine produces (and that nothing was changed behind its back)."""

from __future__ import annotations

from dataclasses import dataclass

from junta import engine
from junta.games import repository
from junta.games.models import Game, PhaseResult


@dataclass(frozen=True)
class ReplayLine:
    phase_number: int
    kind: str
    stored: str
    replayed: str

    @property
    def ok(self) -> bool:
        return self.stored == self.replayed


def replay_game(game: Game) -> list[ReplayLine]:
    """Every adjudicated phase re-run from its stored starting state (checked against its own
    digest) and the orders it used. A phase whose starting state is not the previous result's
    state (outside a GM ruling or rollback, which rewrite it on purpose) shows as a mismatch."""
    lines = []
    results = PhaseResult.objects.filter(phase__game=game).select_related("phase").order_by(
        "phase__number")
    for result in results:
        phase = result.phase
        state = repository.state_before(phase)
        orders = {int(seat): engine.parse_orders(items)
                  for seat, items in result.orders_used.items()}
        resolution = engine.resolve(state, orders, repository.submission_order(phase))
        lines.append(ReplayLine(phase.number, phase.kind, result.digest,
                                engine.digest(resolution.state)))
    return lines
