"""Private conversations' rows of one campaign in its file (`junta.gm.backup`): the
conversations, their members (how far each has read) and their messages, without the messages'
HTML (an import renders and sanitises it again from its Markdown). The machinery is the
players' side's (`junta.games.public`: `AppArchive`, `ArchiveTable`).
"""

from __future__ import annotations

from junta.games.public import ARCHIVE_USERS, AppArchive, ArchiveTable
from junta.talk.models import Conversation, Member, Message

# In the order an import creates them, after the players' side's tables they refer to.
TALK_ARCHIVE = AppArchive((
    ArchiveTable("conversations", Conversation, lambda g: Conversation.objects.filter(game=g),
                 {"started_by": ARCHIVE_USERS}),
    ArchiveTable("conversation_members", Member,
                 lambda g: Member.objects.filter(conversation__game=g),
                 {"conversation": "conversations", "user": ARCHIVE_USERS,
                  "player": "players"}),
    ArchiveTable("messages", Message, lambda g: Message.objects.filter(conversation__game=g),
                 {"conversation": "conversations", "author": ARCHIVE_USERS},
                 derived=frozenset({"body_html"}), render=Message.render),
))
