"""Award polls at the end of a campaign (docs/rules.md §polls): opened by the GameMaster once the
campaign is finished, one vote per player and award for another player (never himself), closed
by the GameMaster, then shown with winners and counts through `{% award_results game %}`, never
with a voter's name and never while open."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.games.models import Game
from junta.polls import services
from junta.polls.models import Poll, Vote
from tests.web.browser_forms import asked, form_with, forms_in, submit

pytestmark = pytest.mark.django_db

STANDARD = ["Best speech", "Most treacherous", "Best death", "Best schemer", "Most loyal"]


@pytest.fixture
def finished(campaign):
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    game.refresh_from_db()
    game.status = Game.Status.FINISHED
    game.save()  # saved, not updated: the campaign's pages see it
    return game, users


def results_html(game: Game) -> str:
    return Template("{% load polls_tags %}{% award_results game %}").render(
        Context({"game": game}))


def open_through_page(client, game: Game, extra: str = ""):
    page = client.get(reverse("polls_index", args=[game.id])).content.decode()
    form = next(f for f in forms_in(page)
                if f.attrs.get("action") == reverse("polls_awards", args=[game.id]))
    return submit(client, "", form.set("extra", extra))


def award_vote(client, game: Game, poll: Poll, name: str):
    url = reverse("polls_detail", args=[game.id, poll.id])
    form = next(f for f in forms_in(client.get(url).content.decode()) if "choice" in f.names())
    form.set("choice", str(poll.choices.get(label=name).pk))
    return submit(client, url, form)


def test_awards_open_only_at_the_end_and_only_by_the_gm(campaign, client):
    """ "Awards: when the campaign is finished, the GameMaster opens the awards (best speech,
    most treacherous, best death, best schemer, most loyal, and his own)." """
    game, (carlos, *_) = campaign(players=6)
    start_campaign(game.id, game.gm)
    game.refresh_from_db()
    with pytest.raises(services.PollError, match="finished"):
        services.open_awards(game, game.gm, [])
    client.force_login(game.gm)
    assert "Open the awards" not in client.get(
        reverse("polls_index", args=[game.id])).content.decode()

    game.status = Game.Status.FINISHED
    game.save()
    with pytest.raises(services.PollError, match="GameMaster"):
        services.open_awards(game, carlos, [])
    overview = reverse("gm_overview", args=[game.id])
    polls_page = reverse("polls_index", args=[game.id])
    assert f'href="{polls_page}#awards">Open the awards</a>' in client.get(overview).content \
        .decode()
    assert open_through_page(client, game, "Best coup\n").status_code == 302
    awards = re.sub(r"<[^>]+>", "", client.get(overview).content.decode())
    assert "Best coup: 0 of 6 voted · open" in awards and "Open the awards" not in awards
    assert list(Poll.objects.filter(kind=Poll.Kind.AWARD).order_by("id")
                .values_list("question", flat=True)) == [*STANDARD, "Best coup"]
    client.force_login(carlos)
    assert client.post(reverse("polls_awards", args=[game.id]),
                       {"extra": "Mine"}).status_code == 302
    assert Poll.objects.count() == 6  # refused with a message


def test_a_player_votes_once_per_award_for_another_never_himself(finished, client):
    """ "Each seated player votes once per award for another player, never for himself" """
    game, (carlos, isabel, miguel, *_) = finished
    services.open_awards(game, game.gm, [])
    speech = Poll.objects.get(question="Best speech")
    client.force_login(carlos)
    page = client.get(reverse("polls_detail", args=[game.id, speech.id])).content.decode()
    assert "Don Isabel" in page
    form = next(f for f in forms_in(page) if "choice" in f.names())
    mine = str(speech.choices.get(label="Don Carlos").pk)
    assert mine not in [c.value for c in form.controls if c.name == "choice"]
    refused = client.post(reverse("polls_detail", args=[game.id, speech.id]), {"choice": mine})
    assert refused.status_code == 400 and not Vote.objects.exists()
    with pytest.raises(services.PollError, match="yourself"):
        services.vote(speech.id, carlos, [int(mine)])

    assert award_vote(client, game, speech, "Don Isabel").status_code == 302
    assert award_vote(client, game, speech, "Don Miguel").status_code == 302  # changed
    assert [v.choice.label for v in Vote.objects.filter(poll=speech)] == ["Don Miguel"]

    client.force_login(game.gm)  # the GameMaster does not vote, and sees no results yet
    page = client.get(reverse("polls_detail", args=[game.id, speech.id])).content.decode()
    assert 'id="vote-h"' not in page and "poll-table" not in page
    assert "The results show when the poll closes." in page


