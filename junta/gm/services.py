"""The GameMaster's actions.

Each action is one function in the zulip shape: it checks who asks and whether the action is valid
(raising `GMError` with a message for the GM), then changes the campaign inside one transaction
with the game row locked (then its current phase, `junta.games.locking`'s order), and writes one
`AuditEntry`. Engine state is read and written only through `junta.games.repository`.

A manual ruling changes the state the current phase starts from (`Phase.state_before`), checked
against the engine's invariants (money conserved, every political card in exactly one place, no
negative pocket or bank, the dead hold nothing, units on the city's zones), bumps
`Game.state_version` so that open order forms become stale, and redrafts the result when the
phase was waiting for review, so a published result is always what the engine makes of the
stored state and orders (and replays to the same digest).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from junta.engine import PhaseKind, Status
from junta.games import adjudication, repository, running
from junta.games.campaigns import CampaignError, seat_player
from junta.games.locking import lock_game
from junta.games.models import (
    AuditEntry,
    Character,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
)
from junta.lives.services import restore_lives

# Audit actions that change the state a phase starts from (the replay check explains a start
# state that differs from the previous result by these).
RULING_ACTIONS = ("money", "card", "location", "unit_add", "unit_remove", "fiat", "replace")
MAX_TEXT = 4000


class GMError(CampaignError):
    """A GM action that cannot be carried out; the message says why, for the GM."""


class NotTheGM(GMError):
    """Somebody other than the campaign's GameMaster asked (views answer 404 before this)."""


# --- shared checks --------------------------------------------------------------------------

def _lock(game_id: int, by: User) -> Game:
    game = lock_game(game_id)
    if game.gm_id != by.pk:
        raise NotTheGM("Only the campaign's GameMaster can do this.")
    return game


def _current(game: Game) -> Phase | None:
    """The latest phase, locked (the game row is locked first by the caller)."""
    return Phase.objects.select_for_update().filter(game=game).order_by("-number").first()


def _working_phase(game: Game) -> Phase:
    """The phase rulings act on: the open one, or the one whose result waits for review."""
    phase = _current(game)
    if phase is None:
        raise GMError("The campaign has not started: there is no state to rule on yet.")
    if game.status == Game.Status.FINISHED:
        raise GMError("The game is over: roll back to an earlier phase to change anything.")
    if phase.status not in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        raise GMError(f"Phase {phase.number} is {phase.get_status_display().lower()}: there is "
                      "no open phase to rule on.")
    return phase


def _reason(reason: str, required: bool = True) -> str:
    reason = (reason or "").strip()[:MAX_TEXT]
    if required and not reason:
        raise GMError("Give a reason: it goes into the audit log.")
    return reason


def _audit(game: Game, by: User, action: str, *, reason: str = "", announcement: str = "",
           **data: Any) -> AuditEntry:
    return AuditEntry.objects.create(
        game=game, actor=by, action=action, reason=reason,
        announcement=(announcement or "").strip()[:MAX_TEXT], data=data)


def _bump(game: Game) -> None:
    """Open order forms carry the state version: a change makes them stale."""
    game.state_version += 1
    game.save(update_fields=["state_version"])


def _seat_name(state: Any, seat: int) -> str:
    return state.name(seat)


def _player_seat(state: Any, seat: int) -> Any:
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise GMError(f"There is no seat {seat} in this campaign.")
    return state.players[seat]


STALE_FORM = ("The campaign has changed since this form was opened (a ruling, an order or a new "
              "phase): nothing was done. Check the page and send the form again.")


def _check_version(game: Game, state_version: int | None) -> None:
    """A form carries the game's `state_version` from when it was opened: a form sent twice,
    or opened before another change, is refused (as the players' order forms are)."""
    if state_version is not None and state_version != game.state_version:
        raise GMError(STALE_FORM)


def _moved_on(game: Game, number: int, done: str = "adjudicated") -> GMError:
    """A form meant for phase `number`, sent when the campaign is past it (a resent form)."""
    old = game.phases.filter(number=number).first()
    if old is not None and old.status == Phase.Status.SUPERSEDED:
        done = "rolled back"
    return GMError(f"Phase {number} was already {done}: nothing was done.")


def _still_on(game: Game, phase: Phase | None, phase_number: int | None, status: str,
              done: str = "adjudicated") -> None:
    """A form meant for phase `phase_number` (None: any) is refused unless that phase is the
    current one and still `status` (see `_moved_on`)."""
    if phase_number is not None and (phase is None or phase.number != phase_number
                                     or phase.status != status):
        raise _moved_on(game, phase_number, done)


def _a(word: str) -> str:
    """"a card", "an assassin card"."""
    return f"a{'n' if word[:1].lower() in 'aeiou' else ''} {word}"


def _state_before(phase: Phase) -> Any:
    """The phase's starting state, refused with a message if it no longer matches its digest
    (a row changed behind the services' back: the GM should run the replay check)."""
    try:
        return repository.state_before(phase)
    except RuntimeError as error:
        raise GMError(f"Phase {phase.number}'s stored state does not match its digest; run "
                      "the replay check and roll back to a sound phase.") from error


