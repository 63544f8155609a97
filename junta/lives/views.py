"""The character page: my living character's bio and avatar, or, while he lies dead, the heir
who returns with my family next turn."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import CampaignError, Game, Player, game_for
from junta.lives import services
from junta.lives.forms import CharacterForm, HeirForm
from junta.lives.models import HeirDraft


@login_required
def character(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = game_for(request.user, game_id)
    player = (game.players.filter(user=request.user, membership=Player.Membership.ACTIVE)
              .prefetch_related("characters").first())
    if player is None:
        raise Http404
    current = player.character
    dead = player.state == Player.State.DEAD  # the board row follows the engine
    draft = HeirDraft.objects.filter(player=player).first()
    forming = game.status == Game.Status.FORMING
    status = 200
    form: HeirForm | CharacterForm
    if request.method == "POST" and dead:
        form = HeirForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.prepare_heir(game.id, request.user, data["name"], data["bio"],
                                      avatar=data["avatar"] or None,
                                      clear_avatar=data["avatar"] is False)
            except CampaignError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("%(name)s is ready: your family returns to public life "
                                               "at the start of the next turn.")
                                 % {"name": data["name"]})
                return redirect("game_character", game_id=game.id)
        status = 400
    elif request.method == "POST":
        form = CharacterForm(request.POST, request.FILES, forming=forming)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.edit_character(game.id, request.user, bio=data["bio"],
                                        name=data.get("name"), avatar=data["avatar"] or None,
                                        clear_avatar=data["avatar"] is False)
            except CampaignError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Your character is saved."))
                return redirect("game_character", game_id=game.id)
        status = 400
    elif dead:
        form = HeirForm(initial={"name": draft.name, "bio": draft.bio} if draft else None)
    else:
        form = CharacterForm(initial={"name": current.name if current else "",
                                      "bio": current.bio if current else ""}, forming=forming)
    lives = sorted(player.characters.all(), key=lambda c: c.life)
    return render(request, "lives/character.html", {
        "game": game, "player": player, "current": current, "dead": dead, "draft": draft,
        "form": form, "lives": lives,
    }, status=status)
