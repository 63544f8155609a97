"""Each campaign's content revision: a number raised by every transaction that changes anything a
page of the campaign shows, so that a page drawn for a viewer can be kept under it
(`junta.games.page_cache`) and is never served once anything it was drawn from has changed.

What raises it, in the transaction that makes the change (so that the new rows and the new
number are seen together, or neither):
- saving or deleting a row of the campaign, through Django's model signals, for every model
  watched here (`watch`): the campaign's own models register below, the lives and notify apps
  register theirs when they load. A person's row (the name others see) raises the number of
  every campaign he is in.
- taking the campaign's write lock (`junta.games.locking.lock_game`): every service that writes
  with bulk statements (which send no signals) writes under that lock; the board's rows
  (positions, cards, bills, units) are written that way only.
- `bump`, where a bulk statement is written without the lock.

`WATCHED` is the one list of what a campaign's pages are drawn from; the web tests check, around
every request, that no row of it changes without its campaign's number changing too."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import F, Model, Q, QuerySet
from django.db.models.signals import post_save, pre_delete

from junta.games.models import (
    Announcement,
    AuditEntry,
    Bill,
    Character,
    ContentRevision,
    EventsSeen,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    PoliticalCard,
    Position,
    Speech,
    Unit,
)


@dataclass(frozen=True)
class Watched:
    """A model whose rows a campaign's pages show, and the lookup from one of its rows to its
    campaign's id ("game_id", "player__game_id", ...)."""
    model: type[Model]
    game_path: str


WATCHED: dict[type[Model], Watched] = {}


def watch(model: type[Model], game_path: str, *, signals: bool = True) -> None:
    """Raise the campaign's number whenever a row of `model` is saved or deleted. Without
    `signals`, the model is written only in bulk under the campaign's lock, which raises the
    number (a signal would make each bulk delete read its rows first and write once a row)."""
    WATCHED[model] = Watched(model, game_path)
    if not signals:
        return
    post_save.connect(_saved, sender=model, dispatch_uid=f"revision-save-{model._meta.label}")
    pre_delete.connect(_deleted, sender=model,
                       dispatch_uid=f"revision-delete-{model._meta.label}")


def current(game_id: int) -> int | None:
    """The campaign's number now (None: no such campaign, as is an id no database holds)."""
    if not 0 < game_id < 2 ** 63:
        return None
    return (ContentRevision.objects.filter(game_id=game_id)
            .values_list("number", flat=True).first())


# the campaign whose page this thread draws for a GET, its number read when the drawing began,
# and what the drawing read at that number (`drawn_from`)
_DRAWING: ContextVar[tuple[int, int, dict[str, object]] | None] = ContextVar(
    "drawing_at", default=None)


@contextmanager
def drawing(game_id: int, number: int) -> Iterator[None]:
    """While a page of the campaign is drawn (`page_cache.kept_for_viewer`), at the number
    read before anything else of it: what it is drawn from may be read back as it was kept at
    that number (`campaign_rows`)."""
    memo: dict[str, object] = {}
    token = _DRAWING.set((game_id, number, memo))
    try:
        yield
    finally:
        _DRAWING.reset(token)
        done = memo.get(AT_END)
        if callable(done):
            done()


AT_END = "at end"  # in `drawn_from`: what to do once the drawing is over (keep what it read)


def drawing_at(game_id: int) -> int | None:
    """The number a page of this campaign is being drawn at (None: not drawing one)."""
    held = _DRAWING.get()
    return held[1] if held is not None and held[0] == game_id else None


def drawn_from(game_id: int) -> dict[str, object] | None:
    """What this drawing of the campaign's page has read at its number, by name (None: not
    drawing one): forgotten when the drawing ends, so never another request's; `AT_END`, a
    callable called then."""
    held = _DRAWING.get()
    return held[2] if held is not None and held[0] == game_id else None


def lobby(user: Model) -> list[tuple[int, int]]:
    """The numbers of every campaign a person's list of campaigns is drawn from: those he runs,
    plays or asked to join, and every campaign still forming (those open to join are among
    them). A campaign that joins or leaves the list changes it as surely as a raised number."""
    return _numbers(_his(user) | Q(game__status=Game.Status.FORMING))


def dashboard(user: Model, watchable: QuerySet[Game]) -> list[tuple[int, int]]:
    """The numbers of every campaign a person's dashboard is drawn from: those he runs, plays
    or asked to join, and those anyone may watch (`watching.watchable_games`: it counts them)."""
    return _numbers(_his(user) | Q(game_id__in=watchable.values("pk")))


def _his(user: Model) -> Q:
    return Q(game__gm_id=user.pk) | Q(game__players__user_id=user.pk)


