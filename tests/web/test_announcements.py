"""Markdown written outside speeches, sanitised as speeches are: the GameMaster's announcements
(posted from his panel or from the Events page, shown among the speeches, marked as his; a
player may not post one) and the families' bios on the campaign's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from junta.games import selectors
from junta.games.campaigns import CampaignError, start_campaign
from junta.games.models import Announcement, Character, Game
from junta.games.speeches import post_announcement, post_speech
from tests.web.active_markup import active
from tests.web.browser_forms import csrf_browser as browser
from tests.web.browser_forms import forms_in, submit

pytestmark = pytest.mark.django_db

NARRATION = "The rains come early.\n\n**Martial law** in the <script>alert('x')</script> port."


def started(campaign) -> tuple[Game, list]:
    game, users = campaign()
    start_campaign(game.id, game.gm)
    return game, users


def announce_form(text: str):
    found = [f for f in forms_in(text) if "announce-body" in f.names()]
    assert len(found) == 1
    return found[0]


def test_the_gm_announces_from_his_panel_and_every_player_reads_it(campaign):
    game, users = started(campaign)
    post_speech(game, users[1], "An older speech.")
    gm = browser(game.gm)
    url = reverse("gm_announce", args=[game.id])
    panel = gm.get(reverse("gm_overview", args=[game.id])).content.decode()
    assert f'href="{url}"' in panel  # in the panel's navigation
    response = submit(gm, url, announce_form(gm.get(url).content.decode())
                      .type_text("announce-body", NARRATION))
    assert response.status_code == 302 and response["Location"] == url
    announcement = Announcement.objects.get()
    assert announcement.author == game.gm and announcement.phase is not None

    player = browser(users[0])
    events = player.get(reverse("game_events", args=[game.id])).content.decode()
    entry = events[events.index(f'id="announcement-{announcement.id}"'):]
    entry = entry[:entry.index("</article>")]
    assert "From the GameMaster" in entry and "badge-new" in entry
    assert "<strong>Martial law</strong>" in entry
    assert "<script>alert" not in events and "&lt;script&gt;alert('x')" in events
    # among the speeches, newest first
    assert events.index("Martial law") < events.index("An older speech.")
    assert selectors.unread_speeches(game, users[0]) == 0
    assert "badge-new" not in player.get(reverse("game_events", args=[game.id])).content.decode()


def test_the_gm_announces_from_the_events_page(campaign):
    game, users = started(campaign)
    gm = browser(game.gm)
    events_url = reverse("game_events", args=[game.id])
    form = announce_form(gm.get(events_url).content.decode())
    response = submit(gm, events_url,
                      form.type_text("announce-body", "Night falls on the *capital*."))
    assert response.status_code == 302 and response["Location"] == events_url
    shown = gm.get(events_url).content.decode()
    assert "Your announcement is at the top of the Events page." in shown
    assert "<em>capital</em>" in shown
    # an empty one is refused with its reason, on the panel's page (nothing to lose)
    response = submit(gm, events_url, announce_form(shown).type_text("announce-body", "  "))
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    assert Announcement.objects.count() == 1


def test_a_player_may_not_announce(campaign):
    game, users = started(campaign)
    gm_page = browser(game.gm).get(reverse("game_events", args=[game.id])).content.decode()
    form = announce_form(gm_page).type_text("announce-body", "I am the GameMaster now.")
    player = browser(users[0])
    events = player.get(reverse("game_events", args=[game.id])).content.decode()
    assert "announce-body" not in events and "Post an announcement" not in events
    url = reverse("gm_announce", args=[game.id])
    assert player.get(url).status_code == 404
    response = player.post(url, dict(form.submission()))
    assert response.status_code in (403, 404)
    with pytest.raises(CampaignError):
        post_announcement(game, users[0], "I am the GameMaster now.")
    assert not Announcement.objects.exists()


def test_a_bio_is_markdown_and_its_script_is_removed(campaign):
    game, users = campaign(players=6)
    character = Character.objects.get(player__user=users[0])
    character.bio = ("A *soldier* of the Republic.\n\n- born in the port\n- **feared**\n\n"
                     "<script>alert('bio')</script>[me](javascript:alert(1))")
    character.save()
    client = browser(users[1])
    text = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "<em>soldier</em>" in text and "<li><strong>feared</strong></li>" in text
    assert "<script>alert" not in text and 'href="javascript:' not in text
    bio = text[text.index("<em>soldier</em>"):]
    assert active(bio[:bio.index("</div>")]) == []  # the script reads as text, acts not
