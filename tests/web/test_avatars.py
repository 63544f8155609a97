"""Avatar uploads: images only, at most 1 MB, checked by decoding."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from junta.games.campaigns import create_game
from junta.games.models import Character, Game
from tests.web.images import declared_bomb_png, image_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def joining(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    gm = get_user_model().objects.create_user(email="gm@example.org")
    game = create_game(gm, "Avatars", join_policy=Game.JoinPolicy.OPEN)
    client.force_login(get_user_model().objects.create_user(email="p@example.org"))

    def join(upload):
        return client.post(reverse("game_join", args=[game.id]),
                           {"character_name": "Dona Pilar", "avatar": upload})
    return game, join


def test_a_png_avatar_is_stored_and_shown_on_the_roster(client, joining):
    game, join = joining
    response = join(SimpleUploadedFile("me.png", image_bytes(), content_type="image/png"))
    assert response.status_code == 302
    character = Character.objects.get()
    assert character.avatar.name.endswith(".png")
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert character.avatar.url in page and 'alt="Portrait of Dona Pilar"' in page
    assert client.get(character.avatar.url).status_code == 200


def test_a_file_that_is_not_an_image_is_refused(joining):
    game, join = joining
    fake = SimpleUploadedFile("me.png", b"<?php echo 'not an image'; ?>", content_type="image/png")
    response = join(fake)
    assert response.status_code == 400
    assert "must be a PNG, JPEG, GIF or WebP image" in response.content.decode()
    assert not Character.objects.exists()


def test_an_image_of_another_format_is_refused(joining):
    game, join = joining
    response = join(SimpleUploadedFile("me.bmp", image_bytes("BMP"), content_type="image/bmp"))
    assert "is a BMP image; use PNG, JPEG, GIF or WebP" in response.content.decode()


def test_a_file_over_the_limit_is_refused(joining):
    game, join = joining
    big = SimpleUploadedFile("big.png", b"\x89PNG" + b"0" * (1024 * 1024 + 10),
                             content_type="image/png")
    response = join(big)
    assert "the limit is 1024 KB" in response.content.decode()
    assert not Character.objects.exists()


def test_huge_dimensions_are_refused(joining):
    game, join = joining
    response = join(SimpleUploadedFile("wide.png", image_bytes(size=(2500, 10))))
    assert "2500 x 10 pixels; the limit is 2000 x 2000" in response.content.decode()


def test_an_image_declaring_an_enormous_size_is_refused_not_a_server_error(joining):
    game, join = joining
    bomb = declared_bomb_png()
    with pytest.raises(Image.DecompressionBombError):
        Image.open(io.BytesIO(bomb))  # what Pillow does with it
    response = join(SimpleUploadedFile("bomb.png", bomb, content_type="image/png"))
    assert response.status_code == 400
    assert "declares far more pixels than an avatar may have" in response.content.decode()
    assert not Character.objects.exists()
