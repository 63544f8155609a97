"""Read-only queries for pages (and for the GM panel): preferences, absences, the calendar, the
devices a person gets pushes on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.public import User
from junta.games.public import Game, Player
from junta.notify import vapid
from junta.notify.mail import user_zone
from junta.notify.models import Absence, CalendarFeed, Preferences, PushChoices, PushDevice


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
    return prefs or Preferences.fresh(game, user.pk)


def calendar_feed(user: User) -> CalendarFeed:
    feed, _ = CalendarFeed.objects.get_or_create(user=user)
    return feed


def local_today(user: User, now: datetime | None = None) -> date:
    """Today in the person's own zone: absences are whole days there."""
    return (now or timezone.now()).astimezone(user_zone(user)).date()


@dataclass
class AbsenceRow:
    absence: Absence
    name: str  # the character's name
    player_name: str  # the person's public name
    current: bool  # away today (in the player's own zone)
    starts_at: datetime  # the midnight his first day away starts, in his zone
    ends_at: datetime  # the midnight after his last day away, in his zone


def absences_for(game: Game, *, include_past: bool = False,
                 now: datetime | None = None) -> list[AbsenceRow]:
    """Absences of the campaign's seated players, soonest first; past ones only on request.
    "Past" and "today" are each player's own (his days away are whole days in his zone).
    For the GM panel (junta/gm) and the campaign page."""
    now = now or timezone.now()
    rows: QuerySet[Absence] = Absence.objects.filter(
        player__game=game, player__membership=Player.Membership.ACTIVE,
    ).select_related("player__user").prefetch_related("player__characters")
    if not include_past:  # no zone is more than a day behind UTC; each row is checked below
        rows = rows.filter(ends_on__gte=now.astimezone(UTC).date() - timedelta(days=1))
    out = []
    for absence in rows.order_by("starts_on", "id"):
        today = local_today(absence.player.user, now)
        if not include_past and absence.ends_on < today:
            continue
        character = absence.player.character
        zone = user_zone(absence.player.user)
        out.append(AbsenceRow(
            absence, character.name if character else absence.player.user.public_name,
            absence.player.user.public_name, absence.starts_on <= today <= absence.ends_on,
            datetime.combine(absence.starts_on, time(), tzinfo=zone),
            datetime.combine(absence.ends_on + timedelta(days=1), time(), tzinfo=zone)))
    return out


def my_absences(game: Game, user: User, today: date | None = None) -> list[Absence]:
    """The person's absences in the campaign that are not over in his own zone."""
    today = today or local_today(user)
    rows = Absence.objects.filter(player__game=game, player__user=user, ends_on__gte=today)
    return list(rows.order_by("starts_on", "id"))


def push_choices(user: User) -> PushChoices:
    """The events pushed to the person's devices (unsaved defaults if he never chose)."""
    return PushChoices.objects.filter(user=user).first() or PushChoices(user=user)


@dataclass
class PushPanel:
    """What the profile shows of push notifications."""

    public_key: str | None  # None: push is unavailable on this site
    devices: list[PushDevice]
    choices: PushChoices


def push_panel(user: User) -> PushPanel:
    return PushPanel(vapid.public_key(), list(PushDevice.objects.filter(user=user)),
                     push_choices(user))
