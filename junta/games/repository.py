"""The one place where rows become engine state and engine state becomes rows.

The canonical state of a campaign at the start of each phase is the engine's own JSON, stored on
the Phase row (`state_before`) with its digest; the result of each phase stores the state after.
That is what replay and rollback need: exact, versioned and checkable by digest. The board rows
(players' pockets and banks, positions, cards, bills, units) are a projection of the current
state, kept by `write_board` after every published phase and every GM ruling (only the rows that
changed are written); the GM panel's Board page and the Django admin read them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Model, Prefetch, QuerySet, prefetch_related_objects

from junta import engine
from junta.engine import Catalog, Event, GameState, has_new_weapons
from junta.engine import Order as EngineOrder
from junta.games.deadlines import phase_deadline
from junta.games.models import (
    Bill,
    Character,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    PoliticalCard,
    Position,
    Unit,
)

# A practice campaign's phase stays open until its player is final (never by the clock).
PRACTICE_NO_DEADLINE = timedelta(days=3650)


def campaign_running(state: GameState) -> bool:
    return engine.campaign_running(state)


def state_before(phase: Phase) -> GameState:
    """The engine state at the start of `phase`, checked against its stored digest."""
    return _checked(phase.state_before, phase.state_digest, lambda: str(phase))


def state_after(result: PhaseResult) -> GameState:
    """The engine state after a phase's result, checked against its digest."""
    return _checked(result.state_after, result.digest, lambda: f"{result.phase}'s result")


# data: a stored state, JSON as Django's JSONField gives it (Any values)
def _checked(data: dict[str, Any], stored: str, what: Callable[[], str]) -> GameState:
    """The state stored as `data`, refused unless it matches its digest. The stored data itself
    is hashed (every page reads a state: building it first and serialising it again cost more);
    data written before a field was added to the state is checked the long way, as it was
    digested then. `what` names it in the error (a query, when the phase names its game)."""
    state = engine.GameState.from_dict(data)
    if engine.data_digest(data) != stored:
        digest = engine.digest(state)
        if digest != stored:
            raise RuntimeError(
                f"{what()}: the stored state does not match its digest ({digest} != {stored})")
    return state


def new_state(game: Game, names: list[str]) -> GameState:
    """A new campaign's engine state: the game's seed, its players' names, the range of hidden
    extra bills."""
    return engine.new_game(
        game.seed, names,
        {"extra_bills_min": game.extra_bills_min, "extra_bills_max": game.extra_bills_max},
    )


def orders_for_engine(phase: Phase) -> dict[int, list[EngineOrder]]:
    """Every seat's stored orders for the phase, parsed into engine orders (by seat)."""
    return orders_and_submission(phase)[0]


def submission_order(phase: Phase) -> list[int]:
    """Seats in the order they first submitted Rebel-Only orders (names the First Rebel)."""
    rows = Order.objects.filter(phase=phase, first_submitted_seq__isnull=False)
    return [seat for seat in rows.order_by("first_submitted_seq").values_list(
        "player__seat", flat=True) if seat is not None]


def orders_and_submission(phase: Phase) -> tuple[dict[int, list[EngineOrder]], list[int]]:
    """`orders_for_engine` and `submission_order` together, from one read of the phase's
    orders (an adjudication needs both), as plain values: the seat, the orders, when first
    submitted."""
    orders: dict[int, list[EngineOrder]] = {}
    firsts: list[tuple[int, int]] = []
    for seat, payload, first in Order.objects.filter(phase=phase).order_by(
            "player__seat").values_list("player__seat", "payload", "first_submitted_seq"):
        if seat is None:  # as `Player.engine_seat` refuses it
            raise ValueError(f"orders of a player with no seat for {phase}")
        orders[seat] = [engine.parse_order(dict(item)) for item in payload]
        if first is not None:
            firsts.append((first, seat))
    return orders, [seat for _seq, seat in sorted(firsts, key=lambda first: first[0])]