# --- drafting and publishing ----------------------------------------------------------------

def draft(game: Game, phase: Phase) -> PhaseResult:
    """Resolve `phase` from its stored state and orders and keep the result unpublished (a
    draft for the GM). A phase drafted before gets its one result row rewritten: an unpublished
    draft is the GM's working copy, and the audit entry keeps the digest it had. Call with the
    game row locked."""
    engine = repository.engine()
    state = _state_before(phase)
    orders = repository.orders_for_engine(phase)
    resolution = engine.resolve(state, orders, repository.submission_order(phase))
    fields = {
        "orders_used": repository.orders_as_json(orders),
        "events": [repository.event_to_json(event) for event in resolution.events],
        "state_after": resolution.state.to_dict(),
        "digest": engine.digest(resolution.state),
        "engine_version": engine.ENGINE_VERSION,
    }
    result = PhaseResult.objects.filter(phase=phase).first()
    if result is None:
        result = PhaseResult.objects.create(phase=phase, **fields)
    else:
        if result.published_at is not None:
            raise GMError(f"Phase {phase.number} is already published.")
        for name, value in fields.items():
            setattr(result, name, value)
        result.save(update_fields=list(fields))
    if phase.status != Phase.Status.DRAFTED:
        phase.status = Phase.Status.DRAFTED
        phase.save(update_fields=["status"])
    return result


def _redraft_if_drafted(game: Game, phase: Phase) -> str | None:
    """After a change to a drafted phase, draft it again; returns the new digest."""
    if phase.status != Phase.Status.DRAFTED:
        return None
    return draft(game, phase).digest


def adjudicate_now(game_id: int, by: User, reason: str = "",
                   now: datetime | None = None, *, phase_number: int | None = None) -> Phase:
    """Resolve the open phase at once. In review mode the result waits for the GM as a draft;
    otherwise it is published and the next phase opens. Returns the adjudicated phase.
    `phase_number` is the phase the GM's form was for: sent again later, it is refused rather
    than adjudicating the next phase too."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game_id, by)
        phase = _current(game)
        _still_on(game, phase, phase_number, Phase.Status.OPEN)
        if game.status == Game.Status.PAUSED:
            raise GMError("The campaign is paused: resume it before adjudicating.")
        if phase is None or phase.status != Phase.Status.OPEN:
            raise GMError("There is no open phase to adjudicate.")
        result = draft(game, phase)
        published = game.review_mode != Game.ReviewMode.REVIEW
        if published:
            adjudication.publish(game, phase, result, now)
        _audit(game, by, "adjudicate", reason=_reason(reason, required=False),
               phase=phase.number, kind=phase.kind, digest=result.digest, published=published)
    return phase


def publish(game_id: int, by: User, announcement: str = "",
            now: datetime | None = None, *, phase_number: int | None = None) -> Phase | None:
    """Publish the drafted result: players read it, and the next phase opens (None when the
    game ends). `phase_number` is the phase the GM read: a form sent again after the next
    phase was drafted is refused rather than publishing a result nobody reviewed."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game_id, by)
        phase = _current(game)
        _still_on(game, phase, phase_number, Phase.Status.DRAFTED, "published")
        if phase is None or phase.status != Phase.Status.DRAFTED:
            raise GMError("No drafted result waits for publication.")
        result = phase.result
        next_phase = adjudication.publish(game, phase, result, now)
        _audit(game, by, "publish", announcement=announcement, phase=phase.number,
               kind=phase.kind, digest=result.digest)
    return next_phase


def redraft(game_id: int, by: User, reason: str = "") -> PhaseResult:
    """Draft the waiting phase again from its stored state and orders."""
    with transaction.atomic():
        game = _lock(game_id, by)
        phase = _current(game)
        if phase is None or phase.status != Phase.Status.DRAFTED:
            raise GMError("No drafted result waits for review.")
        before = phase.result.digest
        result = draft(game, phase)
        _audit(game, by, "redraft", reason=_reason(reason, required=False),
               phase=phase.number, digest_before=before, digest_after=result.digest)
    return result


# --- time: the existing services in `running`, behind the GM check ---------------------------

def _complete_latest(game: Game, action: str, announcement: str, **data: Any) -> None:
    """Add the announcement and a summary to the entry `running` just wrote for `action`."""
    entry = AuditEntry.objects.filter(game=game, action=action).order_by("-id").first()
    if entry is None:
        return
    entry.announcement = (announcement or "").strip()[:MAX_TEXT]
    entry.data = {**entry.data, **data}
    entry.save(update_fields=["announcement", "data"])


def _length(start: datetime, end: datetime) -> str:
    """A length of time in words ("3 hours, 12 minutes"; "0 minutes" when none)."""
    from django.utils.timesince import timeuntil

    return timeuntil(end, start).replace("\xa0", " ") if end > start else "0 minutes"


