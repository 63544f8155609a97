"""Characters (docs/rules.md §death, §respawn): one per life; after a death the player prepares
the next one, who returns with the family at the start of the next turn; the roster shows the
living and remembers the dead; avatars are checked; times on pages are in the viewer's zone,
named."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from junta.engine import GameState
from junta.games import repository
from junta.games.avatars import MAX_AVATAR_BYTES
from junta.games.campaigns import start_campaign
from junta.games.models import Character, Game, PhaseResult, Player
from junta.lives.models import HeirDraft, Obituary
from junta.lives.services import sync_lives
from tests.web.campaigns import kill_in_open_phase, open_phase, play_days
from tests.web.images import declared_bomb_png

pytestmark = pytest.mark.django_db


def png(size: tuple[int, int] = (48, 48)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (20, 120, 60)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_dead_player_prepares_his_heir_who_returns_next_turn(campaign, client,
                                                               settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game, users = campaign()
    start_campaign(game.id, game.gm)
    carlos = users[0]
    kill_in_open_phase(game, 0)
    play_days(game, users, 1)  # the nominations are published with Don Carlos dead
    player = Player.objects.get(user=carlos)
    assert player.state == Player.State.DEAD
    first = Character.objects.get(player=player, life=1)
    assert first.died_at is not None

    client.force_login(carlos)
    detail = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "Prepare your new character" in detail and "dead" in detail
    status = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert "Your character is dead" in status and reverse("game_character", args=[game.id]) \
        in status
    url = reverse("game_character", args=[game.id])
    page = client.get(url).content.decode()
    assert "Don Carlos is dead" in page and "Don Carlos the Younger" in page
    response = client.post(url, {"name": "Doña Carla", "bio": "Back from Paris.",
                                 "avatar": SimpleUploadedFile("c.png", png(), "image/png")})
    assert response.status_code == 302
    assert HeirDraft.objects.get(player=player).name == "Doña Carla"
    # until the turn ends the family's face is still the dead man
    assert player.character.name == "Don Carlos"
    assert repository.character_names(game)[0] == "Don Carlos"

    play_days(game, users, 1)  # the election: "Turn 1 begins", the family returns
    player.refresh_from_db()
    assert player.state == Player.State.ALIVE
    heir = Character.objects.get(player=player, life=2)
    assert heir.name == "Doña Carla" and heir.bio == "Back from Paris."
    assert heir.avatar and heir.avatar.name.endswith(".png")
    assert not HeirDraft.objects.filter(player=player).exists()
    state = GameState.from_dict(open_phase(game).state_before)
    assert state.players[0].name == "Doña Carla" and state.players[0].life == 2

    # the roster shows the living, and remembers the dead with the life they ended
    client.force_login(users[5])
    detail = client.get(reverse("game_detail", args=[game.id])).content.decode()
    living, remembered = detail.split("Remembered", 1)
    assert "Doña Carla" in living and "life 2" in living
    assert "Don Carlos" in remembered and "life 1 of the family of seat 1" in remembered
    assert "died in turn" not in remembered  # he died before the first turn


def test_a_family_without_a_prepared_heir_gets_a_default_one(campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    kill_in_open_phase(game, 1)
    play_days(game, users, 2)
    heir = Character.objects.get(player__user=users[1], life=2)
    assert heir.name == "Don Isabel the Younger"


def miguel_dies(campaign, line: str) -> tuple[Game, list, PhaseResult, GameState]:
    """Three days in, the last published result tells Don Miguel's death in `line`; (the
    campaign, its users, that result, the state after it)."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)
    result = PhaseResult.objects.filter(phase__game=game).order_by("-phase__number").first()
    result.events = [*result.events, {"kind": "death", "audience": "public", "headline": True,
                                      "text": line, "data": {"victim": 2}}]
    return game, users, result, GameState.from_dict(result.state_after)


def test_a_death_is_remembered_with_its_report_line(campaign, client):
    game, users, result, state = miguel_dies(
        campaign, "Don Miguel is dead: shot by a Professional Assassin at the Bank.")
    state.players[2].status = "dead"
    now = timezone.now()
    repository.write_board(game, state)
    sync_lives(game, state, now, result.phase, result)
    sync_lives(game, state, now, result.phase, result)  # twice changes nothing
    character = Character.objects.get(player__user=users[2], life=1)
    obituary = Obituary.objects.get(character=character)
    assert obituary.turn == result.phase.turn == 1
    assert "Professional Assassin" in obituary.text
    users[4].time_zone = "Asia/Kolkata"
    users[4].save()
    client.force_login(users[4])
    detail = client.get(reverse("game_detail", args=[game.id])).content.decode()
    remembered = detail.split("Remembered", 1)[1]
    assert "died in turn 1" in remembered and "Professional Assassin" in remembered
    local = timezone.localtime(now, __import__("zoneinfo").ZoneInfo("Asia/Kolkata"))
    assert f"{local:%H:%M} (Asia/Kolkata)" in remembered  # the viewer's zone, named


