"""A campaign's rows written to a file and read back, table by table: the machinery each app's
archive module uses for its own rows (`AppArchive`: `junta.games.archive`,
`junta.talk.archive`, `junta.polls.archive`, `junta.lives.archive`, `junta.notify.archive`).
The file itself (its format, its versions, the order of its lists) and the checks of an import
are the GM panel's (`junta.gm.backup`).

A table's rows go out as JSON objects, one per row, its fields in the model's order: its id as
"id", a reference to another table by the old id it holds, a reference to a person by e-mail
address (`ARCHIVE_USERS`, `accounts.public.PeopleNamed`), the key to the campaign left out, a
file by its storage name (the bytes beside, base64, in `ArchiveExporting.files`), the fields
made from the row's others (`ArchiveTable.derived`, a speech's HTML) not at all. They come back
as new rows (new ids), each reference mapped through the ids its table was given
(`ArchiveRestoring.ids`), the derived fields made again (`ArchiveTable.render`), the texts
checked by the GM panel's check of control characters (`ArchiveRestoring.refuse`), the
exported times kept.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.db import connection, models
from django.db.models import Model, QuerySet

from accounts.public import PeopleNamed, User
from junta.games.models import Game

ARCHIVE_USERS = "users"  # a reference to a person: by e-mail address

# A row as the file holds it: JSON's values (Any, as json.loads gives them)
ArchiveRow = dict[str, Any]


class ArchiveError(Exception):
    """Rows that cannot be written to a file or read back; the message says why."""


@dataclass(frozen=True)
class ArchiveTable:
    """The rows of one model that belong to a campaign, under `key` in the file. `refs` names,
    for each foreign key, the table whose old ids it holds (`ARCHIVE_USERS`: an e-mail
    address); a key to the game itself is left out of the rows (it is the campaign being
    imported). `derived` names the fields made from the row's others, which `render` (the
    model's method) fills on import; `adjust` rewrites a row of the file before it is read (ids
    it holds in its data)."""

    key: str
    model: type[Model]
    rows: Callable[[Game], QuerySet[Model]]
    refs: dict[str, str] = field(default_factory=dict)
    derived: frozenset[str] = frozenset()
    # Any: the model's own method, unbound (Speech.render takes a Speech)
    render: Callable[[Any], None] | None = None
    adjust: Callable[[ArchiveRow, ArchiveRestoring], ArchiveRow] | None = None


@dataclass(frozen=True)
class AppArchive:
    """One app's rows of a campaign in its file: its tables, in the order an import creates
    them (each after those it refers to, of its own app and of the apps below it)."""

    tables: tuple[ArchiveTable, ...]

    def export_rows(self, game: Game,
                    exporting: ArchiveExporting) -> dict[str, list[ArchiveRow]]:
        """Each table's rows of the campaign, by id, under the table's key."""
        return {table.key: [_export_row(table, obj, exporting)
                            for obj in table.rows(game).order_by("pk")]
                for table in self.tables}

    def restore_rows(self, data: dict[str, Any], restoring: ArchiveRestoring) -> None:
        """Each table's rows of the file (`data`, JSON's values: Any), none when the file lacks
        its key, created for `restoring.game`; their old ids mapped to the new in
        `restoring.ids`."""
        for table in self.tables:
            rows = data.get(table.key, [])
            if table.adjust is not None:
                rows = [table.adjust(row, restoring) for row in rows]
            restoring.ids[table.key] = _create(table, rows, restoring)

    def restore_files(self, restoring: ArchiveRestoring) -> None:
        """The files the file carries for the rows restored (avatars), kept in storage (once
        the import is sure): the same file already in storage is used as it is; otherwise it is
        saved (under a new name if that one is taken) and the rows follow."""
        for table in self.tables:
            for f in fields(table.model):
                if not isinstance(f, models.FileField):
                    continue
                for obj in table.rows(restoring.game).exclude(**{f.name: ""}):
                    name = getattr(obj, f.attname).name
                    kept = _restored_file(name, restoring)
                    if kept is not None and kept != name:
                        table.model._default_manager.filter(pk=obj.pk).update(**{f.name: kept})


@dataclass
class ArchiveExporting:
    """What an export collects beside the rows: the people they name, the files they hold
    (base64, by storage name)."""

    people: PeopleNamed = field(default_factory=PeopleNamed)
    files: dict[str, str] = field(default_factory=dict)


@dataclass
class ArchiveRestoring:
    """An import under way: the campaign created (`old_game_id` its id in the file), the people
    by e-mail, the check every row passes before it is kept (the GM panel's refusal of control
    characters), each table's old ids mapped to the new, and the files of the file (`saved`:
    the storage name each was kept under)."""

    game: Game
    old_game_id: int
    people: dict[str, User]
    refuse: Callable[[type[Model], Model], None]
    files: dict[str, str] = field(default_factory=dict)
    # each table's old ids (Any: as the file gives them) to the new rows' ids
    ids: dict[str, dict[Any, int]] = field(default_factory=dict)
    saved: dict[str, str] = field(default_factory=dict)


def person(people: dict[str, User], email: str | None) -> User | None:
    """The person a row names by e-mail address (None for no one), of those the file lists."""
    if email is None:
        return None
    if email not in people:
        raise ArchiveError(f"The export names {email} but does not list that person.")
    return people[email]


# --- values ------------------------------------------------------------------------------------


# A model's fields as django-stubs type them (Field[Any, Any]: of any kind of value)
def fields(model: type[Model]) -> list[models.Field[Any, Any]]:
    return list(model._meta.concrete_fields)


def _auto_time(f: models.Field[Any, Any]) -> bool:
    return bool(getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))


def dump(value: Any) -> Any:  # Any: a field's value in, JSON's out
    """A field's value as JSON (full precision: Django's encoder drops microseconds)."""
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def load(f: models.Field[Any, Any], value: Any) -> Any:  # Any: JSON's value in, the field's out
    """A field's value from JSON."""
    if value is None or isinstance(f, models.JSONField):
        return value
    return f.to_python(value)


