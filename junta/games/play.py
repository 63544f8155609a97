"""What a seated player sees of a running campaign: the state for display, his seat, the
current phase, his orders and what he has learned; the published phases' reports as he may read
them (History, the Events page, the results mail, the API). Read-only; pages call these.

A report is drawn from parts of its own: each vote a table (`vote_tables`), a coup phase's map
(`coup_maps`); the phases a GM rollback undid are set apart (`rollbacks`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from django.db.models import Count, QuerySet, Subquery
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.http import Http404
from django.utils.safestring import SafeString

from accounts.public import User
from junta.engine import (
    PHASE_TITLES,
    Event,
    GameState,
    PhaseKind,
    StateView,
    coup_phase_title,
    current_phase,
    describe_order,
    parse_order,
    view_for,
)
from junta.games import campaign_rows, repository
from junta.games.citymap import Battle
from junta.games.coup_maps import coup_maps
from junta.games.headlines import headline
from junta.games.models import Game, Order, Phase, PhaseResult, Player, Speech
from junta.games.rollbacks import undone
from junta.games.selectors import seated
from junta.games.vote_tables import Block, public_blocks
from junta.games.wording import event_text


@dataclass
class Seat:
    game: Game
    player: Player | None  # None for the GM and spectators
    phase: Phase
    state: GameState
    view: StateView
    order: Order | None
    phase_orders: list[Order] | None = None  # every seat's, when asked (`seat_for`)

    @property
    def seat(self) -> int | None:
        return self.player.seat if self.player else None


def display_state(game: Game) -> tuple[Phase | None, GameState | None]:
    """The latest phase and the state players may look at: the open (or drafted) phase's
    starting state, or the final state of a finished game."""
    kept = campaign_rows.rows(game.pk)
    phase = kept.phase if kept is not None else game.phases.order_by("-number").first()
    if phase is None:
        return None, None
    if phase.status == Phase.Status.PUBLISHED:
        result = kept.result if kept is not None else None
        if result is None:
            result = PhaseResult.objects.select_related("phase").get(phase=phase)  # one a phase
        return phase, repository.state_after(result)
    return phase, repository.state_before(phase)


def seat_for(game: Game, user: User, roster: list[Player] | None = None, *,
             every_order: bool = False) -> Seat:
    """The person's seat in the campaign (404 unless seated or its GM), with the phase shown,
    its state and his view of it. `roster`: the seated players, when the caller has them;
    `every_order`: read every seat's orders of the phase (`phase_orders`, with their players),
    his own among them, in the one query that reads his."""
    if roster is not None:
        player = next((p for p in roster if p.user_id == user.id), None)
    else:
        player = seated(game, user)
    if player is None and game.gm_id != user.id:
        raise Http404
    phase, state = display_state(game)
    if phase is None or state is None:  # not started: no phase, no state
        raise Http404
    viewer: int | str | None = player.seat if player else "gm"
    kept = campaign_rows.rows(game.pk)
    if every_order or kept is not None:
        orders = kept.orders if kept is not None and kept.phase == phase else list(
            Order.objects.filter(phase=phase).select_related("player"))
        order = next((o for o in orders if player and o.player_id == player.id), None)
        return Seat(game, player, phase, state, view_for(state, viewer), order,
                    orders if every_order else None)
    order = Order.objects.filter(phase=phase, player=player).first() if player else None
    return Seat(game, player, phase, state, view_for(state, viewer), order)


class Learned(TypedDict):
    """A private line a seat read in a phase's result (`learned`)."""

    phase: Phase
    text: str


def learned(game: Game, seat: int | None, turn: int) -> list[Learned]:
    """Private lines of this turn's published results that this seat may read (not those of
    phases a rollback undid)."""
    out: list[Learned] = []
    kept = campaign_rows.rows(game.pk)  # the latest turn's results, or an earlier turn's
    results = [r for r in current_turn_results(game) if r.phase.turn == turn] \
        if kept is not None else PhaseResult.objects.filter(
        phase__game=game, phase__turn=turn, published_at__isnull=False,
    ).exclude(undone()).select_related("phase").only(
        "events", "phase__number", "phase__kind", "phase__turn", "phase__game_id",
    ).order_by("-phase__number")
    for result in results:
        for data in result.events:
            event = Event.from_dict(data)
            if event.audience != "public" and event.visible_to(seat):
                out.append({"phase": result.phase, "text": event_text(event)})
    return out


