"""A practice campaign against the bots (`practice`): its start from the dashboard's form, and
its end or restart, each asked first on a page of its own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.public import AuthenticatedHttpRequest
from junta.games import practice, selectors
from junta.games.campaigns import CampaignError
from junta.games.forms import ConfirmForm, PracticeForm


@login_required
@require_POST
def start(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give your family a name and choose 5 to 9 bot families: no "
                                "practice campaign was started.")
        return redirect("home")
    try:
        game = practice.start_practice(request.user, form.cleaned_data["family"],
                                       form.cleaned_data["bots"],
                                       style=form.cleaned_data["style"])
    except CampaignError as error:
        messages.error(request, str(error))
        return redirect("home")
    messages.success(request, f"{game.name} has begun: no deadline, the bots order as soon as "
                              "you mark your orders final.")
    return redirect("game_status", game_id=game.id)


@login_required
def abandon(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _confirmed(request, game_id, restart=False)


@login_required
def restart(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _confirmed(request, game_id, restart=True)


def _confirmed(request: AuthenticatedHttpRequest, game_id: int, *, restart: bool
               ) -> HttpResponse:
    """The question (GET), or the answer carried out (POST with the confirmation)."""
    game = selectors.game_for(request.user, game_id)  # 404 to anyone but its player
    form = ConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            if restart:
                new = practice.restart_practice(game.id, request.user)
            else:
                practice.abandon_practice(game.id, request.user)
        except CampaignError as error:
            messages.error(request, str(error))
            return redirect("home")
        if restart:
            messages.success(request, f"{game.name} starts again from the beginning.")
            return redirect("game_status", game_id=new.id)
        messages.success(request, f"{game.name} is abandoned.")
        return redirect("home")
    return render(request, "games/practice_confirm.html",
                  {"game": game, "form": ConfirmForm(), "restart": restart})