def _references(f: models.Field[Any, Any], table: ArchiveTable) -> str | None:
    """The table a foreign key's value names, or None for the key to the game."""
    target = f.related_model
    if target is Game:
        return None
    if f.name not in table.refs:
        raise ArchiveError(f"{table.model.__name__}.{f.name}: the backup does not know where "
                           "this reference points")
    return table.refs[f.name]


# --- export ------------------------------------------------------------------------------------


def _export_row(table: ArchiveTable, obj: Model, exporting: ArchiveExporting) -> ArchiveRow:
    row: ArchiveRow = {}
    for f in fields(table.model):
        if f.name in table.derived:
            continue
        if f.primary_key:
            row["id"] = obj.pk
        elif f.is_relation:
            target = _references(f, table)
            if target == ARCHIVE_USERS:
                row[f.name] = exporting.people.email(getattr(obj, f.attname))
            elif target is not None:
                row[f.name] = getattr(obj, f.attname)
        elif isinstance(f, models.FileField):
            name = getattr(obj, f.attname).name or ""
            row[f.name] = name
            if name and name not in exporting.files and default_storage.exists(name):
                with default_storage.open(name, "rb") as handle:
                    exporting.files[name] = base64.b64encode(handle.read()).decode("ascii")
        else:
            row[f.name] = dump(f.value_from_object(obj))
    return row


# --- import ------------------------------------------------------------------------------------


def _create(table: ArchiveTable, rows: list[ArchiveRow],
            restoring: ArchiveRestoring) -> dict[Any, int]:  # Any: an old id as the file has it
    """Insert one table's rows (references mapped to the new ids); returns old id -> new id."""
    model = table.model
    ids = restoring.ids
    later: list[tuple[int, str, Any]] = []  # references within the table (a reply to a speech)
    objs = []
    for i, row in enumerate(rows):
        obj = model()
        for f in fields(model):
            if f.primary_key or f.name in table.derived:
                continue
            if f.is_relation:
                target = _references(f, table)
                if target is None:
                    setattr(obj, f.attname, restoring.game.pk)
                    continue
                value = row.get(f.name)
                if target == ARCHIVE_USERS:
                    user = person(restoring.people, value)
                    setattr(obj, f.attname, user.pk if user else None)
                elif value is None:
                    setattr(obj, f.attname, None)
                elif target == table.key:
                    later.append((i, f.attname, value))
                elif value in ids.get(target, {}):
                    setattr(obj, f.attname, ids[target][value])
                else:
                    raise ArchiveError(f"{table.key} row {row.get('id')}: {f.name} names "
                                       f"{target} row {value}, which the export does not hold.")
            elif f.name in row:
                setattr(obj, f.attname, load(f, row[f.name]))
        if table.render is not None:
            table.render(obj)
        restoring.refuse(model, obj)
        objs.append(obj)
    for start in range(0, len(objs), 500):
        model._default_manager.bulk_create(objs[start:start + 500])
    mapping = {row["id"]: obj.pk for row, obj in zip(rows, objs, strict=True)}
    if later:
        changed = []
        for i, attname, value in later:
            if value not in mapping:
                raise ArchiveError(f"{table.key} row {rows[i].get('id')} names {table.key} row "
                                   f"{value}, which the export does not hold.")
            setattr(objs[i], attname, mapping[value])
            changed.append(objs[i])
        names = sorted({attname.removesuffix("_id") for _, attname, _ in later})
        model._default_manager.bulk_update(changed, names, batch_size=500)
    keep_times(model, objs, rows)
    return mapping


def keep_times(model: type[Model], objs: list[Model], rows: list[ArchiveRow]) -> None:
    """Saving stamps `auto_now` fields with the present: put back the exported times."""
    stamped = [f for f in fields(model) if _auto_time(f)]
    kept = [f for f in stamped if all(row.get(f.name) is not None for row in rows)]
    if not kept or not objs:
        return
    for obj, row in zip(objs, rows, strict=True):
        for f in kept:
            setattr(obj, f.attname, load(f, row[f.name]))
    model._default_manager.bulk_update(objs, [f.name for f in kept], batch_size=500)


def reset_sequence(model: type[Model]) -> None:
    """After inserting a row with its own id, the next new row must not take that id
    (PostgreSQL's sequences do not follow explicit ids)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _restored_file(name: str, restoring: ArchiveRestoring) -> str | None:
    """The storage name the file `name` is kept under, or None if the file does not carry it
    (each saved once, however many rows hold it)."""
    if name not in restoring.files:
        return None
    if name not in restoring.saved:
        content = base64.b64decode(restoring.files[name])
        restoring.saved[name] = _stored(name, content)
    return restoring.saved[name]


def _stored(name: str, content: bytes) -> str:
    if default_storage.exists(name):
        with default_storage.open(name, "rb") as handle:
            if handle.read() == content:
                return name
    return default_storage.save(name, ContentFile(content))
