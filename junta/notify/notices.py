"""Which mail goes to whom, about what, built from what that person may see.

Every recipient is named explicitly: the people of a campaign (its seated players and its GM)
who want that kind of mail (a player gets reminders and results unless he turned them off, see
`Preferences`). Reports come from `play.reports` (the public lines plus the
reader's own private lines) and the player's own situation from the engine's `view_for`, so a
mail never holds more than the reader's pages show him.

`send_results` runs after the commit that published a phase; `sweep` runs every minute from the
beat sweep and sends what is due by the clock: reminders, digests, the start of a campaign,
the awards opened at its end, absences for the GM, and any results mail that a lost task did
not send; and the pushes due by the clock (`push.reminders`, `push.awards`). Each mail is claimed
before it is sent (see `claims`), so running any of these twice sends nothing twice.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, tzinfo
from functools import cache, partial

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.public import User
from junta.engine import GameState, current_phase, owes_orders, view_for
from junta.games.public import (
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    Speech,
    reports,
    state_before,
    undone,
)
from junta.games.public import state_after as stored_state_after
from junta.notify import claims, push
from junta.notify.conversations import conversation_mails
from junta.notify.mail import Mail, deliver, site_url, user_zone
from junta.notify.models import Absence, Kind, Preferences
from junta.polls.public import Poll

log = logging.getLogger(__name__)

ACTIVE = (Game.Status.NOMINATING, Game.Status.RUNNING)
# The sweep sends a results mail that the after-commit task did not (a lost task, a broker
# that was down) if the phase was published this recently, and a start mail this long after.
CATCH_UP = timedelta(hours=6)


def digest_hour() -> int:
    """The local hour (in each reader's zone) at which the daily digest goes out."""
    return settings.JUNTA_DIGEST_HOUR


# --- who ---------------------------------------------------------------------------------------


def recipients(game: Game, kind: str) -> list[tuple[Preferences, int | str, Player | None]]:
    """(preferences, engine viewer, player) of everyone in `game` who wants `kind`: seated
    players (viewer = seat) and the GM (viewer "gm"). People who left the campaign get none.

    A seated player who never chose gets the defaults (`Preferences.fresh`: reminders and
    results on): his row is written here the first time a mail he gets by default is due, so
    that the mail's one-click link has a row to turn off. A practice campaign's player is
    at its pages when anything happens in it: nobody gets its mails."""
    if game.practice:
        return []
    seated = {p.user_id: p for p in game.players.filter(membership=Player.Membership.ACTIVE)
              .prefetch_related("characters")}
    rows = _rows(game)
    unchosen = [Preferences.fresh(game, user_id) for user_id in seated
                if user_id not in rows and user_id != game.gm_id]
    if any(prefs.wants(kind) for prefs in unchosen):
        Preferences.objects.bulk_create(unchosen, ignore_conflicts=True)  # a sweep beside us
        rows = _rows(game)
    out: list[tuple[Preferences, int | str, Player | None]] = []
    for _user_id, prefs in sorted(rows.items()):
        if not prefs.wants(kind):
            continue
        prefs.game = game
        if prefs.user_id == game.gm_id:
            out.append((prefs, "gm", None))
        elif prefs.user_id in seated:
            player = seated[prefs.user_id]
            out.append((prefs, player.engine_seat, player))
    return out


def _rows(game: Game) -> dict[int, Preferences]:
    """Every saved choice in the campaign, by person (a dozen rows at most)."""
    return {p.user_id: p for p in Preferences.objects.filter(game=game).select_related("user")}


def gm_preferences(game: Game) -> Preferences:
    fresh = Preferences.fresh(game, game.gm_id)
    prefs, _ = Preferences.objects.get_or_create(
        user_id=game.gm_id, game=game,
        defaults={"results": fresh.results, "reminder": fresh.reminder})
    return prefs


# --- what --------------------------------------------------------------------------------------


def phase_title(phase: Phase) -> str:
    info = current_phase(state_before(phase))
    return f"Turn {info.turn}, {info.title}" if info.turn else info.title


def links(game: Game) -> dict[str, str]:
    return {name: site_url(reverse(f"game_{name}", args=[game.id]))
            for name in ("status", "orders", "events", "history", "detail", "report")}


def character_name(player: Player | None, user: User) -> str:
    character = player.character if player else None
    return character.name if character else user.public_name


def results_mail(game: Game, phase: Phase, result: PhaseResult, state_after: GameState,
                 viewer: int | str, next_phase: Phase | None,
                 titles: Callable[[], tuple[str, str]]) -> Mail:
    """`titles()`: the `phase_title`s of `phase` and `next_phase` ("" for none), shared by
    every reader's mail in one language (they are read from the stored states)."""
    report = reports(game, viewer, [result])[0]
    me = view_for(state_after, viewer).get("me") if isinstance(viewer, int) else None
    title, next_title = titles()
    return Mail("results", _("%(game)s: %(phase)s, the results") % {
        "game": game.name, "phase": title}, {
        "game": game, "phase": phase, "title": title, "report": report, "me": me,
        "next_phase": next_phase,
        "next_title": next_title,
        "owes_next": bool(next_phase and isinstance(viewer, int)
                          and viewer in next_phase.owing_seats),
        "is_gm": viewer == "gm", "links": links(game),
    })


def campaign_end_mail(game: Game, state_after: GameState, viewer: int | str) -> Mail:
    view = view_for(state_after, viewer)
    winners = [state_after.name(w) for w in view["winners"]]
    standings = [{"name": p.name, "bank": p.bank}
                 for p in sorted(state_after.players, key=lambda p: -p.bank)
                 ]  # the game is over: "everything is revealed"
    return Mail("campaign_end", _("%(game)s is over") % {"game": game.name}, {
        "game": game, "winners": winners, "standings": standings, "links": links(game),
    })


def awards_mail(game: Game, awards: list[Poll]) -> Mail:
    return Mail("awards", _("%(game)s: vote the awards") % {"game": game.name}, {
        "game": game, "awards": [a.question for a in awards],
        "polls": site_url(reverse("polls_index", args=[game.id])),
        "report": site_url(reverse("game_report", args=[game.id])),
    })


def campaign_start_mail(game: Game, phase: Phase | None, viewer: int | str) -> Mail:
    roster = [{"seat": p.engine_seat + 1, "name": character_name(p, p.user)}
              for p in game.players.filter(membership=Player.Membership.ACTIVE)
              .select_related("user").prefetch_related("characters").order_by("seat")]
    return Mail("campaign_start", _("%(game)s has begun") % {"game": game.name}, {
        "game": game, "phase": phase, "title": phase_title(phase) if phase else "",
        "owes": bool(phase and isinstance(viewer, int) and viewer in phase.owing_seats),
        "roster": roster, "links": links(game),
    })


def reminder_mail(game: Game, phase: Phase, order: Order | None, now: datetime) -> Mail:
    title = phase_title(phase)
    return Mail("reminder", _("%(game)s: your orders for %(phase)s") % {
        "game": game.name, "phase": title}, {
        "game": game, "phase": phase, "title": title, "order": order,
        "orders_given": len(order.payload) if order else 0, "links": links(game), "now": now,
    })


def digest_mail(game: Game, day_start: datetime, day_end: datetime) -> Mail | None:
    speeches = list(Speech.objects.filter(game=game, created_at__gte=day_start,
                                          created_at__lt=day_end).order_by("created_at", "id"))
    if not speeches:
        return None
    # the HTML stored when each speech was posted (rendered and sanitised by nh3 then)
    items = [{"speech": s, "html": mark_safe(s.body_html)} for s in speeches]  # noqa: S308
    return Mail("digest", ngettext("%(game)s: %(count)s new speech",
                                   "%(game)s: %(count)s new speeches", len(speeches)) % {
        "game": game.name, "count": len(speeches)}, {
        "game": game, "items": items, "day_start": day_start, "day_end": day_end,
        "links": links(game),
    })


def absence_mail(game: Game, phase: Phase, absence: Absence) -> Mail:
    player = absence.player
    name = character_name(player, player.user)
    title = phase_title(phase)
    return Mail("absence", _("%(game)s: %(name)s is away and owes orders for %(phase)s") % {
        "game": game.name, "name": name, "phase": title}, {
        "game": game, "phase": phase, "title": title, "absence": absence, "name": name,
        "player_zone": player.user.time_zone, "links": links(game),
    })


# --- when --------------------------------------------------------------------------------------


def send_results(phase_id: int, now: datetime | None = None) -> Counter[str]:
    """Results of a published phase to everyone who wants them; at the end of the campaign,
    the closing mail too. Safe to run any number of times. Results are news for CATCH_UP after
    their publication, as for the sweep's catch-up: a task that runs later than that (a worker
    back after a long outage, the phases `make run`'s demo plays in the past) sends nothing."""
    outcomes: Counter[str] = Counter()
    phase = Phase.objects.select_related("game").filter(pk=phase_id).first()
    result = PhaseResult.objects.filter(phase_id=phase_id, published_at__isnull=False) \
        .exclude(undone()).first()
    if phase is None or result is None:  # gone, a draft the GM has not published, or undone
        return outcomes
    if result.published_at and result.published_at < (now or timezone.now()) - CATCH_UP:
        return outcomes
    game = phase.game
    state_after = stored_state_after(result)
    next_phase = game.phases.filter(number=phase.number + 1).first()

    @cache  # read once for all the readers of a language, when the first mail is built
    def titles_in(_language: str | None) -> tuple[str, str]:
        return phase_title(phase), phase_title(next_phase) if next_phase else ""

    def titles() -> tuple[str, str]:  # in the language of the mail being built
        return titles_in(translation.get_language())

    for prefs, viewer, _player in recipients(game, Kind.RESULTS):
        outcomes[deliver(
            prefs.user, game, Kind.RESULTS, f"phase:{phase.id}", prefs,
            partial(results_mail, game, phase, result, state_after, viewer, next_phase,
                    titles), now,
        )] += 1
    if state_after.finished and game.status == Game.Status.FINISHED:
        for prefs, viewer, _player in recipients(game, Kind.CAMPAIGN):
            outcomes[deliver(
                prefs.user, game, Kind.CAMPAIGN, f"game:{game.id}:end", prefs,
                partial(campaign_end_mail, game, state_after, viewer), now,
            )] += 1
    return outcomes


def _missing[V, P](kind: str, key: str, wanted: list[tuple[Preferences, V, P]],
                   now: datetime) -> list[tuple[Preferences, V, P]]:
    done = claims.already_claimed(kind, key, [p.user_id for p, _, _ in wanted], now)
    return [row for row in wanted if row[0].user_id not in done]


def catch_up_results(now: datetime) -> Counter[str]:
    """Results mails of recently published phases that nobody sent yet (or that failed)."""
    outcomes: Counter[str] = Counter()
    recent = PhaseResult.objects.filter(published_at__gte=now - CATCH_UP) \
        .exclude(undone()).select_related("phase__game").order_by("published_at")
    for result in recent:
        game = result.phase.game
        if _missing(Kind.RESULTS, f"phase:{result.phase_id}", recipients(game, Kind.RESULTS),
                    now):
            outcomes += send_results(result.phase_id, now)
    return outcomes


def campaign_starts(now: datetime) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    games = Game.objects.filter(started_at__gte=now - CATCH_UP).exclude(
        status=Game.Status.FORMING)
    for game in games:
        key = f"game:{game.id}:start"
        wanted = _missing(Kind.CAMPAIGN, key, recipients(game, Kind.CAMPAIGN), now)
        if not wanted:
            continue
        first = game.phases.order_by("number").first()
        current = game.phases.order_by("-number").first()
        phase = current if current and current.status == Phase.Status.OPEN else first
        for prefs, viewer, _player in wanted:
            outcomes[deliver(prefs.user, game, Kind.CAMPAIGN, key, prefs,
                             partial(campaign_start_mail, game, phase, viewer), now)] += 1
    return outcomes


def awards_opened(now: datetime) -> Counter[str]:
    """When the GameMaster opens awards at the end (docs/rules.md §polls), a mail to each
    seated player who asked for the campaign's start and end mails, listing the awards open to
    his vote. Each time he opens more, the players are told once more."""
    outcomes: Counter[str] = Counter()
    recent = Poll.objects.filter(kind=Poll.Kind.AWARD, closed_at__isnull=True,
                                 created_at__gte=now - CATCH_UP).values("game_id")
    for game in Game.objects.filter(pk__in=recent, status=Game.Status.FINISHED):
        awards = list(game.polls.filter(kind=Poll.Kind.AWARD, closed_at__isnull=True)
                      .order_by("created_at", "id"))
        key = f"game:{game.id}:awards:{awards[-1].created_at.isoformat()}"
        voters = [row for row in recipients(game, Kind.CAMPAIGN) if row[2] is not None]
        for prefs, _viewer, _player in _missing(Kind.CAMPAIGN, key, voters, now):
            outcomes[deliver(prefs.user, game, Kind.CAMPAIGN, key, prefs,
                             partial(awards_mail, game, awards), now)] += 1
    return outcomes


def open_phases() -> list[Phase]:
    return list(Phase.objects.filter(status=Phase.Status.OPEN, game__status__in=ACTIVE)
                .select_related("game").order_by("id"))


def reminders(now: datetime, phases: list[Phase] | None = None) -> Counter[str]:
    """A reminder to each player who asked for one, owes orders in the open phase and has not
    marked them final, once his chosen number of hours before the deadline. A deadline that
    moves (extended, paused) is a new deadline and gets its own reminder.

    Runs every minute: players inside their window who owe nothing (the phase's `owing_seats`,
    which the repository keeps equal to the engine's answer for its starting state) or are
    final are set aside before the engine state is rebuilt, so it is rebuilt only when a
    reminder is about to go (and then claimed, so not again). Nothing is recorded for them: a
    GM ruling may yet make a player owe orders, or he may take back his "final"."""
    outcomes: Counter[str] = Counter()
    for phase in phases if phases is not None else open_phases():
        if phase.deadline <= now:
            continue
        game = phase.game
        key = f"phase:{phase.id}:{phase.deadline:%Y%m%dT%H%M%SZ}"
        due = [row for row in recipients(game, Kind.REMINDER)
               if isinstance(row[1], int) and row[1] in phase.owing_seats
               and now >= phase.deadline - timedelta(hours=row[0].reminder_hours)]
        due = _missing(Kind.REMINDER, key, due, now)
        if not due:
            continue
        orders = {o.player_id: o for o in Order.objects.filter(phase=phase)}
        due = [row for row in due  # a seat (an int) always comes with its Player
               if not (row[2] is not None and row[2].pk in orders and orders[row[2].pk].final)]
        if not due:
            continue
        state = state_before(phase)
        owing = set(owes_orders(state))
        for prefs, seat, player in due:
            order = orders.get(player.pk) if player is not None else None
            if seat not in owing:
                continue
            outcomes[deliver(prefs.user, game, Kind.REMINDER, key, prefs,
                             partial(reminder_mail, game, phase, order, now), now)] += 1
    return outcomes


def digest_window(now: datetime, zone: tzinfo) -> tuple[date, datetime, datetime]:
    """The day a digest sent at `now` covers, in the reader's zone: from the digest hour
    yesterday to the digest hour today (the latest one that has passed)."""
    local = now.astimezone(zone)
    day = local.date() if local.hour >= digest_hour() else local.date() - timedelta(days=1)
    end = datetime.combine(day, time(digest_hour()), tzinfo=zone)
    start = datetime.combine(day - timedelta(days=1), time(digest_hour()), tzinfo=zone)
    return day, start, end


def digests(now: datetime) -> Counter[str]:
    """Once a day per reader and campaign, at the digest hour in the reader's zone, the speeches
    of the day before. A day without speeches sends nothing (and is not checked again)."""
    outcomes: Counter[str] = Counter()
    games = Game.objects.filter(
        Q(status__in=(*ACTIVE, Game.Status.FORMING, Game.Status.PAUSED))
        | Q(status=Game.Status.FINISHED, finished_at__gte=now - timedelta(days=2)),
        pk__in=Preferences.objects.filter(digest=True).values("game_id"),
    )
    for game in games:
        for prefs, _viewer, _player in recipients(game, Kind.DIGEST):
            day, start, end = digest_window(now, user_zone(prefs.user))
            key = f"game:{game.id}:day:{day.isoformat()}"
            if _missing(Kind.DIGEST, key, [(prefs, None, None)], now):
                outcomes[deliver(prefs.user, game, Kind.DIGEST, key, prefs,
                                 partial(digest_mail, game, start, end), now)] += 1
    return outcomes


def away_during(absence: Absence, start: datetime, end: datetime) -> bool:
    """True when the absence (whole days in the player's own zone) overlaps [start, end)."""
    zone = user_zone(absence.player.user)
    away_from = datetime.combine(absence.starts_on, time(0), tzinfo=zone)
    back = datetime.combine(absence.ends_on + timedelta(days=1), time(0), tzinfo=zone)
    return away_from < end and back > start


def absences(now: datetime, phases: list[Phase] | None = None) -> Counter[str]:
    """The GM hears of each player who owes orders in the open phase (and is not final) while
    away during it: once per phase and absence."""
    outcomes: Counter[str] = Counter()
    for phase in phases if phases is not None else open_phases():
        game = phase.game
        final = set(Order.objects.filter(phase=phase, final=True)
                    .values_list("player__seat", flat=True))
        seats = set(phase.owing_seats) - final
        if not seats:
            continue
        candidates = Absence.objects.filter(
            player__game=game, player__membership=Player.Membership.ACTIVE,
            player__seat__in=seats,
            starts_on__lte=(phase.deadline + timedelta(days=1)).date(),
            ends_on__gte=(phase.opens_at - timedelta(days=1)).date(),
        ).select_related("player__user").prefetch_related("player__characters")
        for absence in candidates:
            if not away_during(absence, phase.opens_at, phase.deadline):
                continue
            key = f"phase:{phase.id}:absence:{absence.id}"
            if claims.already_claimed(Kind.ABSENCE, key, [game.gm_id], now):
                continue
            prefs = gm_preferences(game)
            if not prefs.absence:
                continue
            prefs.game = game
            outcomes[deliver(game.gm, game, Kind.ABSENCE, key, prefs,
                             partial(absence_mail, game, phase, absence), now)] += 1
    return outcomes


def sweep(now: datetime | None = None) -> Counter[str]:
    """Everything due by the clock. Each part is independent: one failing does not stop the
    others (the next sweep tries again)."""
    now = now or timezone.now()
    outcomes: Counter[str] = Counter()
    phases = open_phases()
    parts: tuple[tuple[str, Callable[[], Counter[str]]], ...] = (
        ("results", lambda: catch_up_results(now)),
        ("starts", lambda: campaign_starts(now)),
        ("reminders", lambda: reminders(now, phases)),
        ("digests", lambda: digests(now)),
        ("absences", lambda: absences(now, phases)),
        ("messages", lambda: conversation_mails(now)),
        ("awards", lambda: awards_opened(now)),
        ("push results", lambda: push.catch_up_results(now)),
        ("push reminders", lambda: push.reminders(now, phases)),
        ("push awards", lambda: push.awards(now, CATCH_UP)),
    )
    for name, part in parts:
        try:
            outcomes += part()
        except Exception:
            log.exception("notification sweep: %s failed", name)
            outcomes["errors"] += 1
    return outcomes

