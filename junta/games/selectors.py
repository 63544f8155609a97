"""Read-only queries for pages: what a given person may see of campaigns."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404

from accounts.models import User
from junta.games.models import Game, Order, Phase, Player, Speech

LIVE = [Player.Membership.PENDING, Player.Membership.ACTIVE]


def seated_count() -> Coalesce:
    """The number of seated players of each campaign, as a subquery (a Count over the join
    that picks my campaigns would count only my own seat)."""
    rows = (Player.objects.filter(game=OuterRef("pk"), membership=Player.Membership.ACTIVE)
            .order_by().values("game").annotate(n=Count("pk")).values("n"))
    return Coalesce(Subquery(rows), 0)


def my_games(user: User) -> QuerySet[Game]:
    """Campaigns the person runs or plays in (or has asked to join)."""
    return (
        Game.objects.filter(Q(gm=user) | Q(players__user=user, players__membership__in=LIVE))
        .distinct()
        .select_related("gm")
        .annotate(seated=seated_count())
        .order_by("-created_at")
    )


def joinable_games(user: User) -> QuerySet[Game]:
    """Forming campaigns that take players without an invitation and have a free seat."""
    return (
        Game.objects.filter(status=Game.Status.FORMING)
        .exclude(join_policy=Game.JoinPolicy.INVITE)
        .exclude(gm=user)
        .exclude(players__user=user, players__membership__in=LIVE)
        .annotate(seated=Count("players", filter=Q(players__membership="active"), distinct=True))
        .select_related("gm")
        .order_by("-created_at")
    )


STARTED = [Game.Status.NOMINATING, Game.Status.RUNNING, Game.Status.PAUSED,
           Game.Status.FINISHED]


def my_seats(user: User, games: list[Game]) -> dict[int, dict]:
    """For each started campaign where the person has a seat: whether the current phase
    waits for his orders, and whether his orders are in (and final). Three queries, whatever
    the number of campaigns."""
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
    out = {}
    for game_id, seat in seats.items():
        phase = phases.get(game_id)
        order = orders.get(phase.id) if phase else None
        out[game_id] = {
            "seat": seat, "phase": phase,
            "owes": bool(phase and seat in (phase.owing_seats or [])),
            "orders_in": order is not None, "final": bool(order and order.final),
        }
    return out


def game_for(user: User, game_id: int) -> Game:
    """Any campaign page is public to signed-in people, except invitation-only campaigns that are
    still forming: those are 404 unless you are in them (the invitation link has its own view)."""
    game = Game.objects.select_related("gm").filter(pk=game_id).first()
    if game is None:
        raise Http404
    if (
        game.join_policy == Game.JoinPolicy.INVITE
        and game.status == Game.Status.FORMING
        and game.gm_id != user.id
        and not game.players.filter(user=user, membership__in=LIVE).exists()
    ):
        raise Http404
    return game


def roster(game: Game) -> list[Player]:
    """Seated players in seat order, each with its characters prefetched."""
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
