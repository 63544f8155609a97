"""The lobby: my campaigns (with their unread private messages) and those open to join."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import joinable_games, kept_lobby, my_games, my_seats


@login_required
@kept_lobby
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    mine = list(my_games(request.user))
    seats = my_seats(request.user, mine)
    context = {
        "my_games": [(game, seats.get(game.id)) for game in mine],
        "joinable": joinable_games(request.user),
    }
    return render(request, "site/lobby.html", context)
