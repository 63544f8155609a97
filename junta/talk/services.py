"""Every change to the private conversations, each in one transaction: starting one, posting,
reading, leaving, agreeing to reveal it after the end (docs/rules.md §talk), and what the
GameMaster's changes of players do to them (`hand_over`, `drop_player`).

Posting, leaving, agreeing to reveal, and the GameMaster's changes of players lock the
conversation's row (`_lock`, `_locked_rows_of`) and read who is in it under that lock, so that
they happen one after the other: a message sent at the moment its writer leaves, or is replaced
or removed by the GameMaster, is either in before he was out or refused. They take the
project's lock order (`junta.games.locking`): the game, then its conversations in id order.
Locking a conversation locks its game first (`_lock_all`): every write raises the campaign's
revision number under its row's lock (`junta.games.revisions`), and a transaction that raised
it twice checks the game's row as it commits (a deferred foreign key), so a message sent holding
the conversation but not the game would wait for a GameMaster who holds the game, while he waits
for that number: a deadlock.

A player's writes are in the shape of every app's (README, Layout): the service named for it
locks, `check_<verb>` refuses with a `TalkError`, changing nothing, `do_<verb>` writes. The
GameMaster's changes of players (`hand_over`, `drop_player`) are writes of the GM panel's
actions, checked there, called with the game's row locked."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from junta.games.public import Game, Player, lock_game, resent
from junta.talk import access, consent, hooks
from junta.talk.access import Reader
from junta.talk.models import MAX_MESSAGE, MAX_SUBJECT, Conversation, Member, Message


class TalkError(Exception):
    """A refused change, with the reason in words a player understands."""


class NotAMember(TalkError):
    """He is not (or no longer) in the conversation he writes to."""


def _lock_all(game_id: int, ids: set[int]) -> list[Conversation]:
    """These conversations of the campaign, fresh from the database, each row locked until the
    transaction ends: the game first (the GameMaster's changes of players hold it already),
    then the conversations in id order."""
    lock_game(game_id)
    return list(Conversation.objects.select_for_update(no_key=True).filter(pk__in=ids)
                .order_by("pk"))


def _lock(conversation: Conversation) -> Conversation:
    """The conversation's row, locked until the transaction ends, fresh from the database."""
    return _lock_all(conversation.game_id, {conversation.pk})[0]


def _clean_body(body: str) -> str:
    body = (body or "").strip()
    if not body:
        raise TalkError(_("A message needs some words."))
    if len(body) > MAX_MESSAGE:
        raise TalkError(_("A message may be %(limit)s characters long; this one has %(length)s. "
                          "Nothing was sent.") % {"limit": f"{MAX_MESSAGE:,}",
                                                  "length": f"{len(body):,}"})
    return body


def _name(player: Player) -> str:
    character = player.character
    return character.name if character else player.user.public_name


@transaction.atomic
def start(reader: Reader, subject: str, players: list[Player], with_gm: bool,
          body: str) -> Conversation:
    """A new conversation between the reader and `players` (seated players of the same
    campaign), with the GameMaster too when `with_gm` (always, when the GameMaster starts it),
    opened by its first message."""
    # one start at a time: the same form sent twice makes one conversation (`do_start`)
    Game.objects.select_for_update(no_key=True).filter(pk=reader.game.pk).first()
    subject, chosen, with_gm = check_start(reader, subject, players, with_gm, body)
    return do_start(reader, subject, chosen, with_gm, _clean_body(body))


def check_start(reader: Reader, subject: str, players: list[Player], with_gm: bool,
                body: str) -> tuple[str, list[Player], bool]:
    """Whether the reader may start this conversation now (`TalkError` if not): its subject,
    the other players in it (seated, from the database) and whether the GameMaster is."""
    game = reader.game
    subject = " ".join((subject or "").split())
    if not subject:
        raise TalkError(_("Give the conversation a subject."))
    if len(subject) > MAX_SUBJECT:
        raise TalkError(_("A subject may be %(limit)d characters long.") % {"limit": MAX_SUBJECT})
    _clean_body(body)
    seated = {p.pk: p for p in game.players.filter(
        membership=Player.Membership.ACTIVE).select_related("user")
        .prefetch_related("characters")}
    chosen = []
    for player in players:
        if player.pk not in seated:
            raise TalkError(_("Only the campaign's seated players may be asked into a "
                              "conversation."))
        if reader.player is None or player.pk != reader.player.pk:
            chosen.append(seated[player.pk])
    with_gm = with_gm or reader.is_gm
    if not chosen and not with_gm:
        raise TalkError(_("Choose at least one other player, or the GameMaster."))
    reason = access.why_not_send(reader, not chosen)
    if reason:
        raise TalkError(reason)
    return subject, chosen, with_gm


@transaction.atomic
def do_start(reader: Reader, subject: str, chosen: list[Player], with_gm: bool,
             body: str) -> Conversation:
    """The conversation, its members and its first message (the game locked by the caller);
    the one started a moment ago, when the form was sent twice."""
    game = reader.game
    again = _started_again(reader, subject, body, {p.user_id for p in chosen} | (
        {game.gm_id} if with_gm and not reader.is_gm else set()))
    if again is not None:  # the form sent twice: one conversation
        return again
    now = timezone.now()
    conversation = Conversation.objects.create(game=game, subject=subject,
                                               started_by=reader.user, last_message_at=now)
    members = [Member(conversation=conversation, user=reader.user, player=reader.player,
                      name=reader.name)]
    members += [Member(conversation=conversation, user=p.user, player=p, name=_name(p))
                for p in chosen]
    if with_gm and not reader.is_gm:
        members.append(Member(conversation=conversation, user=game.gm, player=None,
                              name=access.GM_NAME))
    for member in members:
        member.save(force_insert=True)
    do_post(conversation, reader, body, members[0])
    return conversation


def _started_again(reader: Reader, subject: str, body: str, others: set[int]
                   ) -> Conversation | None:
    """The conversation the reader started a moment ago with the same subject, people and first
    message (`speeches.resent`), if any."""
    first = resent(Message.objects.filter(conversation__game=reader.game,
                                          conversation__started_by=reader.user,
                                          author=reader.user), body)
    if first is None:
        return None
    talk = first.conversation
    people = set(talk.members.values_list("user_id", flat=True)) - {reader.user.id}
    if talk.subject != subject or people != others or talk.messages.count() != 1:
        return None
    return talk


@transaction.atomic
def post(conversation: Conversation, reader: Reader, body: str) -> Message:
    """A message from a member still in the conversation, if the rules of talk let him."""
    conversation = _lock(conversation)
    me = check_post(conversation, reader, body)
    return do_post(conversation, reader, _clean_body(body), me)


def check_post(conversation: Conversation, reader: Reader, body: str) -> Member:
    """Whether the reader may write this in the conversation now (`TalkError` if not): his
    row in it, read under the conversation's lock (`leave` waits for it)."""
    _clean_body(body)
    me = access.membership(conversation, reader)
    if me is None:
        raise NotAMember(_("You are not in this conversation: only its members write in it."))
    reason = access.why_not_send(reader, access.to_gm_only(conversation, reader))
    if reason:
        raise TalkError(reason)
    return me


@transaction.atomic
def do_post(conversation: Conversation, reader: Reader, body: str, me: Member) -> Message:
    """The message, read by its writer (the conversation locked); the one sent a moment ago,
    when the form was sent twice."""
    again = resent(Message.objects.filter(conversation=conversation,
                                          author=reader.user), body)
    if again is not None:  # the form sent twice: one message
        return again
    message = Message(conversation=conversation, author=reader.user, author_name=reader.name,
                      body=body)
    message.render()  # once, now: pages show the stored, sanitised HTML
    message.save(force_insert=True)
    conversation.last_message_at = message.created_at
    conversation.save(update_fields=["last_message_at"])
    mark_read(me, message)  # what he wrote himself is read
    hooks.message_posted(hooks.MessagePosted(conversation, message))  # its push, after commit
    return message


def mark_read(member: Member, last: Message | None) -> bool:
    """He has seen every message up to `last`. Writes only when that is further than before,
    so reading again changes nothing. True when it wrote."""
    if last is None or (member.read_until is not None
                        and last.created_at <= member.read_until):
        return False
    member.read_until = last.created_at
    member.save(update_fields=["read_until"])
    return True


@transaction.atomic
def leave(conversation: Conversation, reader: Reader) -> None:
    """He reads it no more. Under the conversation's lock, as posting: a message he sends at
    the same moment is in before he left, or refused."""
    conversation = _lock(conversation)
    do_leave(check_leave(conversation, reader))


def check_leave(conversation: Conversation, reader: Reader) -> Member:
    me = access.membership(conversation, reader)
    if me is None:
        raise TalkError(_("You are not in this conversation."))
    return me


@transaction.atomic
def do_leave(me: Member) -> None:
    me.left_at = timezone.now()
    me.save(update_fields=["left_at"])


def _locked_rows_of(player: Player) -> list[Member]:
    """The player's rows in the conversations he is still in, each conversation locked first, in
    id order, and his rows read again under those locks (one who left meanwhile is not among
    them). The caller holds the game's lock, so that no conversation starts meanwhile."""
    ids = set(Member.objects.filter(player=player, left_at__isnull=True)
              .values_list("conversation_id", flat=True))
    _lock_all(player.game_id, ids)
    return list(Member.objects.filter(player=player, conversation_id__in=ids,
                                      left_at__isnull=True).order_by("conversation_id"))


@transaction.atomic
def hand_over(old: Player, new: Player, name: str) -> int:
    """The GameMaster replaced `old` by `new` (the game's row locked by the caller): the
    family's conversations go with its seat (docs/rules.md §talk). In each one the leaver is
    still in, the newcomer takes his row, signed `name`, every message new to him; the leaver
    reads them no more, and a message he sends at that moment is in before or refused. How many
    conversations went over."""
    rows = _locked_rows_of(old)
    for member in rows:
        member.user, member.player, member.name = new.user, new, name
        member.read_until = None  # all new to him (and mailed to him: notify keeps it by person)
        member.save(update_fields=["user", "player", "name", "read_until"])
    return len(rows)


@transaction.atomic
def drop_player(player: Player) -> int:
    """The GameMaster removed `player` from the campaign (the game's row locked by the
    caller): he leaves every conversation he is still in, as if he had left each one himself,
    so that he reads none of them again should he join once more; a message he sends at that
    moment is in before or refused. How many he left."""
    rows = _locked_rows_of(player)
    now = timezone.now()
    for member in rows:
        member.left_at = now
        member.save(update_fields=["left_at"])
    return len(rows)


@transaction.atomic
def agree_to_reveal(conversation: Conversation, reader: Reader) -> bool:
    """After the end, a member agrees that everyone may read the conversation in the History,
    his own words included; one who left it after writing in it may agree too, and is waited
    for (`junta.talk.consent`). Once everyone asked has agreed, it is revealed. True when this
    agreement revealed it."""
    conversation = _lock(conversation)
    me = check_agree_to_reveal(conversation, reader)
    return do_agree_to_reveal(conversation, reader.game, me)


def check_agree_to_reveal(conversation: Conversation, reader: Reader) -> Member:
    """Whether the reader may agree to reveal it now (`TalkError` if not): his row in it."""
    if reader.game.status != Game.Status.FINISHED:
        raise TalkError(_("Conversations can be revealed only once the game is over."))
    me = conversation.members.filter(user=reader.user).first()  # still in it, or left
    if me is None:
        raise TalkError(_("Only its members may agree to reveal a conversation."))
    if me.left_at is not None and not consent.wrote_in(me):
        raise TalkError(_("You left this conversation without writing in it: whether it is "
                          "revealed is for those who wrote in it."))
    return me


@transaction.atomic
def do_agree_to_reveal(conversation: Conversation, game: Game, me: Member) -> bool:
    """His agreement, and the conversation revealed when no one else is waited for (the
    conversation locked). True when it was revealed now."""
    if not me.agrees_to_reveal:
        me.agrees_to_reveal = True
        me.save(update_fields=["agrees_to_reveal"])
    if conversation.revealed_at is None and not consent.waiting_for(conversation, game):
        conversation.revealed_at = timezone.now()
        conversation.save(update_fields=["revealed_at"])
        return True
    return False
