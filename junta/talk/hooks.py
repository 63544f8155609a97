"""What other apps do when a private message is posted, without this package importing them.

Talk sits below notify: notify reads talk's models and services, talk never imports notify's.
Notify registers a callback here in its `AppConfig.ready()` (the push of a new message), and
`services.do_post` calls every callback with a `MessagePosted`, inside its transaction, once the
message is saved (never for a form sent twice). A callback queues its work for after the commit
(`transaction.on_commit`): a message rolled back is nobody's news. A callback that raises rolls
the message back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from junta.talk.models import Conversation, Message


@dataclass(frozen=True)
class MessagePosted:
    conversation: Conversation
    message: Message


_callbacks: list[Callable[[MessagePosted], None]] = []


def on_message_posted(callback: Callable[[MessagePosted], None]) -> None:
    """Call `callback` each time a message is posted (once, however often it registers)."""
    if callback not in _callbacks:
        _callbacks.append(callback)


def message_posted(posted: MessagePosted) -> None:
    for callback in _callbacks:
        callback(posted)
