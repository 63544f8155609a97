"""The error pages are the site's own: a page in the site's layout, in English, that says what
happened, that nothing was saved, and where to go next (the dashboard and the campaigns when
signed in, log in when not), for 400, 403, 404, 500 and a form refused for its CSRF token. They
are drawn here as production and `make run` draw them, with DEBUG off (Django's technical pages
only with DJANGO_DEBUG=1). (Their accessibility and HTML are checked by the browser crawl in
tests/e2e.)"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse

from junta.games import rulebook
from junta.games.campaigns import start_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("debug_off")]

DASHBOARD = '<a href="/">Your dashboard</a>'
LOG_IN = '<a href="/accounts/login/">Log in</a>'


@pytest.fixture
def debug_off():
    with override_settings(DEBUG=False):
        yield


def site_page(response, status: int, title: str) -> str:
    assert response.status_code == status
    html = response.content.decode()
    assert '<html lang="en">' in html and 'class="site-header"' in html
    assert f"<title>{title} · Junta</title>" in html
    assert "Where next" in html and 'href="/rules/"' in html
    assert "URLconf" not in html and "Traceback" not in html  # never Django's technical page
    return html


def test_a_missing_page_answers_404_in_the_sites_layout_and_says_to_log_in(client):
    html = site_page(client.get("/no-such-page/"), 404, "Not found")
    assert "There is no such page" in html
    assert LOG_IN in html and DASHBOARD not in html


def test_a_player_opening_a_campaign_he_is_not_in_is_sent_to_his_dashboard(
        campaign, client, django_user_model):
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    stranger = django_user_model.objects.create_user(email="nosy@example.org",
                                                     display_name="Nosy")
    client.force_login(stranger)
    for name in ("game_status", "game_map"):
        html = site_page(client.get(reverse(name, args=[game.id])), 404, "Not found")
        assert "is not one you can see" in html
        assert DASHBOARD in html and '<a href="/games/">The campaigns</a>' in html
        assert ">Nosy</a>" in html and LOG_IN not in html


def test_a_refused_permission_answers_403_in_the_sites_layout(client, monkeypatch,
                                                               django_user_model):
    def refuse():
        raise PermissionDenied

    monkeypatch.setattr(rulebook, "rulebook", refuse)
    client.force_login(django_user_model.objects.create_user(email="a@example.org"))
    html = site_page(client.get("/rules/"), 403, "Not allowed")
    assert "This page is not for you" in html and DASHBOARD in html


def test_a_form_without_its_csrf_token_is_refused_with_an_explanation(django_user_model):
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user(email="a@example.org"))
    html = site_page(client.post("/games/new/", {"name": "Papayas"}), 403, "Form expired")
    assert "nothing was saved" in html and DASHBOARD in html


def test_a_server_error_answers_500_in_the_sites_layout(monkeypatch):
    def fail():
        raise RuntimeError("a bug")

    monkeypatch.setattr(rulebook, "rulebook", fail)
    client = Client(raise_request_exception=False)
    html = site_page(client.get("/rules/"), 500, "Server error")
    assert "Something went wrong on our side" in html and "a bug" not in html
    # the user is not known there: the dashboard, and log in for who is not
    assert DASHBOARD in html and '<a href="/accounts/login/">log in</a>' in html


def test_the_500_page_needs_no_request_or_context():
    # Django draws it with an empty context: no user, no messages, no query
    html = render_to_string("500.html")
    assert "<title>Server error · Junta</title>" in html
    assert "Something went wrong on our side" in html
    assert "{%" not in html and "{{" not in html


def test_a_control_character_is_refused_on_the_400_page(client):
    html = site_page(client.get("/rules/?q=a%00b"), 400, "Bad request")
    assert "could not be read" in html


def test_a_request_for_another_host_is_refused_on_the_400_page(client):
    html = site_page(client.get("/", headers={"host": "evil.example"}), 400, "Bad request")
    assert "evil.example" not in html
