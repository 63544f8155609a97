"""Read-only queries for pages: what a given person may see of campaigns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from django.core.paginator import Page
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from accounts.public import User
from junta.engine import repeated_phases
from junta.games import campaign_rows
from junta.games.models import (
    Announcement,
    AuditEntry,
    EventsSeen,
    Game,
    Order,
    Phase,
    Player,
    Speech,
)

LIVE = [Player.Membership.PENDING, Player.Membership.ACTIVE]


def seated_count() -> Coalesce:
    """The number of seated players of each campaign, as a subquery (a Count over the join
    that picks my campaigns would count only my own seat)."""
    rows = (Player.objects.filter(game=OuterRef("pk"), membership=Player.Membership.ACTIVE)
            .order_by().values("game").annotate(n=Count("pk")).values("n"))
    return Coalesce(Subquery(rows), 0)


def my_games(user: User) -> QuerySet[Game]:
    """Campaigns the person runs or plays in (or has asked to join); his practice campaigns
    while they run (one abandoned or archived is gone)."""
    return (
        Game.objects.filter(Q(gm=user) | Q(players__user=user, players__membership__in=LIVE))
        .exclude(practice=True, status=Game.Status.FINISHED)
        .distinct()
        .select_related("gm")
        .annotate(seated=seated_count())
        .order_by("-created_at")
    )


def joinable_games(user: User) -> QuerySet[Game]:
    """Forming campaigns that take players without an invitation and have a free seat."""
    return (
        Game.objects.filter(status=Game.Status.FORMING, practice=False)
        .exclude(join_policy=Game.JoinPolicy.INVITE)
        .exclude(gm=user)
        .exclude(players__user=user, players__membership__in=LIVE)
        .annotate(seated=Count("players", filter=Q(players__membership="active"), distinct=True))
        .select_related("gm")
        .order_by("-created_at")
    )


STARTED = [Game.Status.NOMINATING, Game.Status.RUNNING, Game.Status.PAUSED,
           Game.Status.FINISHED]


class SeatStatus(TypedDict):
    """A person's seat in a started campaign and where his orders stand (`my_seats`)."""

    seat: int | None
    phase: Phase | None
    owes: bool
    orders_in: bool
    final: bool
    paused: bool
    passed: bool


def my_seats(user: User, games: list[Game]) -> dict[int, SeatStatus]:
    """For each started campaign where the person has a seat: whether the current phase
    waits for his orders, and whether his orders are in (and final); `paused` while the GM has
    stopped the clock (no orders are taken), `passed` once the open phase's deadline is behind
    it and the sweep has not adjudicated it yet. Three queries, whatever the number of
    campaigns."""
    now = timezone.now()
    paused = {g.id for g in games if g.status == Game.Status.PAUSED}
    started = [g.id for g in games if g.status in STARTED]
    if not started:
        return {}
    seats = dict(Player.objects.filter(game_id__in=started, user=user,
                                       membership=Player.Membership.ACTIVE)
                 .values_list("game_id", "seat"))
    phases = {p.game_id: p for p in Phase.objects.filter(
        game_id__in=list(seats), status=Phase.Status.OPEN).only("game_id", "owing_seats",
                                                                "deadline", "kind")}
    orders = {o.phase_id: o for o in Order.objects.filter(
        phase__in=list(phases.values()), player__user=user).only("phase_id", "final")}
    out: dict[int, SeatStatus] = {}
    for game_id, seat in seats.items():
        phase = phases.get(game_id)
        order = orders.get(phase.id) if phase else None
        out[game_id] = {
            "seat": seat, "phase": phase,
            "owes": bool(phase and seat in (phase.owing_seats or [])),
            "orders_in": order is not None, "final": bool(order and order.final),
            "paused": game_id in paused,
            "passed": bool(phase and game_id not in paused and phase.deadline <= now),
        }
    return out


