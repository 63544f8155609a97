"""The lobby: create a campaign, join it, approve players, see the roster; 404 where a page is
not yours to see."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from junta.games.campaigns import create_game, join_game
from junta.games.models import Game, Player

pytestmark = pytest.mark.django_db


def make_user(name: str):
    return get_user_model().objects.create_user(email=f"{name}@example.org", display_name=name)


@pytest.fixture
def gm():
    return make_user("Gamemaster")


def test_create_a_campaign_through_the_form(client, gm):
    client.force_login(gm)
    response = client.post(reverse("game_create"), {
        "name": "Papayas Seven", "max_players": "8", "deadline_time": "21:30",
        "time_zone": "Europe/Madrid", "review_mode": "review", "join_policy": "open",
        "extra_bills_min": "3", "extra_bills_max": "9", "nomination_days": "2",
        "election_days": "3", "default_days": "1",
    })
    game = Game.objects.get()
    assert (game.days_for("nomination"), game.days_for("election"),
            game.days_for("budget_vote")) == (2, 3, 1)
    assert response.status_code == 302
    assert response["Location"] == reverse("game_detail", args=[game.id])
    assert (game.gm, game.max_players, game.time_zone, game.review_mode) == (
        gm, 8, "Europe/Madrid", "review")
    page = client.get(response["Location"]).content.decode()
    assert "Papayas Seven" in page and "21:30 Europe/Madrid" in page
    assert "You are its GameMaster" in page


def test_create_form_shows_each_error_next_to_its_field(client, gm):
    client.force_login(gm)
    response = client.post(reverse("game_create"), {
        "name": "", "max_players": "8", "deadline_time": "25:00", "time_zone": "Europe/Madrid",
        "review_mode": "auto", "join_policy": "open", "extra_bills_min": "9",
        "extra_bills_max": "3",
    })
    html = response.content.decode()
    assert response.status_code == 200
    assert "This field is required." in html
    assert "Enter a valid time." in html
    assert "At most 3 is fewer than at least 9." in html
    assert not Game.objects.exists()


def test_join_by_asking_then_the_gm_approves(client, gm):
    game = create_game(gm, "Approval game")
    carlos = make_user("Carlos")
    client.force_login(carlos)
    lobby = client.get(reverse("lobby")).content.decode()
    assert "Approval game" in lobby and "the GM approves players" in lobby
    response = client.post(reverse("game_join", args=[game.id]),
                           {"character_name": "Generalissimo Cortez", "bio": "Loves tanks."})
    assert response.status_code == 302
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "the GM has not approved you yet" in page

    client.force_login(gm)
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "Approve Generalissimo Cortez" in page
    player = Player.objects.get(user=carlos)
    client.post(reverse("game_approve", args=[game.id, player.id]))
    player.refresh_from_db()
    assert player.membership == Player.Membership.ACTIVE

    client.force_login(carlos)
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "Generalissimo Cortez" in page and "Loves tanks." in page
    assert "carlos@example.org" not in page


def test_only_the_gm_may_approve(client, gm):
    game = create_game(gm, "Guarded")
    player = join_game(game.id, make_user("Pending"), "Pending One")
    for intruder in (make_user("Stranger"), player.user):
        client.force_login(intruder)
        response = client.post(reverse("game_approve", args=[game.id, player.id]))
        assert response.status_code == 404
    player.refresh_from_db()
    assert player.membership == Player.Membership.PENDING


def test_invitation_only_campaign_is_hidden_but_the_link_seats_you(client, gm):
    game = create_game(gm, "Secret society", join_policy=Game.JoinPolicy.INVITE)
    guest = make_user("Guest")
    client.force_login(guest)
    assert "Secret society" not in client.get(reverse("lobby")).content.decode()
    assert client.get(reverse("game_detail", args=[game.id])).status_code == 404
    assert client.get(f"/games/{game.id}/invite/wrong-token/").status_code == 404
    page = client.get(f"/games/{game.id}/invite/{game.invite_token}/").content.decode()
    assert "Take a seat" in page
    client.post(reverse("game_join", args=[game.id]),
                {"character_name": "Dona Rosa", "invite_token": game.invite_token})
    assert Player.objects.get(user=guest).membership == Player.Membership.ACTIVE


def test_join_errors_are_specific_and_lose_nothing(client, gm):
    game = create_game(gm, "Full house", max_players=6, join_policy=Game.JoinPolicy.OPEN)
    for i in range(6):
        join_game(game.id, make_user(f"P{i}"), f"Don {i}")
    late = make_user("Late")
    client.force_login(late)
    response = client.post(reverse("game_join", args=[game.id]), {"character_name": "Late"})
    assert response.status_code == 400
    assert "Full house is full (6 players)." in response.content.decode()
    response = client.post(reverse("game_join", args=[game.id]), {"character_name": ""})
    assert "This field is required." in response.content.decode()


def test_lobby_needs_login(client):
    response = client.get(reverse("lobby"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
