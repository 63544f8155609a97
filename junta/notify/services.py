"""A person's own writes to his notifications: his calendar's secret address, his mail choices
for a campaign, his days away, a kind of mail turned off from a mail's link, the devices he
turned push notifications on in and the events pushed to them.

Each in the shape of every app's writes (README, Layout): the service named for it calls
`check_<verb>`, which refuses (a 404, as the pages of a campaign one has no seat in) changing
nothing, then `do_<verb>` under `transaction.atomic`. The sweep's writes (what was claimed,
sent, mailed, pushed, a device its push service says is gone) are `claims.py`'s,
`conversations.py`'s and `push.py`'s."""

from __future__ import annotations

from django.db import transaction
from django.http import Http404
from django.utils import timezone

from accounts.public import User
from junta.games.public import Game, Player
from junta.notify import selectors, vapid
from junta.notify.forms import AbsenceForm, PreferencesForm, PushChoicesForm, PushSubscriptionForm
from junta.notify.models import (
    Absence,
    CalendarFeed,
    Preferences,
    PushChoices,
    PushDevice,
    new_calendar_token,
)
from junta.notify.push_texts import device_label


class PushRefused(Exception):
    """A device's subscription refused, with the reason in words."""


@transaction.atomic
def reset_calendar(user: User) -> CalendarFeed:
    """A new secret address for the person's feed; the old one stops working at once."""
    return do_reset_calendar(selectors.calendar_feed(user))


@transaction.atomic
def do_reset_calendar(feed: CalendarFeed) -> CalendarFeed:
    feed.token = new_calendar_token()
    feed.save(update_fields=["token", "created_at"])
    return feed


@transaction.atomic
def save_preferences(form: PreferencesForm) -> Preferences:
    """The person's mail choices for a campaign, from a valid form whose instance is his
    (`selectors.preferences_for`, which refuses anyone outside the campaign)."""
    return form.save()


def _seated(game: Game, user: User) -> Player:
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    if player is None:
        raise Http404
    return player


@transaction.atomic
def add_absence(game: Game, user: User, form: AbsenceForm) -> Absence | None:
    """The player's days away, from the form; None, changing nothing, when the form is not
    valid (its errors say why)."""
    player = check_add_absence(game, user)
    if not form.is_valid():
        return None
    return do_add_absence(player, form)


def check_add_absence(game: Game, user: User) -> Player:
    """Whether `user` may declare days away in the campaign (404 if not): his seat."""
    return _seated(game, user)


@transaction.atomic
def do_add_absence(player: Player, form: AbsenceForm) -> Absence:
    absence = form.save(commit=False)
    absence.player = player
    absence.save()
    return absence


@transaction.atomic
def withdraw_absence(game: Game, user: User, absence_id: int) -> None:
    """The player withdraws days away he declared."""
    do_withdraw_absence(check_withdraw_absence(game, user, absence_id))


def check_withdraw_absence(game: Game, user: User, absence_id: int) -> Absence:
    """Whether `user` may withdraw that absence (404 if not: no seat, not his): the absence."""
    absence = Absence.objects.filter(pk=absence_id, player=_seated(game, user)).first()
    if absence is None:
        raise Http404
    return absence


@transaction.atomic
def do_withdraw_absence(absence: Absence) -> None:
    absence.delete()


@transaction.atomic
def unsubscribe(prefs: Preferences, kind: str) -> None:
    """That kind of mail of the campaign off, from a mail's link (its signed token, read by the
    caller, is the authority)."""
    Preferences.objects.filter(pk=prefs.pk).update(**{kind: False}, updated_at=timezone.now())


@transaction.atomic
def subscribe_push(user: User, form: PushSubscriptionForm, user_agent: str) -> PushDevice:
    """The browser's subscription (the form as the browser sent it) as one of the person's
    devices, named from its User-Agent. An endpoint already known is this browser subscribed
    again (new keys, or another person logged in on it): its row is his now, with these keys."""
    data = check_subscribe_push(form)
    return do_subscribe_push(user, data, device_label(user_agent))


def check_subscribe_push(form: PushSubscriptionForm) -> dict[str, str]:
    """Whether the site pushes and the subscription is one it may push to (`PushRefused` if
    not): its endpoint and keys."""
    if vapid.public_key() is None:
        raise PushRefused("Push notifications are not available on this site.")
    if not form.is_valid():
        raise PushRefused(form.first_error())
    return {name: str(form.cleaned_data[name]) for name in ("endpoint", "p256dh", "auth")}


@transaction.atomic
def do_subscribe_push(user: User, data: dict[str, str], label: str) -> PushDevice:
    device, _ = PushDevice.objects.update_or_create(
        endpoint=data["endpoint"],
        defaults={"user": user, "p256dh": data["p256dh"], "auth": data["auth"],
                  "label": label[:80]})
    return device


@transaction.atomic
def remove_push_device(user: User, device_id: int) -> PushDevice:
    """The person removes one of his devices: it gets no more pushes."""
    device = check_remove_push_device(user, device_id)
    do_remove_push_device(device)
    return device


def check_remove_push_device(user: User, device_id: int) -> PushDevice:
    """The device, if it is his (404 if not)."""
    device = PushDevice.objects.filter(pk=device_id, user=user).first()
    if device is None:
        raise Http404
    return device


@transaction.atomic
def do_remove_push_device(device: PushDevice) -> None:
    PushDevice.objects.filter(pk=device.pk).delete()


@transaction.atomic
def save_push_choices(form: PushChoicesForm) -> PushChoices:
    """The events pushed to the person's devices, from a valid form whose instance is his
    (`selectors.push_choices`)."""
    return form.save()
