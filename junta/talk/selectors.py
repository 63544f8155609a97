"""What the pages read of the private conversations: unread counts (one query however many
conversations or campaigns) and a conversation's messages."""

from __future__ import annotations

from django.db.models import Count, F, Q, QuerySet

from accounts.public import User
from junta.talk.models import Message


def _unread(user: User) -> QuerySet[Message]:
    """Messages written by others after the last one this person has read, in the
    conversations he is still in."""
    return (Message.objects.filter(
        Q(conversation__members__read_until__isnull=True)
        | Q(created_at__gt=F("conversation__members__read_until")),
        conversation__members__user=user, conversation__members__left_at__isnull=True)
        .exclude(author=user))


def unread_by_conversation(user: User, game_id: int) -> dict[int, int]:
    rows = (_unread(user).filter(conversation__game_id=game_id)
            .values("conversation_id").annotate(n=Count("id")))
    return {row["conversation_id"]: row["n"] for row in rows}


def unread_in_game(user: User, game_id: int) -> int:
    return _unread(user).filter(conversation__game_id=game_id).count()


def unread_by_game(user: User, game_ids: list[int]) -> dict[int, int]:
    """For the lobby and the dashboard: unread messages per campaign, in one query."""
    if not game_ids:
        return {}
    rows = (_unread(user).filter(conversation__game_id__in=game_ids)
            .values("conversation__game_id").annotate(n=Count("id")))
    return {row["conversation__game_id"]: row["n"] for row in rows}
