"""The opt-in mail of new private messages (docs/rules.md §talk): to a member who asked for it
(`Preferences.messages`), about what others wrote in one of his conversations since he last
read it, and never more than one mail a conversation an hour. What he has read, or was told of
already, is never mailed; a member who left, or a person no longer in the campaign, gets none.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from functools import partial

from django.db.models import Exists, F, OuterRef
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext

from junta.notify.mail import Mail, deliver, site_url
from junta.notify.models import ConversationMail, Kind, Preferences
from junta.talk.public import Member, Message, reader_for

MAIL_EVERY = timedelta(hours=1)
MAX_IN_MAIL = 20  # the newest messages a mail quotes; the page has the rest


def _stamp(moment: datetime) -> str:
    return f"{moment.timestamp():.6f}"


def mail_key(member: Member, last: Message) -> str:
    """The mail's claim: the conversation and its last message, both by their time (a restored
    backup keeps times, not ids), for this member (claims are per person)."""
    return f"talk:{_stamp(member.conversation.created_at)}:{_stamp(last.created_at)}"


def mailed_until(members: list[Member]) -> dict[int, datetime | None]:
    """By member: when the last message a mail told him of was written (one query); a member
    never mailed in his conversation is not in it."""
    rows = ConversationMail.objects.filter(member__in=[m.pk for m in members],
                                           user=F("member__user"))
    return {row.member_id: row.mailed_until for row in rows}


def unmailed(member: Member, told_until: datetime | None) -> list[Message]:
    """What others wrote since he read the conversation and since the last mail told him
    (`told_until`, from `mailed_until`)."""
    seen = max((t for t in (member.read_until, told_until) if t is not None), default=None)
    rows = Message.objects.filter(conversation_id=member.conversation_id) \
        .exclude(author_id=member.user_id).order_by("-id")
    if seen is not None:
        rows = rows.filter(created_at__gt=seen)
    return list(reversed(rows[:MAX_IN_MAIL + 1]))


def message_mail(member: Member, messages: list[Message]) -> Mail | None:
    talk = member.conversation
    game = talk.game
    if not messages:
        return None
    shown = messages[-MAX_IN_MAIL:]
    count = len(messages)
    more = "" if count <= MAX_IN_MAIL else f"{MAX_IN_MAIL}+"
    subject = ngettext("%(game)s: %(count)s new message in “%(subject)s”",
                       "%(game)s: %(count)s new messages in “%(subject)s”", count) % {
        "game": game.name, "count": more or count, "subject": talk.subject}
    return Mail("messages", subject, {
        "game": game, "talk": talk, "member": member,
        # the HTML stored when each message was posted (rendered and sanitised by nh3 then)
        "items": [{"message": m, "html": mark_safe(m.body_html)} for m in shown],  # noqa: S308
        "more": count > MAX_IN_MAIL,
        "url": site_url(reverse("talk_conversation", args=[game.id, talk.id])),
    })


def conversation_mails(now: datetime) -> Counter[str]:
    """Each due mail of new messages, once. Called by the notification sweep."""
    outcomes: Counter[str] = Counter()
    wanting = {(p.user_id, p.game_id): p for p in
               Preferences.objects.filter(messages=True).select_related("user", "game")}
    if not wanting:
        return outcomes
    mailed_lately = ConversationMail.objects.filter(
        member=OuterRef("pk"), user=OuterRef("user"), mailed_at__gt=now - MAIL_EVERY)
    members = list(Member.objects.filter(left_at__isnull=True,
                                         user_id__in={user for user, _ in wanting})
                   .exclude(Exists(mailed_lately))
                   .select_related("conversation__game", "user"))
    told = mailed_until(members)
    for member in members:
        game = member.conversation.game
        prefs = wanting.get((member.user_id, game.id))
        if prefs is None or reader_for(game, member.user) is None:
            continue  # he did not ask in this campaign, or is no longer in it
        messages = unmailed(member, told.get(member.pk))
        if not messages:
            continue
        prefs.game = game
        result = deliver(member.user, game, Kind.MESSAGES, mail_key(member, messages[-1]),
                         prefs, partial(message_mail, member, messages), now)
        outcomes[result] += 1
        if result != "failed":  # told (or told before): the next mail waits an hour
            ConversationMail.objects.update_or_create(
                member=member, user_id=member.user_id,
                defaults={"mailed_until": messages[-1].created_at, "mailed_at": now})
    return outcomes
