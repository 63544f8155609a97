"""Read-only queries for pages: what a given person may see of campaigns."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from accounts.models import User
from junta.games.models import Game, Player, Speech

LIVE = [Player.Membership.PENDING, Player.Membership.ACTIVE]


def my_games(user: User) -> QuerySet[Game]:
    """Campaigns the person runs or plays in (or has asked to join)."""
    return (
        Game.objects.filter(Q(gm=user) | Q(players__user=user, players__membership__in=LIVE))
        .distinct()
        .select_related("gm")
        .annotate(seated=Count("players", filter=Q(players__membership="active"), distinct=True))
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
    """The campaign's speeches, newest first, with what they reply to."""
    return game.speeches.select_related("reply_to").order_by("-created_at", "-id")