def report(result: PhaseResult, viewer: int | str | None) -> list[Event]:
    """A phase's report as `viewer` may read it: public lines and his own private lines."""
    events = [Event.from_dict(d) for d in result.events]
    return [e for e in events if e.visible_to(viewer)]


@dataclass
class PhaseReport:
    phase: Phase
    headlines: list[str]
    public: list[str]
    private: list[str]
    title: str = ""
    # After the game ends ("everything is revealed"): every secret line with whom it was told
    # to, and every family's orders as adjudicated.
    revealed: list[tuple[str, str]] = field(default_factory=list)
    orders: list[tuple[str, list[str]]] = field(default_factory=list)
    # A coup phase (or the Locations phase that started a coup): the map after it.
    coup_map: SafeString | None = None
    coup_caption: str = ""
    # A coup phase: the zones fought over in it (public events only), listed below its map.
    fighting: list[Battle] = field(default_factory=list)
    fighting_title: str = ""
    # How many speeches were made while the phase was open (History links to them).
    speech_count: int = 0
    # When the GM's rollback that undid this phase happened (None: the phase counts).
    undone_on: datetime | None = None
    # The public lines in order, each vote a table (`vote_tables.public_blocks`): what the
    # report draws.
    blocks: list[Block] = field(default_factory=list)


# coup_phase: a number read from the stored state's JSON by `history_results`' query
def phase_title(phase: Phase, coup_phase: int | str | None = None) -> str:
    """The phase's title as the engine gives it ("Budget Proposal", "Coup Phase 3"). A coup
    phase's number is in the state the phase opened with: `coup_phase` when the caller read it
    from there already (`history_results` does, in its query), else the state is read."""
    if phase.kind == PhaseKind.COUP:
        if coup_phase is not None:
            return coup_phase_title(int(coup_phase))
        return current_phase(repository.state_before(phase)).title
    return PHASE_TITLES.get(phase.kind, phase.kind.replace("_", " ").capitalize())


def _names(result: PhaseResult) -> dict[int, str]:
    """The families' names after the phase (from `history_results`' `players` when it read
    only those)."""
    players = getattr(result, "players", None)
    if players is None:
        players = result.state_after.get("players", [])
    return {p["seat"]: p["name"] for p in players}


def _told_to(audience: str | Sequence[int], names: dict[int, str]) -> str:
    """Whom a line that is not public was told to: the GM ("gm") or some seats."""
    if isinstance(audience, str):
        return "the GameMaster"
    return ", ".join(names.get(s, f"seat {s + 1}") for s in audience) or "nobody"


def _described_orders(result: PhaseResult) -> list[tuple[str, list[str]]]:
    used = result.orders_used or {}
    if not used:
        return []
    state = repository.state_before(result.phase)
    out = []
    for seat in sorted(used, key=int):
        lines = []
        for order in used[seat]:
            try:
                lines.append(describe_order(state, parse_order(dict(order))))
            except (KeyError, TypeError, ValueError, IndexError):
                lines.append(str(order.get("kind", "an order")).replace("_", " "))
        if lines:
            out.append((state.name(int(seat)), lines))
    return out


def speech_counts(game: Game, results: list[PhaseResult]) -> dict[int, int]:
    """How many speeches were made while each of these phases was open, by phase id (one
    query for them all)."""
    if not results:
        return {}
    return dict(Speech.objects.filter(game=game, phase_id__in=[r.phase_id for r in results])
                .order_by().values("phase_id").annotate(n=Count("id"))
                .values_list("phase_id", "n"))


