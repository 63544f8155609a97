"""Revealing a private conversation after the end (docs/rules.md §talk): nobody's words are shown
without his agreement.

Asked are its members still in it and those who left it after writing in it (one who left
agrees from the campaign's Talk page, without reading it again; one who left without writing
gave up his say). It is revealed once every one of them who is still in the campaign has
agreed. A writer who can no longer answer (a player the GameMaster replaced: his seat's
conversations went to his successor) is not waited for: his messages stay hidden on the
revealed page, which says how many, as do those of any writer who had not agreed when a
conversation was revealed under the former rule (its members alone)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef

from junta.games.public import Game, Player
from junta.talk.models import Conversation, Member, Message


def _answering(game: Game) -> set[int]:
    """Who may still answer in the campaign: its GameMaster and its seated players."""
    seated = game.players.filter(membership=Player.Membership.ACTIVE)
    return {game.gm_id, *seated.values_list("user_id", flat=True)}


def _writers(conversation: Conversation) -> set[int]:
    return set(conversation.messages.values_list("author_id", flat=True).distinct())


def waiting_for(conversation: Conversation, game: Game) -> list[Member]:
    """The members whose agreement it still waits for: those still in it, and those who left
    after writing in it, who are still in the campaign and have not agreed."""
    writers = _writers(conversation)
    answering = _answering(game)
    return [m for m in conversation.members.all()
            if (m.left_at is None or m.user_id in writers) and m.user_id in answering
            and not m.agrees_to_reveal]


def wrote_in(member: Member) -> int:
    """How many messages he wrote in it."""
    return Message.objects.filter(conversation_id=member.conversation_id,
                                  author_id=member.user_id).count()


@dataclass(frozen=True)
class Hidden:
    """The messages of one writer who did not agree, left out of a revealed conversation."""

    name: str
    count: int
    replaced: bool  # he is no longer in the conversation: the GameMaster replaced him


@dataclass
class Revealed:
    """A revealed conversation as everyone may read it: the messages of those who agreed."""

    conversation: Conversation
    members: list[Member]
    messages: list[Message] = field(default_factory=list)
    hidden: list[Hidden] = field(default_factory=list)


def revealed(game: Game) -> list[Revealed]:
    """The campaign's revealed conversations, oldest first, each with only the messages whose
    writer agreed; those of the others are counted, never shown."""
    rows = (Conversation.objects.filter(game=game, revealed_at__isnull=False)
            .prefetch_related("members", "messages").order_by("created_at", "id"))
    out = []
    for talk in rows:
        members = list(talk.members.all())
        seen = Revealed(talk, members)
        agreed = {m.user_id for m in members if m.agrees_to_reveal}
        kept_back: dict[int, list[Message]] = {}
        for message in talk.messages.all():
            if message.author_id in agreed:
                seen.messages.append(message)
            else:
                kept_back.setdefault(message.author_id, []).append(message)
        by_user = {m.user_id: m for m in members}
        for author, messages in kept_back.items():
            member = by_user.get(author)
            seen.hidden.append(Hidden(member.name if member else messages[-1].author_name,
                                      len(messages), member is None))
        out.append(seen)
    return out


@dataclass(frozen=True)
class LeftRow:
    """A conversation he left after writing in it, in a finished campaign: his say is asked."""

    conversation: Conversation
    count: int  # his messages in it
    agreed: bool


def left_and_asked(game: Game, user_id: int) -> list[LeftRow]:
    """The conversations of a finished campaign this person left after writing in them: each
    waits for his agreement (or has it) before its words are shown."""
    if game.status != Game.Status.FINISHED:
        return []
    rows = []
    for member in (Member.objects.filter(conversation__game=game, user_id=user_id,
                                         left_at__isnull=False)
                   .select_related("conversation").order_by("conversation__created_at")):
        count = wrote_in(member)
        if count:
            rows.append(LeftRow(member.conversation, count, member.agrees_to_reveal))
    return rows


def unanswered_by_game(user_id: int, game_ids: list[int]) -> dict[int, int]:
    """For the dashboard, in one query: per finished campaign, the conversations this person
    left after writing in them whose reveal still waits for his answer."""
    if not game_ids:
        return {}
    wrote = Message.objects.filter(conversation=OuterRef("conversation"), author_id=user_id)
    rows = (Member.objects.filter(user_id=user_id, left_at__isnull=False,
                                  agrees_to_reveal=False, conversation__game_id__in=game_ids,
                                  conversation__game__status=Game.Status.FINISHED)
            .filter(Exists(wrote)).values("conversation__game_id").annotate(n=Count("id")))
    return {row["conversation__game_id"]: row["n"] for row in rows}
