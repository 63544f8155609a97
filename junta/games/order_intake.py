"""Order intake: a seat's orders taken, changed and marked final while its phase is open. The
campaign's start is in `campaigns`; the GM's clock (pause, resume, extend a deadline) is the GM
panel's (`junta.gm.services.time`).

Each write is one transaction in the shape of every app's (README, Layout): the service named
for it locks the game row first (see `locking`), `check_<verb>` raises `CampaignError` with a
message for the person who asked, changing nothing, `do_<verb>` writes. Orders are validated by
the engine against the state the phase opened with; a rejected change leaves the saved orders
untouched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.public import User
from junta import engine
from junta.engine import (
    GameState,
    PhaseKind,
    describe_order,
    is_rebel_action,
    takes_the_place_of,
)
from junta.engine import Order as EngineOrder
from junta.games import repository, selectors
from junta.games.campaigns import CampaignError
from junta.games.locking import lock_phase
from junta.games.models import MAX_NOTE, Game, Order, Phase, Player


class OrdersRejected(CampaignError):
    """The engine refused the orders; `errors` holds its messages, one per problem."""

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


@dataclass(frozen=True)
class Submission:
    order: Order
    errors: list[str]


def _player_in(game: Game, user: User) -> Player:
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    if player is None:
        raise CampaignError("You have no seat in this campaign.")
    return player


def _open_phase_for_orders(game: Game, phase: Phase, now: datetime) -> None:
    if game.status == Game.Status.PAUSED:
        raise CampaignError("The campaign is paused: orders wait until the GM resumes it.")
    if phase.status != Phase.Status.OPEN or phase != game.phases.order_by("-number").first():
        raise CampaignError("This phase is closed; orders now go to the current phase.")
    if phase.deadline <= now:
        raise CampaignError("The deadline has passed: the phase is being adjudicated.")


def _may_act(phase: Phase, player: Player) -> GameState:
    """The engine's word on whether this player may act at all this phase (the dead may not:
    no orders, no final mark, no note to the GM); the state the phase starts from."""
    state = repository.state_before(phase)
    reason = engine.why_no_orders(state, player.engine_seat)
    if reason:
        raise CampaignError(reason)
    return state


def _check_note(note: str) -> None:
    if len(note) > MAX_NOTE:
        raise CampaignError(f"Your note to the GM is {len(note):,} characters long; the limit "
                            f"is {MAX_NOTE:,}. Shorten it: nothing was saved.")


def _check_for_orders(game: Game, phase: Phase, user: User, state_version: int | None,
                      now: datetime | None) -> tuple[Player, GameState]:
    """Whether this player may change his orders (the phase locked, game row first): his
    seat, the phase still open, the form drawn from the current `state_version` (None: a
    change that does not depend on the game's state, the note to the GM); with the state the
    phase starts from."""
    player = _player_in(game, user)
    _open_phase_for_orders(game, phase, now or timezone.now())
    state = _may_act(phase, player)
    if state_version is not None and state_version != game.state_version:
        raise CampaignError("The game has changed since this form was opened: reload the page "
                            "and check your orders again.")
    return player, state


@dataclass(frozen=True)
class Checked:
    """The player's orders as a change leaves them, checked by the engine, to be stored: his
    row (None: none yet), the orders, his note to the GM and final mark, and what he is
    told."""
    player: Player
    row: Order | None
    orders: list[EngineOrder]
    note: str
    final: bool
    message: str = ""


STALE_ORDERS = ("Your orders changed since this page was drawn (in another window, or by a "
                "second click): nothing was done. Here they are as they stand now.")


class StaleOrders(CampaignError):
    """The player's orders changed after the page or program that sent this change read them:
    nothing was done."""


@transaction.atomic
# payload: orders as JSON, as the engine reads them (Any values: see `Order.from_dict`)
def submit_orders(phase_id: int, user: User, payload: list[dict[str, Any]], *,
                  state_version: int, note_to_gm: str | None = None, final: bool | None = None,
                  revision: int | None = None, now: datetime | None = None) -> Order:
    """Replace the player's orders for the phase with `payload` (a list of order dicts), each
    conditional one before the order of its kind without a condition (`engine.arranged`).
    The note to the GM and the final mark are kept as they were unless given.

    The form carries the game's `state_version`; a stale one is refused, since the choices it
    offered may no longer hold. With `revision` (that of the orders the list replaces), a list
    made before the orders changed elsewhere (the Orders page, another program) is refused
    (`StaleOrders`) rather than silently undoing that change. The engine validates every order
    and the set; on any error nothing is saved (the earlier orders stay as they were)."""
    game, phase = lock_phase(phase_id)
    return do_submit_orders(phase, check_submit_orders(
        game, phase, user, payload, state_version=state_version, note_to_gm=note_to_gm,
        final=final, revision=revision, now=now))


def _orders_row(phase: Phase, player: Player, revision: int | None) -> Order | None:
    """The player's orders of the phase as saved (None before his first), refused
    (`StaleOrders`) when `revision` is given and they changed since the form showed it."""
    row = Order.objects.filter(phase=phase, player=player).first()
    if revision is not None and revision != (row.revision if row else 0):
        raise StaleOrders(STALE_ORDERS)
    return row


def _given(row: Order | None) -> list[EngineOrder]:
    """The orders saved in `row`, parsed, in their order."""
    return [engine.parse_order(dict(item)) for item in (row.payload if row else [])]


def check_submit_orders(game: Game, phase: Phase, user: User, payload: list[dict[str, Any]],
                        *, state_version: int, note_to_gm: str | None, final: bool | None,
                        revision: int | None, now: datetime | None) -> Checked:
    """Whether the player may give these orders now (`CampaignError`, `StaleOrders`,
    `OrdersRejected` if not): them, parsed and in order, with his note and final mark."""
    player, state = _check_for_orders(game, phase, user, state_version, now)
    row = _orders_row(phase, player, revision)
    try:
        parsed = engine.arranged([engine.parse_order(item) for item in payload])
    except engine.OrderError as exc:
        raise OrdersRejected([str(exc)]) from exc
    errors = engine.validate_orders(state, player.engine_seat, parsed)
    if errors:
        raise OrdersRejected(errors)
    note = note_to_gm if note_to_gm is not None else (row.note_to_gm if row else "")
    _check_note(note)
    return Checked(player, row, parsed, note,
                   final if final is not None else bool(row and row.final))


@transaction.atomic
def do_submit_orders(phase: Phase, checked: Checked) -> Order:
    """The checked orders stored (the phase locked by the caller)."""
    return _store(phase, checked)


@dataclass(frozen=True)
class Change:
    """One change a player makes on the Orders page: add an order (in place of the order at
    `replace`, or of an earlier one it takes the place of), remove one, mark the orders final
    or open, save the note to the GM. A change or a removal names the order by its place in
    the list the page showed: `revision` is that list's, and the change is refused once the
    orders have changed since (in another window, by a second click), the place pointing then
    at another order."""
    add: EngineOrder | None = None
    replace: int | None = None
    remove: int | None = None
    final: bool | None = None
    note: str | None = None
    revision: int | None = None


@dataclass(frozen=True)
class Changed:
    row: Order
    message: str  # what the player is told: "Order added.", "Your location is replaced..."


class ChangeRejected(OrdersRejected):
    """The engine refused the orders with the change; `index` is where the new or changed
    order stood in the list checked (None when no order was added)."""

    def __init__(self, errors: Sequence[str], index: int | None) -> None:
        super().__init__(errors)
        self.index = index


@transaction.atomic
def change_orders(phase_id: int, user: User, change: Change, *, state_version: int,
                  now: datetime | None = None) -> Changed:
    """Apply one change to the player's orders for the phase, validated once by the engine
    together with the orders already in; on any refusal nothing changes (`ChangeRejected`).
    A new unconditional order of a kind given once a phase (a location, a vote) takes the
    place of the one given before, and says so; a conditional one goes before the one of its
    kind without a condition (`engine.arranged`: the first that holds is carried out)."""
    game, phase = lock_phase(phase_id)
    checked = check_change_orders(game, phase, user, change, state_version=state_version,
                                  now=now)
    return Changed(do_change_orders(phase, checked), checked.message)


def check_change_orders(game: Game, phase: Phase, user: User, change: Change, *,
                        state_version: int, now: datetime | None) -> Checked:
    """Whether the player may make this change now (`CampaignError`, `StaleOrders`,
    `ChangeRejected` if not): his orders as it leaves them, and what he is told."""
    only_note = change.note is not None and change.add is None and change.remove is None \
        and change.final is None  # the note depends on nothing the GM may have changed
    player, state = _check_for_orders(game, phase, user,
                                      None if only_note else state_version, now)
    row = _orders_row(phase, player, change.revision if (
        change.replace is not None or change.remove is not None) else None)
    orders = _given(row)
    index: int | None = None
    message = ""
    if change.add is not None:
        new = change.add
        if change.replace is not None:
            if not 0 <= change.replace < len(orders):
                raise CampaignError("That order is no longer among your orders: reload the "
                                    "page.")
            index, message = change.replace, "Order changed."
        else:
            index = next((i for i, old in enumerate(orders) if takes_the_place_of(new, old)),
                         None)
            if index is not None:
                message = (f"Order replaced: {describe_order(state, new)} instead of "
                           f"{describe_order(state, orders[index])}.")
        if index is None:
            orders.append(new)
            index, message = len(orders) - 1, "Order added."
        else:
            orders[index] = new
    elif change.remove is not None:
        if not 0 <= change.remove < len(orders):
            raise CampaignError("That order is no longer among your orders: reload the page.")
        orders.pop(change.remove)
        message = "Order removed."
    in_order = engine.arranged(orders)
    if [id(o) for o in in_order] != [id(o) for o in orders]:
        if change.add is not None:
            index = next(i for i, o in enumerate(in_order) if o is change.add)
        message = (message + " " if message else "") + (
            "An order with a condition comes before the one of its kind without: it is tried "
            "first, and the one without is the fallback.")
        orders = in_order
    if change.final is not None:  # with an order added: both said
        said = ("Your orders are final." if change.final else
                "Your orders are open for changes again.")
        message = f"{message} {said}" if message else said
    if change.note is not None:
        message = message or "Your note to the GM is saved."
    errors = engine.validate_orders(state, player.engine_seat, orders)
    if errors:
        raise ChangeRejected(errors, index if change.add is not None else None)
    note = change.note if change.note is not None else (row.note_to_gm if row else "")
    _check_note(note)
    final = change.final if change.final is not None else (row.final if row else False)
    return Checked(player, row, orders, note, final, message or "No change.")


@transaction.atomic
def do_change_orders(phase: Phase, checked: Checked) -> Order:
    """The changed orders stored (the phase locked by the caller)."""
    return _store(phase, checked)


def _store(phase: Phase, checked: Checked) -> Order:
    """Save the player's orders (already validated) with his note and final mark; the first
    to give Rebel action in the Locations phase gets the next place in the Rebel queue."""
    parsed = checked.orders
    rebel = phase.kind == PhaseKind.LOCATIONS and any(is_rebel_action(o) for o in parsed)
    row = checked.row
    if row is None:
        row = Order(phase=phase, player=checked.player, revision=0)
    row.payload = [o.to_dict() for o in parsed]
    row.note_to_gm = checked.note
    row.final = checked.final
    row.revision += 1
    if rebel and row.first_submitted_seq is None:
        top = Order.objects.filter(phase=phase).aggregate(m=Max("first_submitted_seq"))["m"]
        row.first_submitted_seq = (top or 0) + 1
    row.save()
    return row


# --- the same orders as last time (docs/rules.md §repeat-orders) ------------------------------

@dataclass(frozen=True)
class LastTime:
    """The player's orders of last time (`selectors.last_orders`: his row of that phase) and
    the engine's plan to give them again beside his orders of this phase (`engine.repeat_orders`:
    those kept, in their order, and those left out with why); `token` names both, so that a
    confirmation sent after either changed is refused."""
    row: Order
    plan: engine.RepeatPlan

    @property
    def token(self) -> str:
        kept = json.dumps([o.to_dict() for o in self.plan.kept], sort_keys=True)
        return f"{self.row.phase_id}:{hashlib.sha256(kept.encode()).hexdigest()[:24]}"


def last_time(phase: Phase, player: Player, state: GameState,
              current: Sequence[EngineOrder]) -> LastTime | None:
    """The plan to give the player's orders of last time again now, beside `current` (his
    orders of this phase); None when the phase repeats nothing or he gave none then. Reads
    only: nothing is saved until he confirms (`repeat_orders`)."""
    row = selectors.last_orders(phase, player)
    if row is None:
        return None
    return LastTime(row, engine.repeat_orders(state, player.engine_seat, row.payload, current))


STALE_REPEAT = ("Your orders or the game changed since the list of your orders of last time "
                "was drawn: nothing was saved. Here is the list as it stands now; check it and "
                "confirm again.")


class StaleRepeat(CampaignError):
    """The plan confirmed is no longer the plan now: nothing was done."""


@dataclass(frozen=True)
class Repeat:
    """A confirmation of the same orders as last time: the plan's `token` as it was shown, and
    the `revision` of the orders it was drawn beside (0: none yet)."""
    token: str
    revision: int


@transaction.atomic
def repeat_orders(phase_id: int, user: User, repeat: Repeat, *, state_version: int,
                  now: datetime | None = None) -> Changed:
    """Give again the orders of last time that the plan shown kept, after the player's orders
    of this phase (which stay), each conditional one before the order of its kind without a
    condition (`engine.arranged`). Checked anew under the lock: the phase open, the state and
    his orders as the plan was drawn from them (`StaleRepeat`, `StaleOrders` if not), the whole
    set by the engine (`OrdersRejected`); on any refusal nothing changes."""
    game, phase = lock_phase(phase_id)
    checked = check_repeat_orders(game, phase, user, repeat, state_version=state_version,
                                  now=now)
    return Changed(do_repeat_orders(phase, checked), checked.message)


def check_repeat_orders(game: Game, phase: Phase, user: User, repeat: Repeat, *,
                        state_version: int, now: datetime | None) -> Checked:
    """Whether the player may give his orders of last time now, as the plan he confirmed
    kept them (`CampaignError` and its kinds if not): his orders with them."""
    player, state = _check_for_orders(game, phase, user, state_version, now)
    row = _orders_row(phase, player, repeat.revision)
    current = _given(row)
    last = last_time(phase, player, state, current)
    if last is None or last.token != repeat.token:
        raise StaleRepeat(STALE_REPEAT)
    if last.plan.empty:
        raise CampaignError("None of your orders of last time can be given now: nothing was "
                            "saved.")
    orders = engine.arranged([*current, *last.plan.kept])
    errors = engine.validate_orders(state, player.engine_seat, orders)
    if errors:
        raise OrdersRejected(errors)
    count = len(last.plan.kept)
    message = (f"{count} order{'s' if count > 1 else ''} of last time added: "
               + "; ".join(last.plan.texts) + ".")
    return Checked(player, row, orders, row.note_to_gm if row else "",
                   bool(row and row.final), message)


@transaction.atomic
def do_repeat_orders(phase: Phase, checked: Checked) -> Order:
    """The orders with those of last time stored (the phase locked by the caller)."""
    return _store(phase, checked)


@transaction.atomic
def set_final(phase_id: int, user: User, final: bool = True,
              now: datetime | None = None) -> Order:
    """Mark one's orders final (or not). The phase closes early once everyone who owes orders
    is final; an empty set of orders can be final too ("I have nothing to order")."""
    game, phase = lock_phase(phase_id)
    return do_set_final(phase, check_set_final(game, phase, user, now or timezone.now()), final)


def check_set_final(game: Game, phase: Phase, user: User, now: datetime) -> Player:
    """Whether the player may mark his orders now (`CampaignError` if not): his seat."""
    player = _player_in(game, user)
    _open_phase_for_orders(game, phase, now)
    _may_act(phase, player)
    return player


@transaction.atomic
def do_set_final(phase: Phase, player: Player, final: bool) -> Order:
    """The final mark, on his orders or on an empty set (the phase locked by the caller)."""
    row, _ = Order.objects.get_or_create(phase=phase, player=player,
                                         defaults={"payload": [], "revision": 1})
    row.final = final
    row.save(update_fields=["final", "submitted_at"])
    return row
