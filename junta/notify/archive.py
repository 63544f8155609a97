"""The notifications' rows of one campaign in its file (`junta.gm.backup`): the preferences and
absences tied to the campaign, and the record of mails already sent (`Delivery`, and what the
mail of new messages told each member of a conversation, `ConversationMail`), so that a
restored campaign sends none twice (the pushes' claims among them). The machinery is the
players' side's (`junta.games.public`: `AppArchive`, `ArchiveTable`).

The devices a person gets pushes on (`PushDevice`) and the events he chose (`PushChoices`) are
his, not the campaign's: a campaign's file holds none (its `Preferences` keep whether he muted
its pushes).
"""

from __future__ import annotations

import re

from junta.games.public import ARCHIVE_USERS, AppArchive, ArchiveRestoring, ArchiveRow, ArchiveTable
from junta.notify.models import Absence, ConversationMail, Delivery, Preferences

# Delivery keys name the campaign's and its phases' ids (`junta.notify.notices`).
DELIVERY_KEY = re.compile(r"^(game|phase):(\d+)(?=:|$)")


def _delivery_row(row: ArchiveRow, restoring: ArchiveRestoring) -> ArchiveRow:
    """A mail already sent, under the key the new ids give it, so that it is not sent again."""
    game, phases = restoring.game, restoring.ids["phases"]

    def new_key(match: re.Match[str]) -> str:
        kind, number = match.group(1), int(match.group(2))
        if kind == "game" and number == restoring.old_game_id:
            return f"game:{game.pk}"
        if kind == "phase" and number in phases:
            return f"phase:{phases[number]}"
        return match.group(0)

    key = row.get("key")
    return {**row, "key": DELIVERY_KEY.sub(new_key, key)} if isinstance(key, str) else row


# In the order an import creates them, after the players' side's and talk's tables they refer
# to.
NOTIFY_ARCHIVE = AppArchive((
    ArchiveTable("preferences", Preferences, lambda g: Preferences.objects.filter(game=g),
                 {"user": ARCHIVE_USERS}),
    ArchiveTable("absences", Absence, lambda g: Absence.objects.filter(player__game=g),
                 {"player": "players"}),
    ArchiveTable("deliveries", Delivery, lambda g: Delivery.objects.filter(game=g),
                 {"user": ARCHIVE_USERS}, adjust=_delivery_row),
    ArchiveTable("conversation_mails", ConversationMail,
                 lambda g: ConversationMail.objects.filter(member__conversation__game=g),
                 {"member": "conversation_members", "user": ARCHIVE_USERS}),
))
