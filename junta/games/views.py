"""Creating a campaign, and the GM's approval of a player."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.public import AuthenticatedHttpRequest
from junta.engine import PhaseKind
from junta.games import campaigns
from junta.games.forms import CreateGameForm
from junta.games.models import Game


@login_required
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = campaigns.create_game(
                request.user, data["name"], max_players=data["max_players"],
                deadline_time=data["deadline_time"], time_zone=data["time_zone"],
                review_mode=data["review_mode"], join_policy=data["join_policy"],
                gm_reads_talk=bool(data["gm_reads_talk"]),
                watch=(bool(data["watchable"]),
                       1 if data["watch_delay"] is None else data["watch_delay"],
                       bool(data["watch_by_link"])),
                extra_bills=(data["extra_bills_min"], data["extra_bills_max"]),
                phase_days={PhaseKind.NOMINATION.value: data["nomination_days"] or 1,
                            PhaseKind.ELECTION.value: data["election_days"] or 2,
                            "default": data["default_days"] or 1},
            )
        except campaigns.CampaignError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{game.name} is open for players. You are its GameMaster.")
            return redirect("game_detail", game_id=game.id)
    return render(request, "games/create.html", {"form": form})


@login_required
@require_POST
def approve(request: AuthenticatedHttpRequest, game_id: int, player_id: int) -> HttpResponse:
    game = Game.objects.filter(pk=game_id, gm=request.user).first()
    if game is None or not game.players.filter(pk=player_id).exists():
        raise Http404
    try:
        player = campaigns.approve_player(game.id, player_id)
    except campaigns.CampaignError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{player.character} takes seat {player.engine_seat + 1}.")
    return redirect("game_detail", game_id=game.id)
