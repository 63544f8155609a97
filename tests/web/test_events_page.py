"""The Events page as players use it, through the browser's forms (CSRF token included): the
form to speak and the speeches first, then this turn's reports; what is new since the last
visit marked, once; a reply that quotes the speech it answers; and the rules of talk
(docs/rules.md §talk): "An exile may not trade or deal with anyone: he may read his
conversations, but sends nothing until he returns, and may not make speeches"; "The dead may
talk"."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from junta.engine import Status
from junta.games import repository, selectors
from junta.games.campaigns import start_campaign
from junta.games.models import ContentRevision, EventsSeen, Game, Player, Speech
from junta.games.speeches import post_speech
from junta.gm.services import update_settings
from tests.web.browser_forms import csrf_browser as browser
from tests.web.browser_forms import form_with, forms_in, submit
from tests.web.campaigns import open_phase, play_days, state_of

pytestmark = pytest.mark.django_db


def started(campaign, days: int = 0) -> tuple[Game, list]:
    game, users = campaign()
    start_campaign(game.id, game.gm)
    if days:
        play_days(game, users, days)
    return game, users


def page(client: Client, game: Game, query: str = "") -> str:
    response = client.get(reverse("game_events", args=[game.id]) + query)
    assert response.status_code == 200
    return response.content.decode()


def speech_form(text: str):
    """The form to speak on the page (the one with a `body` textarea and a Post button)."""
    found = [f for f in forms_in(text) if "body" in f.names() and "reply_to" in f.names()]
    assert len(found) == 1, "one form to speak"
    return found[0]


def revision(game: Game) -> int:
    return ContentRevision.objects.get(game=game).number


def seat_of(game: Game, user) -> int:
    return Player.objects.get(game=game, user=user, membership=Player.Membership.ACTIVE).seat


def set_status(game: Game, seat: int, status: Status) -> None:
    phase = open_phase(game)
    state = state_of(phase)
    state.players[seat].status = status
    repository.rewrite_state_before(phase, state)


def test_the_form_and_the_speeches_come_before_the_reports(campaign):
    game, users = started(campaign, days=1)  # the nominations are adjudicated: a report
    post_speech(game, users[1], "Viva la junta! SPEECH-ORDER")
    text = page(browser(users[0]), game)
    form, speech, reports = (text.index('id="speak-heading"'), text.index("SPEECH-ORDER"),
                             text.index('id="latest-h"'))
    assert form < speech < reports


def test_what_is_new_since_the_last_visit_is_marked_once(campaign):
    game, users = started(campaign)
    reader = browser(users[0])
    assert "new since your last visit" not in page(reader, game)
    assert not EventsSeen.objects.exists()  # nothing new: nothing written
    first = post_speech(game, users[1], "The first word.")
    second = post_speech(game, users[2], "The second word.")
    mine = post_speech(game, users[0], "My own word.")
    assert selectors.unread_speeches(game, users[0]) == 2  # not my own

    text = page(reader, game)
    assert "2 new since your last visit" in text
    assert f'href="#speech-{second.id}"' in text  # the jump link: the newest new speech
    for speech in (first, second):
        article = text[text.index(f'id="speech-{speech.id}"'):]
        assert article.index('badge-new') < article.index("</article>")
    own = text[text.index(f'id="speech-{mine.id}"'):]
    assert "badge-new" not in own[:own.index("</article>")]
    assert selectors.unread_speeches(game, users[0]) == 0

    before = revision(game)
    again = page(reader, game)
    assert "new since your last visit" not in again and "badge-new" not in again
    page(reader, game)
    assert revision(game) == before  # a reload writes nothing


def test_a_deadline_the_gm_moved_with_an_announcement_is_news(campaign):
    """The GM extends the deadline from his Time page, announcing it: a player who read the
    Events page before finds it marked new and counted ("1 new since your last visit"); the
    campaign's opening line never is."""
    from junta.games.models import AuditEntry

    game, users = started(campaign)
    reader = browser(users[0])
    assert "new since your last visit" not in page(reader, game)
    post_speech(game, users[1], "Read before the extension.")
    page(reader, game)  # read up to here
    gm = browser(game.gm)
    time_page = gm.get(reverse("gm_time", args=[game.id])).content.decode()
    form = form_with(time_page, "extend-phase", str(open_phase(game).number))
    form.set("extend-hours", "12").set("extend-announcement", "Twelve more hours, gentlemen.")
    submit(gm, reverse("gm_extend", args=[game.id]), form)
    action = AuditEntry.objects.get(game=game, action="extend")
    assert selectors.unread_speeches(game, users[0]) == 1
    text = page(reader, game)
    assert "1 new since your last visit" in text and f'href="#action-{action.pk}"' in text
    entry = text[text.index("Twelve more hours, gentlemen."):]
    before = text[:text.index("Twelve more hours, gentlemen.")]
    assert before.rindex("badge-new") > before.rindex("<article")  # in the entry itself
    assert "badge-new" not in entry[entry.index("</article>"):]  # nothing else is new
    assert selectors.unread_speeches(game, users[0]) == 0
    assert selectors.unread_speeches(game, game.gm) == 1  # the speech; his own action, not
    # an action's announcement is Markdown, as his free ones are
    from junta.gm import services as gm

    gm.pause(game.id, game.gm, announcement="The Republic **pauses** for <carnival>.")
    assert "The Republic <strong>pauses</strong> for &lt;carnival&gt;." in page(reader, game)


