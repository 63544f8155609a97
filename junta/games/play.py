"""What a seated player sees of a running campaign: the state for display, his seat, the
current phase, his orders and what he has learned. Read-only; pages call these."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.http import Http404

from accounts.models import User
from junta.engine import (
    PHASE_TITLES,
    PUBLIC,
    Catalog,
    Event,
    GameState,
    PhaseKind,
    coup_phase_title,
    current_phase,
    describe_order,
    parse_order,
    view_for,
)
from junta.games import repository
from junta.games.models import AuditEntry, Game, Order, Phase, PhaseResult, Player, Speech

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


@dataclass
class Seat:
    game: Game
    player: Player | None  # None for the GM and spectators
    phase: Phase
    state: GameState
    view: dict[str, Any]
    order: Order | None

    @property
    def seat(self) -> int | None:
        return self.player.seat if self.player else None


def display_state(game: Game) -> tuple[Phase | None, GameState | None]:
    """The latest phase and the state players may look at: the open (or drafted) phase's
    starting state, or the final state of a finished game."""
    phase = game.phases.order_by("-number").first()
    if phase is None:
        return None, None
    if phase.status == Phase.Status.PUBLISHED:
        result = PhaseResult.objects.select_related("phase").get(phase=phase)  # one a phase
        return phase, repository.state_after(result)
    return phase, repository.state_before(phase)


def seat_for(game: Game, user: User, roster: list[Player] | None = None) -> Seat:
    """The person's seat in the campaign (404 unless seated or its GM), with the phase shown,
    its state and his view of it. `roster`: the seated players, when the caller has them."""
    if roster is not None:
        player = next((p for p in roster if p.user_id == user.id), None)
    else:
        player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    if player is None and game.gm_id != user.id:
        raise Http404
    phase, state = display_state(game)
    if phase is None or state is None:  # not started: no phase, no state
        raise Http404
    viewer: int | str | None = player.seat if player else "gm"
    order = Order.objects.filter(phase=phase, player=player).first() if player else None
    return Seat(game, player, phase, state, view_for(state, viewer), order)


# --- phases a GM rollback undid ------------------------------------------------------------
# A rollback (`junta.gm.services.rollback`) writes one AuditEntry with action "rollback" whose
# data holds `to_phase` (the phase whose start was restored) and `new_phase` (the phase it
# opened). Every phase numbered from `to_phase` up to, not including, `new_phase` was undone:
# its result stays (History shows it, set apart) but no longer counts. Derived from the audit
# log alone, so nothing is stored twice.

ROLLBACK = "rollback"


class _Undid(TypedDict):
    undid_from: int | None
    undid_until: int | None


def _rollbacks(game: Any) -> QuerySet[WithAnnotations[AuditEntry, _Undid]]:
    return AuditEntry.objects.filter(game=game, action=ROLLBACK).annotate(
        undid_from=Cast(KeyTextTransform("to_phase", "data"), IntegerField()),
        undid_until=Cast(KeyTextTransform("new_phase", "data"), IntegerField()))


def undone(prefix: str = "phase__") -> Exists:
    """An expression true for a phase (reached through `prefix`: "phase__" from a
    PhaseResult, "" from a Phase) that a GM rollback undid; `.exclude(undone())` keeps the
    phases that count, in the same query."""
    return Exists(_rollbacks(OuterRef(f"{prefix}game_id")).filter(
        undid_from__lte=OuterRef(f"{prefix}number"),
        undid_until__gt=OuterRef(f"{prefix}number")))


def undone_phases(game: Game) -> dict[int, datetime]:
    """Each undone phase's number and when the rollback that undid it happened (the first one,
    when a later rollback went back past it again). One query."""
    out: dict[int, datetime] = {}
    for entry in _rollbacks(game).order_by("created_at", "id"):
        if entry.undid_from is None or entry.undid_until is None:
            continue
        for number in range(entry.undid_from, entry.undid_until):
            out.setdefault(number, entry.created_at)
    return out


class Learned(TypedDict):
    """A private line a seat read in a phase's result (`learned`)."""

    phase: Phase
    text: str


def learned(game: Game, seat: int | None, turn: int) -> list[Learned]:
    """Private lines of this turn's published results that this seat may read (not those of
    phases a rollback undid)."""
    out: list[Learned] = []
    results = PhaseResult.objects.filter(
        phase__game=game, phase__turn=turn, published_at__isnull=False,
    ).exclude(undone()).select_related("phase").only(
        "events", "phase__number", "phase__kind", "phase__turn", "phase__game_id",
    ).order_by("-phase__number")
    for result in results:
        for data in result.events:
            event = Event.from_dict(data)
            if event.audience != "public" and event.visible_to(seat):
                out.append({"phase": result.phase, "text": event.text})
    return out