def _numbers(campaigns: Q) -> list[tuple[int, int]]:
    return list(ContentRevision.objects.filter(campaigns).order_by("game_id")
                .values_list("game_id", "number").distinct())


def bump(game_id: int) -> None:
    """Raise the campaign's number (call inside the transaction that makes the change)."""
    bump_many([game_id])


def bump_many(game_ids: Iterable[int]) -> None:
    ids = sorted(set(game_ids) - _held())
    if not ids:
        return
    raised = ContentRevision.objects.filter(game_id__in=ids).update(number=F("number") + 1)
    if raised < len(ids):  # a campaign made before revisions were numbered
        ContentRevision.objects.bulk_create(
            [ContentRevision(game_id=pk, number=1) for pk in ids], ignore_conflicts=True)


class _Raised(threading.local):
    games: set[int]  # the campaigns inside `raised` in this thread (set on first use)


_RAISED = _Raised()


def _held() -> set[int]:
    if not hasattr(_RAISED, "games"):
        _RAISED.games = set()
    return _RAISED.games


@contextmanager
def raised(game_id: int, *, by_lock: bool = False) -> Iterator[None]:
    """Raise the campaign's number once for all the rows the block writes: inside, saving or
    deleting its rows raises it no more (a publication writes a dozen). Enter it inside the
    transaction, with the campaign locked, and leave it before the transaction ends: what is
    written in the block is committed with the raised number, or rolled back with it.
    `by_lock`: the lock just taken in this transaction (`locking.lock_game`) raised it
    already, so the block does not raise it again (one write of the row fewer)."""
    if not by_lock:
        bump(game_id)
    held = _held()
    if game_id in held:  # already inside such a block
        yield
        return
    held.add(game_id)
    try:
        yield
    finally:
        held.discard(game_id)


def _games_of(instance: Model, watched: Watched) -> list[int]:
    if watched.game_path == "pk":
        return [instance.pk]
    *through, last = watched.game_path.split("__")
    row: Model | None = instance
    for name in through:  # the rows on the way, when the instance holds them already
        row = row._state.fields_cache.get(name) if row is not None else None
    if row is not None:
        game_id = getattr(row, last)
        return [] if game_id is None else [game_id]
    return [pk for pk in watched.model._default_manager.filter(pk=instance.pk)
            .values_list(watched.game_path, flat=True) if pk is not None]


def _saved(sender: type[Model], instance: Model, raw: bool = False, **kwargs: object) -> None:
    if raw:  # fixtures loaded as they are
        return
    bump_many(_games_of(instance, WATCHED[sender]))


def _deleted(sender: type[Model], instance: Model, **kwargs: object) -> None:
    bump_many(_games_of(instance, WATCHED[sender]))


# What a campaign's pages show of a person (his public name is made of the first two).
PERSON_FIELDS = ("display_name", "email", "time_zone")


def _person_saved(sender: type[Model], instance: Model, raw: bool = False,
                  update_fields: frozenset[str] | None = None, **kwargs: object) -> None:
    """A person's name and zone are shown on the pages of every campaign he is in (a login,
    which saves only `last_login`, changes none of them)."""
    if raw or instance.pk is None or (
            update_fields is not None and not set(update_fields) & set(PERSON_FIELDS)):
        return
    bump_many(person_games([instance.pk])[instance.pk])


def person_games(user_ids: Iterable[int]) -> dict[int, set[int]]:
    """For each person, the campaigns whose pages show him (as GM or as a player)."""
    out: dict[int, set[int]] = {pk: set() for pk in user_ids}
    for game_id, gm_id in Game.objects.filter(gm_id__in=list(out)).values_list("pk", "gm_id"):
        out[gm_id].add(game_id)
    for game_id, user_id in Player.objects.filter(user_id__in=list(out)).values_list(
            "game_id", "user_id"):
        out[user_id].add(game_id)
    return out


def connect() -> None:
    """Watch the campaign's own models (the games app's `ready`)."""
    watched: tuple[tuple[type[Model], str], ...] = (
        (Game, "pk"), (Player, "game_id"), (Character, "player__game_id"),
        (Phase, "game_id"), (Order, "phase__game_id"), (PhaseResult, "phase__game_id"),
        (Speech, "game_id"), (AuditEntry, "game_id"), (Announcement, "game_id"),
        (EventsSeen, "game_id"),  # a reader's "new" marks on the Events page
    )
    for model, path in watched:
        watch(model, path)
    board: tuple[type[Model], ...] = (Position, PoliticalCard, Bill, Unit)
    for piece in board:  # written by repository.write_board only
        watch(piece, "game_id", signals=False)
    post_save.connect(_person_saved, sender=get_user_model(), dispatch_uid="revision-person")