def game_for(user: User, game_id: int) -> Game:
    """Any campaign page is public to signed-in people, except invitation-only campaigns that are
    still forming: those are 404 unless you are in them (the invitation link has its own view);
    and a practice campaign, 404 to all but its player, and to him too once it is over."""
    kept = campaign_rows.rows(game_id)  # while a page is drawn: its rows at its revision
    game = kept.game if kept is not None else \
        Game.objects.select_related("gm").filter(pk=game_id).first()
    if game is None:
        raise Http404

    def member(*memberships: str) -> bool:
        if kept is not None:
            return any(p.user_id == user.pk and p.membership in memberships
                       for p in kept.players)
        return game.players.filter(user=user, membership__in=memberships).exists()

    if game.practice and (game.status == Game.Status.FINISHED
                          or not member(Player.Membership.ACTIVE)):
        raise Http404
    if (
        game.join_policy == Game.JoinPolicy.INVITE
        and game.status == Game.Status.FORMING
        and game.gm_id != user.id
        and not member(*LIVE)
    ):
        raise Http404
    return game


def seated(game: Game, user: User | None) -> Player | None:
    """The person's seat in the campaign (his active Player row), None for anyone else. Read
    once for this Game object: a page asks it from its view, its menu and its tags, each of
    them through the same object (fetched anew by every request, so never stale across
    requests)."""
    if user is None or not user.is_authenticated:
        return None
    memo: dict[int, Player | None] = game.__dict__.setdefault("_seated", {})
    if user.pk not in memo:
        kept = campaign_rows.rows(game.pk)
        memo[user.pk] = next(
            (p for p in kept.players
             if p.user_id == user.pk and p.membership == Player.Membership.ACTIVE), None) \
            if kept is not None else game.players.filter(
                user_id=user.pk, membership=Player.Membership.ACTIVE).first()
    return memo[user.pk]


def last_orders(phase: Phase, player: Player) -> Order | None:
    """The player's orders "last time" (docs/rules.md §repeat-orders): his orders, as he gave
    them, of the latest earlier phase of this campaign whose kind this phase repeats (the
    engine's `repeated_phases`: a Locations phase the Locations phases before it, a Coup Phase
    the coup's phases) in which he gave any; a phase a GM rollback superseded does not count.
    None when the phase repeats nothing or he gave no orders in such a phase. His own rows
    only (`player`: the person in the seat, not the seat's earlier holders)."""
    kinds = repeated_phases(phase.kind)
    if not kinds:
        return None
    return (Order.objects.filter(player=player, phase__game_id=phase.game_id,
                                 phase__number__lt=phase.number, phase__kind__in=kinds)
            .exclude(phase__status=Phase.Status.SUPERSEDED).exclude(payload=[])
            .select_related("phase").order_by("-phase__number").first())


def roster(game: Game) -> list[Player]:
    """Seated players in seat order, each with its person and characters."""
    kept = campaign_rows.rows(game.pk)
    if kept is not None:
        return kept.seated()
    return list(
        game.players.filter(membership=Player.Membership.ACTIVE)
        .select_related("user")
        .prefetch_related("characters")
        .order_by("seat")
    )


def pending(game: Game) -> list[Player]:
    return list(
        game.players.filter(membership=Player.Membership.PENDING)
        .select_related("user")
        .prefetch_related("characters")
        .order_by("joined_at")
    )


def speeches(game: Game) -> QuerySet[Speech]:
    """The campaign's speeches, newest first, with the speaker of what they reply to; the
    Markdown sources are left in the database (pages show the HTML stored at posting)."""
    return (game.speeches.select_related("reply_to")
            .defer("body", "reply_to__body", "reply_to__body_html")
            .order_by("-created_at", "-id"))


# --- the Events page: what each reader has not read yet ----------------------------------------
# A reader is the campaign's GameMaster or a seated player; everyone else reads the page as it
# is, nothing marked. What is new to him is what came after the point he last read the first
# page up to (`EventsSeen`, written by `speeches.mark_seen`): the speeches and the GM's free
# announcements, never his own words. The notes the GM adds to his actions (a pause, a result
# published) are on the page too, but are not news of their own: they come with the action,
# which the pages and mails say already.


def events_reader(game: Game, user: User) -> bool:
    """Whether the person has "new" marks on the Events page: its GM or a seated player."""
    return game.gm_id == user.id or seated(game, user) is not None


def seen_until(game: Game, user: User) -> datetime | None:
    """How far the person has read the Events page (None: never)."""
    return (EventsSeen.objects.filter(game=game, user=user)
            .values_list("seen_until", flat=True).first())


