"""The panel's one permission: only the campaign's GameMaster sees it.

Everyone else (a player of the campaign, the GM of another campaign, any other signed-in person)
gets 404, whether the campaign exists or not (zulip's "not found whether missing or not yours";
healthchecks' stranger test). Site staff use Django's admin, not this panel.
"""

from __future__ import annotations

from django.http import Http404

from accounts.public import User
from junta.games.public import Game, kept_rows


def gm_game_or_404(user: User, game_id: int) -> Game:
    """The campaign `game_id` if `user` is its GameMaster; otherwise Http404."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    kept = kept_rows(game_id)  # while a page is drawn: its rows at its revision
    game = kept.game if kept is not None else \
        Game.objects.select_related("gm").filter(pk=game_id, gm_id=user.pk).first()
    if game is None or game.gm_id != user.pk:
        raise Http404
    return game


def is_gm(user: User, game: Game) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and game.gm_id == user.pk
