"""Control characters are refused at the edge: a NUL byte (which PostgreSQL cannot store) or
another control character in an address, a query, a cookie or a form field is answered 400
with a message, and nothing changes. The models refuse them too, for text that does not come
through a request.

Every URL pattern of the site gets a NUL, logged out and as a player; every form on the pages a
player and the GM open is sent as a browser would, with a NUL typed into each text field.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import Game, Speech
from junta.ops.middleware import MESSAGE
from tests.web.browser_forms import Form, forms_in, submit

pytestmark = pytest.mark.django_db

NUL = "\x00"
NAMES = ["Ana", "Bea", "Cruz", "Dora", "Eva", "Fito"]
PROJECT_APPS = ("accounts", "api", "games", "gm", "lives", "notify", "ops", "polls", "talk")
REFUSED = "Junta does not take those: nothing was saved."


def every_pattern() -> list[tuple[str, str]]:
    """(name, route) of every URL pattern of the site, the routes joined from the root."""
    found: list[tuple[str, str]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                found.append((p.name or p.lookup_str, prefix + str(p.pattern)))

    walk(get_resolver().url_patterns, "")
    return found


def concrete(route: str, game_id: int) -> str:
    """A path for `route`: numbers are the campaign's id, every other part holds a NUL."""
    route = route.lstrip("^").rstrip("$").replace("\\Z", "").replace("\\.", ".")
    route = re.sub(r"<int:[a-z_]+>", str(game_id), route)
    route = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", f"a{NUL}b", route)
    route = re.sub(r"\(\?P<[a-z_]+>[^)]*\)", f"a{NUL}b", route)
    return "/" + route


def snapshot() -> str:
    """Every row of the project's own tables (and the users), as JSON: what nothing may
    change. Login times are left out (a login is not a change a request may not make)."""
    rows = []
    for label in PROJECT_APPS:
        for model in apps.get_app_config(label).get_models():
            rows += list(model.objects.order_by("pk"))
    text = serializers.serialize("json", rows)
    return re.sub(r'"last_login": "[^"]*"', "", text)


@pytest.fixture
def running_game():
    users = get_user_model().objects
    gm = users.create_user(email="gm@example.org", display_name="GM")
    game = create_game(gm, "Papayas", max_players=10, join_policy=Game.JoinPolicy.OPEN)
    players = []
    for name in NAMES:
        user = users.create_user(email=f"{name.lower()}@example.org", display_name=name)
        join_game(game.id, user, f"Don {name}")
        players.append(user)


    start_campaign(game.id, gm)
    return game, gm, players


def test_every_url_pattern_answers_a_nul_with_400_and_a_message(running_game, client):
    game, _, players = running_game
    patterns = every_pattern()
    assert len(patterns) > 40
    for who in (None, players[0]):
        if who is not None:
            client.force_login(who)
        for name, route in patterns:
            bare = concrete(route, game.id)
            for path in [bare + f"?q={NUL}", *([bare] if NUL in bare else [])]:
                response = client.get(path)
                assert response.status_code == 400, (name, path, response.status_code)
                assert REFUSED in response.content.decode(), (name, path)


def test_a_nul_in_a_cookie_is_refused_before_the_session_is_read(running_game, client):
    client.cookies["sessionid"] = f"abc{NUL}def"
    response = client.get("/")
    assert response.status_code == 400
    assert MESSAGE.format(where="a cookie") in response.content.decode()


def text_controls(form: Form) -> list[str]:
    return [c.name for c in form.controls if c.name and (
        c.type == "textarea" or (c.tag == "input" and c.type in (
            "text", "email", "search", "url", "tel", "password")))]


def pages_of(game: Game) -> list[str]:
    gid = game.id
    names = ["game_status", "game_orders", "game_events", "game_character", "game_detail",
             "game_notifications"]
    gm_names = ["gm_overview", "gm_players", "gm_time", "gm_review", "gm_rulings",
                "gm_history", "gm_settings"]
    return ([reverse(n, args=[gid]) for n in names] + [reverse(n, args=[gid]) for n in gm_names]
            + [reverse("lobby"), reverse("notify_overview"), "/accounts/profile/",
               "/accounts/password/change/", "/accounts/email/", "/games/new/"])


def test_every_form_refuses_a_nul_in_each_text_field_and_changes_nothing(running_game,
                                                                         client):
    game, gm, players = running_game
    tried = 0
    for who in (players[0], gm):
        client.force_login(who)
        for url in pages_of(game):
            response = client.get(url)
            if response.status_code != 200:
                continue
            for form in forms_in(response.content.decode()):
                if form.attrs.get("method", "get").lower() != "post":
                    continue
                for name in text_controls(form):
                    before = snapshot()
                    form.control(name).value = f"Viva{NUL}la revolucion"
                    sent = submit(client, url, form)
                    assert sent.status_code == 400, (url, name, sent.status_code)
                    assert MESSAGE.format(where="a form field") in sent.content.decode()
                    assert snapshot() == before, (url, name)
                    form.control(name).value = ""
                    tried += 1
    assert tried >= 15, tried


def test_lines_and_tabs_are_text_in_a_form_field(running_game, client):
    game, _, players = running_game
    client.force_login(players[0])
    url = reverse("game_events", args=[game.id])
    (form,) = [f for f in forms_in(client.get(url).content.decode())
               if any(c.type == "textarea" for c in f.controls)]
    name = next(c.name for c in form.controls if c.type == "textarea")
    form.control(name).value = "Compatriots!\n\tThe Junta lies."
    assert submit(client, url, form).status_code in (200, 302)
    assert Speech.objects.filter(body__contains="\tThe Junta lies.").exists()


def test_the_models_refuse_a_control_character_that_did_not_come_through_a_request(
        running_game):
    game, *_ = running_game
    game.name = f"Papayas{NUL}"
    with pytest.raises(ValidationError, match="Game.name may not hold a control character"):
        game.save()
    game.refresh_from_db()
    assert game.name == "Papayas"
    # nor a lone surrogate (JSON may carry one), in any of the project's apps: a message too
    from junta.talk import access as talk_access
    from junta.talk import services as talk_services
    from junta.talk.models import Message

    reader = talk_access.reader_for(game, game.players.get(seat=0).user)
    assert reader is not None
    talk = talk_services.start(reader, "Deal", [game.players.get(seat=1)], False, "Hello")
    message = talk.messages.get()
    for bad in (NUL, "\ud800"):
        message.body = f"Hello{bad}"
        with pytest.raises(ValidationError, match="Message.body may not hold a control"):
            message.save()
    assert Message.objects.get(pk=message.pk).body == "Hello"
