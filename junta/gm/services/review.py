"""Drafting and publishing: the GM adjudicates a phase, reviews its draft, publishes it. In the
shape of every app's writes (README, Layout): the lock as the GM, `check_<verb>` (`GMError`,
changing nothing), `do_<verb>` (the draft, the publication and its hooks, the audit entry)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.public import User
from junta import engine
from junta.games.public import (
    Game,
    Phase,
    PhaseResult,
    event_to_json,
    keep_draft,
    orders_as_json,
    orders_for_engine,
    submission_order,
)
from junta.games.public import publish as publish_result

from .common import (
    GMError,
    audit,
    given_reason,
    latest_phase,
    lock_as_gm,
    sound_state_before,
    still_on,
)


def draft(game: Game, phase: Phase) -> PhaseResult:
    """Resolve `phase` from its stored state and orders and keep the result unpublished (a
    draft for the GM). A phase drafted before gets its one result row rewritten: an unpublished
    draft is the GM's working copy, and the audit entry keeps the digest it had. Call with the
    game row locked."""
    state = sound_state_before(phase)
    orders = orders_for_engine(phase)
    resolution = engine.resolve(state, orders, submission_order(phase))
    fields = {
        "orders_used": orders_as_json(orders),
        "events": [event_to_json(event) for event in resolution.events],
        "state_after": resolution.state.to_dict(),
        "digest": engine.digest(resolution.state),
        "engine_version": engine.ENGINE_VERSION,
    }
    result = PhaseResult.objects.filter(phase=phase).first()
    if result is not None and result.published_at is not None:
        raise GMError(f"Phase {phase.number} is already published.")
    return keep_draft(phase, result, fields)


def redraft_if_drafted(game: Game, phase: Phase) -> str | None:
    """After a change to a drafted phase, draft it again; returns the new digest."""
    if phase.status != Phase.Status.DRAFTED:
        return None
    return draft(game, phase).digest


@transaction.atomic
def adjudicate_now(game_id: int, by: User, reason: str = "",
                   now: datetime | None = None, *, phase_number: int | None = None) -> Phase:
    """Resolve the open phase at once. In review mode the result waits for the GM as a draft;
    otherwise it is published and the next phase opens. Returns the adjudicated phase.
    `phase_number` is the phase the GM's form was for: sent again later, it is refused rather
    than adjudicating the next phase too."""
    now = now or timezone.now()
    game = lock_as_gm(game_id, by)
    return do_adjudicate_now(game, by, check_adjudicate_now(game, phase_number), reason, now)


def check_adjudicate_now(game: Game, phase_number: int | None) -> Phase:
    """Whether the open phase may be adjudicated now (`GMError` if not): it, locked."""
    phase = latest_phase(game)
    still_on(game, phase, phase_number, Phase.Status.OPEN)
    if game.status == Game.Status.PAUSED:
        raise GMError("The campaign is paused: resume it before adjudicating.")
    if phase is None or phase.status != Phase.Status.OPEN:
        raise GMError("There is no open phase to adjudicate.")
    return phase


@transaction.atomic
def do_adjudicate_now(game: Game, by: User, phase: Phase, reason: str, now: datetime) -> Phase:
    """The phase drafted, published unless the campaign's results wait for review, and the
    audit entry (the campaign and the phase locked)."""
    result = draft(game, phase)
    published = game.review_mode != Game.ReviewMode.REVIEW
    if published:
        publish_result(game, phase, result, now)
    audit(game, by, "adjudicate", reason=given_reason(reason, required=False),
           phase=phase.number, kind=phase.kind, digest=result.digest, published=published)
    return phase


@transaction.atomic
def publish(game_id: int, by: User, announcement: str = "",
            now: datetime | None = None, *, phase_number: int | None = None) -> Phase | None:
    """Publish the drafted result: players read it, and the next phase opens (None when the
    game ends). `phase_number` is the phase the GM read: a form sent again after the next
    phase was drafted is refused rather than publishing a result nobody reviewed."""
    now = now or timezone.now()
    game = lock_as_gm(game_id, by)
    return do_publish(game, by, check_publish(game, phase_number), announcement, now)


def check_publish(game: Game, phase_number: int | None) -> Phase:
    """Whether the drafted result may be published now (`GMError` if not): its phase,
    locked."""
    phase = latest_phase(game)
    still_on(game, phase, phase_number, Phase.Status.DRAFTED, "published")
    if phase is None or phase.status != Phase.Status.DRAFTED:
        raise GMError("No drafted result waits for publication.")
    return phase


@transaction.atomic
def do_publish(game: Game, by: User, phase: Phase, announcement: str, now: datetime
               ) -> Phase | None:
    """The result published, the next phase open (None: the game ended), the audit entry
    (the campaign and the phase locked)."""
    result = phase.result
    next_phase = publish_result(game, phase, result, now)
    audit(game, by, "publish", announcement=announcement, phase=phase.number,
           kind=phase.kind, digest=result.digest)
    return next_phase


@transaction.atomic
def redraft(game_id: int, by: User, reason: str = "") -> PhaseResult:
    """Draft the waiting phase again from its stored state and orders."""
    game = lock_as_gm(game_id, by)
    return do_redraft(game, by, check_redraft(game), reason)


def check_redraft(game: Game) -> Phase:
    """Whether a drafted result waits (`GMError` if not): its phase, locked."""
    phase = latest_phase(game)
    if phase is None or phase.status != Phase.Status.DRAFTED:
        raise GMError("No drafted result waits for review.")
    return phase


@transaction.atomic
def do_redraft(game: Game, by: User, phase: Phase, reason: str) -> PhaseResult:
    """The result drafted again and the audit entry with both digests (the campaign and the
    phase locked)."""
    before = phase.result.digest
    result = draft(game, phase)
    audit(game, by, "redraft", reason=given_reason(reason, required=False),
           phase=phase.number, digest_before=before, digest_after=result.digest)
    return result