@transaction.atomic
def pause(game_id: int, by: User, reason: str = "", announcement: str = "",
          now: datetime | None = None) -> Game:
    now = now or timezone.now()
    game = running.pause(game_id, by, reason=_reason(reason, required=False), now=now)
    phase = game.phases.order_by("-number").first()
    if phase is not None and phase.status == Phase.Status.OPEN:
        summary = (f"the clock stopped in phase {phase.number} with "
                   f"{_length(now, phase.deadline)} to go")
    else:
        summary = "the clock stopped"
    _complete_latest(game, "pause", announcement, summary=summary,
                     phase=phase.number if phase else None)
    return game


@transaction.atomic
def resume(game_id: int, by: User, reason: str = "", announcement: str = "",
           now: datetime | None = None) -> Game:
    """The deadline of the open phase moves by the length of the pause (`running.resume`)."""
    now = now or timezone.now()
    paused_at = _lock(game_id, by).paused_at
    game = running.resume(game_id, by, reason=_reason(reason, required=False), now=now)
    phase = game.phases.order_by("-number").first()
    paused = _length(paused_at, now) if paused_at else "an unknown time"
    if phase is not None and phase.status == Phase.Status.OPEN:
        summary = (f"running again after a pause of {paused}; phase {phase.number}'s deadline "
                   "moved by as much")
    else:
        summary = f"running again after a pause of {paused}"
    _complete_latest(game, "resume", announcement, summary=summary,
                     phase=phase.number if phase else None,
                     paused_seconds=int((now - paused_at).total_seconds()) if paused_at else None)
    return game


@transaction.atomic
def extend_deadline(game_id: int, by: User, hours: int, reason: str = "",
                    announcement: str = "") -> Phase:
    phase = running.extend_deadline(game_id, by, hours, reason=_reason(reason, required=False))
    _complete_latest(phase.game, "extend", announcement,
                     summary=f"phase {phase.number}'s deadline extended by {hours} "
                             f"hour{'s' if hours != 1 else ''}")
    return phase


def start_campaign(game_id: int, by: User, now: datetime | None = None) -> Phase:
    """Seat order is fixed and the nomination phase opens (`running.start_campaign`)."""
    return running.start_campaign(game_id, by, now=now)


# --- settings ---------------------------------------------------------------------------------

SETTINGS_ANY_TIME = ("review_mode", "deadline_time", "time_zone", "phase_days", "min_hours")
SETTINGS_FORMING = ("join_policy", "max_players", "extra_bills_min", "extra_bills_max")


@transaction.atomic
def update_settings(game_id: int, by: User, changes: dict[str, Any]) -> list[str]:
    """Change the campaign's settings. Review mode, the daily deadline, its zone and the phase
    lengths may change at any time (new deadlines follow them); who may join, the number of
    seats and the range of hidden extra bills only while the campaign forms (the deck is dealt at
    the start). Returns the names of the settings that changed."""
    from django.core.exceptions import ValidationError

    game = _lock(game_id, by)
    unknown = set(changes) - set(SETTINGS_ANY_TIME) - set(SETTINGS_FORMING)
    if unknown:
        raise GMError(f"{', '.join(sorted(unknown))} cannot be set here.")
    changed = {name: value for name, value in changes.items()
               if value is not None and getattr(game, name) != value}
    late = [name for name in changed if name in SETTINGS_FORMING]
    if late and game.status != Game.Status.FORMING:
        raise GMError(f"{game.name} has started: who may join, the seats and the hidden extra "
                      "bills were settled when the decks were dealt.")
    if "phase_days" in changed:
        days = changed["phase_days"]
        if any(not isinstance(v, int) or not 1 <= v <= 7 for v in days.values()):
            raise GMError("A phase lasts 1 to 7 days.")
        changed["phase_days"] = {**(game.phase_days or {}), **days}
        if changed["phase_days"] == game.phase_days:
            del changed["phase_days"]
    seated = game.players.filter(membership=Player.Membership.ACTIVE).count()
    if changed.get("max_players") is not None and changed["max_players"] < seated:
        raise GMError(f"{seated} players are seated already: the campaign needs at least "
                      f"{seated} seats.")
    old = {name: getattr(game, name) for name in changed}
    for name, value in changed.items():
        setattr(game, name, value)
    try:
        game.full_clean()
    except ValidationError as error:
        raise GMError(" ".join(m for ms in error.message_dict.values() for m in ms)) from error
    if changed:
        game.save(update_fields=list(changed))
        _audit(game, by, "settings", changes={
            name: [str(old[name]), str(value)] for name, value in changed.items()})
    return sorted(changed)


# --- players ----------------------------------------------------------------------------------

@transaction.atomic
def approve_player(game_id: int, by: User, player_id: int) -> Player:
    game = _lock(game_id, by)
    if game.status != Game.Status.FORMING:
        raise GMError(f"{game.name} has started: seats change by replacing a player now.")
    player = game.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise GMError("There is no such player in this campaign.")
    if player.membership != Player.Membership.PENDING:
        raise GMError(f"{player.user.public_name} is not waiting for approval.")
    seat_player(game, player)
    _audit(game, by, "approve", player=player.pk, user=player.user.public_name, seat=player.seat)
    return player