def reports(game: Game, viewer: int | str | None, results: list[PhaseResult], *,
            reveal: bool = False, maps: bool = False, speeches: bool = False,
            rolled_back: dict[int, datetime] | None = None,
            counts: dict[int, int] | None = None) -> list[PhaseReport]:
    """Readable reports of published phases: headlines, public lines, the viewer's own lines.
    With `reveal` (a finished game only) every secret line and every order too; with `maps`
    the city after each coup phase; with `speeches` the number of speeches made while each
    phase was open (one query for them all: the speeches themselves are on the Events page,
    `?phase=<number>`). `rolled_back` (from `undone_phases`) marks the phases a
    rollback undid: they carry the rollback's date and no revealed orders (they no longer
    count). `counts`: the speech counts (`speech_counts`) when the caller has them."""
    rolled_back = rolled_back or {}
    if reveal and game.status != Game.Status.FINISHED:
        raise ValueError("secrets are revealed only when the game is over")
    if counts is None:
        counts = speech_counts(game, results) if speeches else {}
    _read_facts(results)
    titles = {r.pk: phase_title(r.phase, getattr(r, "coup_phase", None)) for r in results}
    drawings = coup_maps([(r, titles[r.pk]) for r in results]) if maps else {}
    out = []
    for result in results:
        names = _names(result)
        events = report(result, "gm" if reveal else viewer)
        heads = [h for e in events if (h := headline(e, str(result.phase_id), names))]
        entry = PhaseReport(
            result.phase, heads,
            [event_text(e) for e in events if e.audience == "public"],
            [] if reveal else [event_text(e) for e in events if e.audience != "public"],
            title=titles[result.pk],
            speech_count=counts.get(result.phase_id, 0),
            undone_on=rolled_back.get(result.phase.number),
            blocks=public_blocks(events, names, titles[result.pk]))
        if reveal:
            entry.revealed = [(_told_to(e.audience, names), event_text(e)) for e in events
                              if e.audience != "public"]
            if entry.undone_on is None:
                entry.orders = _described_orders(result)
        if drawn := drawings.get(result.pk):
            entry.coup_map, entry.coup_caption = drawn.svg, drawn.caption
            entry.fighting, entry.fighting_title = drawn.fighting, drawn.fighting_title
        out.append(entry)
    return out


def history_results(game: Game) -> QuerySet[PhaseResult]:
    """Every published result, newest first, those a rollback undid included (History). While
    the game runs, the states are left in the database: a report drawn for the first time
    reads what it needs of them then (`_read_facts`), one drawn before comes from the cache
    (`report_pages`); once the game is over, every order is shown, described from the state
    each phase opened with."""
    results = PhaseResult.objects.filter(phase__game=game, published_at__isnull=False) \
        .select_related("phase").order_by("-phase__number")
    if game.status != Game.Status.FINISHED:
        results = results.defer("phase__state_before", "state_after", "orders_used")
    return results


def _read_facts(results: list[PhaseResult]) -> None:
    """For results whose states were left in the database (`history_results`), what a report
    reads of them, in one query: a coup phase's number, the families after it and whether a
    coup is under way then (`coup_phase`, `players`, `coup_after`)."""
    lacking = [r for r in results if "state_after" in r.get_deferred_fields()
               and not hasattr(r, "players")]
    if not lacking:
        return
    facts = {row["pk"]: row for row in PhaseResult.objects.filter(
        pk__in=[r.pk for r in lacking]).values(
        "pk",
        coup_phase=KeyTextTransform("phase", KeyTransform("coup", "phase__state_before")),
        players=KeyTransform("players", "state_after"),
        coup_after=KeyTransform("coup", "state_after"))}
    for result in lacking:
        for name in ("coup_phase", "players", "coup_after"):
            setattr(result, name, facts[result.pk][name])


def published_results(game: Game) -> QuerySet[PhaseResult]:
    """The published results that count, newest first: not those of phases a GM rollback
    undid."""
    return history_results(game).exclude(undone())


TURN_RESULTS = 30  # the most results of a turn a page shows


def current_turn_results(game: Game, limit: int = TURN_RESULTS) -> list[PhaseResult]:
    """The published results of the turn of the latest published phase, newest first (one
    query; none while a page is drawn from the rows kept at its revision)."""
    kept = campaign_rows.rows(game.pk)
    if kept is not None:  # at most TURN_RESULTS of them, kept at the page's revision
        results = kept.part("turn_results", lambda: _turn_results(game, TURN_RESULTS))
        assert isinstance(results, list)
        return results[:limit]
    return _turn_results(game, limit)


def _turn_results(game: Game, limit: int) -> list[PhaseResult]:
    latest_turn = published_results(game).values("phase__turn")[:1]
    return list(published_results(game).filter(phase__turn=Subquery(latest_turn))[:limit])


def viewer_for(game: Game, user: User) -> int | str | None:
    """The engine viewer for this person: a seat, "gm", or None (a spectator). After the game
    ends everyone sees everything (the engine's events say so themselves)."""
    if game.gm_id == user.id:
        return "gm"
    player = seated(game, user)
    return player.seat if player else None
