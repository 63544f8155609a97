"""Where uploads are kept (JUNTA_STORAGE: the filesystem, the database or an S3 bucket) and how the
site serves them from there, so that every machine of a site finds every avatar; and the settings
that keep nothing a request needs on one machine's disk in production (the push key)."""

from __future__ import annotations

import json
import subprocess
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from junta.games.campaigns import create_game, join_game
from junta.games.models import Character, Game
from junta.ops.models import StoredFile
from junta.ops.storage import BucketStorage, DatabaseStorage
from tests.conftest import PYTHON, REPO, subprocess_env
from tests.web.images import image_bytes

DATABASE = {"BACKEND": "junta.ops.storage.DatabaseStorage"}


@pytest.fixture
def in_database(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"  # where nothing may be written
    settings.STORAGES = {**settings.STORAGES, "default": DATABASE}
    assert isinstance(default_storage, DatabaseStorage)
    return settings.MEDIA_ROOT


@pytest.mark.django_db
def test_a_file_in_the_database_is_saved_read_listed_and_deleted(in_database):
    png = image_bytes()
    first = default_storage.save("avatars/2026/05/me.png", ContentFile(png))
    second = default_storage.save("avatars/2026/05/me.png", ContentFile(b"other"))
    assert first == "avatars/2026/05/me.png" and second != first  # never overwritten
    with default_storage.open(first) as handle:
        assert handle.read() == png
    assert default_storage.size(first) == len(png) and default_storage.exists(second)
    assert default_storage.listdir("avatars") == (["2026"], [])
    assert sorted(default_storage.listdir("avatars/2026/05")[1]) == sorted(
        [first.rsplit("/", 1)[1], second.rsplit("/", 1)[1]])
    assert default_storage.url(first) == "/media/avatars/2026/05/me.png"
    row = StoredFile.objects.get(name=first)
    assert (row.content_type, row.size) == ("image/png", len(png))
    default_storage.delete(first)
    assert not default_storage.exists(first)
    with pytest.raises(FileNotFoundError):
        default_storage.open(first)
    assert not in_database.exists()


@pytest.mark.django_db
def test_the_site_serves_a_stored_file_with_its_cache_headers(client, in_database):
    png = image_bytes()
    name = default_storage.save("avatars/2026/05/me.png", ContentFile(png))
    response = client.get(default_storage.url(name))
    assert response.status_code == 200 and response.content == png
    assert response["Content-Type"] == "image/png"
    assert response["Content-Length"] == str(len(png))
    assert "public" in response["Cache-Control"] and "max-age=86400" in response["Cache-Control"]
    etag, modified = response["ETag"], response["Last-Modified"]
    assert client.get(default_storage.url(name), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(default_storage.url(name),
                      HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    head = client.head(default_storage.url(name))
    assert head.status_code == 200 and head.content == b""
    assert client.post(default_storage.url(name)).status_code == 405
    assert client.get("/media/avatars/2026/05/none.png").status_code == 404
    assert client.get("/media/avatars/../avatars/2026/05/me.png").status_code == 404


@pytest.mark.django_db
def test_what_is_not_an_avatar_s_image_is_served_as_a_download(client, in_database):
    name = default_storage.save("notes/page.html", ContentFile(b"<script>alert(1)</script>"))
    response = client.get(default_storage.url(name))
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"] == "attachment"


@pytest.mark.django_db
def test_an_avatar_uploaded_goes_to_the_database_and_is_shown_from_it(client, in_database):
    gm = get_user_model().objects.create_user(email="gm@example.org")
    game = create_game(gm, "Stored", join_policy=Game.JoinPolicy.OPEN)
    client.force_login(get_user_model().objects.create_user(email="p@example.org"))
    png = image_bytes()
    response = client.post(reverse("game_join", args=[game.id]), {
        "character_name": "Dona Pilar",
        "avatar": SimpleUploadedFile("me.png", png, content_type="image/png")})
    assert response.status_code == 302
    avatar = Character.objects.get().avatar
    assert StoredFile.objects.get().name == avatar.name
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert avatar.url in page
    assert client.get(avatar.url).content == png
    assert not in_database.exists()


def test_the_bucket_s_files_are_served_by_the_site_not_from_the_bucket():
    storage = BucketStorage(bucket_name="junta-avatars", endpoint_url="http://127.0.0.1:9",
                            access_key="key", secret_key="secret", file_overwrite=False)
    assert storage.url("avatars/2026/05/me.png") == "/media/avatars/2026/05/me.png"


PRINT = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({"storage": settings.STORAGES["default"],
                  "vapid_file": settings.JUNTA_VAPID_KEY_FILE}, default=str))
"""
PRODUCTION = {"DJANGO_DEBUG": "0",
              "DJANGO_SECRET_KEY": "a-long-production-secret-for-this-test-0123456789abcdef"}


def loaded(tmp_path, **env: str | None) -> subprocess.CompletedProcess[str]:
    clean: dict[str, str | None] = {
        name: None for name in ("JUNTA_STORAGE", "AWS_STORAGE_BUCKET_NAME", "AWS_S3_ENDPOINT_URL",
                                "AWS_S3_REGION_NAME", "AWS_ACCESS_KEY_ID",
                                "AWS_SECRET_ACCESS_KEY", "AWS_LOCATION", "JUNTA_VAPID_KEY_FILE",
                                "DJANGO_DEBUG", "JUNTA_DEV", "DJANGO_SECRET_KEY",
                                "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")}
    clean.update({"DJANGO_SETTINGS_MODULE": "junta.settings", "JUNTA_VAR_DIR": str(tmp_path)})
    clean.update(env)
    return subprocess.run([PYTHON, "-c", PRINT], cwd=REPO, env=subprocess_env(**clean),
                          capture_output=True, text=True, timeout=60)


def settings_of(tmp_path, **env: str | None) -> dict:
    result = loaded(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_storage_setting_chooses_where_uploads_go(tmp_path):
    assert settings_of(tmp_path)["storage"]["BACKEND"].endswith("FileSystemStorage")
    assert settings_of(tmp_path, JUNTA_STORAGE="database")["storage"] == DATABASE
    bucket = settings_of(tmp_path, JUNTA_STORAGE="s3", AWS_STORAGE_BUCKET_NAME="junta-avatars",
                         AWS_S3_ENDPOINT_URL="https://s3.example.org", AWS_LOCATION="/site/",
                         AWS_ACCESS_KEY_ID="key", AWS_SECRET_ACCESS_KEY="secret")["storage"]
    assert bucket["BACKEND"] == "junta.ops.storage.BucketStorage"
    options = bucket["OPTIONS"]
    assert (options["bucket_name"], options["endpoint_url"], options["location"]) == (
        "junta-avatars", "https://s3.example.org", "site")
    assert (options["access_key"], options["secret_key"]) == ("key", "secret")
    assert options["file_overwrite"] is False and options["default_acl"] is None
    refused = loaded(tmp_path, JUNTA_STORAGE="s3")
    assert refused.returncode != 0 and "AWS_STORAGE_BUCKET_NAME" in refused.stderr
    refused = loaded(tmp_path, JUNTA_STORAGE="ftp")
    assert refused.returncode != 0 and "use filesystem, database or s3" in refused.stderr


def test_in_production_the_push_key_is_never_one_machine_s_file(tmp_path):
    assert settings_of(tmp_path)["vapid_file"] == str(tmp_path.resolve() / "vapid.pem")  # dev
    assert settings_of(tmp_path, **PRODUCTION)["vapid_file"] is None
    shared = tmp_path / "shared" / "vapid.pem"
    assert settings_of(tmp_path, **PRODUCTION, JUNTA_VAPID_KEY_FILE=str(shared))[
        "vapid_file"] == str(shared)


@pytest.mark.django_db
def test_a_campaign_s_file_carries_its_avatars_out_of_the_database_and_back(tmp_path,
                                                                            in_database):
    gm = get_user_model().objects.create_user(email="gm@example.org")
    game = create_game(gm, "Carried", join_policy=Game.JoinPolicy.OPEN)
    png = image_bytes()
    join_game(game.id, get_user_model().objects.create_user(email="p@example.org"), "Don Avatar",
              avatar=SimpleUploadedFile("me.png", png, content_type="image/png"))
    path = tmp_path / "campaign.json"
    call_command("export_campaign", game.id, "-o", str(path), stderr=StringIO())
    game.delete()
    StoredFile.objects.all().delete()
    call_command("import_campaign", str(path), stdout=StringIO())
    avatar = Character.objects.get(name="Don Avatar").avatar
    assert StoredFile.objects.get().name == avatar.name
    with avatar.open("rb") as handle:
        assert handle.read() == png
