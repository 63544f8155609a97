"""Polls during play (docs/rules.md §polls), through the pages as a browser uses them: who may
post, one vote per seated player changeable until the poll closes, a vote after the closing
refused, results only after closing unless live, and an anonymous poll that never shows who
voted what, to anyone."""

from __future__ import annotations

import html
import re
import zoneinfo
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.timezones import DEFAULT_TIME_ZONE
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Player
from junta.polls import services
from junta.polls.models import Poll, Vote
from tests.web.browser_forms import asked, form_with, forms_in, submit
from tests.web.campaigns import gm_ticks
from tests.web.polls_helpers import make_poll, vote_through_page

pytestmark = pytest.mark.django_db

CHARACTERS = ["Don Carlos", "Don Isabel", "Don Miguel", "Don Lucia", "Don Rafael", "Don Elena"]


@pytest.fixture
def started(campaign):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    game.refresh_from_db()
    return game, users


def later(hours: int = 24) -> str:
    """A closing time as the browser's datetime-local field sends it, in the poster's zone
    (everyone's default here)."""
    return (timezone.now() + timedelta(hours=hours)).astimezone(
        zoneinfo.ZoneInfo(DEFAULT_TIME_ZONE)).strftime("%Y-%m-%dT%H:%M")


def post_poll_form(client, game: Game, question: str, choices: str, *, anonymous: bool = True,
                   live: bool = False, multiple: bool = False, closes: str | None = None):
    page = client.get(reverse("polls_index", args=[game.id]))
    assert page.status_code == 200
    form = next(f for f in forms_in(page.content.decode())
                if f.attrs.get("action") == reverse("polls_new", args=[game.id]))
    form.set("question", question).set("choices", choices).set("closes_at", closes or later())
    form.control("anonymous").checked = anonymous
    form.control("live").checked = live
    form.control("multiple").checked = multiple
    return submit(client, "", form)


def close_by_time(poll: Poll) -> None:
    poll.closes_at = timezone.now() - timedelta(minutes=1)
    poll.save()  # saved, not updated: the campaign's pages see it


def test_the_gm_posts_a_poll_and_players_only_where_the_campaign_allows(started, client):
    """ "Who posts a poll: the GameMaster, and the seated players too if the campaign allows it
    (a setting of the GameMaster's)." """
    game, (carlos, isabel, *_) = started
    client.force_login(game.gm)
    response = post_poll_form(client, game, "Shall we hold a truce?", "Yes\nNo\n")
    assert response.status_code == 302
    poll = Poll.objects.get(game=game)
    assert [c.label for c in poll.choices.all()] == ["Yes", "No"]

    client.force_login(carlos)
    page = client.get(reverse("polls_index", args=[game.id])).content.decode()
    assert "Shall we hold a truce?" in page and "Post a poll" not in page
    refused = client.post(reverse("polls_new", args=[game.id]), {
        "question": "Mine", "choices": "A\nB", "closes_at": later()})
    assert refused.status_code == 403 and Poll.objects.count() == 1

    # the GameMaster allows it on his settings page
    gm_ticks(client, game, "players_may_poll", True)
    game.refresh_from_db()
    assert game.players_may_poll

    client.force_login(carlos)
    assert post_poll_form(client, game, "Mine", "A\nB").status_code == 302
    assert Poll.objects.count() == 2


def test_a_poll_needs_two_to_ten_choices_and_a_future_closing(started, client):
    game, _users = started
    client.force_login(game.gm)
    one = post_poll_form(client, game, "Lonely?", "Only one")
    assert one.status_code == 400 and "2 to 10 choices" in one.content.decode()
    assert "Only one" in one.content.decode()  # nothing lost: the text comes back
    eleven = post_poll_form(client, game, "Many?", "\n".join(str(n) for n in range(11)))
    assert eleven.status_code == 400
    past = post_poll_form(client, game, "Late?", "A\nB", closes=later(-2))
    assert past.status_code == 400 and "already past" in past.content.decode()
    assert not Poll.objects.exists()


def test_the_closing_time_is_read_in_the_posters_zone(started, client):
    game, _users = started
    game.gm.time_zone = "America/Santiago"
    game.gm.save()
    client.force_login(game.gm)
    wall = (timezone.now() + timedelta(days=2)).astimezone(zoneinfo.ZoneInfo("America/Santiago"))
    wall = wall.replace(second=0, microsecond=0)
    assert post_poll_form(client, game, "When?", "Now\nLater",
                          closes=wall.strftime("%Y-%m-%dT%H:%M")).status_code == 302
    assert Poll.objects.get().closes_at == wall.replace(tzinfo=None).replace(
        tzinfo=zoneinfo.ZoneInfo("America/Santiago"))
    assert isinstance(Poll.objects.get().closes_at, datetime)