@transaction.atomic
def remove_player(game_id: int, by: User, player_id: int, reason: str = "") -> Player:
    """Decline a request to join, or take a seated player out, while the campaign forms. Once
    it runs, every seat is a family of the game: replace its player instead."""
    game = _lock(game_id, by)
    player = game.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise GMError("There is no such player in this campaign.")
    if player.membership not in (Player.Membership.PENDING, Player.Membership.ACTIVE):
        raise GMError(f"{player.user.public_name} is no longer in {game.name}.")
    if game.status != Game.Status.FORMING and player.membership == Player.Membership.ACTIVE:
        raise GMError(f"{game.name} has started: the seat stays in the game. Replace "
                      f"{player.user.public_name} by another person instead.")
    was = player.membership
    player.membership = Player.Membership.REMOVED
    player.seat = None
    player.save(update_fields=["membership", "seat"])
    _audit(game, by, "remove" if was == Player.Membership.ACTIVE else "decline",
           reason=_reason(reason, required=False), player=player.pk,
           user=player.user.public_name)
    return player


def _board_state(game: Game) -> tuple[Phase | None, Any]:
    """The latest phase and the state the board rows show: the start of an open or drafted
    phase, or the result of a published one (a finished game)."""
    phase = game.phases.order_by("-number").first()
    if phase is None:
        return None, None
    if phase.status == Phase.Status.PUBLISHED:
        return phase, repository.state_after(phase.result)
    return phase, _state_before(phase)


@transaction.atomic
def replace_player(game_id: int, by: User, player_id: int, newcomer_email: str,
                   character_name: str = "", reason: str = "", announcement: str = "") -> Player:
    """The newcomer takes the seat and its state (money, cards, positions, orders in progress)
    with a Player row of their own; the leaver's row, orders and speeches stay theirs."""
    reason = _reason(reason)
    game = _lock(game_id, by)
    if game.status == Game.Status.FORMING:
        raise GMError("While the campaign forms, remove the player and invite the newcomer.")
    if game.status == Game.Status.FINISHED:
        raise GMError("The game is over: its seats no longer change.")
    old = game.players.select_related("user").prefetch_related("characters") \
        .filter(pk=player_id).first()
    if old is None or old.membership != Player.Membership.ACTIVE:
        raise GMError("Only a seated player can be replaced.")
    email = (newcomer_email or "").strip()
    user = User.objects.filter(email__iexact=email).first() if email else None
    if user is None:
        raise GMError(f"Nobody has an account with the e-mail address {email or '(none)'}: "
                      "ask the newcomer to sign up first.")
    if user.pk == game.gm_id:
        raise GMError("The GameMaster of a campaign cannot also play in it.")
    if game.players.filter(user=user, membership__in=[
            Player.Membership.PENDING, Player.Membership.ACTIVE]).exists():
        raise GMError(f"{user.public_name} is already in {game.name}.")
    character = old.character
    name = (character_name or "").strip()[:60] or (character.name if character else
                                                   f"Family {old.seat + 1}")
    seat = old.seat
    old.membership = Player.Membership.REPLACED
    old.save(update_fields=["membership"])
    new = Player.objects.create(game=game, user=user, seat=seat,
                                membership=Player.Membership.ACTIVE, state=old.state,
                                pocket=old.pocket, bank=old.bank)
    Character.objects.create(player=new, life=character.life if character else 1, name=name)
    phase = game.phases.select_for_update().order_by("-number").first()
    moved = 0
    if phase is not None and phase.status in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        moved = Order.objects.filter(phase=phase, player=old).update(player=new)
    digest_after = None
    if phase is not None and phase.status in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        state = _state_before(phase)
        if state.players[seat].name != name:
            state.players[seat].name = name
            repository.rewrite_state_before(phase, state)
            _redraft_if_drafted(game, phase)
        digest_after = phase.state_digest
    _, board = _board_state(game)
    if board is not None:
        repository.write_board(game, board)
    _bump(game)
    _audit(game, by, "replace", reason=reason, announcement=announcement, seat=seat,
           old_player=old.pk, old_user=old.user.public_name, new_player=new.pk,
           new_user=user.public_name, character=name, orders_moved=moved,
           phase=phase.number if phase else None, digest_after=digest_after)
    return new


# --- orders -----------------------------------------------------------------------------------

def _order_row(phase: Phase, seat: int) -> Order | None:
    return Order.objects.select_for_update().filter(
        phase=phase, player__seat=seat, player__membership=Player.Membership.ACTIVE).first()


