"""A finished campaign's end report: the players' side's report (drawn once for everyone, see
`junta.games.report_views`) with the award polls' results between its parts."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from junta.games.public import Game, drawn_report, game_for, kept_for_viewer


@kept_for_viewer
def report(request: HttpRequest, game_id: int) -> HttpResponse:
    """The end report: 404 until the campaign is finished. Signed-in people read any; a
    visitor without an account reads those their GameMaster lists in the archive (to share
    with friends), and is asked to sign in for the others."""
    if not request.user.is_authenticated:
        if not Game.objects.filter(pk=game_id, status=Game.Status.FINISHED,
                                   archived_publicly=True).exists():
            return redirect_to_login(request.get_full_path())
        game = Game.objects.select_related("gm").get(pk=game_id)
    else:
        game = game_for(request.user, game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404
    top, rest, summary = drawn_report(game)
    return render(request, "site/report.html",
                  {"game": game, "top": top, "drawn": rest, "summary": summary})
