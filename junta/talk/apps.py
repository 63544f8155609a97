"""Table talk: the players' private conversations in a campaign (docs/rules.md §talk)."""

from django.apps import AppConfig


class TalkConfig(AppConfig):
    name = "junta.talk"
    label = "talk"
    verbose_name = "Private conversations"

    def ready(self) -> None:
        from junta.games.public import watch as watch_revisions
        from junta.talk.models import Conversation, Member, Message

        # the game menu of every campaign page counts each viewer's unread messages
        watch_revisions(Conversation, "game_id")
        watch_revisions(Member, "conversation__game_id")
        watch_revisions(Message, "conversation__game_id")

        from junta.games.public import renders

        renders("private message", "private messages", lambda game_id: Message.objects.all()
                if game_id is None else Message.objects.filter(conversation__game_id=game_id))
