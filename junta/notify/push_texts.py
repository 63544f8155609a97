"""The words of each push notification. A push is shown on a locked phone's screen, to whoever
holds it: it never holds a secret (no card, no money, no order, not a word of a message or of
its subject), only which campaign, what kind of news, which turn, and who wrote: "Turn 5,
Budget Vote: results are out", "Don Isabel wrote to you". The page its link opens shows the
rest to the one who may read it.

The payload is the service worker's (static `sw.js`): UTF-8 JSON `{"title", "body", "url",
"tag"}`, `url` a path of this site, `tag` one notification that replaces the one before it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from junta.games.public import Game


@dataclass(frozen=True)
class PushText:
    title: str
    body: str
    url: str  # a path of this site ("/games/3/status/")
    tag: str

    def payload(self) -> bytes:
        return json.dumps(asdict(self), ensure_ascii=False).encode("utf-8")


def _title(game: Game) -> str:
    return game.name


def results(game: Game, turn: int, title: str) -> PushText:
    """`turn` and `title` of the phase published (engine's `current_phase`: public), e.g.
    "Turn 5, Budget Vote: results are out" (a turn has several phases)."""
    what = (_("Turn %(turn)s, %(phase)s: results are out") % {"turn": turn, "phase": title}
            if turn else _("%(phase)s: results are out") % {"phase": title})
    return PushText(_title(game), what, reverse("game_status", args=[game.id]),
                    f"junta-{game.id}-results")


def message(game: Game, conversation_id: int, author_name: str) -> PushText:
    """`author_name`: how the writer signs in the conversation (his character, or "The
    GameMaster"), as its members' pages show him."""
    return PushText(_title(game), _("%(name)s wrote to you") % {"name": author_name},
                    reverse("talk_conversation", args=[game.id, conversation_id]),
                    f"junta-{game.id}-talk-{conversation_id}")


def reminder(game: Game, hours: int) -> PushText:
    due = _("Orders due in less than an hour") if hours < 1 else ngettext(
        "Orders due in %(hours)s hour", "Orders due in %(hours)s hours", hours) % {"hours": hours}
    return PushText(_title(game), due, reverse("game_orders", args=[game.id]),
                    f"junta-{game.id}-reminder")


def announcement(game: Game) -> PushText:
    return PushText(_title(game), _("The GameMaster made an announcement"),
                    reverse("game_events", args=[game.id]), f"junta-{game.id}-announcement")


def awards(game: Game) -> PushText:
    return PushText(_title(game), _("The awards are open"),
                    reverse("polls_index", args=[game.id]), f"junta-{game.id}-awards")


BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"),
            ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"),
            ("Chrome/", "Chrome"), ("Safari/", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
           ("Windows", "Windows"), ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"),
           ("Linux", "Linux"))


def device_label(user_agent: str) -> str:
    """How the profile names a device, from the User-Agent of the request that subscribed it:
    "Chrome on Android", "Firefox on Windows", "A browser" when it says nothing we know."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in SYSTEMS if mark in user_agent), None)
    if browser and system:
        return f"{browser} on {system}"
    return browser or (f"A browser on {system}" if system else "A browser")
