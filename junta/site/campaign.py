"""A campaign's page (its families, the GM's invitation and approvals, the form to join): the
players' side's roster and joining with the lives' roster of the dead and the notifications'
panel of e-mail settings and absences. `invite` shows it to the bearer of the invitation link,
`join` answers the join form (the page again, with the form's errors, when it is refused)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import (
    LIVE,
    CampaignError,
    Game,
    JoinGameForm,
    Player,
    game_for,
    join_game,
    kept_for_viewer,
    outsider_sent_to,
    pending,
    roster,
)


def _detail_context(request: AuthenticatedHttpRequest, game: Game,
                    form: JoinGameForm | None = None) -> dict[str, object]:
    membership = game.players.filter(user=request.user, membership__in=LIVE).first()
    is_gm = game.gm_id == request.user.id
    can_join = (
        game.status == Game.Status.FORMING and membership is None and not is_gm
    )
    return {
        "game": game,
        "roster": roster(game),
        "pending": pending(game) if is_gm else [],
        "membership": membership,
        "is_gm": is_gm,
        "can_join": can_join,
        "join_form": form or JoinGameForm(),
        "invite_url": (
            request.build_absolute_uri(f"/games/{game.id}/invite/{game.invite_token}/")
            if is_gm else ""
        ),
    }


@login_required
@kept_for_viewer
def detail(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = game_for(request.user, game_id)
    if watching := outsider_sent_to(game, request.user, "families"):
        return redirect(watching)  # its lives (a death told) are the members', or a watcher's
    return render(request, "site/campaign.html", _detail_context(request, game))


@login_required
def invite(request: AuthenticatedHttpRequest, game_id: int, token: str) -> HttpResponse:
    game = Game.objects.filter(pk=game_id, invite_token=token).first()
    if game is None:
        raise Http404
    context = _detail_context(request, game)
    context["invite_token"] = token
    return render(request, "site/campaign.html", context)


@login_required
@require_POST
def join(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    token = request.POST.get("invite_token", "")
    game = (
        Game.objects.filter(pk=game_id, invite_token=token).first()
        if token else game_for(request.user, game_id)
    )
    if game is None:
        raise Http404
    form = JoinGameForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            player = join_game(
                game.id, request.user, form.cleaned_data["character_name"],
                bio=form.cleaned_data["bio"], invite_token=token,
                avatar=form.cleaned_data["avatar"],
            )
        except CampaignError as error:
            form.add_error(None, str(error))
        else:
            if player.membership == Player.Membership.ACTIVE:
                messages.success(request, f"You have a seat in {game.name}.")
            else:
                messages.success(request, f"Asked to join {game.name}: the GM will approve you.")
            return redirect("game_detail", game_id=game.id)
    context = _detail_context(request, game, form)
    context["invite_token"] = token
    return render(request, "site/campaign.html", context, status=400)
