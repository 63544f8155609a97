"""`make run`'s demo (junta.ops.demo): a campaign the demo players finished, with its end report,
awards, polls and a revealed conversation, and one they are playing, mid-game, with a coup
behind it. A newcomer sees every part of the site with something in it."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from junta.games.models import AuditEntry, Game, Phase, Speech
from junta.games.replay import replay_game
from junta.games.simulation import had_a_coup
from junta.ops.demo import build_demo
from junta.polls.demo import FIRST_POLLS, GM_AWARD, LIVE_POLLS
from junta.polls.models import Poll
from junta.polls.services import STANDARD_AWARDS
from junta.talk.demo import FIRST_CONVERSATIONS, FIRST_SPEECHES
from junta.talk.models import Conversation

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo, built once for the module (a few seconds of bots' play) and removed after."""
    with django_db_blocker.unblock():
        call_command("seed_demo")
        games = build_demo()
        yield games
        for game in games:
            game.delete()
        get_user_model().objects.filter(email__endswith="@junta.test").delete()


def page(client, user, name: str, *args: object) -> str:
    client.force_login(user)
    response = client.get(reverse(name, args=list(args)))
    assert response.status_code == 200, name
    return html.unescape(response.content.decode())


def words(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def test_the_demo_is_built_once_the_finished_campaign_first(demo):
    finished, running = demo
    assert build_demo() == []
    assert finished.status == Game.Status.FINISHED
    assert running.status == Game.Status.RUNNING and had_a_coup(running)
    first_day = running.phases.order_by("number").first().opens_at
    assert finished.finished_at < first_day  # one campaign after the other
    for game in demo:  # its opening announcement dated when it began, months ago
        assert AuditEntry.objects.get(game=game, action="start").created_at == game.started_at
    assert Phase.objects.get(game=running, status=Phase.Status.OPEN).deadline > timezone.now()
    for phase in running.phases.filter(kind__in=["coup", "coup_final", "aftermath"]):
        assert timedelta(hours=20) < phase.deadline - phase.opens_at <= timedelta(hours=25)
    for game in demo:
        assert all(line.ok for line in replay_game(game))


def test_the_finished_campaign_has_its_end_report_and_awards(demo, client):
    finished, _ = demo
    carlos = get_user_model().objects.get(email="carlos@junta.test")
    report = page(client, carlos, "game_report", finished.id)
    assert "The campaign in numbers" in report and "Winner" in report
    for award in STANDARD_AWARDS:
        assert f"{award}: " in report  # closed: its result shows
    assert f"{GM_AWARD}: " not in report
    assert "1 award still open: vote on the polls page" in words(report)
    assert "1 award still open: close it on the polls page" in words(page(
        client, finished.gm, "game_report", finished.id))
    gm_award = finished.polls.get(kind=Poll.Kind.AWARD, question=GM_AWARD)
    assert gm_award.closed_at is None
    assert not gm_award.votes.filter(voter__user=carlos).exists()  # Carlos may try voting
    assert gm_award.votes.count() == 9
    for award in finished.polls.filter(kind=Poll.Kind.AWARD).exclude(question=GM_AWARD):
        assert award.closed_at is not None and award.votes.count() == 10
    # his dashboard says the campaign is over, with its report (not the last phase's title)
    home = words(page(client, carlos, "home"))
    ended = timezone.localtime(finished.finished_at, ZoneInfo(carlos.time_zone))  # his zone
    assert f"Finished on {ended:%-d %B %Y}: the end report." in home
    assert reverse("game_report", args=[finished.id]) in page(client, carlos, "home")
    # the profile counts both campaigns; the winners of the awards see them there
    assert "<dt>Campaigns played</dt><dd>2</dd>" in page(client, carlos, "profile")
    best_speech = finished.polls.get(question="Best speech")
    top = max(best_speech.choices.all(), key=lambda c: c.votes.count())
    assert "Best speech" in page(client, top.player.user, "profile")


def test_the_finished_campaign_was_talked_through(demo, client):
    finished, _ = demo
    spoken = Speech.objects.filter(game=finished)
    assert spoken.count() >= len(FIRST_SPEECHES) - 3  # a silenced family's speech is left out
    assert spoken.order_by("created_at").first().phase.number < 10
    polls = finished.polls.filter(kind=Poll.Kind.POLL)
    assert polls.count() == len(FIRST_POLLS)
    assert all(p.is_closed() and p.votes.exists() for p in polls)
    plot, secret = (Conversation.objects.get(game=finished, subject=subject)
                    for subject, *_ in FIRST_CONVERSATIONS)
    assert plot.revealed_at is not None and secret.revealed_at is None
    outsider = get_user_model().objects.create_user(email="reader@example.org")
    carlos = get_user_model().objects.get(email="carlos@junta.test")
    assert re.search(r'<a [^>]*aria-current="page"[^>]*>Talk',  # its place in his menu
                     page(client, carlos, "talk_revealed", finished.id))
    shown = page(client, outsider, "talk_revealed", finished.id)
    assert FIRST_CONVERSATIONS[0][3][0][1] in shown
    assert all(text not in shown for _seat, text in FIRST_CONVERSATIONS[1][3])
    archive = page(client, outsider, "game_archive")
    assert reverse("game_report", args=[finished.id]) in archive
    report = page(client, outsider, "game_report", finished.id)
    assert "vote on the polls page" not in words(report)  # not his to vote
    assert "1 award still open; the results show here" in words(report)
    assert all(text not in report for _seat, text in FIRST_CONVERSATIONS[1][3])


def test_the_running_campaign_has_polls_one_open(demo, client):
    _, running = demo
    polls = list(running.polls.all())
    assert len(polls) == len(LIVE_POLLS)
    open_ones = [p for p in polls if not p.is_closed()]
    assert [p.question for p in open_ones] == [LIVE_POLLS[0][0]]
    running.refresh_from_db()
    assert running.players_may_poll
    isabel = get_user_model().objects.get(email="isabel@junta.test")
    events = page(client, isabel, "game_events", running.id)
    assert "1 open poll" in events


def test_the_finished_campaigns_orders_page_points_to_the_history(demo, client):
    finished, _ = demo
    carlos = get_user_model().objects.get(email="carlos@junta.test")
    text = words(page(client, carlos, "game_orders", finished.id))
    assert "The game is over: there are no more orders to give." in text
    assert "Orders in" not in text and "everything is revealed below" not in text


@pytest.mark.no_revision_guard  # each step's request is watched in tests/web/test_replay.py
def test_the_finished_campaign_is_replayed_on_the_map_to_its_end(demo, client):
    """Its replay, from its link on the end report, steps through every phase it played to
    the last, and back, for a visitor without an account (its GM lists it in the archive)."""
    finished, _running = demo
    report = client.get(reverse("game_report", args=[finished.id])).content.decode()
    assert reverse("game_replay", args=[finished.id]) in report
    url = client.get(reverse("game_replay", args=[finished.id]))["Location"]
    seen = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, url
        seen.append(url)
        after = re.search(r'<a class="button" href="([^"]+)" rel="next"', response.content.decode())
        url = after.group(1) if after else None
    played = finished.phases.filter(status=Phase.Status.PUBLISHED).order_by("number")
    assert seen == [reverse("game_replay_step", args=[finished.id, p.number]) for p in played]
    before = re.search(r'<a class="button" href="([^"]+)" rel="prev"',
                       client.get(seen[-1]).content.decode())
    assert before and before.group(1) == seen[-2]
