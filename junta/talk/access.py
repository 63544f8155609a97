"""Who may read and who may write in a campaign's private conversations (docs/rules.md §talk).

Members read their conversations (until they leave one); the GameMaster reads every
conversation only where the campaign allows it (`Game.gm_reads_talk`, chosen at creation);
after the end, a conversation everyone asked agreed to reveal is public (`junta.talk.consent`).
Who may *send* is the engine's word (`junta.engine.why_no_talk`): an exile reads but writes only
to the GameMaster."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from accounts.public import User
from junta.games.public import Game, Player, why_silent
from junta.talk.models import Conversation, Member

GM_NAME = "The GameMaster"


@dataclass(frozen=True)
class Reader:
    """Someone who may talk in a campaign: one of its seated players, or its GameMaster."""

    user: User
    game: Game
    player: Player | None  # None for the GameMaster

    @property
    def is_gm(self) -> bool:
        return self.player is None

    @property
    def name(self) -> str:
        """How he signs: his current character's name, or "The GameMaster"."""
        if self.player is None:
            return GM_NAME
        character = self.player.character
        return character.name if character else self.user.public_name


def reader_for(game: Game, user: User) -> Reader | None:
    """The person as a talker of `game`: its GameMaster, a seated player, or None (a spectator,
    a player still waiting for approval, a former player)."""
    if not user.is_authenticated:
        return None
    if game.gm_id == user.id:
        return Reader(user, game, None)
    player = (game.players.filter(user=user, membership=Player.Membership.ACTIVE)
              .prefetch_related("characters").first())
    return Reader(user, game, player) if player is not None else None


def readable(reader: Reader) -> QuerySet[Conversation]:
    """Every conversation of the campaign this reader may open."""
    mine = Q(members__user=reader.user, members__left_at__isnull=True)
    rows = Conversation.objects.filter(game=reader.game)
    if reader.is_gm and reader.game.gm_reads_talk:
        return rows
    return rows.filter(mine).distinct()


def membership(conversation: Conversation, reader: Reader) -> Member | None:
    """His row in the conversation, unless he left it (a leaver reads it no more)."""
    return (conversation.members.filter(user=reader.user, left_at__isnull=True)
            .first())


def may_read(conversation: Conversation, reader: Reader) -> bool:
    if conversation.game_id != reader.game.id:
        return False
    if reader.is_gm and reader.game.gm_reads_talk:
        return True
    return membership(conversation, reader) is not None


def why_not_send(reader: Reader, to_gm_only: bool) -> str | None:
    """Why this reader may not send to a conversation (`to_gm_only`: its other members are the
    GameMaster alone), or None when he may. Who may deal with the players is the engine's word,
    as for speeches (`speeches.why_silent`); any seated player may always write to the
    GameMaster, and after the end everyone talks."""
    if reader.player is None or to_gm_only or reader.game.status == Game.Status.FINISHED:
        return None
    return why_silent(reader.game, reader.player)


def to_gm_only(conversation: Conversation, reader: Reader) -> bool:
    """Whether the other members (those still in it) are the GameMaster alone."""
    others = [m for m in conversation.members.all()
              if m.left_at is None and m.user_id != reader.user.id]
    return bool(others) and all(m.player_id is None for m in others)
