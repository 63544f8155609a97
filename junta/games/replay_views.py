"""The replay of a campaign on the map, phase by phase (not `replay`, which re-runs the phases
to check them): each step a page of its own (`/games/<id>/replay/<phase number>/`, shareable),
with the city as it stood after that phase, the phase's results in words and, where units moved
or fought, the moves as arrows (static/js/replay.js draws them one after another, then the new
positions; at once with reduced motion, or without the script).

Drawn from the stored results only: no phase is adjudicated again. Who replays what: a finished
campaign, whoever may read its end report, every phase with every secret revealed as the end
report's history shows them; a running campaign, its members, up to its latest published
phase, each with the lines he was told (the GameMaster all of them), and, when its GM made it
watchable, anyone signed in as far as its watchers may see (`watching.last_watched_phase`: its
delay behind), with the public lines only. `last_replayable` is the one place that says so."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from junta.engine import view_for
from junta.games import citymap, play, repository, selectors, watch_views, watching
from junta.games.coup_maps import fighting_of, moved_in
from junta.games.forms import ReplayStepForm
from junta.games.map_views import map_context, names_of
from junta.games.models import Game, PhaseResult
from junta.games.page_cache import kept_for_viewer
from junta.games.report_pages import drawn_reports


def _game(request: HttpRequest, game_id: int) -> Game | None:
    """The campaign as this reader may open it (None: a visitor who must sign in first)."""
    if request.user.is_authenticated:
        return selectors.game_for(request.user, game_id)
    return Game.objects.select_related("gm").filter(
        pk=game_id, status=Game.Status.FINISHED, archived_publicly=True).first()


def last_replayable(game: Game, request: HttpRequest) -> int | None:
    """The number of the last phase this reader may replay (None: none published yet); 404
    when he may replay nothing of it. A finished campaign: whoever may read its end report
    (`_game` let him in), to its end. A running one: its seated players and its GameMaster,
    to its latest published phase (a draft is nobody's yet)."""
    latest = play.published_results(game).values_list("phase__number", flat=True).first()
    if game.status == Game.Status.FINISHED:
        return latest
    if not request.user.is_authenticated:
        raise Http404
    if play.viewer_for(game, request.user) is not None:
        return latest
    if _watch(game, request) is None:
        raise Http404
    return watching.last_watched_phase(game)


def _watch(game: Game, request: HttpRequest) -> watching.Watch | None:
    """The watcher's seat of a signed-in person outside a running campaign its GM made
    watchable (None for its members, a finished campaign, or one nobody may watch)."""
    if game.status in (Game.Status.FORMING, Game.Status.FINISHED) or not game.watchable \
            or not request.user.is_authenticated \
            or play.viewer_for(game, request.user) is not None:
        return None
    return watching.watch_for(request, game.pk)


def _viewer(game: Game, request: HttpRequest) -> int | str | None:
    """Whose lines a step shows: nobody's own once the game is over (every secret is revealed
    alike), else the seat's or the GameMaster's."""
    if game.status == Game.Status.FINISHED or not request.user.is_authenticated:
        return None
    return play.viewer_for(game, request.user)


def _steps(game: Game, last: int | None) -> list[int]:
    """The phases replayed, oldest first: those published that count, up to `last`."""
    if last is None:
        return []
    return sorted(play.published_results(game).filter(phase__number__lte=last)
                  .values_list("phase__number", flat=True))


def step_url(game_id: int, number: int) -> str:
    return reverse("game_replay_step", args=[game_id, number])


def step_urls(game_id: int, numbers: list[int]) -> list[str]:
    """`step_url` of each number, reversed once (each step's page lists every step's address:
    hundreds in a long campaign)."""
    head = step_url(game_id, 0).removesuffix("/0/")
    return [f"{head}/{n}/" for n in numbers]


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """The replay's start: its first step, or the step the slider's form asks for
    (`?step=<n>`, counted from 1); a page saying so while nothing is published."""
    game = _game(request, game_id)
    if game is None:
        return redirect_to_login(request.get_full_path())
    steps = _steps(game, last_replayable(game, request))
    if not steps:
        return render(request, "games/replay.html",
                      {"game": game, "steps": [], **_watch_menu(game, request)})
    form = ReplayStepForm(request.GET or None, steps=len(steps))
    index = (form.cleaned_data["step"] if form.is_valid() else None) or 1
    return HttpResponseRedirect(step_url(game.pk, steps[index - 1]))


@kept_for_viewer
def replay_step(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """One step of the replay: the city after phase `number` and its results (404 beyond what
    this reader may replay)."""
    game = _game(request, game_id)
    if game is None:
        return redirect_to_login(request.get_full_path())
    steps = _steps(game, last_replayable(game, request))
    if number not in steps:
        raise Http404
    index = steps.index(number)
    result = PhaseResult.objects.select_related("phase").get(
        phase__game=game, phase__number=number)
    finished = game.status == Game.Status.FINISHED
    drawn = drawn_reports(game, _viewer(game, request), [result], reveal=finished)[0]
    title = play.phase_title(result.phase)
    view = view_for(repository.state_after(result), None)  # the public view: the map's
    coup = view.get("coup")
    fighting: list[citymap.Battle] = []
    fighting_title = ""
    if coup is not None:
        fighting, fighting_title = fighting_of(result, names_of(view), moved_in(view, coup))
    context = map_context(view, fighting, fighting_title)
    turn = result.phase.turn
    urls = step_urls(game.pk, steps)
    label = f"{f'Turn {turn}, ' if turn else ''}{title}"
    context.update({
        "game": game, "steps": steps, "index": index + 1, "number": number, "label": label,
        "report": drawn["html"], "finished": finished,
        "previous": urls[index - 1] if index else None,
        "next": urls[index + 1] if index + 1 < len(steps) else None,
        "first": urls[0], "last": urls[-1], "urls": urls,
        "form": ReplayStepForm(initial={"step": index + 1}, steps=len(steps)),
    })
    context.update(_watch_menu(game, request))
    return render(request, "games/replay.html", context)


def _watch_menu(game: Game, request: HttpRequest) -> dict[str, object]:
    """A watcher's menu on the replay instead of the members' (empty for anyone else)."""
    watch = _watch(game, request)
    if watch is None:
        return {}
    return {"watch": watch, "watch_links": watch_views.links(watch), "active": "replay"}
