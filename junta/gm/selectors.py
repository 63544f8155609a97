"""Read-only queries for the panel's pages: everything the GM may see of his campaign.

The engine state comes from `junta.games.play.display_state` (the stored canonical state);
secrets are read from `view_for(state, "gm")` and the state itself, never recomputed here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from junta.engine import catalog, view_for
from junta.games import play
from junta.games.models import AuditEntry, Game, Order, Phase, Player

RECENT_PHASES = 10  # how far back "missed orders" looks


def card_label(card_id: int) -> str:
    card = catalog.card(card_id)
    return f"{card.name} (#{card_id})"


def describe(state: Any, order: dict) -> str:
    """An order in words, as the player's Orders page writes it (its JSON if that fails)."""
    from junta.games import order_builder

    try:
        return order_builder.describe_order(state, order)
    except Exception:  # noqa: BLE001 - a description must never break the GM's page
        return json.dumps(order, sort_keys=True)


@dataclass
class PlayerRow:
    player: Player
    name: str
    owes: bool
    order: Order | None
    missed: int
    engine: Any  # the engine's Player for this seat (None before the start)


def current(game: Game) -> tuple[Phase | None, Any]:
    return play.display_state(game)


def players(game: Game) -> list[Player]:
    return list(game.players.select_related("user").prefetch_related("characters")
                .order_by("membership", "seat", "joined_at"))


def player_rows(game: Game, phase: Phase | None, state: Any) -> list[PlayerRow]:
    """Seated players with who owes orders, who is final, and how many of the last phases each
    missed (owed orders and sent none): the absence record."""
    seated = [p for p in players(game) if p.membership == Player.Membership.ACTIVE]
    orders = {}
    if phase is not None:
        orders = {o.player.seat: o for o in Order.objects.filter(phase=phase)
                  .select_related("player")}
    recent = list(game.phases.filter(status=Phase.Status.PUBLISHED).order_by("-number")
                  .values("id", "owing_seats")[:RECENT_PHASES])
    sent = set(Order.objects.filter(phase_id__in=[r["id"] for r in recent])
               .values_list("phase_id", "player__seat"))
    owing = set(phase.owing_seats) if phase is not None and \
        phase.status == Phase.Status.OPEN else set()
    rows = []
    for p in seated:
        missed = sum(1 for r in recent if p.seat in r["owing_seats"] and (r["id"], p.seat)
                     not in sent)
        character = p.character
        rows.append(PlayerRow(
            p, character.name if character else f"Family {p.seat + 1}", p.seat in owing,
            orders.get(p.seat), missed,
            state.players[p.seat] if state is not None and p.seat < len(state.players)
            else None))
    return rows


def gm_view(state: Any) -> dict:
    return view_for(state, "gm")


def everything(state: Any) -> dict:
    """The whole state, laid out for reading: hands, pockets, banks, locations, the money deck
    in order with the hidden extra bills, both political piles, the budget and the units."""
    deck_top_first = list(reversed(state.money_deck))
    drawn = catalog.KNOWN_BILLS + state.extra_bills - len(state.money_deck)
    people = []
    for p in state.players:
        people.append({
            "seat": p.seat, "name": p.name, "status": p.status, "life": p.life,
            "pocket": p.pocket, "bank": p.bank, "rebel": p.rebel,
            "location": catalog.LOCATION_NAMES.get(p.location or "", "—"),
            "last_location": catalog.LOCATION_NAMES.get(p.last_location or "", "—"),
            "hand": [card_label(c) for c in p.hand],
            "influence": [card_label(c) for c in p.influence],
            "positions": [catalog.TITLES[k] for k in state.positions_of(p.seat)],
        })
    budget = state.budget or {}
    return {
        "players": people,
        "money_deck": deck_top_first,
        "money_deck_total": sum(state.money_deck),
        "extra_bills": state.extra_bills,
        "bills_drawn": drawn,
        "money_in_game": state.bills_total(),
        "spent": state.spent,
        "political_deck": [card_label(c) for c in reversed(state.political_deck)],
        "political_discard": [card_label(c) for c in reversed(state.political_discard)],
        "budget": {
            "held": list(budget.get("held", [])),
            "drawn": {catalog.TITLES.get(k, k): v for k, v in budget.get("drawn", {}).items()},
            "holder": state.name(budget["holder"]) if budget.get("holder") is not None else None,
            "proposal": budget.get("proposal"),
            "set_aside": budget.get("set_aside") or 0,
        } if budget else None,
        "units": list((state.coup or {}).get("units", [])),
        "bank_status": state.bank_status,
        "turn_flags": dict(state.turn_flags),
    }


def orders_by_seat(phase: Phase | None, state: Any) -> list[dict]:
    """Every seat's orders for the phase, described, with the note to the GM."""
    if phase is None or state is None:
        return []
    rows = {o.player.seat: o for o in Order.objects.filter(phase=phase)
            .select_related("player__user")}
    out = []
    for p in state.players:
        row = rows.get(p.seat)
        out.append({
            "seat": p.seat, "name": p.name,
            "owes": p.seat in phase.owing_seats,
            "orders": [(i, describe(state, o), json.dumps(o, sort_keys=True))
                       for i, o in enumerate(row.payload)] if row else [],
            "final": bool(row and row.final), "revision": row.revision if row else 0,
            "note": row.note_to_gm if row else "",
        })
    return out


def audit(game: Game) -> QuerySet[AuditEntry]:
    return game.audit_entries.select_related("actor").order_by("-created_at", "-id")


def announcements(game: Game, limit: int = 10) -> list[AuditEntry]:
    """What the players see of the audit log: the public announcements, newest first."""
    return list(game.audit_entries.exclude(announcement="").order_by("-created_at", "-id")
                [:limit])


