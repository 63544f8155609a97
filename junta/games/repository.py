"""The one place where rows become engine state and engine state becomes rows.

The canonical state of a campaign at the start of each phase is the engine's own JSON, stored on
the Phase row (`state_before`) with its digest; the result of each phase stores the state after.
That is what replay and rollback need: exact, versioned and checkable by digest. The board rows
(players' pockets and banks, positions, hands, bills, units) are written from the state after
every published phase by `write_board`, so that pages and the GM panel can query them.
"""

from __future__ import annotations

from datetime import datetime
from types import ModuleType
from typing import Any

from junta.games.deadlines import phase_deadline
from junta.games.models import (
    Bill,
    Game,
    Order,
    Phase,
    Player,
    PoliticalCard,
    Position,
    Unit,
)


def engine() -> ModuleType:
    """The rules engine package (imported lazily: it is a pure library, Django never needs it at
    import time)."""
    import junta.engine

    return junta.engine


def campaign_running(state: Any) -> bool:
    return engine().campaign_running(state)


def state_before(phase: Phase) -> Any:
    """The engine state at the start of `phase`, checked against its stored digest."""
    state = engine().GameState.from_dict(phase.state_before)
    digest = engine().digest(state)
    if digest != phase.state_digest:
        raise RuntimeError(
            f"{phase}: the stored state does not match its digest "
            f"({digest} != {phase.state_digest})"
        )
    return state


def state_after(result: Any) -> Any:
    """The engine state after a phase's result (a PhaseResult), checked against its digest."""
    state = engine().GameState.from_dict(result.state_after)
    if engine().digest(state) != result.digest:
        raise RuntimeError(f"{result.phase}: the stored result does not match its digest")
    return state


def new_state(game: Game, names: list[str]) -> Any:
    """A new campaign's engine state: the game's seed, its players' names, the range of hidden
    extra bills."""
    return engine().new_game(
        game.seed, names,
        {"extra_bills_min": game.extra_bills_min, "extra_bills_max": game.extra_bills_max},
    )


def orders_for_engine(phase: Phase) -> dict[int, list[Any]]:
    """Every seat's stored orders for the phase, parsed into engine orders (by seat)."""
    orders: dict[int, list[Any]] = {}
    rows = Order.objects.filter(phase=phase).select_related("player").order_by("player__seat")
    for row in rows:
        orders[row.player.seat] = [engine().parse_order(dict(item)) for item in row.payload]
    return orders


def submission_order(phase: Phase) -> list[int]:
    """Seats in the order they first submitted Rebel-Only orders (names the First Rebel)."""
    rows = Order.objects.filter(phase=phase, first_submitted_seq__isnull=False)
    return [seat for seat in rows.order_by("first_submitted_seq").values_list(
        "player__seat", flat=True)]


def character_names(game: Game, players: list[Player] | None = None) -> list[str]:
    """The current character's name for each seat, in seat order (the engine writes them into
    its reports)."""
    players = players if players is not None else list(
        game.players.filter(membership=Player.Membership.ACTIVE).prefetch_related("characters")
        .order_by("seat"))
    names = []
    for p in players:
        character = p.character
        names.append(character.name if character else f"Family {p.seat + 1}")
    return names


def orders_as_json(orders: dict[int, list[Any]]) -> dict[str, list[dict]]:
    return {str(seat): [order.to_dict() for order in items] for seat, items in orders.items()}


def event_to_json(event: Any) -> dict:
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


def open_phase(game: Game, state: Any, now: datetime) -> Phase:
    """Create the Phase row for the phase the state is in, with its deadline."""
    names = character_names(game)
    for seat, name in enumerate(names):
        if seat < len(state.players):
            state.players[seat].name = name
    info = engine().current_phase(state)
    number = (game.phases.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    # The game's phase lengths set the usual length of each kind; where the rules shorten a
    # phase (a re-vote, an election after a resignation or a death) the engine's length wins.
    days = info.days if info.days < engine().flow.DAYS.get(info.kind, 1) else \
        game.days_for(info.kind)
    return Phase.objects.create(
        game=game,
        number=number,
        kind=info.kind,
        turn=info.turn,
        opens_at=now,
        deadline=phase_deadline(
            now,
            days,
            at=game.deadline_time,
            zone_name=game.time_zone,
            min_hours=game.min_hours,
        ),
        state_before=state.to_dict(),
        state_digest=engine().digest(state),
        owing_seats=sorted(engine().owes_orders(state)),
    )


def rewrite_state_before(phase: Phase, state: Any) -> None:
    """Store a changed starting state for an open (or drafted) phase: a GM ruling or a
    replacement. The digest and the seats that owe orders follow; the audit log keeps the old
    digest."""
    phase.state_before = state.to_dict()
    phase.state_digest = engine().digest(state)
    phase.owing_seats = sorted(engine().owes_orders(state))
    phase.save(update_fields=["state_before", "state_digest", "owing_seats"])


def write_board(game: Game, state: Any) -> None:
    """Project the state onto the board rows that pages query: pockets, banks and standing of
    players, positions, where each political card lies, and the money deck bill by bill."""
    from junta.engine import catalog

    players = {p.seat: p for p in game.players.filter(membership=Player.Membership.ACTIVE)}
    for seat, data in engine().board_summary(state).items():
        player = players.get(seat)
        if player is None:
            continue
        player.pocket = data["pocket"]
        player.bank = data["bank"]
        player.state = data["status"]
        player.save(update_fields=["pocket", "bank", "state"])
    Position.objects.filter(game=game).delete()
    Position.objects.bulk_create([
        Position(game=game, key=key,
                 holder=players.get(holder) if holder is not None and holder >= 0 else None,
                 brother_in_law=holder == engine().BIL)
        for key, holder in state.positions.items()
    ])
    rows = [PoliticalCard(game=game, card_id=cid, pile="deck", order=i)
            for i, cid in enumerate(reversed(state.political_deck))]
    rows += [PoliticalCard(game=game, card_id=cid, pile="discard", order=i)
             for i, cid in enumerate(state.political_discard)]
    for p in state.players:
        rows += [PoliticalCard(game=game, card_id=cid, pile="hand", order=i,
                               holder=players.get(p.seat)) for i, cid in enumerate(p.hand)]
        rows += [PoliticalCard(game=game, card_id=cid, pile="play", order=i,
                               holder=players.get(p.seat)) for i, cid in enumerate(p.influence)]
    for row in rows:
        row.name = catalog.card(row.card_id).name
    PoliticalCard.objects.filter(game=game).delete()
    PoliticalCard.objects.bulk_create(rows)
    write_units(game, state, players)
    Bill.objects.filter(game=game).delete()
    Bill.objects.bulk_create([Bill(game=game, order=i, denomination=d)
                              for i, d in enumerate(reversed(state.money_deck))])
    if game.extra_bills != state.extra_bills:
        game.extra_bills = state.extra_bills
        game.save(update_fields=["extra_bills"])


def write_units(game: Game, state: Any, players: dict[int, Player]) -> None:
    """The coup's units as rows (every unit is public during a coup); none outside a coup."""
    from junta.engine.units import has_new_weapons

    Unit.objects.filter(game=game).delete()
    if state.coup is None:
        return
    Unit.objects.bulk_create([
        Unit(game=game, number=u["id"], kind=u["kind"], armed=u["armed"],
             new_weapons=has_new_weapons(state, u), temporary=u["temporary"],
             owner=players.get(u["owner"]) if u["owner"] is not None else None,
             zone_id=u["zone"], position=u["position"] or "")
        for u in state.coup["units"]
    ])