def active_players(game: Game, *, lives: bool = False) -> list[Player]:
    """The campaign's active players in seat order (as a query ordered by seat gives them on
    PostgreSQL: no seat last). With `lives`, each family's lives are read with them (one query
    more), for `Player.character`; a life added through `player.characters` is read again."""
    rows = game.players.filter(membership=Player.Membership.ACTIVE).order_by()
    if lives:  # in no order: a family's lives are told apart by their number
        rows = rows.prefetch_related(Prefetch("characters", Character.objects.order_by()))
    return sorted(rows, key=lambda p: (p.seat is None, p.seat or 0))


def character_names(game: Game, players: list[Player] | None = None) -> list[str]:
    """The current character's name for each seat, in seat order (the engine writes them into
    its reports)."""
    players = players if players is not None else active_players(game, lives=True)
    names = []
    for p in players:
        character = p.character
        names.append(character.name if character else f"Family {p.engine_seat + 1}")
    return names


# JSON as the engine writes it (`Order.to_dict`, `Event.to_dict`: Any values)
def orders_as_json(orders: dict[int, list[EngineOrder]]) -> dict[str, list[dict[str, Any]]]:
    return {str(seat): [order.to_dict() for order in items] for seat, items in orders.items()}


def event_to_json(event: Event) -> dict[str, Any]:  # as orders_as_json
    return event.to_dict()


def everyone_final(phase: Phase) -> bool:
    """True when every seat that owes orders this phase has marked them final."""
    owing = set(phase.owing_seats)
    if not owing:
        return False
    final = set(
        Order.objects.filter(phase=phase, final=True).values_list("player__seat", flat=True)
    )
    return owing <= final


def open_phase(game: Game, state: GameState, now: datetime,
               players: list[Player] | None = None, *, after: int | None = None) -> Phase:
    """Create the Phase row for the phase the state is in, with its deadline. `players`: the
    campaign's active players in seat order, read already in this transaction (`active_players`),
    their current lives read now unless they were read with them. `after`: the campaign's
    latest phase number, when the caller knows it (otherwise it is read)."""
    if players is not None:
        prefetch_related_objects(players, "characters")
    names = character_names(game, players)
    for seat, name in enumerate(names):
        if seat < len(state.players):
            state.players[seat].name = name
    info = engine.current_phase(state)
    if after is None:
        after = game.phases.order_by("-number").values_list("number", flat=True).first() or 0
    number = after + 1
    # The game's phase lengths set the usual length of each kind; where the rules shorten a
    # phase (a re-vote, an election after a resignation or a death) the engine's length wins.
    days = info.days if info.days < engine.PHASE_DAYS.get(info.kind, 1) else \
        game.days_for(info.kind)
    # a practice campaign has no deadline: its phase is played when its player is final
    deadline = now + PRACTICE_NO_DEADLINE if game.practice else phase_deadline(
        now, days, at=game.deadline_time, zone_name=game.time_zone, min_hours=game.min_hours)
    data = state.to_dict()  # serialised once, digested as stored
    return Phase.objects.create(
        game=game,
        number=number,
        kind=info.kind,
        turn=info.turn,
        opens_at=now,
        deadline=deadline,
        state_before=data,
        state_digest=engine.data_digest(data),
        owing_seats=sorted(engine.owes_orders(state)),
    )


def rewrite_state_before(phase: Phase, state: GameState) -> None:
    """Store a changed starting state for an open (or drafted) phase: a GM ruling or a
    replacement. The digest and the seats that owe orders follow; the audit log keeps the old
    digest."""
    phase.state_before = state.to_dict()
    phase.state_digest = engine.data_digest(phase.state_before)
    phase.owing_seats = sorted(engine.owes_orders(state))
    phase.save(update_fields=["state_before", "state_digest", "owing_seats"])


