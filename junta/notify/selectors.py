"""Read-only queries for pages (and for the GM panel): preferences, absences, the calendar."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from junta.games.models import Game, Player
from junta.notify.models import Absence, CalendarFeed, Preferences


def member_of(game: Game, user: User) -> Player | None:
    """The person's seat (or request to join) in the campaign, if any."""
    return game.players.filter(
        user=user, membership__in=[Player.Membership.PENDING, Player.Membership.ACTIVE]
    ).first()


def preferences_for(game: Game, user: User) -> Preferences:
    """The person's preferences for a campaign he plays in or runs (unsaved defaults if he has
    never chosen); 404 for anyone else."""
    if game.gm_id != user.id and member_of(game, user) is None:
        raise Http404
    prefs = Preferences.objects.filter(game=game, user=user).first()
    return prefs or Preferences(game=game, user=user)


def calendar_feed(user: User) -> CalendarFeed:
    feed, _ = CalendarFeed.objects.get_or_create(user=user)
    return feed


@dataclass
class AbsenceRow:
    absence: Absence
    name: str  # the character's name
    player_name: str  # the person's public name
    current: bool  # away today (in the game's zone)


def absences_for(game: Game, *, include_past: bool = False) -> list[AbsenceRow]:
    """Absences of the campaign's seated players, soonest first; past ones only on request.
    For the GM panel (junta/gm) and the campaign page."""
    today = timezone.now().astimezone(zoneinfo.ZoneInfo(game.time_zone)).date()
    rows: QuerySet[Absence] = Absence.objects.filter(
        player__game=game, player__membership=Player.Membership.ACTIVE,
    ).select_related("player__user").prefetch_related("player__characters")
    if not include_past:
        rows = rows.filter(ends_on__gte=today)
    out = []
    for absence in rows.order_by("starts_on", "id"):
        character = absence.player.character
        out.append(AbsenceRow(
            absence, character.name if character else absence.player.user.public_name,
            absence.player.user.public_name, absence.starts_on <= today <= absence.ends_on))
    return out


def my_absences(game: Game, user: User, today: date | None = None) -> list[Absence]:
    today = today or timezone.now().date()
    rows = Absence.objects.filter(player__game=game, player__user=user,
                                  ends_on__gte=today - timedelta(days=1))
    return list(rows.order_by("starts_on", "id"))
