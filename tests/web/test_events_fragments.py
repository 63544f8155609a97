"""The Events page's entries are drawn once and read back from the "drawings" cache
(junta/games/fragments.py): a new speech is the one entry drawn anew while the page around it
changes, and an entry drawn for one reader is never shown to another as it was drawn for the
first (his "new" marks, his links to answer, his time zone are his own)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from junta.engine import Status
from junta.games import repository
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Player
from junta.games.speeches import post_speech
from tests.web.browser_forms import csrf_browser as browser
from tests.web.campaigns import open_phase, state_of
from tests.web.fragment_counts import drawn_page

pytestmark = pytest.mark.django_db


def events(client: Client, game: Game) -> tuple[str, int]:
    """The page drawn anew for this client, and how many fragments were drawn for it."""
    return drawn_page(client, reverse("game_events", args=[game.id]))


def entry(text: str, marker: str) -> str:
    """The <article> of the speech holding `marker`."""
    found = [a for a in re.findall(r"<article.*?</article>", text, re.S) if marker in a]
    assert len(found) == 1, marker
    return found[0]


def test_a_new_speech_is_the_one_entry_drawn_and_the_rest_are_read_back(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    for n in range(5):
        post_speech(game, users[1 + n % 3], f"Speech number {n} KEPT-{n}")
    reader = browser(users[0])
    text, drawn = events(reader, game)
    # the five speeches and the GM's start of the campaign, announced
    assert drawn == len(re.findall("<article", text)) == 6 and "KEPT-4" in text
    assert "badge-new" in entry(text, "KEPT-0")  # new to him: marked
    text, drawn = events(reader, game)
    assert drawn == 5  # read now: drawn again without the mark (the start was never news)
    assert "badge-new" not in entry(text, "KEPT-0")
    text, drawn = events(reader, game)
    assert drawn == 0  # nothing changed in them: every entry from the cache

    post_speech(game, users[2], "A new one FRESH-SPEECH")
    text, drawn = events(reader, game)
    assert drawn == 1  # the new speech only; the others are read back
    assert "badge-new" in entry(text, "FRESH-SPEECH")
    assert text.index("FRESH-SPEECH") < text.index("KEPT-4") < text.index("KEPT-0")
    assert all(f"KEPT-{n}" in text for n in range(5))


def test_an_entry_drawn_for_one_reader_is_never_shown_as_such_to_another(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    post_speech(game, users[1], "Mine, not news to me OWN-SPEECH")
    # the first reader: a player who may answer, in the default zone, to whom it is new
    first, drawn = events(browser(users[0]), game)
    assert drawn == 2  # the speech, and the GM's start of the campaign
    assert "badge-new" in entry(first, "OWN-SPEECH")
    assert "?reply_to=" in entry(first, "OWN-SPEECH")
    # its author: not new to him
    author, _ = events(browser(users[1]), game)
    assert "badge-new" not in entry(author, "OWN-SPEECH")
    # an exile, who may not make speeches: no link to answer, in his own time zone
    phase = open_phase(game)
    state = state_of(phase)
    exile = Player.objects.get(game=game, user=users[2]).seat
    state.players[exile].status = Status.EXILED
    repository.rewrite_state_before(phase, state)
    users[2].time_zone = "America/La_Paz"
    users[2].save(update_fields=["time_zone"])
    exiled, drawn = events(browser(users[2]), game)
    assert drawn == 2  # drawn for him: nothing the others were shown fits him
    assert "?reply_to=" not in entry(exiled, "OWN-SPEECH")
    assert "(America/La_Paz)" in entry(exiled, "OWN-SPEECH")
    assert "(America/La_Paz)" not in entry(first, "OWN-SPEECH")
    # and the first reader, drawn again, still has his own (no longer new: he read it)
    again, _ = events(browser(users[0]), game)
    assert "?reply_to=" in entry(again, "OWN-SPEECH")
    assert "(America/La_Paz)" not in entry(again, "OWN-SPEECH")