def test_a_death_and_the_return_in_one_phase_are_both_remembered(campaign, client):
    """Executed in the Coup Aftermath, a family returns at the start of the next turn within
    the same publication: the state after it shows the heir alive. The dead character is still
    remembered with the turn he died in and the report's line (docs/rules.md §death)."""
    game, users, result, state = miguel_dies(
        campaign, "Don Miguel is dead: sent to the firing squad by El Presidente.")
    state.players[2].life = 2  # already back, alive: no state in between showed him dead
    sync_lives(game, state, timezone.now(), result.phase, result)
    first = Character.objects.get(player__user=users[2], life=1)
    assert first.died_at is not None
    obituary = Obituary.objects.get(character=first)
    assert obituary.turn == result.phase.turn and "firing squad" in obituary.text
    assert Character.objects.get(player__user=users[2], life=2).name == "Don Miguel the Younger"
    client.force_login(users[4])
    remembered = client.get(reverse("game_detail", args=[game.id])).content.decode() \
        .split("Remembered", 1)[1]
    assert f"died in turn {result.phase.turn}" in remembered and "firing squad" in remembered


def test_a_living_character_edits_bio_and_avatar_but_not_the_name(campaign, client,
                                                                  settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game, users = campaign()
    client.force_login(users[0])
    url = reverse("game_character", args=[game.id])
    assert "Name" in client.get(url).content.decode()  # before the start, the name too
    client.post(url, {"name": "Don Carlitos", "bio": "Owns bananas."})
    assert Character.objects.get(player__user=users[0]).name == "Don Carlitos"
    start_campaign(game.id, game.gm)
    response = client.post(url, {"name": "Someone Else", "bio": "Owns the army.",
                                 "avatar": SimpleUploadedFile("a.png", png(), "image/png")})
    assert response.status_code == 302
    character = Character.objects.get(player__user=users[0])
    assert character.name == "Don Carlitos" and character.bio == "Owns the army."
    assert character.avatar.name.endswith(".png")
    # preparing an heir while alive is refused
    from junta.games.campaigns import CampaignError
    from junta.lives.services import prepare_heir

    with pytest.raises(CampaignError, match="alive"):
        prepare_heir(game.id, users[0], "Too Soon")
    client.force_login(type(users[0]).objects.create_user(email="nosy@example.org"))
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("upload, message", [
    (SimpleUploadedFile("x.png", b"<?php system($_GET['c']); ?>", "image/png"),
     "must be a PNG, JPEG, GIF or WebP image"),
    (SimpleUploadedFile("big.png", b"\x89PNG\r\n\x1a\n" + b"0" * MAX_AVATAR_BYTES, "image/png"),
     "the limit is 1024 KB"),
    (SimpleUploadedFile("bomb.png", declared_bomb_png(), "image/png"),
     "declares far more pixels than an avatar may have"),
])
def test_avatar_uploads_refuse_non_images_and_files_over_the_limit(
        campaign, client, settings, tmp_path, upload, message):
    settings.MEDIA_ROOT = tmp_path
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])
    url = reverse("game_character", args=[game.id])
    response = client.post(url, {"bio": "x", "avatar": upload})
    assert response.status_code == 400 and message in response.content.decode()
    assert not Character.objects.get(player__user=users[0]).avatar
    upload.seek(0)
    kill_in_open_phase(game, 0)
    play_days(game, users, 1)
    response = client.post(url, {"name": "Heir", "avatar": upload})
    assert response.status_code == 400 and message in response.content.decode()
    assert not HeirDraft.objects.exists()


def test_an_heirs_default_name_counts_the_line():
    """docs/rules.md §death: "An heir left unnamed is named after the character he follows: Don
    Carlos, then Don Carlos the Younger, Don Carlos III, Don Carlos IV." """
    from junta.lives.services import default_heir_name

    line = ["Captain Diego"]
    for _ in range(4):
        line.append(default_heir_name(line[-1]))
    assert line == ["Captain Diego", "Captain Diego the Younger", "Captain Diego III",
                    "Captain Diego IV", "Captain Diego V"]
    assert default_heir_name("Don Pepe the Younger") == "Don Pepe III"
    assert default_heir_name("X" * 70) == ("X" * 70 + " the Younger")[:60]