def test_one_vote_per_player_changeable_until_it_closes(started, client):
    """ "Who votes: each seated player, once per poll; he may change his vote until the poll
    closes. The GameMaster does not vote. A vote that comes after the closing is refused." """
    game, (carlos, isabel, *_) = started
    poll = make_poll(game)
    client.force_login(carlos)
    assert vote_through_page(client, game, poll, ["The Admiral"]).status_code == 302
    assert vote_through_page(client, game, poll, ["Nobody"]).status_code == 302
    me = game.players.get(user=carlos)
    assert [v.choice.label for v in Vote.objects.filter(voter=me)] == ["Nobody"]
    page = client.get(reverse("polls_detail", args=[game.id, poll.id])).content.decode()
    assert "Change my vote" in page
    # one answer only in a single-choice poll
    with pytest.raises(services.PollError, match="one answer only"):
        services.vote(poll.id, carlos, [c.pk for c in poll.choices.all()[:2]])
    assert Vote.objects.filter(voter=me).count() == 1

    client.force_login(game.gm)  # the GameMaster does not vote
    page = client.get(reverse("polls_detail", args=[game.id, poll.id])).content.decode()
    assert 'id="vote-h"' not in page
    gm_vote = client.post(reverse("polls_detail", args=[game.id, poll.id]),
                          {"choice": str(poll.choices.first().pk)})
    assert gm_vote.status_code == 400 and Vote.objects.count() == 1

    close_by_time(poll)
    client.force_login(carlos)
    late = client.post(reverse("polls_detail", args=[game.id, poll.id]),
                       {"choice": str(poll.choices.get(label="The President").pk)})
    assert late.status_code == 400
    assert "This poll is closed: your vote was not counted." in late.content.decode()
    assert [v.choice.label for v in Vote.objects.filter(voter=me)] == ["Nobody"]  # kept
    with pytest.raises(services.PollError, match="closed"):
        services.vote(poll.id, isabel, [poll.choices.first().pk])


def test_several_choices_when_the_poll_allows(started, client):
    game, (carlos, *_) = started
    poll = make_poll(game, multiple=True)
    client.force_login(carlos)
    assert vote_through_page(client, game, poll, ["The President", "Nobody"]).status_code == 302
    assert Vote.objects.filter(poll=poll).count() == 2


def test_a_vote_from_a_page_drawn_before_it_changed_elsewhere_changes_nothing(started, client):
    """Two windows of a poll with several answers: A votes two; B, drawn before with nothing
    ticked, votes a third. B's vote would replace A's without a word: it is refused with a
    message and the vote as it stands; voted again from the page drawn anew, it counts."""
    game, (carlos, *_) = started
    poll = make_poll(game, multiple=True)
    client.force_login(carlos)
    url = reverse("polls_detail", args=[game.id, poll.id])
    ids = {c.label: str(c.pk) for c in poll.choices.all()}
    window_a = next(f for f in forms_in(client.get(url).content.decode())
                    if "choice" in f.names())
    window_b = next(f for f in forms_in(client.get(url).content.decode())
                    if "choice" in f.names())
    assert submit(client, url, window_a.set("choice", [ids["The President"], ids["Nobody"]])) \
        .status_code == 302
    refused = submit(client, url, window_b.set("choice", [ids["The Admiral"]]))
    assert refused.status_code == 302
    page = client.get(url).content.decode().replace("&#x27;", "'")
    assert "Your vote changed since this page was drawn" in page
    mine = sorted(Vote.objects.filter(poll=poll).values_list("choice__label", flat=True))
    assert mine == ["Nobody", "The President"]
    again = next(f for f in forms_in(page) if "choice" in f.names())
    assert submit(client, url, again.set("choice", [ids["The Admiral"]])).status_code == 302
    assert list(Vote.objects.filter(poll=poll).values_list("choice__label", flat=True)) == [
        "The Admiral"]


def test_outsiders_see_no_polls(started, client, django_user_model):
    game, _users = started
    poll = make_poll(game)
    stranger = django_user_model.objects.create_user(email="stranger@example.org")
    client.force_login(stranger)
    assert client.get(reverse("polls_index", args=[game.id])).status_code == 404
    assert client.get(reverse("polls_detail", args=[game.id, poll.id])).status_code == 404
    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "open poll" not in events


