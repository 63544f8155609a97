"""Speeches (the Events page's) and private conversations, through the site's own services:
the same rules (who may speak, members only, exiles, the GM's read policy) and the same
messages when something is refused."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Router, Status

from junta.api import access
from junta.api.auth import caller
from junta.api.conditional import kept_answer
from junta.api.errors import ApiError, not_found
from junta.api.schemas import (
    ERRORS,
    ConversationIn,
    ConversationOut,
    MessageIn,
    MessageOut,
    MessagesOut,
    SpeechesOut,
    SpeechIn,
    SpeechItem,
)
from junta.games.public import (
    Announcement,
    CampaignError,
    EventsItem,
    Player,
    Speech,
    events_items,
    mark_new,
    mark_seen,
    post_speech,
    seen_until,
)
from junta.talk.public import (
    GM_NAME,
    Conversation,
    Message,
    Reader,
    TalkError,
    mark_read,
    may_read,
    readable,
    reader_for,
    unread_by_conversation,
)
from junta.talk.public import membership as member_of
from junta.talk.public import post as post_message
from junta.talk.public import start as start_conversation

router = Router(tags=["talk"])
SPEECHES_PER_PAGE = 20
MESSAGES_PER_PAGE = 50


def _item(entry: EventsItem) -> dict[str, object]:
    item = entry.item
    if isinstance(item, Speech):
        return {"kind": "speech", "id": item.id, "created_at": item.created_at,
                "speaker": item.speaker, "phase": item.phase.number if item.phase else None,
                "reply_to": item.reply_to_id, "body": item.body, "html": item.body_html,
                "new": entry.new}
    if isinstance(item, Announcement):
        return {"kind": "announcement", "id": item.id, "created_at": item.created_at,
                "speaker": GM_NAME, "phase": None, "reply_to": None,
                "body": item.body, "html": item.body_html, "new": entry.new}
    return {"kind": "action", "id": item.id, "created_at": item.created_at,
            "speaker": GM_NAME, "phase": None, "reply_to": None,
            "body": item.announcement, "html": "", "new": entry.new}


@router.get("/campaigns/{int:game_id}/speeches", response={200: SpeechesOut, **ERRORS},
            summary="Speeches and the GM's announcements, newest first")
@kept_answer
def speech_list(request: HttpRequest, game_id: int, page: int = 1) -> dict[str, object]:
    """One page of the Events page's list: speeches, the GM's announcements and the GM's
    announced actions between them, newest first, each marked `new` when I had not read it.
    Reading the first page marks it read, as the Events page does."""
    user = caller(request)
    game = access.membership(user, game_id).game
    shown = (game.speeches.select_related("reply_to", "phase").order_by("-created_at", "-id"))
    paged = Paginator(shown, SPEECHES_PER_PAGE)
    current = paged.get_page(page)
    items = events_items(game, current)
    since = seen_until(game, user)
    mark_new(items, game, user, since)
    if current.number == 1 and items:
        mark_seen(game, user, max(i.created_at for i in items))
    return {"page": current.number, "pages": paged.num_pages, "count": paged.count,
            "items": [_item(i) for i in items]}


@router.post("/campaigns/{int:game_id}/speeches", response={201: SpeechItem, **ERRORS},
             summary="Make a speech")
def speech_post(request: HttpRequest, game_id: int, payload: SpeechIn) -> Status[dict[str, object]]:
    user = caller(request)
    game = access.membership(user, game_id).game
    try:
        speech = post_speech(game, user, payload.body, payload.reply_to)
    except CampaignError as error:
        text = str(error)
        field = "reply_to" if "replying to" in text else "body" if text.startswith(
            "A speech") else None
        raise ApiError(400, text, field) from None
    return Status(201, _item(EventsItem("speech", speech.created_at, speech)))


# --- conversations -------------------------------------------------------------------------

def _reader(request: HttpRequest, game_id: int) -> Reader:
    user = caller(request)
    game = access.membership(user, game_id).game
    reader = reader_for(game, user)
    if reader is None:
        raise not_found()
    return reader


def _conversation(reader: Reader, conversation_id: int) -> Conversation:
    talk = Conversation.objects.filter(pk=conversation_id, game=reader.game).first()
    if talk is None or not may_read(talk, reader):
        raise not_found("No such conversation of yours.")
    return talk


def _conversation_out(talk: Conversation, reader: Reader,
                      unread: dict[int, int]) -> dict[str, object]:
    members = list(talk.members.all())
    return {"id": talk.id, "subject": talk.subject, "created_at": talk.created_at,
            "last_message_at": talk.last_message_at,
            "member": any(m.user_id == reader.user.id and m.left_at is None for m in members),
            "members": [m.name for m in members if m.left_at is None],
            "unread": unread.get(talk.id, 0)}


@router.get("/campaigns/{int:game_id}/conversations",
            response={200: list[ConversationOut], **ERRORS},
            summary="The conversations I may read")
@kept_answer
def conversation_list(request: HttpRequest, game_id: int) -> list[dict[str, object]]:
    reader = _reader(request, game_id)
    unread = unread_by_conversation(reader.user, reader.game.id)
    rows = readable(reader).prefetch_related("members")
    return [_conversation_out(c, reader, unread) for c in rows]


@router.post("/campaigns/{int:game_id}/conversations", response={201: ConversationOut, **ERRORS},
             summary="Start a conversation")
def conversation_start(request: HttpRequest, game_id: int, payload: ConversationIn
                       ) -> Status[dict[str, object]]:
    """With the players at these seats (and the GM, with `with_gm`), opened by `body`."""
    reader = _reader(request, game_id)
    seated = {p.seat: p for p in reader.game.players.filter(
        membership=Player.Membership.ACTIVE) if p.seat is not None}
    chosen = []
    for i, seat in enumerate(payload.players):
        if seat not in seated:
            raise ApiError(400, "No seated player has this seat in the campaign.",
                           f"players[{i}]")
        chosen.append(seated[seat])
    try:
        talk = start_conversation(reader, payload.subject, chosen, payload.with_gm,
                                  payload.body)
    except TalkError as error:
        text = str(error)
        field = "subject" if "subject" in text else "body" if text.startswith(
            "A message") else "players" if "player" in text else None
        raise ApiError(400, text, field) from None
    return Status(201, _conversation_out(talk, reader, {}))


def _message_out(message: Message, reader: Reader) -> dict[str, object]:
    return {"id": message.id, "author": message.author_name, "created_at": message.created_at,
            "body": message.body, "html": message.body_html,
            "mine": message.author_id == reader.user.id}


@router.get("/campaigns/{int:game_id}/conversations/{int:conversation_id}/messages",
            response={200: MessagesOut, **ERRORS},
            summary="A conversation's messages, newest first")
@kept_answer
def message_list(request: HttpRequest, game_id: int, conversation_id: int, page: int = 1
                 ) -> dict[str, object]:
    """Reading the first page marks the conversation read, as its page does."""
    reader = _reader(request, game_id)
    talk = _conversation(reader, conversation_id)
    paged = Paginator(talk.messages.order_by("-id"), MESSAGES_PER_PAGE)
    current = paged.get_page(page)
    rows = list(current)
    me = member_of(talk, reader)
    if me is not None and current.number == 1 and rows:
        mark_read(me, rows[0])
    return {"page": current.number, "pages": paged.num_pages, "count": paged.count,
            "messages": [_message_out(m, reader) for m in rows]}


@router.post("/campaigns/{int:game_id}/conversations/{int:conversation_id}/messages",
             response={201: MessageOut, **ERRORS}, summary="Write in a conversation")
def message_post(request: HttpRequest, game_id: int, conversation_id: int,
                 payload: MessageIn) -> Status[dict[str, object]]:
    reader = _reader(request, game_id)
    talk = _conversation(reader, conversation_id)
    try:
        message = post_message(talk, reader, payload.body)
    except TalkError as error:
        text = str(error)
        raise ApiError(400, text, "body" if text.startswith("A message") else None) from None
    return Status(201, _message_out(message, reader))
