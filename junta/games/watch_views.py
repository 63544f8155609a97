"""The watching pages: a campaign's public pages as its watchers see them, some published
phases behind the players (`watching` says who may watch and what he sees; these pages only
draw it). Signed in at /games/<id>/watch/..., or by the GM's watching link without an account
at /games/<id>/watch/link/<key>/... Read only: nothing here writes, posts or votes. Drawn each
time, never from the page cache (whose pages are drawn for a member)."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from junta.engine import Catalog
from junta.games import report_pages, rollbacks
from junta.games.coup_maps import fighting_of, moved_in
from junta.games.map_views import map_context, names_of
from junta.games.play_views import HISTORY_PHASES_PER_PAGE, undone_groups
from junta.games.selectors import EventsItem
from junta.games.watching import Watch, watch_for

SPEECHES_PER_PAGE = 20
PAGES = ("families", "events", "history", "map")
TITLES = {"families": _("Families"), "events": _("Events"), "history": _("History"),
          "map": _("Map")}


def _watch(request: HttpRequest, game_id: int, key: str) -> Watch | HttpResponse:
    if not key and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return watch_for(request, game_id, key)


def links(watch: Watch) -> list[tuple[str, str, str]]:
    """The watcher's menu: (page, its title, its address), by his link's key if he came so;
    signed in, the replay on the map too (`replay_views`, as far as he may see)."""
    out = []
    for page in PAGES:
        if watch.key:
            url = reverse(f"watch_{page}_link", args=[watch.game.id, watch.key])
        else:
            url = reverse(f"watch_{page}", args=[watch.game.id])
        out.append((page, str(TITLES[page]), url))
    if not watch.key:
        out.append(("replay", str(_("Replay")), reverse("game_replay", args=[watch.game.id])))
    return out


def _context(watch: Watch, active: str) -> dict[str, object]:
    return {"game": watch.game, "watch": watch, "watch_links": links(watch), "active": active,
            "watch_title": str(TITLES[active])}


@require_safe
def families(request: HttpRequest, game_id: int, key: str = "") -> HttpResponse:
    """The families as everyone saw them after the last phase the watcher may see: each one's
    name, life, status, positions, Influence and the number of cards held (never his hand,
    money or location: the engine's public view)."""
    watch = _watch(request, game_id, key)
    if isinstance(watch, HttpResponse):
        return watch
    context = _context(watch, "families")
    if watch.view is not None:
        context["families"] = [
            {**p, "titles": [Catalog.TITLES[pos] for pos in p["positions"]]}
            for p in watch.view["players"]]
    return render(request, "games/watch_families.html", context)


@require_safe
def events(request: HttpRequest, game_id: int, key: str = "") -> HttpResponse:
    """The speeches made while a phase the watcher may see was open, newest first, and the
    reports of the turn of the last of them (neither the GM's announcements nor the polls,
    which may tell of later phases)."""
    watch = _watch(request, game_id, key)
    if isinstance(watch, HttpResponse):
        return watch
    page = Paginator(watch.speeches(), SPEECHES_PER_PAGE).get_page(request.GET.get("page"))
    latest = []
    if watch.last is not None:
        latest = list(watch.results().exclude(rollbacks.undone()).filter(
            phase__turn=watch.last.phase.turn)[:30])
    context = _context(watch, "events")
    context.update({
        "page": page, "items": [EventsItem("speech", s.created_at, s) for s in page],
        "latest": report_pages.drawn_reports(watch.game, None, latest),
        "latest_turn": watch.last.phase.turn if watch.last else None})
    return render(request, "games/watch_events.html", context)


@require_safe
def history(request: HttpRequest, game_id: int, key: str = "") -> HttpResponse:
    """Every published phase the watcher may see, newest first, ten a page: its public
    report, and for a coup the map after it."""
    watch = _watch(request, game_id, key)
    if isinstance(watch, HttpResponse):
        return watch
    page = Paginator(watch.results(), HISTORY_PHASES_PER_PAGE).get_page(
        request.GET.get("page"))
    reports = report_pages.drawn_reports(watch.game, None, list(page), maps=True,
                                         rolled_back=rollbacks.undone_phases(watch.game))
    context = _context(watch, "history")
    context.update({"page": page, "finished": False, "groups": undone_groups(reports)})
    return render(request, "games/history.html", context)


@require_safe
def city_map(request: HttpRequest, game_id: int, key: str = "") -> HttpResponse:
    """The city after the last phase the watcher may see, and during a coup every unit on it
    then and the fighting of that phase (public events only)."""
    watch = _watch(request, game_id, key)
    if isinstance(watch, HttpResponse):
        return watch
    context = _context(watch, "map")
    if watch.view is not None and watch.last is not None:
        coup = watch.view.get("coup")
        fought = fighting_of(watch.last, names_of(watch.view), moved_in(watch.view, coup)) \
            if coup is not None else ([], "")
        context.update(map_context(watch.view, *fought))
    return render(request, "games/map.html", context)
