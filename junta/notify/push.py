"""Push notifications to the players' devices, a channel beside the mails: who gets which push,
once.

A person gets a push on each of his devices (`PushDevice`) for the events he chose
(`PushChoices`: results, messages, reminders, announcements, awards), from every campaign he is
in unless he muted it (`Preferences.push`). Each push is claimed before it goes, as a mail is
(`claims`, its key ending in `:push`), so a task run twice pushes nothing twice. The words are
`push_texts`' (never a secret), written for each person in his own language.

- results: after the commit that published a phase (`tasks.phase_published`), to its seated
  players and its GameMaster; the minute sweep sends those a lost task did not
  (`catch_up_results`);
- a new private message: after its commit (talk's hook), to the conversation's other members
  still in it, at most one push per conversation per person every ten minutes;
- a GM announcement: after its commit (games' hook), to the seated players;
- the deadline near while he owes orders, and the awards opened: by the minute sweep
  (`notices.sweep`), the reminder as many hours before the deadline as the campaign's mail
  reminder (`Preferences.reminder_hours`, 6 by default).

A device its push service answers 404 or 410 for is gone: it is deleted. Any other failure is
logged; the claim is marked failed and the sweep's events try again a few times
(`Delivery.MAX_ATTEMPTS`), the others not.
"""

from __future__ import annotations

import http.client
import logging
import math
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.public import User, speaking
from junta.engine import current_phase, owes_orders
from junta.games.public import (
    Announcement,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    state_before,
    undone,
)
from junta.notify import claims, push_texts, vapid, webpush
from junta.notify.models import (
    DEFAULT_REMINDER_HOURS,
    Delivery,
    Kind,
    Preferences,
    PushChoices,
    PushDevice,
)
from junta.notify.push_address import UnsafeEndpoint
from junta.notify.push_texts import PushText
from junta.polls.public import Poll
from junta.talk.public import Member, Message, reader_for

log = logging.getLogger(__name__)

SENT, EMPTY, SKIPPED, FAILED = "push sent", "push empty", "push skipped", "push failed"
MESSAGE_EVERY = timedelta(minutes=10)  # one push per conversation per person at most this often
# A push is news for this long after its event: a task run later (a worker back after an
# outage, the demo's phases played in the past) pushes nothing.
NEWS_FOR = timedelta(hours=1)


# --- to whom -----------------------------------------------------------------------------------


def audience(game: Game, user_ids: Iterable[int], event: str) -> list[int]:
    """Those of `user_ids` who have a device, chose `event` and did not mute `game`."""
    with_devices = set(PushDevice.objects.filter(user_id__in=set(user_ids))
                       .values_list("user_id", flat=True))
    if not with_devices:
        return []
    unwanted = {c.user_id for c in PushChoices.objects.filter(user_id__in=with_devices)
                if not c.wants(event)}
    muted = set(Preferences.objects.filter(game=game, user_id__in=with_devices, push=False)
                .values_list("user_id", flat=True))
    return sorted(with_devices - unwanted - muted)


def seated(game: Game) -> dict[int, Player]:
    """The campaign's seated players, by person."""
    return {p.user_id: p for p in game.players.filter(membership=Player.Membership.ACTIVE)}


# --- sending -----------------------------------------------------------------------------------


def to_devices(user_id: int, text: PushText, now: datetime) -> tuple[int, int]:
    """Push `text` to each of the person's devices: (how many took it, how many failed). A
    device its push service says is gone (404, 410) is deleted."""
    keys = vapid.keys()
    if keys is None:
        return 0, 0
    payload = text.payload()
    took = failed = 0
    for device in PushDevice.objects.filter(user_id=user_id):
        subscription = webpush.Subscription(device.endpoint, device.p256dh, device.auth)
        try:
            status = webpush.send(subscription, payload, keys, settings.JUNTA_VAPID_SUBJECT)
        except UnsafeEndpoint as error:
            log.warning("push to device %s refused: %s", device.pk, error)
            failed += 1
            continue
        except (OSError, http.client.HTTPException, ValueError) as error:
            log.warning("push to device %s failed: %s: %s", device.pk, type(error).__name__,
                        error)
            failed += 1
            continue
        if 200 <= status < 300:
            took += 1
            PushDevice.objects.filter(pk=device.pk).update(last_sent_at=now)
        elif status in (404, 410):
            log.info("push device %s is gone (%s): deleted", device.pk, status)
            PushDevice.objects.filter(pk=device.pk).delete()
        else:
            log.warning("push to device %s answered %s", device.pk, status)
            failed += 1
    return took, failed


