"""Where uploads (avatars) are kept, chosen by `JUNTA_STORAGE` (settings.STORAGES["default"]), and
how the site serves them at MEDIA_URL, whichever it is (`served`, the `media` view of
junta/urls.py): so that every machine of the site finds every upload, and the pages' images stay
on the site's own origin (the CSP allows no other).

- filesystem: Django's FileSystemStorage under MEDIA_ROOT (the embedded default);
- database: `DatabaseStorage`, a row of `StoredFile` each, written in the transaction of the
  service that saves it;
- s3: `BucketStorage`, django-storages' S3 backend, its objects private and read by the site.
"""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from datetime import datetime
from typing import IO

from django.core.files.base import ContentFile, File
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.deconstruct import deconstructible
from storages.backends.s3 import S3Storage

from .models import StoredFile

# What may be shown inline: the avatars' formats (junta/games/avatars.py). Anything else is
# served as a download, never as a page of the site.
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def content_type_of(name: str) -> str:
    guessed, _encoding = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


def media_url(name: str) -> str:
    """The address the site serves the upload `name` at (the `media` view)."""
    return reverse("media", kwargs={"path": name})


@deconstructible
class DatabaseStorage(Storage):
    """Uploads as rows of the database every machine reads (`JUNTA_STORAGE=database`)."""

    def _open(self, name: str, mode: str = "rb") -> File[bytes]:
        if "w" in mode or "a" in mode or "+" in mode:
            raise ValueError("a stored file is written through save(), not opened for writing")
        row = StoredFile.objects.filter(name=name).only("content").first()
        if row is None:
            raise FileNotFoundError(name)
        return ContentFile(bytes(row.content), name=name)

    def _save(self, name: str, content: File[bytes]) -> str:
        content.seek(0)
        data = b"".join(
            chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in content.chunks())
        while True:
            try:
                with transaction.atomic():  # a savepoint inside the service's transaction
                    StoredFile.objects.create(
                        name=name, content=data, size=len(data),
                        content_type=content_type_of(name),
                        digest=hashlib.sha256(data).hexdigest(), modified=timezone.now())
                return name
            except IntegrityError:  # the same name saved meanwhile: take another, as Django's
                name = self.get_available_name(name)  # FileSystemStorage does

    def delete(self, name: str) -> None:
        StoredFile.objects.filter(name=name).delete()

    def exists(self, name: str) -> bool:
        return StoredFile.objects.filter(name=name).exists()

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        prefix = path.rstrip("/") + "/" if path.strip("/") else ""
        folders: set[str] = set()
        files: list[str] = []
        for name in StoredFile.objects.filter(name__startswith=prefix).values_list(
                "name", flat=True):
            head, slash, tail = name[len(prefix):].partition("/")
            if slash:
                folders.add(head)
            else:
                files.append(head)
        return sorted(folders), files

    def size(self, name: str) -> int:
        row = StoredFile.objects.filter(name=name).values_list("size", flat=True).first()
        if row is None:
            raise FileNotFoundError(name)
        return row

    def url(self, name: str | None) -> str:
        return media_url(name or "")

    def get_modified_time(self, name: str) -> datetime:
        modified = StoredFile.objects.filter(name=name).values_list("modified", flat=True).first()
        if modified is None:
            raise FileNotFoundError(name)
        return modified

    def get_created_time(self, name: str) -> datetime:
        return self.get_modified_time(name)

    def get_accessed_time(self, name: str) -> datetime:
        return self.get_modified_time(name)


@deconstructible
class BucketStorage(S3Storage):  # type: ignore[misc]  # S3Storage is untyped (Any)
    """Uploads in an S3-compatible bucket (`JUNTA_STORAGE=s3`), served by the site itself."""

    def url(self, name: str | None, parameters: object = None, expire: object = None,
            http_method: object = None) -> str:
        return media_url(name or "")


@dataclass(frozen=True)
class Served:
    """An upload as the `media` view answers it."""

    content: bytes
    content_type: str
    modified: datetime
    etag: str


def served(name: str) -> Served | None:
    """The upload `name` from the storage in use (not the filesystem's: Django's static view
    serves those), or None when there is none."""
    storage = default_storage
    if isinstance(storage, DatabaseStorage):
        row = StoredFile.objects.filter(name=name).first()
        if row is None:
            return None
        return Served(bytes(row.content), row.content_type, row.modified, row.digest)
    if not storage.exists(name):
        return None
    handle: IO[bytes]
    with storage.open(name, "rb") as handle:
        content = handle.read()
    return Served(content, content_type_of(name), storage.get_modified_time(name),
                  hashlib.sha256(content).hexdigest())


def on_filesystem() -> bool:
    """Whether uploads are files under MEDIA_ROOT (served by Django's static view)."""
    return isinstance(default_storage, FileSystemStorage)
