"""Read-only queries for the panel's pages: everything the GM may see of his campaign.

The engine state comes from `junta.games.play.display_state` (the stored canonical state);
secrets are read from the state itself, never recomputed here. The Board page reads the board
rows instead (`board`): the same facts of the same state, kept by `repository.write_board`,
indexed by holder, zone and denomination.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.db.models import Count, QuerySet
from django.utils.translation import gettext, gettext_noop

from junta.engine import BudgetProposal, Catalog, GameState, describe_order, parse_order
from junta.engine import Player as EnginePlayer
from junta.games.public import (
    AuditEntry,
    Bill,
    Game,
    Order,
    Phase,
    Player,
    PoliticalCard,
    Position,
    Unit,
    display_state,
    kept_rows,
)

RECENT_PHASES = 10  # how far back "missed orders" looks


def card_label(card_id: int) -> str:
    card = Catalog.card(card_id)
    return f"{card.name} (#{card_id})"


def describe(state: GameState, order: dict[str, Any]) -> str:  # a stored order (JSON)
    """An order in words, as the player's Orders page writes it (never its JSON: one the
    engine cannot read any more says so, with its kind in words)."""
    try:
        return describe_order(state, parse_order(dict(order)))
    except Exception:  # noqa: BLE001 - a description must never break the GM's page
        kind = str((order or {}).get("kind") or "unknown").replace("_", " ")
        return f"An order the engine cannot read (of kind “{kind}”)"


@dataclass
class PlayerRow:
    player: Player
    name: str
    owes: bool
    order: Order | None
    missed: int
    engine: EnginePlayer | None  # the engine's Player for this seat (None before the start)


def current(game: Game) -> tuple[Phase | None, GameState | None]:
    return display_state(game)


def players(game: Game) -> list[Player]:
    """Every player row of the campaign, by membership, seat and arrival, with person and
    characters."""
    kept = kept_rows(game.pk)
    if kept is not None:  # NULL seats last, as PostgreSQL orders them
        return sorted(kept.players, key=lambda p: (p.membership, p.seat is None, p.seat or 0,
                                                   p.joined_at))
    return list(game.players.select_related("user").prefetch_related("characters")
                .order_by("membership", "seat", "joined_at"))


def player_rows(game: Game, phase: Phase | None, state: GameState | None,
                everyone: list[Player] | None = None) -> list[PlayerRow]:
    """Seated players with who owes orders, who is final, and how many of the last phases each
    missed (owed orders and sent none): the absence record. `everyone`: the campaign's
    players (`players`), when the caller has read them."""
    everyone = players(game) if everyone is None else everyone
    seated = [p for p in everyone if p.membership == Player.Membership.ACTIVE]
    orders = {}
    kept = kept_rows(game.pk)
    if kept is not None and phase is not None and kept.phase == phase:
        orders = {o.player.seat: o for o in kept.orders}
    elif phase is not None:
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
        seat = p.engine_seat
        missed = sum(1 for r in recent if seat in r["owing_seats"] and (r["id"], seat)
                     not in sent)
        character = p.character
        rows.append(PlayerRow(
            p, character.name if character else f"Family {seat + 1}", seat in owing,
            orders.get(seat), missed,
            state.players[seat] if state is not None and seat < len(state.players)
            else None))
    return rows


def zone_name(zone: int | None) -> str:
    """"Cathedral (zone 5)"; "not placed"."""
    if zone is None:
        return "not placed"
    zones = Catalog.zones()
    return f"{zones[zone].name} (zone {zone})" if zone in zones else f"zone {zone}"


def _proposal(state: GameState, proposal: BudgetProposal | None) -> dict[str, object] | None:
    """A budget proposal in names and amounts (its allocations are keyed by 0-based seat)."""
    if not proposal:
        return None
    lines = []
    for key, amount in sorted((proposal.get("allocations") or {}).items(),
                              key=lambda item: int(item[0])):
        seat = int(key)
        name = state.name(seat) if 0 <= seat < len(state.players) else f"seat {seat + 1}"
        lines.append({"name": name, "amount": amount})
    return {"lines": lines, "fiat": bool(proposal.get("fiat")),
            "from_pocket": proposal.get("from_pocket") or 0}


def everything(state: GameState) -> dict[str, object]:
    """The whole state, laid out for reading: hands, pockets, banks, locations, the money deck
    in order with the hidden extra bills, both political piles, the budget and the units."""
    deck_top_first = list(reversed(state.money_deck))
    drawn = Catalog.KNOWN_BILLS + state.extra_bills - len(state.money_deck)
    people = []
    for p in state.players:
        people.append({
            "seat": p.seat, "name": p.name, "status": p.status, "life": p.life,
            "pocket": p.pocket, "bank": p.bank, "rebel": p.rebel,
            "location": Catalog.LOCATION_NAMES.get(p.location or "", "—"),
            "last_location": Catalog.LOCATION_NAMES.get(p.last_location or "", "—"),
            "hand": [card_label(c) for c in p.hand],
            "influence": [card_label(c) for c in p.influence],
            "positions": [Catalog.TITLES[k] for k in state.positions_of(p.seat)],
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
            "drawn": {Catalog.TITLES.get(k, k): v for k, v in budget.get("drawn", {}).items()},
            "holder": state.name(holder) if (holder := budget.get("holder")) is not None
            else None,
            "proposal": _proposal(state, budget.get("proposal")),
            "set_aside": budget.get("set_aside") or 0,
        } if budget else None,
        "units": [{**u, "owner_name": state.name(u["owner"]) if u["owner"] is not None
                   else None, "zone_name": zone_name(u["zone"])}
                  for u in (state.coup["units"] if state.coup else [])],
        "bank_status": state.bank_status,
        "turn_flags": dict(state.turn_flags),
    }


# --- the Board page: read from the board rows -----------------------------------------------

@dataclass
class FamilyCards:
    seat: int | None
    name: str
    hand: list[str] = field(default_factory=list)
    play: list[str] = field(default_factory=list)


def _family_names(game: Game) -> dict[int, tuple[int | None, str]]:
    """Every Player row of the campaign (a replaced one too): its seat and current name."""
    out = {}
    for p in game.players.prefetch_related("characters"):
        character = p.character
        seat = p.seat if p.membership == Player.Membership.ACTIVE else None
        name = character.name if character else f"Family {(p.seat or 0) + 1}"
        out[p.pk] = (seat, name if seat is not None else f"{name} (no longer seated)")
    return out


class _ZoneUnits(TypedDict):  # a zone's units on the board (`board`)
    number: int | None
    name: str
    units: list[dict[str, object]]


def board(game: Game) -> dict[str, object] | None:
    """The board rows of the campaign for the GM, None before the start: who holds each
    position and each card, the money deck by denomination with the hidden extra bills, and
    where every unit stands during a coup (by zone, with tallies by owner and by kind)."""
    cards = list(PoliticalCard.objects.filter(game=game).order_by("pile", "order"))
    if not cards:
        return None
    names = _family_names(game)

    def name_of(player_id: int | None) -> str:
        return names[player_id][1] if player_id in names else "nobody"

    positions = {row.key: row for row in Position.objects.filter(game=game)}
    position_rows = [{
        "key": key, "title": Catalog.TITLES.get(key, key),
        "holder": "the Brother-in-Law" if row.brother_in_law else
        name_of(row.holder_id) if row.holder_id else None,
    } for key in [*Catalog.POSITIONS, *sorted(set(positions) - set(Catalog.POSITIONS))]
        if (row := positions.get(key)) is not None]

    families: dict[int | None, FamilyCards] = {  # by Player pk, as PoliticalCard.holder_id
        pk: FamilyCards(seat, name) for pk, (seat, name) in names.items() if seat is not None}
    deck, discard = [], []
    for card in cards:
        label = f"{card.name} (#{card.card_id})"
        if card.pile == PoliticalCard.Pile.DECK:
            deck.append(label)
        elif card.pile == PoliticalCard.Pile.DISCARD:
            discard.append(label)
        else:
            family = families.setdefault(card.holder_id, FamilyCards(
                None, name_of(card.holder_id)))
            (family.hand if card.pile == PoliticalCard.Pile.HAND else family.play).append(label)

    counts = dict(Bill.objects.filter(game=game).values_list("denomination")
                  .annotate(n=Count("id")).order_by())
    extra = game.extra_bills or 0
    left = sum(counts.values())
    drawn = Catalog.KNOWN_BILLS + extra - left
    money = {
        "by_denomination": [{"denomination": d, "printed": Catalog.MONEY_DECK.get(d, 0),
                             "left": counts.get(d, 0), "mp": d * counts.get(d, 0)}
                            for d in sorted(set(Catalog.MONEY_DECK) | set(counts))],
        "left": left, "left_mp": sum(d * n for d, n in counts.items()),
        "extra_bills": extra, "at_start": Catalog.KNOWN_BILLS + extra, "drawn": drawn,
        "known": Catalog.KNOWN_BILLS,
        # what the players can count on: the printed bills not yet drawn
        "players_reckon": max(0, Catalog.KNOWN_BILLS - drawn),
    }

    zones: dict[int | None, _ZoneUnits] = {}
    by_owner: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    for unit in Unit.objects.filter(game=game).select_related("zone").order_by("number"):
        owner = name_of(unit.owner_id) if unit.owner_id else "nobody"
        zone = zones.setdefault(unit.zone_id, {
            "number": unit.zone_id,
            "name": f"{unit.zone.name} (zone {unit.zone_id})" if unit.zone else "not placed",
            "units": []})
        zone["units"].append({
            "number": unit.number, "kind": unit.kind, "owner": owner, "armed": unit.armed,
            "new_weapons": unit.new_weapons, "temporary": unit.temporary,
            "position": Catalog.TITLES.get(unit.position, unit.position)})
        by_owner[owner] += 1
        by_kind[unit.kind] += 1
    return {
        "positions": position_rows,
        "families": sorted(families.values(),
                           key=lambda f: (f.seat is None, f.seat or 0, f.name)),
        "deck": list(reversed(deck)), "discard": list(reversed(discard)),
        "cards": len(cards),
        "money": money,
        "zones": sorted(zones.values(), key=lambda z: (z["number"] is None, z["number"] or 0)),
        "by_owner": sorted(by_owner.items()), "by_kind": sorted(by_kind.items()),
        "units": sum(by_kind.values()),
    }


def compare(before: GameState, after: GameState) -> list[dict[str, object]]:
    """A drafted phase's effect on each family: pocket, bank and positions before and after
    (`changed` says whether anything of these moved)."""
    rows = []
    for old, new in zip(before.players, after.players, strict=False):
        positions = [", ".join(Catalog.TITLES[k] for k in state.positions_of(p.seat)) or "none"
                     for state, p in ((before, old), (after, new))]
        pocket, bank = (old.pocket, new.pocket), (old.bank, new.bank)
        rows.append({"seat": new.seat, "name": new.name, "pocket": pocket, "bank": bank,
                     "positions": tuple(positions),
                     "changed": pocket[0] != pocket[1] or bank[0] != bank[1]
                     or positions[0] != positions[1]})
    return rows


def orders_by_seat(phase: Phase | None, state: GameState | None) -> list[dict[str, object]]:
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
            "owes": p.seat in phase.owing_seats, "sent": row is not None,
            "orders": [(i, describe(state, o)) for i, o in enumerate(row.payload)]
            if row else [],
            "final": bool(row and row.final), "revision": row.revision if row else 0,
            "note": row.note_to_gm if row else "",
        })
    return out


# Every GM action in words, for the audit log (an unknown one reads as its name).
ACTION_NAMES = {
    "create": gettext_noop("Created the campaign"),
    "settings": gettext_noop("Changed the settings"),
    "approve": gettext_noop("Approved a player"),
    "decline": gettext_noop("Declined a request to join"),
    "remove": gettext_noop("Removed a player"),
    "replace": gettext_noop("Replaced a player"),
    "start": gettext_noop("Started the campaign"),
    "pause": gettext_noop("Paused the campaign"),
    "resume": gettext_noop("Resumed the campaign"),
    "extend": gettext_noop("Extended the deadline"),
    "adjudicate": gettext_noop("Adjudicated now"),
    "publish": gettext_noop("Published a result"),
    "redraft": gettext_noop("Drafted again"),
    "annul": gettext_noop("Annulled an order"),
    "order": gettext_noop("Gave an order for a player"),
    "money": gettext_noop("Moved money"),
    "card": gettext_noop("Moved a card"),
    "location": gettext_noop("Set a location"),
    "unit_add": gettext_noop("Added a unit"),
    "unit_remove": gettext_noop("Removed a unit"),
    "fiat": gettext_noop("Decreed a budget by fiat"),
    "rollback": gettext_noop("Rolled back"),
    "replay_check": gettext_noop("Ran the replay check"),
}


def action_name(action: str) -> str:
    name = ACTION_NAMES.get(action)
    return gettext(name) if name else action.replace("_", " ").capitalize()


def audit_summary(entry: AuditEntry) -> str:
    """One line on what an action did: the summary the service wrote, or one made from the
    entry's data (entries written before there were summaries, or by `junta.games.order_intake`)."""
    data, action = entry.data or {}, entry.action
    if data.get("summary"):
        return str(data["summary"])
    seat = data.get("seat")
    if action == "create":
        return f"{data.get('name', '')}, {data.get('max_players', '?')} players"
    if action == "settings":
        return "; ".join(f"{name.replace('_', ' ')}: {old} → {new}"
                         for name, (old, new) in (data.get("changes") or {}).items())
    if action in ("approve", "remove", "decline"):
        where = f" (seat {seat + 1})" if isinstance(seat, int) else ""
        return f"{data.get('user', 'a player')}{where}"
    if action == "replace":
        return (f"{data.get('new_user')} takes seat {seat + 1 if isinstance(seat, int) else '?'}"
                f" from {data.get('old_user')}")
    if action == "extend" and data.get("hours"):
        hours = data["hours"]
        return f"phase {data.get('phase')}'s deadline extended by {hours} " \
               f"hour{'s' if hours != 1 else ''}"
    if action == "adjudicate":
        return "published" if data.get("published") else "drafted for your review"
    if action == "annul" and isinstance(seat, int):
        return f"seat {seat + 1}'s order ({(data.get('order') or {}).get('kind', '?')})"
    if action == "order" and isinstance(seat, int):
        return f"for seat {seat + 1} ({(data.get('order') or {}).get('kind', '?')})"
    if action == "redraft":
        same = data.get("digest_before") == data.get("digest_after")
        return "the same result as before" if same else "the result changed"
    if action == "rollback":
        return (f"back to the start of phase {data.get('to_phase')}; phase "
                f"{data.get('new_phase')} opens")
    if action == "replay_check":
        if not data.get("ok"):
            return "problems found"
        changed = data.get("changed") or []
        one = len(changed) == 1
        return "every phase replays and the chain holds" + (
            f"; phase{'' if one else 's'} {', '.join(map(str, changed))}, adjudicated by an "
            f"older engine, resolve{'s' if one else ''} otherwise as the rules changed since"
            if changed else "")
    return ""


def audit_details(entry: AuditEntry) -> dict[str, Any]:  # the entry's data (JSON)
    """An entry's data for its Details, without what its line already says in words: the
    summary, and the order it describes (the stored dict, as the engine reads it, stays in the
    entry's data)."""
    data = dict(entry.data or {})
    if data.pop("summary", None):
        data.pop("order", None)
    return data


def audit(game: Game) -> QuerySet[AuditEntry]:
    return game.audit_entries.select_related("actor").order_by("-created_at", "-id")
