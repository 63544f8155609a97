"""Each phase's report is drawn once per viewer and then read from the cache (§timing: the
reports are published once and do not change). The key is made of everything the report is
drawn from, so another viewer, another time zone or a changed result never gets a report drawn
for something else."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from junta.games import play, report_pages
from junta.games.campaigns import start_campaign
from junta.games.models import PhaseResult
from tests.web.campaigns import play_days

pytestmark = pytest.mark.django_db

SECRET = "SECRET-FOR-SEAT-1-7731."


@pytest.fixture
def told(campaign):
    """A campaign three phases in whose latest result has a line told to seat 1 only."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)
    result = PhaseResult.objects.filter(phase__game=game).order_by("-phase__number").first()
    result.events = [*result.events, {"kind": "note", "audience": [1], "text": SECRET,
                                      "data": {}}]
    result.save(update_fields=["events"])
    return game, users


def history(client, user, game) -> str:  # noqa: ANN001
    client.force_login(user)
    response = client.get(reverse("game_history", args=[game.id]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_report_is_drawn_once_per_viewer(told, client, monkeypatch):
    game, users = told
    drawn: list[object] = []
    real = play.reports
    monkeypatch.setattr(play, "reports", lambda *a, **k: drawn.append(a[1]) or real(*a, **k))
    first = history(client, users[1], game)
    assert SECRET in first and drawn == [1]
    second = history(client, users[1], game)
    assert reports_of(second) == reports_of(first)
    assert drawn == [1]  # the second view drew nothing
    other = history(client, users[0], game)  # another seat: drawn for him, without the line
    assert SECRET not in other and drawn == [1, 0]
    assert reports_of(other) != reports_of(first)


def reports_of(page: str) -> list[str]:
    return re.findall(r'<article class="report".*?</article>', page, re.S)


def test_the_key_holds_the_viewer_the_time_zone_and_the_result(told):
    game, _users = told
    result = play.history_results(game).first()
    key = report_pages.report_key(result, 1, maps=True, speech_count=0)
    assert key != report_pages.report_key(result, 0, maps=True, speech_count=0)
    assert key != report_pages.report_key(result, "gm", maps=True, speech_count=0)
    assert key != report_pages.report_key(result, 1, maps=False, speech_count=0)
    assert key != report_pages.report_key(result, 1, maps=True, speech_count=3)
    with timezone.override("America/Havana"):
        assert key != report_pages.report_key(result, 1, maps=True, speech_count=0)
    result.events = [*result.events, {"kind": "note", "audience": "public", "text": "Rain.",
                                      "data": {}}]
    assert key != report_pages.report_key(result, 1, maps=True, speech_count=0)


def test_a_drawn_history_page_reads_no_state(told, client):
    """A state is the largest thing stored (tens of kilobytes of JSON): once the reports are
    drawn, the History page reads none, only the results' events and the phases."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game, users = told
    history(client, users[1], game)
    with CaptureQueriesContext(connection) as ctx:
        history(client, users[1], game)
    read = [q["sql"] for q in ctx.captured_queries
            if '"state_after"' in q["sql"] or '"state_before"' in q["sql"]]
    assert read == []