def write_board(game: Game, state: GameState, players: list[Player] | None = None
                ) -> list[Player]:
    """Project the state onto the board rows: pockets, banks and standing of the players, who
    holds each position, where each political card lies, the money deck bill by bill and the
    coup's units (none outside a coup).

    Only what changed is written: each table is read once and compared with the state, and only
    the differences are created, updated or deleted (one query per kind of change), so a phase
    that leaves the board alone writes nothing. Read by the GM panel's Board page and the Django
    admin, never by a player's page. `players`: the campaign's active players, when the caller
    read them in this transaction (`active_players`); returns them, in seat order, as
    written (`open_phase` takes them)."""
    active = players if players is not None else active_players(game)
    by_seat = {p.seat: p for p in active}
    changed = []
    for seat, data in engine.board_summary(state).items():
        player = by_seat.get(seat)
        if player is None:
            continue
        if (player.pocket, player.bank, player.state) != \
                (data["pocket"], data["bank"], data["status"]):
            player.pocket, player.bank, player.state = data["pocket"], data["bank"], \
                data["status"]
            changed.append(player)
    if changed:
        Player.objects.bulk_update(changed, ["pocket", "bank", "state"])

    def pk(seat: int | None) -> int | None:
        player = by_seat.get(seat) if seat is not None else None
        return player.pk if player is not None else None

    _sync(Position.objects.filter(game=game), "key", {
        key: {"holder_id": pk(holder) if holder is not None and holder >= 0 else None,
              "brother_in_law": holder == engine.BIL}
        for key, holder in state.positions.items()
    }, lambda key: Position(game=game, key=key))

    cards: dict[int, dict[str, object]] = {}
    # counted from the bottom, so that drawing the top card or discarding one moves no other
    for pile, ids, holder in [("deck", state.political_deck, None),
                              ("discard", state.political_discard, None)] + \
            [(pile, ids, pk(p.seat)) for p in state.players
             for pile, ids in (("hand", p.hand), ("play", p.influence))]:
        for i, cid in enumerate(ids):
            cards[cid] = {"pile": pile, "holder_id": holder, "order": i}
    _sync(PoliticalCard.objects.filter(game=game), "card_id", cards,
          lambda cid: PoliticalCard(game=game, card_id=cid, name=Catalog.card(cid).name))

    # the top bill is the last of the state's list: the bottom one is 0, so a draw deletes rows
    _sync(Bill.objects.filter(game=game), "order",
          {i: {"denomination": d} for i, d in enumerate(state.money_deck)},
          lambda order: Bill(game=game, order=order))

    units = state.coup["units"] if state.coup else []
    _sync(Unit.objects.filter(game=game), "number", {
        u["id"]: {"kind": u["kind"], "armed": u["armed"],
                  "new_weapons": has_new_weapons(state, u), "temporary": u["temporary"],
                  "owner_id": pk(u["owner"]), "zone_id": u["zone"],
                  "position": u["position"] or ""}
        for u in units
    }, lambda number: Unit(game=game, number=number))

    if game.extra_bills != state.extra_bills:
        game.extra_bills = state.extra_bills
        game.save(update_fields=["extra_bills"])
    return active


def _sync[M: Model, K](rows: QuerySet[M], key: str, wanted: dict[K, dict[str, object]],
                       new: Callable[[K], M]) -> None:
    """Make the rows of `rows` (one per `key`) hold `wanted` (values by key): one read, then
    one delete and one insert, each only when there is something to do. A row whose values
    changed is deleted and inserted anew: no other row refers to a board row, and Django's
    bulk_update (a CASE per field and row) cost more than the rest of a publication. The rows
    are read as plain values, not model instances (a campaign has a hundred cards and bills:
    building them was most of a publication's time); a row written anew keeps every column
    it had but those `wanted` changes."""
    model = rows.model
    columns = [f.attname for f in model._meta.concrete_fields]
    pk_name = model._meta.pk.attname
    existing: dict[K, dict[str, object]] = {}
    stale = []
    for current in rows.order_by().values(*columns):  # in no order: by `key` here
        if current[key] in wanted and current[key] not in existing:
            existing[current[key]] = current
        else:
            stale.append(current[pk_name])
    created: list[M] = []
    updated: list[M] = []
    for k, values in wanted.items():
        kept = existing.get(k)
        if kept is None:
            row = new(k)
            created.append(row)
        elif all(kept[field] == value for field, value in values.items()):
            continue
        else:
            stale.append(kept[pk_name])
            row = model(**{name: value for name, value in kept.items() if name != pk_name})
            updated.append(row)
        for field, value in values.items():
            setattr(row, field, value)
    if stale:  # (the models have no manager but `objects`: it is their default manager)
        model._default_manager.filter(pk__in=stale).delete()
    if created or updated:
        model._default_manager.bulk_create(created + updated)
