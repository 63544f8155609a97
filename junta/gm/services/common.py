"""What every GM action shares: the errors, the lock and the GM check, the checks of a form sent
late or twice, the audit entry, and the state a phase starts from."""

from __future__ import annotations

from accounts.public import User
from junta.engine import GameState, Player
from junta.games.public import (
    AuditEntry,
    CampaignError,
    Game,
    Phase,
    lock_game,
    record_audit,
    state_before,
)

MAX_TEXT = 4000
STALE_FORM = ("The campaign has changed since this form was opened (a ruling, an order or a new "
              "phase): nothing was done. Check the page and send the form again.")


class GMError(CampaignError):
    """A GM action that cannot be carried out; the message says why, for the GM."""


class NotTheGM(GMError):
    """Somebody other than the campaign's GameMaster asked (views answer 404 before this)."""


def lock_as_gm(game_id: int, by: User) -> Game:
    game = lock_game(game_id)
    if game.gm_id != by.pk:
        raise NotTheGM("Only the campaign's GameMaster can do this.")
    return game


def latest_phase(game: Game) -> Phase | None:
    """The latest phase, locked (the game row is locked first by the caller)."""
    return (Phase.objects.select_for_update(no_key=True).filter(game=game)
            .order_by("-number").first())


def working_phase(game: Game) -> Phase:
    """The phase rulings act on: the open one, or the one whose result waits for review."""
    phase = latest_phase(game)
    if phase is None:
        raise GMError("The campaign has not started: there is no state to rule on yet.")
    if game.status == Game.Status.FINISHED:
        raise GMError("The game is over: roll back to an earlier phase to change anything.")
    if phase.status not in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        raise GMError(f"Phase {phase.number} is {phase.get_status_display().lower()}: there is "
                      "no open phase to rule on.")
    return phase


def given_reason(reason: str, required: bool = True) -> str:
    reason = (reason or "").strip()[:MAX_TEXT]
    if required and not reason:
        raise GMError("Give a reason: it goes into the audit log.")
    return reason


def audit(game: Game, by: User, action: str, *, reason: str = "", announcement: str = "",
           **data: object) -> AuditEntry:
    return record_audit(game, by, action, reason=reason,
                        announcement=(announcement or "").strip()[:MAX_TEXT], data=data)


def seat_name(state: GameState, seat: int) -> str:
    return state.name(seat)


def player_seat(state: GameState, seat: int) -> Player:
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise GMError(f"There is no seat {seat} in this campaign.")
    return state.players[seat]


def check_version(game: Game, state_version: int | None) -> None:
    """A form carries the game's `state_version` from when it was opened: a form sent twice,
    or opened before another change, is refused (as the players' order forms are)."""
    if state_version is not None and state_version != game.state_version:
        raise GMError(STALE_FORM)


def moved_on(game: Game, number: int, done: str = "adjudicated") -> GMError:
    """A form meant for phase `number`, sent when the campaign is past it (a resent form)."""
    old = game.phases.filter(number=number).first()
    if old is not None and old.status == Phase.Status.SUPERSEDED:
        done = "rolled back"
    return GMError(f"Phase {number} was already {done}: nothing was done.")


def still_on(game: Game, phase: Phase | None, phase_number: int | None, status: str,
              done: str = "adjudicated") -> None:
    """A form meant for phase `phase_number` (None: any) is refused unless that phase is the
    current one and still `status` (see `moved_on`)."""
    if phase_number is not None and (phase is None or phase.number != phase_number
                                     or phase.status != status):
        raise moved_on(game, phase_number, done)


def sound_state_before(phase: Phase) -> GameState:
    """The phase's starting state, refused with a message if it no longer matches its digest
    (a row changed behind the services' back: the GM should run the replay check)."""
    try:
        return state_before(phase)
    except RuntimeError as error:
        raise GMError(f"Phase {phase.number}'s stored state does not match its digest; run "
                      "the replay check and roll back to a sound phase.") from error