def deliver(user_id: int, game: Game, kind: str, key: str, text: PushText,
            now: datetime) -> str:
    """Claim (person, kind, key + ":push") and push `text` to his devices, once."""
    delivery = claims.claim(user_id, game.pk, kind, f"{key}:push", now)
    if delivery is None:
        return SKIPPED
    took, failed = to_devices(user_id, text, now)
    if failed and not took:
        claims.mark_failed(delivery, f"{failed} device(s) failed")
        return FAILED
    if not took:
        claims.mark_empty(delivery)  # no device left
        return EMPTY
    claims.mark_sent(delivery, text.body)
    return SENT


def _push_all(game: Game, user_ids: Iterable[int], kind: str, key: str,
              text: Callable[[], PushText], now: datetime) -> Counter[str]:
    """Push `text()`, written in each person's language, to each of `user_ids`."""
    outcomes: Counter[str] = Counter()
    people = list(user_ids)
    if not people:
        return outcomes
    users = User.objects.only("language").in_bulk(people)
    for user_id in people:
        with speaking(users.get(user_id)):
            words = text()
        outcomes[deliver(user_id, game, kind, key, words, now)] += 1
    return outcomes


# --- the events --------------------------------------------------------------------------------


def results(phase_id: int, now: datetime | None = None) -> Counter[str]:
    """A phase's results are published: its seated players and its GameMaster."""
    now = now or timezone.now()
    phase = Phase.objects.select_related("game").filter(pk=phase_id).first()
    result = PhaseResult.objects.filter(phase_id=phase_id, published_at__isnull=False) \
        .exclude(undone()).first()
    if phase is None or result is None \
            or (result.published_at and result.published_at < now - NEWS_FOR):
        return Counter()
    game = phase.game
    people = audience(game, [*seated(game), game.gm_id], "results")
    if not people:
        return Counter()
    info = current_phase(state_before(phase))
    return _push_all(game, people, Kind.RESULTS, f"phase:{phase.id}",
                     partial(push_texts.results, game, info.turn, info.title), now)


def catch_up_results(now: datetime) -> Counter[str]:
    """The sweep's: the results pushes of phases published in the last `NEWS_FOR` that their
    task did not send (a lost task, a broker that was down) or that failed and are due again,
    as the mails' catch-up. Only campaigns with someone who has a device are looked at."""
    outcomes: Counter[str] = Counter()
    devices = PushDevice.objects.values("user_id")
    recent = PhaseResult.objects.filter(published_at__gte=now - NEWS_FOR) \
        .exclude(undone()).filter(
            Q(phase__game__players__user_id__in=devices) | Q(phase__game__gm_id__in=devices)) \
        .select_related("phase__game").distinct().order_by("published_at")
    for result in recent:
        game = result.phase.game
        people = audience(game, [*seated(game), game.gm_id], "results")
        done = claims.already_claimed(Kind.RESULTS, f"phase:{result.phase_id}:push", people,
                                      now)
        if set(people) - done:
            outcomes += results(result.phase_id, now)
    return outcomes


