"""What the other apps may use of private conversations (talk), and nothing else of it.

The apps above talk (notify, ops, the GM panel, the API) import from this module only (an import
contract in pyproject.toml enforces it):

- the models, for notify's mails about new messages and the API (`Conversation`, `Member`,
  `Message`);
- who reads what (`reader_for`, `may_read`, `readable`, `membership`), so that the API and the
  mails show a person exactly what the pages show him;
- the services that change talk's rows (`start`, `post`, `mark_read`; `drop_player` and
  `hand_over` for the GM panel, when a seat changes hands), and their `TalkError`: no other app
  writes talk's rows itself (notify keeps what its mails told each member in its own rows);
- the unread counts (`unread_by_game`, `unread_by_conversation`) and the reveals a person
  has yet to answer (`unanswered_by_game`), for the dashboard;
- the hook a new message calls (`on_message_posted`, `MessagePosted`), for notify's push;
- the demo's conversations, for ops' demo campaigns;
- talk's rows of a campaign in its file, for the GM panel's backups (`TALK_ARCHIVE`).
"""

from __future__ import annotations

from junta.talk.access import GM_NAME, Reader, may_read, membership, readable, reader_for
from junta.talk.archive import TALK_ARCHIVE
from junta.talk.consent import unanswered_by_game
from junta.talk.demo import demo_talk, reveal_first, talk_during_first
from junta.talk.hooks import MessagePosted, on_message_posted
from junta.talk.models import Conversation, Member, Message
from junta.talk.selectors import unread_by_conversation, unread_by_game
from junta.talk.services import (
    TalkError,
    drop_player,
    hand_over,
    mark_read,
    post,
    start,
)

__all__ = [
    "Conversation", "GM_NAME", "Member", "Message", "MessagePosted", "Reader", "TalkError",
    "demo_talk", "on_message_posted",
    "drop_player", "hand_over", "mark_read", "may_read", "membership", "post",
    "readable", "reader_for", "reveal_first", "start", "talk_during_first",
    "unanswered_by_game", "unread_by_conversation", "unread_by_game",
    # a campaign's file (junta.gm.backup)
    "TALK_ARCHIVE",
]