@transaction.atomic
def annul_order(game_id: int, by: User, seat: int, index: int, reason: str = "",
                announcement: str = "", *, state_version: int | None = None,
                revision: int | None = None) -> Order:
    """Strike one order from a player's orders for the current phase (redrafted if the phase
    waits for review). `state_version` and `revision` are what the GM's form showed: a form
    sent twice, or a player's orders changed since, is refused (the index would point at
    another order)."""
    from junta.gm.selectors import describe

    reason = _reason(reason)
    game = _lock(game_id, by)
    _check_version(game, state_version)
    phase = _working_phase(game)
    row = _order_row(phase, seat)
    if row is not None and revision is not None and row.revision != revision:
        raise GMError(f"Seat {seat + 1}'s orders changed since this page was opened: nothing "
                      "was done. Check them and annul again.")
    if row is None or not 0 <= index < len(row.payload):
        raise GMError(f"Seat {seat + 1} has no order number {index + 1} in phase "
                      f"{phase.number}.")
    state = _state_before(phase)
    payload = list(row.payload)
    struck = payload.pop(index)
    row.payload = payload
    row.revision += 1
    row.save(update_fields=["payload", "revision", "submitted_at"])
    _bump(game)
    digest = _redraft_if_drafted(game, phase)
    _audit(game, by, "annul", reason=reason, announcement=announcement, phase=phase.number,
           seat=seat, order=struck, draft_digest=digest,
           summary=f"{state.name(seat)}'s order {index + 1}: {describe(state, struck)}")
    return row


class GMOrderRefused(GMError):
    """The engine refuses an order the GM gives for a player. `problems` are its keyed messages
    (`junta.engine.Problem`: `.arg` names the argument, `.orders` the positions in the list
    checked); `index` is where the new order stood in that list (after the player's own)."""

    def __init__(self, message: str, problems: list[Any], index: int) -> None:
        super().__init__(message)
        self.problems = list(problems)
        self.index = index


@transaction.atomic
def add_order(game_id: int, by: User, seat: int, order: Any, reason: str = "",
              announcement: str = "", *, state_version: int | None = None) -> Order:
    """Give an order for a player: an engine `Order` (the panel builds it with the player's
    own order forms), or its dict as the engine reads it. The engine checks it against the
    phase's state together with the player's other orders; a refusal is `GMOrderRefused`, with
    the engine's messages keyed by argument."""
    from junta.gm.selectors import describe

    reason = _reason(reason)
    game = _lock(game_id, by)
    _check_version(game, state_version)
    phase = _working_phase(game)
    engine = repository.engine()
    if isinstance(order, engine.Order):
        parsed = order
    elif isinstance(order, dict):
        try:
            parsed = engine.parse_order(dict(order))
        except engine.OrderError as exc:
            raise GMError(str(exc)) from exc
    else:
        raise GMError("An order is given with its form, not as text.")
    state = _state_before(phase)
    _player_seat(state, seat)
    player = game.players.filter(seat=seat, membership=Player.Membership.ACTIVE).first()
    if player is None:
        raise GMError(f"Nobody sits at seat {seat + 1}.")
    row = _order_row(phase, seat)
    current = [engine.parse_order(dict(item)) for item in (row.payload if row else [])]
    problems = engine.validate_orders(state, seat, [*current, parsed])
    if problems:
        raise GMOrderRefused("The engine refuses this order for " + _seat_name(state, seat)
                             + ": " + "; ".join(problems), problems, len(current))
    if row is None:
        row = Order(phase=phase, player=player, revision=0, payload=[])
    row.payload = [*row.payload, parsed.to_dict()]
    row.revision += 1
    row.save()
    _bump(game)
    digest = _redraft_if_drafted(game, phase)
    _audit(game, by, "order", reason=reason, announcement=announcement, phase=phase.number,
           seat=seat, order=parsed.to_dict(), draft_digest=digest,
           summary=f"for {state.name(seat)}: {describe(state, parsed.to_dict())}")
    return row


# --- rulings on the engine state --------------------------------------------------------------

def invariant_problems(before: Any, after: Any) -> list[str]:
    """What a ruling would break: the engine's invariants (tests/engine/test_campaigns.py)."""
    from junta.engine import catalog

    problems = []
    if after.bills_total() != before.bills_total():
        problems.append(f"the money in the game would change from {before.bills_total()} MP "
                        f"to {after.bills_total()} MP")
    for p in after.players:
        if p.pocket < 0 or p.bank < 0:
            problems.append(f"{p.name} would have {p.pocket} MP in pocket and {p.bank} MP in "
                            "the bank")
        if p.status == Status.DEAD and (p.hand or p.influence or p.pocket):
            problems.append(f"{p.name} is dead and would keep cards or pocket money")
        grew = after.cards_held(p.seat) > before.cards_held(p.seat)
        if grew and after.cards_held(p.seat) > catalog.HAND_LIMIT:
            problems.append(f"{p.name} would hold {after.cards_held(p.seat)} cards, over the "
                            f"limit of {catalog.HAND_LIMIT}")
    ids = list(after.political_deck) + list(after.political_discard)
    for p in after.players:
        ids += p.hand + p.influence
    if sorted(ids) != list(range(len(catalog.cards()))):
        problems.append("a political card would be in two places or in none")
    if after.coup is not None:
        unit_ids = [u["id"] for u in after.coup["units"]]
        if len(unit_ids) != len(set(unit_ids)):
            problems.append("a unit would be on the map twice")
        for u in after.coup["units"]:
            if u["zone"] is not None and u["zone"] not in catalog.zones():
                problems.append(f"unit {u['id']} would stand in no zone of the city")
            if u["owner"] is not None and not after.players[u["owner"]].active:
                problems.append(f"unit {u['id']} would be commanded by a player who is not in "
                                "the country")
    return problems


