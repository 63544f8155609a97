"""Forming a campaign: create, join (open, approval, invitation), seat."""

from __future__ import annotations

from datetime import time

import pytest
from django.contrib.auth import get_user_model

from junta.games.campaigns import CampaignError, approve_player, create_game, join_game
from junta.games.models import Game, Player

pytestmark = pytest.mark.django_db


def user(name: str):
    return get_user_model().objects.create_user(email=f"{name}@example.org", display_name=name)


@pytest.fixture
def gm():
    return user("gm")


def test_create_game_with_its_settings(gm):
    game = create_game(gm, "Papayas 7", max_players=8, deadline_time=time(21, 30),
                       time_zone="Europe/Madrid", review_mode=Game.ReviewMode.REVIEW,
                       extra_bills=(2, 9))
    game.refresh_from_db()
    assert (game.max_players, game.deadline_time, game.time_zone) == (8, time(21, 30),
                                                                      "Europe/Madrid")
    assert (game.extra_bills_min, game.extra_bills_max) == (2, 9)
    assert game.status == Game.Status.FORMING
    assert game.days_for("election") == 2 and game.days_for("cabinet") == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_players": 5}, "6 to 10 players, not 5"),
        ({"max_players": 11}, "6 to 10 players, not 11"),
        ({"extra_bills": (5, 3)}, "within 0-14, not 5-3"),
        ({"extra_bills": (0, 15)}, "within 0-14, not 0-15"),
    ],
)
def test_create_game_refuses_bad_settings_with_specific_messages(gm, kwargs, message):
    with pytest.raises(CampaignError, match=message):
        create_game(gm, "Bad", **kwargs)
    assert not Game.objects.exists()


def test_open_campaign_seats_players_in_order_until_full(gm):
    game = create_game(gm, "Open", max_players=6, join_policy=Game.JoinPolicy.OPEN)
    players = [join_game(game.id, user(f"p{i}"), f"Don {i}") for i in range(6)]
    assert [p.seat for p in players] == [0, 1, 2, 3, 4, 5]
    assert players[0].character.name == "Don 0"
    with pytest.raises(CampaignError, match="Open is full \\(6 players\\)"):
        join_game(game.id, user("late"), "Latecomer")
    assert game.players.filter(membership=Player.Membership.ACTIVE).count() == 6


def test_approval_campaign_waits_for_the_gm(gm):
    game = create_game(gm, "Approval")
    player = join_game(game.id, user("carlos"), "Carlos")
    assert (player.membership, player.seat) == (Player.Membership.PENDING, None)
    approve_player(game.id, player.id)
    player.refresh_from_db()
    assert (player.membership, player.seat) == (Player.Membership.ACTIVE, 0)
    with pytest.raises(CampaignError, match="is not waiting for approval"):
        approve_player(game.id, player.id)


def test_invitation_only_campaign(gm):
    game = create_game(gm, "Secret", join_policy=Game.JoinPolicy.INVITE)
    with pytest.raises(CampaignError, match="by invitation link only"):
        join_game(game.id, user("stranger"), "Stranger")
    player = join_game(game.id, user("friend"), "Friend", invite_token=game.invite_token)
    assert player.membership == Player.Membership.ACTIVE


def test_nobody_joins_twice_and_the_gm_does_not_play(gm):
    game = create_game(gm, "Twice", join_policy=Game.JoinPolicy.OPEN)
    carlos = user("carlos")
    join_game(game.id, carlos, "Carlos")
    with pytest.raises(CampaignError, match="already joined Twice"):
        join_game(game.id, carlos, "Carlos II")
    with pytest.raises(CampaignError, match="GameMaster of a campaign cannot also play"):
        join_game(game.id, gm, "El Jefe")
    with pytest.raises(CampaignError, match="Give your first character a name"):
        join_game(game.id, user("nameless"), "   ")
