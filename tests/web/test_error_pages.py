"""The error pages are the site's own: a page in the site's layout, in English, that says what
happened and that nothing was saved, for 400, 403, 404, 500 and a form refused for its CSRF
token. (Their accessibility and HTML are checked by the browser crawl in tests/e2e.)"""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_missing_page_answers_404_in_the_sites_layout(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "<title>Not found · Junta</title>" in html
    assert "There is no such page" in html
    assert 'href="/rules/"' in html


def test_a_form_without_its_csrf_token_is_refused_with_an_explanation(django_user_model):
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user(email="a@example.org"))
    response = client.post("/games/new/", {"name": "Papayas"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "<title>Form expired · Junta</title>" in html
    assert "nothing was saved" in html


def test_the_500_page_needs_no_request_or_context():
    # Django draws it with an empty context: no user, no messages, no query
    html = render_to_string("500.html")
    assert "<title>Server error · Junta</title>" in html
    assert "Something went wrong on our side" in html
    assert "{%" not in html and "{{" not in html


def test_a_control_character_is_refused_on_the_400_page(client):
    response = client.get("/rules/?q=a%00b")
    assert response.status_code == 400
    html = response.content.decode()
    assert "<title>Bad request · Junta</title>" in html