def _rule(game_id: int, by: User, action: str, reason: str, announcement: str,
          change: Callable[[Any], tuple[str, dict]], state_version: int | None = None
          ) -> AuditEntry:
    """Apply `change` (which edits the state in place and returns a summary and audit data) to
    the state the current phase starts from. A form with a stale `state_version` (sent twice,
    or opened before another change) is refused."""
    reason = _reason(reason)
    with transaction.atomic():
        game = _lock(game_id, by)
        _check_version(game, state_version)
        phase = _working_phase(game)
        state = _state_before(phase)
        before = state.copy()
        summary, data = change(state)
        problems = invariant_problems(before, state)
        if problems:
            raise GMError("This ruling would break the rules: " + "; ".join(problems) + ".")
        digest_before = phase.state_digest
        repository.rewrite_state_before(phase, state)
        repository.write_board(game, state)
        _bump(game)
        draft_digest = _redraft_if_drafted(game, phase)
        return _audit(game, by, action, reason=reason, announcement=announcement,
                      summary=summary, phase=phase.number, digest_before=digest_before,
                      digest_after=phase.state_digest, draft_digest=draft_digest, **data)


OUT_OF_PLAY = "out"


def pot_label(state: Any, key: str) -> str:
    if key == OUT_OF_PLAY:
        return "out of play"
    where, _, seat = key.partition(":")
    words = {"pocket": "pocket", "bank": "Swiss bank account"}[where]
    return f"{state.name(int(seat))}'s {words}"


def _parse_pot(state: Any, key: str) -> tuple[str, Any]:
    if key == OUT_OF_PLAY:
        return OUT_OF_PLAY, None
    where, _, seat = (key or "").partition(":")
    if where not in ("pocket", "bank") or not seat.isdigit():
        raise GMError(f"{key!r} is not a pocket, a bank account or out of play.")
    return where, _player_seat(state, int(seat))


def move_money(game_id: int, by: User, source: str, target: str, amount: int,
               reason: str = "", announcement: str = "", *, state_version: int | None = None
               ) -> AuditEntry:
    """Move money between pockets, bank accounts and out of play (money paid for card costs):
    the money in the game stays the same."""

    def change(state: Any) -> tuple[str, dict]:
        if not isinstance(amount, int) or amount < 1:
            raise GMError("Move a whole number of MP, 1 or more.")
        if source == target:
            raise GMError("The money would go where it already is.")
        src_kind, src = _parse_pot(state, source)
        dst_kind, dst = _parse_pot(state, target)
        if src_kind == OUT_OF_PLAY:
            if state.spent < amount:
                raise GMError(f"Only {state.spent} MP is out of play.")
            state.spent -= amount
        else:
            have = getattr(src, src_kind)
            if have < amount:
                raise GMError(f"{pot_label(state, source)} holds {have} MP, not {amount} MP.")
            setattr(src, src_kind, have - amount)
        if dst_kind == OUT_OF_PLAY:
            state.spent += amount
        else:
            if dst_kind == "pocket" and dst.status == Status.DEAD:
                raise GMError(f"{dst.name} is dead: the dead keep no pocket money (the bank "
                              "account survives). Pay into the bank account instead.")
            setattr(dst, dst_kind, getattr(dst, dst_kind) + amount)
        summary = f"{amount} MP from {pot_label(state, source)} to {pot_label(state, target)}"
        return summary, {"source": source, "target": target, "amount": amount}

    return _rule(game_id, by, "money", reason, announcement, change, state_version)


def card_place(state: Any, card_id: int) -> str:
    """Where a political card lies: "deck", "discard", "hand:<seat>" or "influence:<seat>"."""
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


def place_label(state: Any, place: str) -> str:
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


