"""Speeches on a campaign's Events page: who may speak, and posting one."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from junta.games.campaigns import CampaignError
from junta.games.models import Game, Player, Speech

MAX_SPEECH_LENGTH = 20000


def speaker_for(game: Game, user: User) -> tuple[Player | None, str] | None:
    """(player, name to show) for someone who may speak in `game`, else None. Seated players
    speak as their current character (the dead too: they may keep talking); the GM as
    "The GameMaster"."""
    if game.gm_id == user.id:
        return None, "The GameMaster"
    player = (
        game.players.filter(user=user, membership=Player.Membership.ACTIVE)
        .prefetch_related("characters")
        .first()
    )
    if player is None:
        return None
    character = player.character
    return player, character.name if character else user.public_name


@transaction.atomic
def post_speech(game: Game, user: User, body: str, reply_to_id: int | None = None) -> Speech:
    body = body.strip()
    if not body:
        raise CampaignError("A speech needs some words.")
    if len(body) > MAX_SPEECH_LENGTH:
        raise CampaignError(
            f"A speech may be {MAX_SPEECH_LENGTH} characters long; this one has {len(body)}."
        )
    speaker = speaker_for(game, user)
    if speaker is None:
        raise CampaignError(f"Only the players and the GM of {game.name} may speak here.")
    player, name = speaker
    reply_to = None
    if reply_to_id is not None:
        reply_to = game.speeches.filter(pk=reply_to_id).first()
        if reply_to is None:
            raise CampaignError("The speech you are replying to is not in this campaign.")
    current_phase = game.phases.order_by("-number").first()
    speech = Speech(
        game=game, player=player, speaker=name, phase=current_phase, reply_to=reply_to, body=body
    )
    speech.render()  # once, now: the pages show the stored, sanitised HTML
    speech.save(force_insert=True)
    return speech