def test_results_after_closing_unless_live(started, client):
    """ "Results show when the poll closes, or while it is open if the poll says so." """
    game, (carlos, isabel, miguel, *_) = started
    hidden, live = make_poll(game), make_poll(game, live=True)
    for user, label in ((carlos, "The Admiral"), (isabel, "The Admiral"), (miguel, "Nobody")):
        for poll in (hidden, live):
            services.vote(poll.id, user, [poll.choices.get(label=label).pk])
    client.force_login(carlos)
    page = client.get(reverse("polls_detail", args=[game.id, hidden.id])).content.decode()
    assert "The results show when the poll closes." in page and "poll-table" not in page
    page = client.get(reverse("polls_detail", args=[game.id, live.id])).content.decode()
    assert "Results so far" in page and "<td>2</td>" in page
    client.force_login(game.gm)  # not even the GameMaster sees them early
    page = client.get(reverse("polls_detail", args=[game.id, hidden.id])).content.decode()
    assert "poll-table" not in page
    close_by_time(hidden)
    page = client.get(reverse("polls_detail", args=[game.id, hidden.id])).content.decode()
    assert "Final results" in page and "<td>2</td>" in page and "winner" in page


def test_an_anonymous_poll_never_shows_who_voted_what(started, client):
    """ "An anonymous poll never shows who voted what, to anyone, the GameMaster included; a
    named poll shows each player's vote with the results." """
    game, users = started
    secret, named = make_poll(game, live=True), make_poll(game, anonymous=False)
    for user in users[:4]:
        for poll in (secret, named):
            services.vote(poll.id, user, [poll.choices.get(label="The Admiral").pk])
    close_by_time(named)
    close_by_time(secret)
    for viewer in [game.gm, *users]:
        client.force_login(viewer)
        for url in (reverse("polls_detail", args=[game.id, secret.id]),
                    reverse("polls_index", args=[game.id])):
            body = client.get(url).content.decode()
            for name in CHARACTERS:
                assert name not in body, (viewer, url, name)
            assert ">Who</th>" not in body
        events = client.get(reverse("game_events", args=[game.id])).content.decode()
        assert "poll-table" not in events and "Who leads" not in events
        named_page = client.get(reverse("polls_detail", args=[game.id, named.id])).content
        assert all(name.encode() in named_page for name in CHARACTERS[:4])


def test_the_events_page_mentions_open_polls(started, client):
    game, (carlos, *_) = started
    client.force_login(carlos)
    url = reverse("game_events", args=[game.id])
    assert "open poll" not in client.get(url).content.decode()
    poll = make_poll(game)
    page = html.unescape(client.get(url).content.decode())
    assert "1 open poll" in page and reverse("polls_index", args=[game.id]) in page
    detail = reverse("polls_detail", args=[game.id, poll.id])
    assert f'<a href="{detail}">{poll.question}</a>' in page
    assert "you have not voted" in page and "post a poll" not in page  # GM's polls only
    services.vote(poll.id, carlos, [poll.choices.first().pk])
    assert "· you voted" in client.get(url).content.decode()
    client.force_login(game.gm)
    page = client.get(url).content.decode()
    assert "Ask the table a question: post a poll" in page and "you voted" not in page
    client.force_login(carlos)
    close_by_time(poll)
    assert "open poll" not in client.get(url).content.decode()
    nav = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert f'href="{reverse("polls_index", args=[game.id])}"' in nav


def test_the_author_or_the_gm_closes_a_poll(started, client):
    game, (carlos, isabel, *_) = started
    poll = make_poll(game)
    services.vote(poll.id, isabel, [poll.choices.first().pk])
    close, detail = (reverse(name, args=[game.id, poll.id])
                     for name in ("polls_close", "polls_detail"))
    client.force_login(isabel)
    for data in ({}, {"confirm": "yes"}):  # the question, or the confirmation, sent by hand
        page = client.get(client.post(close, data)["Location"]).content.decode()
        assert "Only the GameMaster or the poll&#x27;s author closes it." in page
    poll.refresh_from_db()
    assert not poll.is_closed()
    client.force_login(game.gm)
    # closing cannot be undone: the button asks first, saying who voted and who sees what
    question = asked(client, detail, close)
    poll.refresh_from_db()
    assert not poll.is_closed()
    assert f"<title>Confirm: Close “{html.escape(poll.question)}” now?" in question
    assert re.search(r'<section[^>]*id="confirm"[^>]*tabindex="-1" autofocus', question)
    assert "1 of the 6 players has voted; nobody can vote or change a vote any more." \
        in question
    assert "nobody ever sees who voted what" in question
    assert f'<a class="button button-secondary" href="{detail}">Cancel</a>' in question
    client.get(detail)  # Cancel: nothing done
    poll.refresh_from_db()
    assert not poll.is_closed()
    confirmation = form_with(question, "confirm", "yes")
    assert submit(client, detail, confirmation).status_code == 302
    poll.refresh_from_db()
    assert poll.is_closed()
    closed_at = poll.closed_at
    page = client.get(submit(client, detail, confirmation)["Location"]).content.decode()
    assert "This poll is closed already." in page  # sent again: closed once
    poll.refresh_from_db()
    assert poll.closed_at == closed_at
    assert Player.objects.filter(game=game).count() == 6
