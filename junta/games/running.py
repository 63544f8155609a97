"""Running a campaign: start it, take orders, mark them final. The GM's clock (pause, resume,
extend a deadline) is the GM panel's (`junta.gm.services.time`).

Each function is one transaction that locks the game row first (see `locking`), and raises
`CampaignError` with a message for the person who asked. Orders are validated by the engine
against the state the phase opened with; a rejected change leaves the saved orders untouched.
"""

from __future__ import annotations

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
from junta.games import repository
from junta.games.campaigns import CampaignError, active_players
from junta.games.locking import lock_game, lock_phase
from junta.games.models import MAX_NOTE, AuditEntry, Game, Order, Phase, Player


class OrdersRejected(CampaignError):
    """The engine refused the orders; `errors` holds its messages, one per problem."""

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


@transaction.atomic
def start_campaign(game_id: int, by: User, now: datetime | None = None) -> Phase:
    """Seat order is fixed, the engine deals the decks, and the nomination phase opens."""
    now = now or timezone.now()
    game = lock_game(game_id)
    if game.gm_id != by.id:
        raise CampaignError("Only the campaign's GameMaster can start it.")
    if game.status != Game.Status.FORMING:
        raise CampaignError(f"{game.name} has already started.")
    players = active_players(game)
    if len(players) < engine.MIN_PLAYERS:
        raise CampaignError(f"{game.name} needs at least {engine.MIN_PLAYERS} seated players "
                            f"to start; it has {len(players)}.")
    for seat, player in enumerate(players):  # close any gaps left by removals
        if player.seat != seat:
            Player.objects.filter(pk=player.pk).update(seat=None)
            player.seat = seat
    for player in players:
        Player.objects.filter(pk=player.pk).update(seat=player.seat)
    names = repository.character_names(game, players)
    state = repository.new_state(game, names)
    game.status = Game.Status.NOMINATING
    game.started_at = now
    game.state_version += 1
    game.save(update_fields=["status", "started_at", "state_version"])
    phase = repository.open_phase(game, state, now)
    repository.write_board(game, state)
    entry = AuditEntry.objects.create(game=game, actor=by, action="start",
                                      announcement=f"{game.name} begins: nominations are open.")
    # dated when the campaign started (a simulated campaign's start lies in the past)
    AuditEntry.objects.filter(pk=entry.pk).update(created_at=now)
    return phase


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


def _lock_for_orders(phase_id: int, user: User, state_version: int | None,
                     now: datetime | None) -> tuple[Phase, Player, GameState]:
    """Lock the phase (game row first) for a change of this player's orders: his seat, the
    phase still open, the form drawn from the current `state_version` (None: a change that
    does not depend on the game's state, the note to the GM); with the state the phase starts
    from."""
    game, phase = lock_phase(phase_id)
    player = _player_in(game, user)
    _open_phase_for_orders(game, phase, now or timezone.now())
    state = _may_act(phase, player)
    if state_version is not None and state_version != game.state_version:
        raise CampaignError("The game has changed since this form was opened: reload the page "
                            "and check your orders again.")
    return phase, player, state


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
    phase, player, state = _lock_for_orders(phase_id, user, state_version, now)
    row = Order.objects.filter(phase=phase, player=player).first()
    if revision is not None and revision != (row.revision if row else 0):
        raise StaleOrders(STALE_ORDERS)
    try:
        parsed = engine.arranged([engine.parse_order(item) for item in payload])
    except engine.OrderError as exc:
        raise OrdersRejected([str(exc)]) from exc
    errors = engine.validate_orders(state, player.engine_seat, parsed)
    if errors:
        raise OrdersRejected(errors)
    return _store(phase, player, row, parsed,
                  note_to_gm if note_to_gm is not None else (row.note_to_gm if row else ""),
                  final if final is not None else bool(row and row.final))


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
    only_note = change.note is not None and change.add is None and change.remove is None \
        and change.final is None  # the note depends on nothing the GM may have changed
    phase, player, state = _lock_for_orders(phase_id, user,
                                            None if only_note else state_version, now)
    row = Order.objects.filter(phase=phase, player=player).first()
    if (change.replace is not None or change.remove is not None) and \
            change.revision != (row.revision if row else 0):
        raise StaleOrders(STALE_ORDERS)
    orders = [engine.parse_order(dict(item)) for item in (row.payload if row else [])]
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
    if change.final is not None:
        message = message or ("Your orders are final." if change.final else
                              "Your orders are open for changes again.")
    if change.note is not None:
        message = message or "Your note to the GM is saved."
    errors = engine.validate_orders(state, player.engine_seat, orders)
    if errors:
        raise ChangeRejected(errors, index if change.add is not None else None)
    note = change.note if change.note is not None else (row.note_to_gm if row else "")
    final = change.final if change.final is not None else (row.final if row else False)
    return Changed(_store(phase, player, row, orders, note, final), message or "No change.")


def _store(phase: Phase, player: Player, row: Order | None, parsed: list[EngineOrder],
           note: str, final: bool) -> Order:
    """Save the player's orders (already validated) with his note and final mark; the first
    to give Rebel action in the Locations phase gets the next place in the Rebel queue."""
    rebel = phase.kind == PhaseKind.LOCATIONS and any(is_rebel_action(o) for o in parsed)
    if row is None:
        row = Order(phase=phase, player=player, revision=0)
    row.payload = [o.to_dict() for o in parsed]
    _check_note(note)
    row.note_to_gm = note
    row.final = final
    row.revision += 1
    if rebel and row.first_submitted_seq is None:
        top = Order.objects.filter(phase=phase).aggregate(m=Max("first_submitted_seq"))["m"]
        row.first_submitted_seq = (top or 0) + 1
    row.save()
    return row


@transaction.atomic
def set_final(phase_id: int, user: User, final: bool = True,
              now: datetime | None = None) -> Order:
    """Mark one's orders final (or not). The phase closes early once everyone who owes orders
    is final; an empty set of orders can be final too ("I have nothing to order")."""
    now = now or timezone.now()
    game, phase = lock_phase(phase_id)
    player = _player_in(game, user)
    _open_phase_for_orders(game, phase, now)
    _may_act(phase, player)
    row, _ = Order.objects.get_or_create(phase=phase, player=player,
                                         defaults={"payload": [], "revision": 1})
    row.final = final
    row.save(update_fields=["final", "submitted_at"])
    return row