def public_events(result: PhaseResult) -> list[Event]:
    """A phase's public lines only, whoever looks: what a map may draw."""
    events = [Event.from_dict(d) for d in result.events]
    return [e for e in events if e.audience == PUBLIC]


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
    coup_map: Any = None
    coup_caption: str = ""
    # A coup phase: the zones fought over in it (public events only), listed below its map.
    fighting: list[Any] = field(default_factory=list)
    fighting_title: str = ""
    # How many speeches were made while the phase was open (History links to them).
    speech_count: int = 0
    # When the GM's rollback that undid this phase happened (None: the phase counts).
    undone_on: datetime | None = None
    # The public lines in order, each vote a table (`public_blocks`): what the report draws.
    blocks: list[tuple[str, Any]] = field(default_factory=list)


COUP_KINDS = (PhaseKind.COUP, PhaseKind.COUP_FINAL)


# --- votes as tables --------------------------------------------------------------------------
# Every vote cast is public (docs/rules.md §secrets: "every vote cast (who, how, with how many
# votes and which cards)"). The engine's "votes_cast" event carries its record: one entry per
# source of votes of each voter who did not abstain ({"seat", "source" (in words), "votes",
# "choice": "yes", "no" or a candidate's seat}). A report draws each as a table, its rows built
# from that record, and folds in the line that says how the vote went.

VOTES_CAST = "votes_cast"
# The public lines that say how a vote went, when they follow it.
VOTE_OUTCOMES = frozenset({"president", "lot", "motion_result", "budget_passed", "budget_failed",
                           "alternative_budget", "annulled", "power_failure"})
FIRST_ELECTION_SOURCE = "your family"  # the engine's words for the one vote of §first-election


@dataclass
class VoteRow:
    voter: str
    votes: int
    choice: str
    source: str


@dataclass
class VoteTable:
    caption: str
    rows: list[VoteRow]
    totals: list[tuple[str, int]]  # each choice and its votes, most votes first
    outcome: str = ""  # the line that says how the vote went, when the report has one


def _choice(choice: Any, names: dict[int, str]) -> str:
    if isinstance(choice, int) and not isinstance(choice, bool):
        return names.get(choice, f"seat {choice + 1}")
    return str(choice).capitalize()


def _source(label: str) -> str:
    """Where votes come from, in words: a position, an Influence or Vote card, the family's
    one vote in the first election, an event."""
    if label == FIRST_ELECTION_SOURCE:
        return "the family's one vote"
    if label in Catalog.TITLES.values():
        return f"{label} (position)"
    if label == "Church Desecrated":
        return f"{label} (event)"
    return f"{label} (card)"


def vote_table(event: Event, names: dict[int, str], caption: str) -> VoteTable:
    """One vote's table from its event's record (never from its text)."""
    rows: list[VoteRow] = []
    totals: dict[str, int] = {}
    for entry in event.data.get("record") or []:
        choice = _choice(entry.get("choice"), names)
        votes = int(entry.get("votes") or 0)
        seat = entry.get("seat")
        rows.append(VoteRow(names.get(seat, f"seat {int(seat) + 1}") if seat is not None
                            else "?", votes, choice, _source(str(entry.get("source", "")))))
        totals[choice] = totals.get(choice, 0) + votes
    return VoteTable(caption, rows, sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))


def public_blocks(events: list[Event], names: dict[int, str], title: str
                  ) -> list[tuple[str, Any]]:
    """A report's public lines in order, grouped: ("lines", [text, ...]) or ("vote",
    VoteTable), each vote followed by the line that says how it went folded into its table."""
    blocks: list[tuple[str, Any]] = []
    table: VoteTable | None = None
    count = 0
    for event in events:
        if event.audience != PUBLIC:
            continue
        if event.kind == VOTES_CAST:
            count += 1
            table = vote_table(event, names, f"Votes cast: {title}" + (
                f", vote {count}" if count > 1 else ""))
            blocks.append(("vote", table))
            continue
        if table is not None and not table.outcome and event.kind in VOTE_OUTCOMES:
            table.outcome = event.text
            continue
        if not blocks or blocks[-1][0] != "lines":
            blocks.append(("lines", []))
        blocks[-1][1].append(event.text)
    return blocks


def phase_title(phase: Phase, coup_phase: Any = None) -> str:
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


def _told_to(audience: Any, names: dict[int, str]) -> str:
    if audience == "gm":
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


@dataclass
class CoupMap:
    svg: Any
    caption: str
    fighting: list[Any]  # citymap.Battle, one per zone fought over in the phase
    fighting_title: str  # "Fighting in Coup Phase 3", or "" when the phase had no combat step


def fighting_of(result: PhaseResult, names: dict[int, str], number: int | None
                ) -> tuple[list[Any], str]:
    """The zones fought over in a coup phase, from its public events only, and the heading of
    their list ("Fighting in Coup Phase 3"); nothing for a phase that is not a coup phase."""
    from junta.games import citymap

    if result.phase.kind not in COUP_KINDS or not number:
        return [], ""
    return citymap.battles(public_events(result), names), f"Fighting in Coup Phase {number}"