def test_the_page_is_kept_and_the_revision_rises_once_per_new_speech(campaign):
    """The page is kept per viewer (junta/games/page_cache.py): seen again with nothing new,
    it costs the session, the person and the revision; a new speech raises the revision once
    when posted and once more when the reader's point moves, never on a reload."""
    game, users = started(campaign)
    reader = browser(users[0])
    url = reverse("game_events", args=[game.id])
    reader.get(url)  # the campaign's opening announcement is no news: nothing written
    with CaptureQueriesContext(connection) as kept:
        reader.get(url)
    assert len(kept.captured_queries) == 3
    posted = revision(game)
    post_speech(game, users[1], "Something new.")
    assert revision(game) == posted + 1
    assert "1 new since your last visit" in page(reader, game)
    assert revision(game) == posted + 2
    page(reader, game)
    page(reader, game)
    assert revision(game) == posted + 2


def test_the_gm_has_new_marks_too_and_outsiders_none(campaign, django_user_model):
    game, users = started(campaign)
    post_speech(game, game.gm, "The GameMaster's own word.")
    post_speech(game, users[3], "A word for the GameMaster.")
    gm = browser(game.gm)
    assert "1 new since your last visit" in page(gm, game)
    assert "new since your last visit" not in page(gm, game)
    stranger = django_user_model.objects.create_user(email="stranger@example.org")
    # an outsider of a campaign under way reads it only as a watcher (`watching`), on his own
    # page, nothing marked: none at all while it is not watchable
    outsider = browser(stranger)
    assert outsider.get(reverse("game_events", args=[game.id])).status_code == 404
    update_settings(game.id, game.gm, {"watchable": True, "watch_delay": 0})
    watched = outsider.get(reverse("game_events", args=[game.id]), follow=True)
    assert watched.status_code == 200 and "You are watching" in watched.content.decode()
    assert "new since your last visit" not in watched.content.decode()
    assert selectors.unread_speeches(game, stranger) == 0
    assert not EventsSeen.objects.filter(user=stranger).exists()


def test_a_reply_opens_with_the_speech_quoted_and_keeps_its_link(campaign):
    game, users = started(campaign)
    said = post_speech(game, users[1], "Papayas for everyone!\n\n**No** taxes.")
    client = browser(users[0])
    text = page(client, game, f"?reply_to={said.id}")
    speaker = said.speaker
    assert f"Replying to {html.escape(speaker)}" in text
    form = speech_form(text)
    quoted = form.control("body").value
    assert quoted.startswith(f"> **{speaker}** wrote:\n>\n> Papayas for everyone!\n>\n"
                             "> **No** taxes.")
    assert form.control("reply_to").value == str(said.id)
    # the page's own Reply link gives the same form
    assert f'href="?reply_to={said.id}#speak"' in page(client, game)
    response = submit(client, reverse("game_events", args=[game.id]),
                      form.type_text("body", quoted + "Taxes for nobody, then."))
    assert response.status_code == 302
    reply = Speech.objects.exclude(pk=said.pk).get()
    assert reply.reply_to_id == said.id
    assert reply.body.startswith(f"> **{speaker}** wrote:")
    shown = page(client, game)
    assert f'href="#speech-{said.id}"' in shown and "<blockquote>" in shown


def test_an_exile_may_not_make_speeches(campaign):
    """docs/rules.md §talk: "An exile may not trade or deal with anyone: he may read his
    conversations, but sends nothing until he returns, and may not make speeches"."""
    game, users = started(campaign)
    client = browser(users[0])
    form = speech_form(page(client, game))  # drawn while he was still at home
    set_status(game, seat_of(game, users[0]), Status.EXILED)
    text = page(client, game)
    assert "may not deal with anyone" in text
    assert not [f for f in forms_in(text) if "reply_to" in f.names()]  # no form to speak
    assert ">Reply<" not in text
    response = submit(client, reverse("game_events", args=[game.id]),
                      form.type_text("body", "Greetings from abroad."))
    assert response.status_code == 400
    refused = response.content.decode()
    assert "may not deal with anyone" in refused
    assert "Greetings from abroad." in refused  # what he typed is shown back, not lost
    assert not Speech.objects.exists()
    # the others still speak, and the GM
    post_speech(game, users[1], "Good riddance.")
    post_speech(game, game.gm, "Order in the Chamber.")
    assert Speech.objects.count() == 2
    # his Status page places him abroad, not at a location still to choose
    status = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "<dt>Location</dt><dd>in exile, abroad</dd>" in status


def test_the_dead_may_talk(campaign):
    """docs/rules.md §talk: "The dead may talk, in speeches and in private"."""
    game, users = started(campaign)
    set_status(game, seat_of(game, users[0]), Status.DEAD)
    client = browser(users[0])
    form = speech_form(page(client, game))
    response = submit(client, reverse("game_events", args=[game.id]),
                      form.type_text("body", "I speak from the grave."))
    assert response.status_code == 302
    assert Speech.objects.get().body == "I speak from the grave."