def test_closed_awards_show_winners_and_counts_never_voters(finished, client):
    """ "when the GameMaster closes them, the winners and their counts show on the campaign's
    end report." """
    game, (carlos, isabel, miguel, lucia, rafael, elena) = finished
    services.open_awards(game, game.gm, ["Best coup"])
    speech = Poll.objects.get(question="Best speech")
    coup = Poll.objects.get(question="Best coup")
    for voter, name in ((carlos, "Don Isabel"), (miguel, "Don Isabel"), (isabel, "Don Lucia"),
                        (lucia, "Don Rafael")):
        services.vote(speech.id, voter, [speech.choices.get(label=name).pk])
    for voter, name in ((carlos, "Don Elena"), (isabel, "Don Rafael")):
        services.vote(coup.id, voter, [coup.choices.get(label=name).pk])
    while_open = results_html(game)
    assert "</caption>" not in while_open and "Don Isabel" not in while_open  # no result yet
    assert "6 awards still open; the results show here once the GameMaster closes them" \
        in while_open

    client.force_login(carlos)  # only the GameMaster closes an award
    client.post(reverse("polls_close", args=[game.id, speech.id]))
    speech.refresh_from_db()
    assert not speech.is_closed()
    client.force_login(game.gm)
    for poll in (speech, coup):  # each asks first, then closes on Confirm
        detail = reverse("polls_detail", args=[game.id, poll.id])
        question = asked(client, detail, reverse("polls_close", args=[game.id, poll.id]))
        assert "goes on the campaign's end report; the ballot stays secret" in question
        assert submit(client, detail, form_with(question, "confirm", "yes")).status_code == 302
    html = results_html(game)
    assert 'aria-labelledby="award-results-h"' in html
    assert "Best speech: Don Isabel</caption>" in html
    assert '<th scope="row">Don Isabel</th><td>2</td>' in html
    assert '<th scope="row">Don Lucia</th><td>1</td>' in html
    assert "Best coup: Don Rafael and Don Elena</caption>" in html  # a tie: both, by seat
    assert "Most loyal" not in html  # still open
    client.force_login(carlos)  # the polls page names the winners of the closed ones only
    listed = re.sub(r"<[^>]+>", "", client.get(reverse("polls_index", args=[game.id]))
                    .content.decode())
    assert "won by Don Isabel" in listed and "won by Don Rafael and Don Elena" in listed
    assert listed.count("won by") == 2
    # a vote after the closing is refused, and nothing changes
    with pytest.raises(services.PollError, match="closed"):
        services.vote(speech.id, rafael, [speech.choices.get(label="Don Elena").pk])
    assert Vote.objects.filter(poll=speech).count() == 4
    # the winners' profiles list their awards (a tie: both won it); the others' do not
    profiles = {}
    for person in (isabel, elena, rafael, carlos):
        client.force_login(person)
        profiles[person] = client.get(reverse("profile")).content.decode()
    assert "<strong>Best speech</strong> in" in profiles[isabel]
    assert "<strong>Best coup</strong> in" in profiles[elena] and \
        "<strong>Best coup</strong> in" in profiles[rafael]
    assert "Best speech" not in profiles[elena] and "Awards</h2>" not in profiles[carlos]
    # no page says who voted for whom
    for viewer in (game.gm, carlos, elena):
        client.force_login(viewer)
        page = client.get(reverse("polls_detail", args=[game.id, speech.id])).content.decode()
        assert "Final results" in page and ">Who</th>" not in page
        assert '<th scope="row">Don Isabel <span class="badge">winner</span></th><td>2</td>' \
            in page


def test_award_results_render_nothing_without_awards(finished):
    game, _users = finished
    assert results_html(game).strip() == ""
