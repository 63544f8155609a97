"""The lobby: my campaigns (with their unread private messages) and those open to join."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from accounts.requests import AuthenticatedHttpRequest
from junta.games import selectors
from junta.games.page_cache import kept_lobby


@login_required
@kept_lobby
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    mine = list(selectors.my_games(request.user))
    seats = selectors.my_seats(request.user, mine)
    context = {
        "my_games": [(game, seats.get(game.id)) for game in mine],
        "joinable": selectors.joinable_games(request.user),
    }
    return render(request, "site/lobby.html", context)