def message(message_id: int, now: datetime | None = None) -> Counter[str]:
    """A new private message: each other member still in the conversation and in the campaign,
    unless this conversation pushed to him less than ten minutes ago."""
    now = now or timezone.now()
    posted = Message.objects.select_related("conversation__game").filter(pk=message_id).first()
    if posted is None or posted.created_at < now - NEWS_FOR:
        return Counter()
    talk = posted.conversation
    game = talk.game
    members = {m.user_id: m for m in Member.objects.filter(conversation=talk, left_at__isnull=True)
               .exclude(user_id=posted.author_id).select_related("user")}
    outcomes: Counter[str] = Counter()
    prefix = f"game:{game.id}:talk:{talk.id}:"
    for user_id in audience(game, members, "messages"):
        if reader_for(game, members[user_id].user) is None:
            continue  # no longer in the campaign
        pushed_lately = Delivery.objects.filter(
            user_id=user_id, kind=Kind.MESSAGES, key__startswith=prefix, key__endswith=":push",
            created_at__gt=now - MESSAGE_EVERY).exists()
        if pushed_lately:
            outcomes[SKIPPED] += 1
            continue
        window = int(now.timestamp() // MESSAGE_EVERY.total_seconds())  # one claim per window
        with speaking(members[user_id].user):  # in his language, not the writer's
            text = push_texts.message(game, talk.id, posted.author_name)
        outcomes[deliver(user_id, game, Kind.MESSAGES, f"{prefix}{window}", text, now)] += 1
    return outcomes


def announcement(announcement_id: int, now: datetime | None = None) -> Counter[str]:
    """The GameMaster's announcement: the seated players."""
    now = now or timezone.now()
    made = Announcement.objects.select_related("game").filter(pk=announcement_id).first()
    if made is None or made.created_at < now - NEWS_FOR:
        return Counter()
    game = made.game
    people = audience(game, [u for u in seated(game) if u != made.author_id], "announcement")
    return _push_all(game, people, Kind.CAMPAIGN, f"game:{game.id}:announcement:{made.id}",
                     partial(push_texts.announcement, game), now)


def reminders(now: datetime, phases: list[Phase]) -> Counter[str]:
    """The sweep's: each seated player who owes orders in an open phase and has not marked them
    final, once his campaign's reminder hours before the deadline (a moved deadline is a new
    one). Those who owe nothing are set aside before the engine's state is read."""
    outcomes: Counter[str] = Counter()
    phases = [p for p in phases if p.deadline > now and p.owing_seats]
    # one query for every campaign: the seated players with a device (most have none)
    with_devices: dict[int, list[Player]] = {}
    for player in Player.objects.filter(
            game_id__in={p.game_id for p in phases}, membership=Player.Membership.ACTIVE,
            user_id__in=PushDevice.objects.values("user_id")):
        with_devices.setdefault(player.game_id, []).append(player)
    for phase in phases:
        game = phase.game
        players = {p.user_id: p for p in with_devices.get(game.id, [])
                   if p.engine_seat in phase.owing_seats}
        if not players:
            continue
        people = audience(game, players, "reminder")
        if not people:
            continue
        hours = {p.user_id: p.reminder_hours for p in
                 Preferences.objects.filter(game=game, user_id__in=people)}
        due = [u for u in people
               if now >= phase.deadline - timedelta(hours=hours.get(u, DEFAULT_REMINDER_HOURS))]
        key = f"phase:{phase.id}:{phase.deadline:%Y%m%dT%H%M%SZ}"
        final = set(Order.objects.filter(phase=phase, final=True).values_list("player_id",
                                                                             flat=True))
        due = [u for u in due if players[u].pk not in final]
        done = claims.already_claimed(Kind.REMINDER, f"{key}:push", due, now)
        due = [u for u in due if u not in done]
        if not due:
            continue
        owing = set(owes_orders(state_before(phase)))
        left = math.floor((phase.deadline - now).total_seconds() / 3600 + 0.5)
        outcomes += _push_all(game, [u for u in due if players[u].engine_seat in owing],
                              Kind.REMINDER, key, partial(push_texts.reminder, game, left), now)
    return outcomes


def awards(now: datetime, catch_up: timedelta) -> Counter[str]:
    """The sweep's: the GameMaster opened awards at the end of a campaign (in the last
    `catch_up`), to its seated players; each time he opens more, once more."""
    outcomes: Counter[str] = Counter()
    recent = Poll.objects.filter(kind=Poll.Kind.AWARD, closed_at__isnull=True,
                                 created_at__gte=now - catch_up).values("game_id")
    for game in Game.objects.filter(pk__in=recent, status=Game.Status.FINISHED):
        newest = game.polls.filter(kind=Poll.Kind.AWARD, closed_at__isnull=True) \
            .order_by("-created_at", "-id").first()
        if newest is None:
            continue
        key = f"game:{game.id}:awards:{newest.created_at.isoformat()}"
        people = audience(game, seated(game), "awards")
        done = claims.already_claimed(Kind.CAMPAIGN, f"{key}:push", people, now)
        outcomes += _push_all(game, [u for u in people if u not in done], Kind.CAMPAIGN, key,
                              partial(push_texts.awards, game), now)
    return outcomes