def move_card(game_id: int, by: User, card_id: int, target: str, reason: str = "",
              announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """Move a political card to a hand, into play before a player (Influence cards), onto the
    discard pile or the draw pile (top or bottom). Each card stays in exactly one place."""
    from junta.engine import catalog

    def change(state: Any) -> tuple[str, dict]:
        if not isinstance(card_id, int) or not 0 <= card_id < len(catalog.cards()):
            raise GMError("There is no such political card.")
        card = catalog.card(card_id)
        origin = card_place(state, card_id)
        where, _, seat_text = (target or "").partition(":")
        if target == origin or (target == "deck_top" and origin == "deck"
                                and state.political_deck[-1] == card_id):
            raise GMError(f"{card.name} is already there.")
        dest = None
        if where in ("hand", "influence"):
            if not seat_text.isdigit():
                raise GMError("Name the player who gets the card.")
            dest = _player_seat(state, int(seat_text))
            if dest.status == Status.DEAD:
                raise GMError(f"{dest.name} is dead: the dead hold no cards.")
            if where == "influence" and card.category != "influence":
                raise GMError(f"Only Influence cards lie in play before a player; {card.name} "
                              f"is {_a(card.category.replace('_', ' '))} card.")
            moving_within = origin.partition(":")[2] == seat_text
            if not moving_within and state.cards_held(dest.seat) >= catalog.HAND_LIMIT:
                raise GMError(f"{dest.name} already holds {state.cards_held(dest.seat)} cards "
                              f"(hand and Influence in play), the limit: move one away first.")
        elif target not in ("discard", "deck_top", "deck_bottom"):
            raise GMError(f"{target!r} is not a place for a card.")
        # take it from where it lies
        if origin == "deck":
            state.political_deck.remove(card_id)
        elif origin == "discard":
            state.political_discard.remove(card_id)
        else:
            pile, _, seat = origin.partition(":")
            getattr(state.players[int(seat)], pile).remove(card_id)
        if dest is not None:
            getattr(dest, where).append(card_id)
        elif target == "discard":
            state.political_discard.append(card_id)
        elif target == "deck_top":
            state.political_deck.append(card_id)  # the top card is the last element
        else:
            state.political_deck.insert(0, card_id)
        summary = (f"{card.name} (card {card_id}) from {place_label(state, origin)} to "
                   f"{place_label(state, target)}")
        return summary, {"card": card_id, "card_name": card.name, "origin": origin,
                         "target": target}

    return _rule(game_id, by, "card", reason, announcement, change, state_version)


def set_location(game_id: int, by: User, seat: int, location: str | None, reason: str = "",
                 announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """Set a player's location this turn (or clear it)."""
    from junta.engine import catalog

    def change(state: Any) -> tuple[str, dict]:
        player = _player_seat(state, seat)
        if not player.alive:
            raise GMError(f"{player.name} is {player.status}: only the living have a location.")
        value = location or None
        if value is not None and value not in catalog.LOCATIONS:
            raise GMError(f"{value!r} is not a location (Home, HQ, Bank, Club, Mistress).")
        old = player.location
        player.location = value
        label = catalog.LOCATION_NAMES.get(value or "", "no location")
        return (f"{player.name}'s location set to {label}",
                {"seat": seat, "location": value, "was": old})

    return _rule(game_id, by, "location", reason, announcement, change, state_version)


def add_unit(game_id: int, by: User, kind: str, owner: int | None, zone: int,
             armed: bool = True, reason: str = "", announcement: str = "", *,
             state_version: int | None = None) -> AuditEntry:
    """Put a unit on the city map during a coup. It is the GM's creation, like a card's units:
    it leaves the map when the coup ends."""
    from junta.engine import catalog
    from junta.engine.units import new_unit

    def change(state: Any) -> tuple[str, dict]:
        if state.coup is None:
            raise GMError("There is no coup under way: units are on the map only in a coup.")
        name = (kind or "").strip()[:40]
        if not name:
            raise GMError("Name the kind of unit (Soldier, Mob, Mercenary...).")
        if zone not in catalog.zones():
            raise GMError(f"There is no zone {zone} in the city (1-{len(catalog.zones())}).")
        if owner is not None:
            player = _player_seat(state, owner)
            if not player.active:
                raise GMError(f"{player.name} is {player.status} and commands no units.")
        unit = new_unit(state.coup, name, owner, zone, phase=state.coup["phase"],
                        temporary=True, armed=armed)
        who = state.name(owner) if owner is not None else "nobody"
        return (f"{_a(name)} (unit {unit['id']}) "
                f"commanded by {who} in zone {zone} {catalog.zones()[zone].name}",
                {"unit": unit["id"], "kind": name, "owner": owner, "zone": zone,
                 "armed": armed})

    return _rule(game_id, by, "unit_add", reason, announcement, change, state_version)


def remove_unit(game_id: int, by: User, unit_id: int, reason: str = "",
                announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """Take a unit off the city map during a coup."""
    from junta.engine import catalog

    def change(state: Any) -> tuple[str, dict]:
        if state.coup is None:
            raise GMError("There is no coup under way: units are on the map only in a coup.")
        unit = next((u for u in state.coup["units"] if u["id"] == unit_id), None)
        if unit is None:
            raise GMError(f"There is no unit {unit_id} on the map.")
        state.coup["units"].remove(unit)
        who = state.name(unit["owner"]) if unit["owner"] is not None else "nobody"
        zone = unit["zone"]
        where = (f"zone {zone} {catalog.zones()[zone].name}" if zone in catalog.zones()
                 else "the map")
        return (f"{unit['kind']} (unit {unit_id}) of {who} removed from {where}",
                {"unit": unit_id, "removed": dict(unit)})

    return _rule(game_id, by, "unit_remove", reason, announcement, change, state_version)


def budget_by_fiat(game_id: int, by: User, allocations: dict[int, int], reason: str = "",
                   announcement: str = "", *, state_version: int | None = None) -> AuditEntry:
    """Replace the budget put to the vote by one the GM decrees, paid out of the budget bills
    alone (when the proposal cannot be paid in time). Pocket money the proposer set aside goes
    back to him; what is not allocated stays with the budget holder, as in the rules."""
    from junta.engine.phases.budget import pay_plan, read_allocations

    def change(state: Any) -> tuple[str, dict]:
        if state.phase != PhaseKind.BUDGET_VOTE:
            raise GMError("A budget by fiat replaces the proposal being voted on, in the "
                          "Budget Vote phase. In the Budget Proposal phase the budget is the "
                          "proposer's order: give it for him from the Rulings page instead.")
        budget = state.budget
        held = list(budget.get("held", []))
        set_aside = budget.get("set_aside") or 0
        proposer = budget.get("proposer", state.president)
        for _ in range(set_aside):
            held.remove(1)
        wanted, errors = read_allocations(state, {"allocations": {
            str(k): v for k, v in allocations.items()}})
        if errors:
            raise GMError(" ".join(errors))
        plan, _ = pay_plan(held, wanted, 0, None, state)
        if plan is None:
            bills = ", ".join(f"{b} MP" for b in sorted(held, reverse=True)) or "no bills"
            raise GMError(f"The budget bills ({bills}; {sum(held)} MP) cannot pay these "
                          "amounts exactly: lower or change them (what is not allocated stays "
                          "with the budget holder).")
        if set_aside:
            if proposer is not None:
                state.players[proposer].pocket += set_aside
            else:
                state.spent += set_aside
        budget["held"] = held
        budget["set_aside"] = 0
        budget["proposal"] = {
            "allocations": {str(k): v for k, v in sorted(wanted.items())}, "from_pocket": 0,
            "bills": {str(k): v for k, v in plan["bills"].items()}, "top_up": {},
            "fiat": True,
        }
        lines = ", ".join(f"{state.name(k)} {v} MP" for k, v in sorted(wanted.items()))
        return (f"budget by fiat: {lines or 'nothing for anyone'}",
                {"allocations": {str(k): v for k, v in sorted(wanted.items())},
                 "returned_to_proposer": set_aside})

    return _rule(game_id, by, "fiat", reason, announcement, change, state_version)


# --- rollback and the replay check ------------------------------------------------------------

@transaction.atomic
def rollback(game_id: int, by: User, to_phase: int, reason: str = "", announcement: str = "",
             now: datetime | None = None, *, current_phase: int | None = None) -> Phase:
    """Go back to the start of an earlier phase: a new phase opens with that phase's starting
    state; the current phase is marked superseded. Nothing is deleted: every earlier phase keeps
    its orders and result; the phases from the target up to the new one count as undone (the
    audit entry's `to_phase` and `new_phase`: `junta.games.play.undone`). The families' lives
    follow the restored state (`junta.lives.services.restore_lives`). `current_phase` is the
    phase that was current when the GM's form was opened: sent again after the rollback (or
    after the phase moved on), it is refused rather than opening another phase."""
    now = now or timezone.now()
    reason = _reason(reason)
    game = _lock(game_id, by)
    current = _current(game)
    if current is None:
        raise GMError("The campaign has not started: there is nothing to roll back.")
    if current_phase is not None and current.number != current_phase:
        raise _moved_on(game, current_phase)
    target = game.phases.filter(number=to_phase).first()
    if target is None:
        raise GMError(f"There is no phase {to_phase} in this campaign.")
    if target.number >= current.number:
        raise GMError(f"Roll back to an earlier phase: phase {current.number} is the current "
                      "one.")
    state = _state_before(target)
    superseded = None
    if current.status in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        current.status = Phase.Status.SUPERSEDED
        current.save(update_fields=["status"])
        superseded = current.number
    # the lives first: the new phase's state takes the families' names from them
    restore_lives(game, state)  # deaths after the target undone, later heirs back to drafts
    new = repository.open_phase(game, state, now)
    status = Game.Status.RUNNING if repository.campaign_running(state) else \
        Game.Status.NOMINATING
    if game.status == Game.Status.PAUSED:
        game.paused_from = status
        game.paused_at = now  # the new phase's deadline moves by the pause from now on
    else:
        game.status = status
    game.finished_at = None
    game.state_version += 1
    game.save(update_fields=["status", "paused_from", "paused_at", "finished_at",
                             "state_version"])
    repository.write_board(game, state)
    _audit(game, by, "rollback", reason=reason, announcement=announcement,
           to_phase=target.number, kind=target.kind, turn=target.turn, new_phase=new.number,
           superseded=superseded, digest=target.state_digest)
    return new


def replay_check(game_id: int, by: User) -> Any:
    """Run the replay and the chain check (see `junta.gm.checks`) and note it in the log."""
    from junta.gm.checks import check_campaign

    game = Game.objects.get(pk=game_id)
    if game.gm_id != by.pk:
        raise NotTheGM("Only the campaign's GameMaster can do this.")
    report = check_campaign(game)
    with transaction.atomic():
        _audit(game, by, "replay_check", phases=len(report.replay), ok=report.ok,
               failures=[line.phase_number for line in report.replay if not line.ok],
               breaks=[line.number for line in report.chain if not line.ok])
    return report
