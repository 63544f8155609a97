"""The Events page: "Log in, go to the Events Page and click "Reply." Once you are happy with your
speech you can preview or submit it for posting. It will appear immediately at the top of the
Events Page." (rules text, How do I Post a Speech?)"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from junta.games.campaigns import create_game, join_game
from junta.games.models import Game, Speech
from junta.games.speeches import post_speech
from junta.site.events import SPEECHES_PER_PAGE

pytestmark = pytest.mark.django_db


def make_user(name: str):
    return get_user_model().objects.create_user(email=f"{name}@example.org", display_name=name)


@pytest.fixture
def game():
    game = create_game(make_user("GM"), "Events game", join_policy=Game.JoinPolicy.OPEN)
    for name in ("Carlos", "Isabel"):
        join_game(game.id, make_user(name), f"Don {name}")
    return game


def test_preview_then_post_and_the_speech_is_at_the_top(client, game):
    post_speech(game, game.gm, "Welcome to the Republic.")
    carlos = get_user_model().objects.get(display_name="Carlos")
    client.force_login(carlos)
    url = reverse("game_events", args=[game.id])
    response = client.post(url, {"body": "**Viva** la junta!", "preview": "1"})
    html = response.content.decode()
    assert "Preview: not posted yet." in html and "<strong>Viva</strong>" in html
    assert Speech.objects.count() == 1  # a preview posts nothing

    response = client.post(url, {"body": "**Viva** la junta!", "post": "1"})
    assert response.status_code == 302
    html = client.get(url).content.decode()
    first, second = html.index("Don Carlos</h3>"), html.index("The GameMaster</h3>")
    assert first < second  # newest first


def test_reply_links_to_the_speech_it_answers(client, game):
    speech = post_speech(game, game.gm, "Any questions?")
    isabel = get_user_model().objects.get(display_name="Isabel")
    client.force_login(isabel)
    url = reverse("game_events", args=[game.id])
    page = client.get(f"{url}?reply_to={speech.id}").content.decode()
    assert "Replying to The GameMaster" in page
    client.post(url, {"body": "Yes.", "reply_to": speech.id, "post": "1"})
    reply = Speech.objects.get(body="Yes.")
    assert reply.reply_to == speech and reply.speaker == "Don Isabel"
    assert f'href="#speech-{speech.id}"' in client.get(url).content.decode()


def test_speeches_are_sanitised(client, game):
    post_speech(game, game.gm, "<script>alert('x')</script>[x](javascript:alert(1))")
    client.force_login(game.gm)
    html = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "<script>alert" not in html and 'href="javascript:' not in html
    assert "&lt;script&gt;alert(" in html  # read as written


def test_pages_of_speeches(client, game):
    for i in range(SPEECHES_PER_PAGE + 3):
        post_speech(game, game.gm, f"Proclamation number {i}")
    client.force_login(game.gm)
    url = reverse("game_events", args=[game.id])
    first = client.get(url).content.decode()
    assert f"Proclamation number {SPEECHES_PER_PAGE + 2}" in first
    assert "Proclamation number 0<" not in first
    assert "Page 1 of 2" in first
    second = client.get(f"{url}?page=2").content.decode()
    assert "Proclamation number 0<" in second


def test_outsiders_read_but_cannot_speak(client, game):
    stranger = make_user("Stranger")
    client.force_login(stranger)
    url = reverse("game_events", args=[game.id])
    page = client.get(url).content.decode()
    assert "Speak as" not in page
    assert client.post(url, {"body": "Hello", "post": "1"}).status_code == 404
    assert not Speech.objects.exists()


def test_empty_and_overlong_speeches_are_refused_and_the_text_is_kept(client, game):
    carlos = get_user_model().objects.get(display_name="Carlos")
    client.force_login(carlos)
    url = reverse("game_events", args=[game.id])
    response = client.post(url, {"body": "   ", "post": "1"})
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    long_text = "x" * 20001
    response = client.post(url, {"body": long_text, "post": "1"})
    assert response.status_code == 400
    assert "at most 20000 characters" in response.content.decode()
    assert long_text in response.content.decode()  # nothing typed is lost
    assert not Speech.objects.exists()