def unread_speeches(game: Game, user: User, since: datetime | None = None, *,
                    known: bool = False) -> int:
    """How many speeches, GM's announcements and announced GM's actions (a deadline extended,
    a pause; not the start, `NOT_NEWS`) on the Events page this person has not seen (0 for
    anyone but the GM and the seated players; never his own): for the page's "N new since your
    last visit", a dashboard and the menus. `since`, with `known`, is his `seen_until` when the
    caller has read it already."""
    if not known:
        if not events_reader(game, user):
            return 0
        since = seen_until(game, user)
    after = Q(created_at__gt=since) if since is not None else Q()
    said = Speech.objects.filter(after, game=game)
    if game.gm_id == user.id:  # his own speeches and announcements are not news to him
        return said.exclude(player__isnull=True).count()
    counts = Game.objects.filter(pk=game.pk).values_list(
        _count(said.exclude(player__user=user)),
        _count(Announcement.objects.filter(after, game=game)),
        _count(_gm_actions(game).filter(after).exclude(action__in=NOT_NEWS))).first()
    return sum(counts or ())


def _count(rows: QuerySet[Speech] | QuerySet[Announcement] | QuerySet[AuditEntry]) -> Coalesce:
    """How many `rows` there are, as a subquery (the page's three counts in one query)."""
    return Coalesce(Subquery(rows.order_by().values("game").annotate(n=Count("pk"))
                             .values("n")), 0)


# the announced GM's actions that are not news on the Events page: the campaign's start opens
# it (every other one, a deadline moved, a pause, a phase adjudicated early, is news)
NOT_NEWS = ("start",)


def _gm_actions(game: Game) -> QuerySet[AuditEntry]:
    """The GM's actions he announced to the players (never their reasons)."""
    return AuditEntry.objects.filter(game=game).exclude(announcement="")


@dataclass
class EventsItem:
    """One entry of the Events page's list: a speech, a GM's announcement ("announcement") or
    the announcement of a GM's action ("action"), and whether it is new to the reader."""

    kind: str
    created_at: datetime
    item: Speech | Announcement | AuditEntry  # by `kind`: speech, announcement, action
    new: bool = False


def events_items(game: Game, page: Page[Speech], phase: Phase | None = None
                 ) -> list[EventsItem]:
    """The entries of one page of speeches, newest first: its speeches, and the GM's
    announcements made between them (those older than the page's oldest speech are on a later
    page; with `phase`, only the free announcements made during that phase). Two queries
    more than the page's own (one with `phase`), and one more on a page after the first."""
    said = list(page)
    older = said[-1].created_at if said and page.has_next() else None
    newer = None
    if page.number > 1:  # what the page before ends with
        before = page.paginator.object_list[(page.number - 1) * page.paginator.per_page - 1]
        newer = before.created_at
    window = Q()
    if older is not None:
        window &= Q(created_at__gte=older)
    if newer is not None:
        window &= Q(created_at__lt=newer)
    items = [EventsItem("speech", s.created_at, s) for s in said]
    announced = Announcement.objects.filter(window, game=game)
    if phase is not None:
        announced = announced.filter(phase=phase)
    else:
        items += [EventsItem("action", a.created_at, a)
                  for a in _gm_actions(game).filter(window).only("created_at", "announcement")]
    items += [EventsItem("announcement", a.created_at, a)
              for a in announced.defer("body")]
    return sorted(items, key=lambda i: (i.created_at, i.item.pk), reverse=True)


def mark_new(items: list[EventsItem], game: Game, user: User, since: datetime | None) -> int:
    """Mark the entries newer than `since` that are not the reader's own; how many. One query
    (the reader's seats, past ones included: what he said from them is his)."""
    gm = game.gm_id == user.id
    mine = set() if gm else set(
        Player.objects.filter(game=game, user=user).values_list("pk", flat=True))
    for entry in items:
        if since is not None and entry.created_at <= since:
            continue
        item = entry.item
        if isinstance(item, Speech):
            speaker = item.player_id
            entry.new = speaker is not None if gm else speaker not in mine
        elif isinstance(item, Announcement) or item.action not in NOT_NEWS:
            entry.new = not gm
    return sum(entry.new for entry in items)
