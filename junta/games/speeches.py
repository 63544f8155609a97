"""Speeches and the GameMaster's announcements on a campaign's Events page: who may speak,
posting, quoting, and how far each reader has read (docs/rules.md §talk).

Posting is in the shape of every app's writes (README, Layout): the service named for it locks
the campaign, `check_<verb>` refuses with a `CampaignError`, changing nothing, `do_<verb>`
writes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.public import User
from junta.engine import why_no_talk
from junta.games import hooks
from junta.games.campaigns import CampaignError
from junta.games.models import Announcement, EventsSeen, Game, Player, Speech
from junta.games.play import display_state
from junta.games.selectors import seated

MAX_SPEECH_LENGTH = 20000
MAX_ANNOUNCEMENT_LENGTH = 20000
# How much of a speech a reply quotes: enough to know what is answered, and room left to answer.
MAX_QUOTE = 2000
# the same text from the same author within this time is one form sent twice (a double click,
# a resend after a slow answer), not a second speech
RESENT_WITHIN = timedelta(minutes=2)

# Any: a QuerySet's rows must be a Model, and the texts (speeches, announcements, talk's
# messages) share `body` and `created_at` through no common base Django could name
def resent[Written: Any](mine: QuerySet[Written], body: str) -> Written | None:
    """The author's latest text among `mine` (speeches, announcements, messages) when it is
    `body` and a moment old: the form sent again, to be answered as the first time."""
    last = mine.order_by("-created_at", "-id").first()
    if last is not None and last.body == body and \
            last.created_at >= timezone.now() - RESENT_WITHIN:
        return last
    return None


def speaker_for(game: Game, user: User) -> tuple[Player | None, str] | None:
    """(player, name to show) for someone who may speak in `game`, else None. Seated players
    speak as their current character (the dead too: they may keep talking); the GM as
    "The GameMaster"."""
    if game.gm_id == user.id:
        return None, "The GameMaster"
    player = seated(game, user)
    if player is None:
        return None
    character = player.character
    return player, character.name if character else user.public_name


def why_silent(game: Game, player: Player | None) -> str | None:
    """Why this seated player may not make a speech now (None: he may; the GM always may).
    From the engine: an exile "may not trade or deal with anyone" and may not make speeches;
    "the dead may talk" (docs/rules.md §talk, §exile). Before the campaign starts nobody is
    in exile."""
    if player is None or player.seat is None:
        return None
    _phase, state = display_state(game)
    if state is None or not 0 <= player.seat < len(state.players):
        return None
    return why_no_talk(state, player.seat)


def _checked_text(body: str, what: str, limit: int) -> str:
    """The text, trimmed; its length counted as the player sees it (a browser sends each line
    break as two characters, CR LF: counted as one)."""
    body = body.strip()
    if not body:
        raise CampaignError(f"{what} needs some words.")
    length = len(body.replace("\r\n", "\n"))
    if length > limit:
        raise CampaignError(f"{what} may be {limit:,} characters long; this one has "
                            f"{length:,}.")
    return body


@transaction.atomic
def post_speech(game: Game, user: User, body: str, reply_to_id: int | None = None) -> Speech:
    """The speech, unless the same was just made by the same speaker (`resent`): then that
    one, not a second."""
    Game.objects.select_for_update(no_key=True).filter(pk=game.pk).first()  # one speech at a time
    player, name, reply_to = check_post_speech(game, user, body, reply_to_id)
    return do_post_speech(game, player, name, reply_to,
                          _checked_text(body, "A speech", MAX_SPEECH_LENGTH))


def check_post_speech(game: Game, user: User, body: str, reply_to_id: int | None
                      ) -> tuple[Player | None, str, Speech | None]:
    """Whether `user` may make this speech now (`CampaignError` if not): his seat (None: the
    GM), the name he speaks as, and the speech he answers."""
    _checked_text(body, "A speech", MAX_SPEECH_LENGTH)
    speaker = speaker_for(game, user)
    if speaker is None:
        raise CampaignError(f"Only the players and the GM of {game.name} may speak here.")
    player, name = speaker
    refusal = why_silent(game, player)
    if refusal:
        raise CampaignError(refusal)
    reply_to = None
    if reply_to_id is not None:
        reply_to = game.speeches.filter(pk=reply_to_id).first()
        if reply_to is None:
            raise CampaignError("The speech you are replying to is not in this campaign.")
    return player, name, reply_to


@transaction.atomic
def do_post_speech(game: Game, player: Player | None, name: str, reply_to: Speech | None,
                   body: str) -> Speech:
    """The speech in the current phase (the campaign locked by the caller); the one made a
    moment ago, when the form was sent twice."""
    again = resent(game.speeches.filter(player=player, speaker=name, reply_to=reply_to), body)
    if again is not None:
        return again
    current_phase = game.phases.order_by("-number").first()
    speech = Speech(
        game=game, player=player, speaker=name, phase=current_phase, reply_to=reply_to, body=body
    )
    speech.render()  # once, now: the pages show the stored, sanitised HTML
    speech.save(force_insert=True)
    return speech


def quote(speech: Speech) -> str:
    """A reply's opening, as forums write it: who spoke, then his Markdown source as a `> `
    blockquote (a long speech cut short, so that the reply still fits)."""
    body = speech.body.strip()
    if len(body) > MAX_QUOTE:
        body = body[:MAX_QUOTE].rstrip() + " …"
    lines = [f"> **{speech.speaker}** wrote:", ">"]
    lines += [f"> {line}".rstrip() for line in body.splitlines()]
    return "\n".join(lines) + "\n\n"


@transaction.atomic
def post_announcement(game: Game, user: User, body: str) -> Announcement:
    """The GameMaster's free announcement (narration), at any time: Markdown, rendered and
    sanitised once, now, as a speech is."""
    Game.objects.select_for_update(no_key=True).filter(pk=game.pk).first()  # one at a time
    return do_post_announcement(game, user, check_post_announcement(game, user, body))


def check_post_announcement(game: Game, user: User, body: str) -> str:
    """Whether `user` may announce this now (`CampaignError` if not): the text, trimmed."""
    if game.gm_id != user.id:
        raise CampaignError(f"Only the GameMaster of {game.name} makes announcements.")
    return _checked_text(body, "An announcement", MAX_ANNOUNCEMENT_LENGTH)


@transaction.atomic
def do_post_announcement(game: Game, user: User, body: str) -> Announcement:
    """The announcement in the current phase (the campaign locked by the caller); the one made
    a moment ago, when the form was sent twice."""
    again = resent(Announcement.objects.filter(game=game, author=user), body)
    if again is not None:
        return again
    announcement = Announcement(game=game, author=user, body=body,
                                phase=game.phases.order_by("-number").first())
    announcement.render()
    announcement.save(force_insert=True)
    hooks.announcement_posted(hooks.AnnouncementPosted(game, announcement))  # its push
    return announcement


def mark_seen(game: Game, user: User, until: datetime) -> bool:
    """The reader has seen the Events page up to `until` (the newest speech or announcement on
    it). Written only when it moves forward: a reload writes nothing, so the campaign's pages
    (kept under its revision, which this row raises) are drawn again at most once for each new
    speech a reader reads. True when something was written."""
    with transaction.atomic():
        seen = (EventsSeen.objects.select_for_update(no_key=True)
                .filter(game=game, user=user).first())
        if seen is not None:
            if seen.seen_until >= until:
                return False
            seen.seen_until = until
            seen.save(update_fields=["seen_until"])
            return True
        try:
            with transaction.atomic():  # another tab of his may have written it meanwhile
                EventsSeen.objects.create(game=game, user=user, seen_until=until)
        except IntegrityError:
            return mark_seen(game, user, until)
        return True