# A published result never changes, and its map is drawn from public information only: each
# drawing is kept in the cache (the same for every viewer), keyed by what it is drawn from
# (the state's digest, the events, the title) and the drawing code's version. A day: History's
# pages of old coups stay fast.
COUP_MAP_CACHE_SECONDS = 24 * 3600
_NO_MAP = "none"


def content_key(kind: str, *made_of: Any) -> str:
    """A cache key for something drawn once: `kind`, then a hash of everything it is drawn
    from (any change in those is another key: nothing is ever invalidated by hand)."""
    import hashlib
    import json

    made = json.dumps(list(made_of), sort_keys=True, default=str).encode()
    return f"{kind}:{hashlib.sha256(made).hexdigest()}"


def coup_maps(results: list[tuple[PhaseResult, str]]) -> dict[int, CoupMap]:
    """The city after each coup phase (or after the Locations phase that began the coup) of
    `results` ((result, the phase's `phase_title`) pairs), by result id; phases with no map are
    left out. Each drawn from the public coup view of the state after it, with the moves of
    that phase and, for a coup phase, its fighting (public events only). Drawn once: then read
    from the cache, all of a page's in one read."""
    from django.core.cache import caches

    from junta.games.citymap import DRAWING_VERSION

    cache = caches["drawings"]

    keys = {}
    for result, title in results:
        if result.phase.kind in COUP_KINDS or (
                result.phase.kind == PhaseKind.LOCATIONS and _coup_after(result)):
            # what the drawing is made of: the state after the phase, its events, the title
            keys[content_key("coup-map", DRAWING_VERSION, result.digest, result.events,
                             title)] = (result, title)
    kept = cache.get_many(list(keys)) if keys else {}
    missing = [result for key, (result, _title) in keys.items() if key not in kept]
    if missing and "state_after" in missing[0].get_deferred_fields():
        states = dict(PhaseResult.objects.filter(pk__in=[r.pk for r in missing])
                      .values_list("pk", "state_after"))  # one query for all to draw
        for result in missing:
            result.state_after = states[result.pk]
    drawn = {}
    for key, (result, title) in keys.items():
        if key not in kept:
            made = _draw_coup_map(result, title)
            drawn[key] = kept[key] = _NO_MAP if made is None else made
    if drawn:
        cache.set_many(drawn, COUP_MAP_CACHE_SECONDS)
    return {result.pk: kept[key] for key, (result, _title) in keys.items()
            if kept[key] != _NO_MAP}


def _coup_after(result: PhaseResult) -> bool:
    """Whether a coup is under way after the phase (`history_results` reads only that)."""
    if hasattr(result, "coup_after"):
        return result.coup_after is not None
    return bool(result.state_after.get("coup"))


def _draw_coup_map(result: PhaseResult, title: str) -> CoupMap | None:
    from junta.games import citymap
    from junta.games.map_views import moved_in

    state = repository.state_after(result)
    view = view_for(state, None)
    coup = view.get("coup")
    if coup is None:
        return None
    names = {p["seat"]: p["name"] for p in view["players"]}
    shown = moved_in(view, coup)
    fighting, fighting_title = fighting_of(result, names, shown)
    title = f"The city after {title}"
    svg = citymap.render_svg(coup, names, moved_in=shown, battles=fighting, title=title,
                             title_id=f"map-{result.phase.number}-title",
                             id_prefix=f"p{result.phase.number}-")
    caption = ("Arrows show the Rebel-Only moves." if shown == 0 else
               f"Arrows show the moves of Coup Phase {shown}." if shown else "")
    if fighting:
        caption += " Red rings and bursts mark the fighting" + (
            "; dashed arrows, the retreats." if any(b.retreats for b in fighting) else ".")
    return CoupMap(svg, caption.strip(), fighting, fighting_title)


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
    from junta.games.headlines import headline

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
            [e.text for e in events if e.audience == "public"],
            [] if reveal else [e.text for e in events if e.audience != "public"],
            title=titles[result.pk],
            speech_count=counts.get(result.phase_id, 0),
            undone_on=rolled_back.get(result.phase.number),
            blocks=public_blocks(events, names, titles[result.pk]))
        if reveal:
            entry.revealed = [(_told_to(e.audience, names), e.text) for e in events
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


def current_turn_results(game: Game, limit: int = 30) -> list[PhaseResult]:
    """The published results of the turn of the latest published phase, newest first (one
    query)."""
    from django.db.models import Subquery

    latest_turn = published_results(game).values("phase__turn")[:1]
    return list(published_results(game).filter(phase__turn=Subquery(latest_turn))[:limit])


def viewer_for(game: Game, user: User) -> int | str | None:
    """The engine viewer for this person: a seat, "gm", or None (a spectator). After the game
    ends everyone sees everything (the engine's events say so themselves)."""
    if game.gm_id == user.id:
        return "gm"
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    return player.seat if player else None
