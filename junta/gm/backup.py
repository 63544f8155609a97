"""One campaign to a JSON file and back (`manage.py export_campaign`, `import_campaign`).

The file holds every row of the campaign: the game with its settings, the players (their
people named by e-mail address and display name, never by a password), the characters and
what the families' lives keep (heirs being prepared, obituaries), the phases with their
starting states, digests and deadlines, the orders, the results with their digests, the
speeches, the private conversations (their members, how far each has read, their messages),
the polls and awards with their votes,
the GM's announcements and audit log, and the notification settings tied to the
campaign (preferences, absences, and the record of mails already sent, so that a restored
campaign sends none twice). Avatars travel inside the file. The board rows (positions, cards,
bills, units) are not in it: they are a projection of the current state, rebuilt by
`repository.write_board`. Nor is the HTML of a speech or an announcement: an import renders
and sanitises it again from its Markdown (DERIVED), so that a file can bring no HTML the
sanitiser has not passed.

The file is one JSON object: "format" ("junta-campaign") and "version" (FORMAT_VERSION, raised
whenever the layout changes), "engine_version", "exported_at", "game" (the game row), "users"
(e-mail, display name, time zone), one list of rows per table of TABLES under its key, and
"files" (each avatar's bytes in base64, by its storage name). Rows are named by their old ids;
an import creates new rows (new ids) and maps every reference, keeping the game's own id unless
`as_new`. Timestamps are kept as exported.

An import is checked before it is kept, as the GM's replay check does (`junta.gm.checks`): every
phase's starting state against its digest, every result's state against its own digest, every
adjudicated phase resolved again from its starting state and the orders its result used (the
stored result's digest must come out), the chain from each phase to the next, and the stored
orders against those the result used. A phase adjudicated by an older engine than this site's
may resolve otherwise, the rules having changed since (`engine.ENGINE_CHANGELOG`): its stored
result stands and the report says so, phase by phase, with what changed. A file that fails is
refused whole (nothing imported), naming the first phase that differs.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from accounts.public import User, is_valid_time_zone
from junta import engine
from junta.games.public import (
    Announcement,
    AuditEntry,
    Bill,
    Character,
    ContentRevision,
    EventsSeen,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    PoliticalCard,
    Position,
    Speech,
    Unit,
    lock_game,
    new_seed,
    orders_as_json,
    orders_for_engine,
    state_after,
    state_before,
    write_board,
)
from junta.gm.checks import check_campaign
from junta.lives.public import HeirDraft, Obituary
from junta.notify.public import Absence, ConversationMail, Delivery, Preferences
from junta.ops.public import refuse_control_characters
from junta.polls.public import Choice, Poll, Vote
from junta.talk.public import Conversation, Member, Message

FORMAT = "junta-campaign"
# 2: what the mail of new messages told each member moved from his row (conversation_members'
# mailed_until and mailed_at) to conversation_mails; a version 1 file is read as before.
FORMAT_VERSION = 2
USERS = "users"  # a reference to a person: by e-mail address


class BackupError(Exception):
    """A campaign that cannot be exported or imported; the message says why."""


@dataclass(frozen=True)
class Table:
    """The rows of one model that belong to a campaign. `refs` names, for each foreign key,
    the table whose old ids it holds (`USERS`: an e-mail address); a key to the game itself is
    left out of the rows (it is the campaign being imported)."""

    key: str
    model: type[Model]
    rows: Callable[[Game], QuerySet[Model]]
    refs: dict[str, str] = field(default_factory=dict)


# In the order an import creates them: each after the tables it refers to.
TABLES: tuple[Table, ...] = (
    Table("players", Player, lambda g: Player.objects.filter(game=g), {"user": USERS}),
    Table("characters", Character, lambda g: Character.objects.filter(player__game=g),
          {"player": "players"}),
    Table("phases", Phase, lambda g: Phase.objects.filter(game=g)),
    Table("orders", Order, lambda g: Order.objects.filter(phase__game=g),
          {"phase": "phases", "player": "players"}),
    Table("results", PhaseResult, lambda g: PhaseResult.objects.filter(phase__game=g),
          {"phase": "phases"}),
    Table("speeches", Speech, lambda g: Speech.objects.filter(game=g),
          {"player": "players", "phase": "phases", "reply_to": "speeches"}),
    Table("audit_entries", AuditEntry, lambda g: AuditEntry.objects.filter(game=g),
          {"actor": USERS}),
    Table("announcements", Announcement, lambda g: Announcement.objects.filter(game=g),
          {"author": USERS, "phase": "phases"}),
    Table("heir_drafts", HeirDraft, lambda g: HeirDraft.objects.filter(player__game=g),
          {"player": "players"}),
    Table("obituaries", Obituary, lambda g: Obituary.objects.filter(character__player__game=g),
          {"character": "characters", "phase": "phases"}),
    Table("preferences", Preferences, lambda g: Preferences.objects.filter(game=g),
          {"user": USERS}),
    Table("absences", Absence, lambda g: Absence.objects.filter(player__game=g),
          {"player": "players"}),
    Table("deliveries", Delivery, lambda g: Delivery.objects.filter(game=g), {"user": USERS}),
    Table("conversations", Conversation, lambda g: Conversation.objects.filter(game=g),
          {"started_by": USERS}),
    Table("conversation_members", Member,
          lambda g: Member.objects.filter(conversation__game=g),
          {"conversation": "conversations", "user": USERS, "player": "players"}),
    Table("conversation_mails", ConversationMail,
          lambda g: ConversationMail.objects.filter(member__conversation__game=g),
          {"member": "conversation_members", "user": USERS}),
    Table("messages", Message, lambda g: Message.objects.filter(conversation__game=g),
          {"conversation": "conversations", "author": USERS}),
    Table("polls", Poll, lambda g: Poll.objects.filter(game=g), {"author": USERS}),
    Table("poll_choices", Choice, lambda g: Choice.objects.filter(poll__game=g),
          {"poll": "polls", "player": "players"}),
    Table("poll_votes", Vote, lambda g: Vote.objects.filter(poll__game=g),
          {"poll": "polls", "choice": "poll_choices", "voter": "players"}),
)
# Not in the file: `repository.write_board` makes them again from the current state.
REBUILT: tuple[type[Model], ...] = (Position, PoliticalCard, Bill, Unit)
# Not in the file, ever: the count of changes this site has seen of the campaign, under which its
# pages are kept (`junta.games.revisions`). An import starts a new count; putting an old one back
# would serve pages drawn before the import.
# How far each person has read the Events page is this site's too: an import starts it anew.
SITE_OWN: tuple[type[Model], ...] = (ContentRevision, EventsSeen)
# Fields made from the row's other fields: never written to the file, never read from it; an
# import fills them with the function (a speech's HTML, rendered and sanitised from its Markdown).
# (Callable[[Any], ...]: each model's own method, taking a row of its model)
DERIVED: dict[type[Model], tuple[frozenset[str], Callable[[Any], None]]] = {
    Speech: (frozenset({"body_html"}), Speech.render),
    Announcement: (frozenset({"body_html"}), Announcement.render),
    Message: (frozenset({"body_html"}), Message.render),
}


def _derived(model: type[Model]) -> frozenset[str]:
    return DERIVED[model][0] if model in DERIVED else frozenset()

# Audit entries name players by their row ids (approve, remove, decline, replace).
AUDIT_PLAYER_KEYS = ("player", "old_player", "new_player")
# Delivery keys name the campaign's and its phases' ids (`junta.notify.notices`).
DELIVERY_KEY = re.compile(r"^(game|phase):(\d+)(?=:|$)")


# --- values ------------------------------------------------------------------------------------

# The backup file is JSON: a row (and the file itself) has Any values, as json and Django's
# `value_from_object` give them; old ids read from it (a number, or its text) key the new ones.
Row = dict[str, Any]
OldIds = dict[Any, int]
# A model's field as django-stubs types it (Field[Any, Any]: of any kind of value)
type ModelField = models.Field[Any, Any]


def _fields(model: type[Model]) -> list[ModelField]:
    return list(model._meta.concrete_fields)


def _auto_time(f: ModelField) -> bool:
    return bool(getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))


def _dump(value: Any) -> Any:  # a field's value (Any: Django's), as JSON
    """A field's value as JSON (full precision: Django's encoder drops microseconds)."""
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _load(f: ModelField, value: Any) -> Any:  # JSON, as the field's value (Django's)
    if value is None or isinstance(f, models.JSONField):
        return value
    return f.to_python(value)


def _references(f: ModelField, table: Table) -> str | None:
    """The table a foreign key's value names, or None for the key to the game."""
    target = f.related_model
    if target is Game:
        return None
    if f.name not in table.refs:
        raise BackupError(f"{table.model.__name__}.{f.name}: the backup does not know where "
                          "this reference points")
    return table.refs[f.name]


# --- export ------------------------------------------------------------------------------------


def export_campaign(game_id: int) -> Row:
    """Every row of the campaign as one JSON-ready dict (the game row locked meanwhile, so that
    no adjudication or ruling changes it half-way)."""
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id).exists():
            raise BackupError(f"There is no campaign {game_id}.")
        game = lock_game(game_id)
        people: dict[int, User] = {}

        def person(user_id: int | None) -> str | None:
            if user_id is None:
                return None
            if user_id not in people:
                people[user_id] = User.objects.get(pk=user_id)
            return people[user_id].email

        files: dict[str, str] = {}
        game_row: Row = {}
        for f in _fields(Game):
            if f.name == "gm":
                game_row["gm"] = person(game.gm_id)
            else:
                game_row["id" if f.primary_key else f.name] = _dump(f.value_from_object(game))
        data: Row = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "engine_version": engine.ENGINE_VERSION,
            "exported_at": timezone.now().isoformat(),
            "game": game_row,
        }
        for table in TABLES:
            rows = []
            derived = _derived(table.model)
            for obj in table.rows(game).order_by("pk"):
                row: Row = {}
                for f in _fields(table.model):
                    if f.name in derived:
                        continue
                    if f.primary_key:
                        row["id"] = obj.pk
                    elif f.is_relation:
                        target = _references(f, table)
                        if target == USERS:
                            row[f.name] = person(getattr(obj, f.attname))
                        elif target is not None:
                            row[f.name] = getattr(obj, f.attname)
                    elif isinstance(f, models.FileField):
                        name = getattr(obj, f.attname).name or ""
                        row[f.name] = name
                        if name and name not in files and default_storage.exists(name):
                            with default_storage.open(name, "rb") as handle:
                                files[name] = base64.b64encode(handle.read()).decode("ascii")
                    else:
                        row[f.name] = _dump(f.value_from_object(obj))
                rows.append(row)
            data[table.key] = rows
        data[USERS] = [{"email": u.email, "display_name": u.display_name,
                        "time_zone": u.time_zone}
                       for u in sorted(people.values(), key=lambda u: u.email)]
        data["files"] = files
    return data


# --- the check ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    phase: int
    text: str


@dataclass
class Verification:
    """The replay of a campaign: how many phases were resolved again, and what differs."""

    replayed: int = 0
    differences: list[Difference] = field(default_factory=list)
    # the phases an older engine adjudicated, in words (`junta.games.replay.older_notes`), and
    # what the engine changed since the oldest of those that resolve otherwise today
    notes: list[str] = field(default_factory=list)
    changed: int = 0
    changelog: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences

    @property
    def first(self) -> Difference | None:
        return min(self.differences, key=lambda d: d.phase) if self.differences else None

    def summary(self) -> str:
        first = self.first
        if first is None and self.changed:
            one = self.changed == 1
            return (f"replayed {self.replayed} phases: {self.replayed - self.changed} digests "
                    f"equal; {self.changed} phase{'' if one else 's'} adjudicated by an older "
                    f"engine differ{'s' if one else ''}, the rules having changed since: "
                    f"{'its stored result stands' if one else 'their stored results stand'}")
        if first is None:
            return f"replayed {self.replayed} phases: all digests equal"
        more = len({d.phase for d in self.differences}) - 1
        return first.text + (f" (and {more} later phase{'s' if more != 1 else ''})"
                             if more > 0 else "")


def verify(game: Game) -> Verification:
    """The GM's replay check (`junta.gm.checks.check_campaign`: each adjudicated phase resolved
    again from its starting state and the orders its result used, and the chain of starting
    states), after checking what it takes for granted: that each stored starting state matches
    its digest, and that the stored orders are those the result used."""
    out = Verification()

    def differs(phase: Phase | int, kind: str, text: str) -> None:
        number = phase.number if isinstance(phase, Phase) else phase
        out.differences.append(Difference(number, f"phase {number} ({kind}) differs: {text}"))

    stops = False  # a difference the replay would stop at rather than report
    for phase in game.phases.order_by("number"):
        try:
            state_before(phase)
        except RuntimeError:
            differs(phase, phase.kind, "its starting state does not match its digest")
            stops = True
    for result in PhaseResult.objects.filter(phase__game=game).select_related("phase"):
        phase = result.phase
        try:  # as today's engine reads them: an older engine may have written them otherwise
            used = orders_as_json({int(seat): engine.parse_orders(items)
                                   for seat, items in result.orders_used.items()})
        except Exception:  # the engine cannot even read them: no replay is possible
            differs(phase, phase.kind, "the orders its result used cannot be read")
            stops = True
            continue
        try:
            stored = orders_as_json(orders_for_engine(phase))
        except Exception:
            stored = None
        if stored != used:
            differs(phase, phase.kind, "its stored orders are not those its result was "
                    "adjudicated with")
    if stops:
        return out
    report = check_campaign(game)
    out.replayed = len(report.replay)
    out.notes, out.changed, out.changelog = report.older, len(report.changed), report.changelog
    for line in report.replay:
        if not line.ok:
            differs(line.phase_number, line.kind, line.failure)
    for chain in report.chain:
        if not chain.ok:
            differs(chain.number, chain.kind, chain.origin)
    return out


# --- import ------------------------------------------------------------------------------------


@dataclass
class Imported:
    game: Game
    created_users: list[str]
    verification: Verification

    @property
    def ok(self) -> bool:
        return self.verification.ok


class Refused(BackupError):
    """The import was rolled back: the file's campaign does not replay as stored."""

    def __init__(self, verification: Verification) -> None:
        super().__init__(f"{verification.summary()}: nothing was imported.")
        self.verification = verification


def import_campaign(data: Row, *, as_new: bool = False, name: str | None = None,
                    keep_on_mismatch: bool = False) -> Imported:
    """Restore a campaign exported by `export_campaign`, then check it by replay.

    The campaign keeps its id and name unless `as_new` (a new id; `name` renames it): one with
    the same id or name refuses the import. People are found by e-mail address; those missing
    are created without a usable password (they set one with "forgot password"). A campaign
    that does not replay to its stored digests is refused whole (`Refused`), unless
    `keep_on_mismatch`."""
    _check_format(data)
    try:
        return _import(data, as_new=as_new, name=name, keep_on_mismatch=keep_on_mismatch)
    except IntegrityError as error:
        raise BackupError(f"The export clashes with rows of this site ({error}): nothing "
                          "was imported.") from error
    except (KeyError, TypeError, ValueError, ValidationError) as error:
        raise BackupError(f"The export is malformed ({type(error).__name__}: {error}): "
                          "nothing was imported.") from error


def _import(data: Row, *, as_new: bool, name: str | None,
            keep_on_mismatch: bool) -> Imported:
    with transaction.atomic():
        users, created = _people(data)
        game = _game(data, users, as_new=as_new, name=name)
        if data["version"] < 2:
            data = {**data, "conversation_mails": _conversation_mails_of_version_1(data)}
        ids: dict[str, OldIds] = {}
        for table in TABLES:
            rows = data.get(table.key, [])
            if table.model is AuditEntry:
                rows = [_audit_row(row, ids["players"]) for row in rows]
            elif table.model is Delivery:
                rows = [_delivery_row(row, game, int(data["game"]["id"]), ids["phases"])
                        for row in rows]
            ids[table.key] = _create(table, game, rows, ids, users)
        verification = verify(game)
        if not verification.ok and not keep_on_mismatch:
            raise Refused(verification)
        _rebuild_board(game)
        _store_files(game, data.get("files", {}))
        game.refresh_from_db()
    return Imported(game, created, verification)


def _conversation_mails_of_version_1(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A version 1 file kept what the mail of new messages told a member in his row of the
    conversation (mailed_until, mailed_at): those that have any, as rows of conversation_mails."""
    return [{"id": row["id"], "member": row["id"], "user": row.get("user"),
             "mailed_until": row.get("mailed_until"), "mailed_at": row.get("mailed_at")}
            for row in data.get("conversation_members", [])
            if row.get("mailed_until") is not None or row.get("mailed_at") is not None]


def _check_format(data: object) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("This is not a Junta campaign export (its \"format\" is not "
                          f"{FORMAT!r}).")
    version = data.get("version")
    if not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise BackupError(f"This export is format version {version!r}; this site reads "
                          f"versions 1 to {FORMAT_VERSION}.")
    for key in ("game", USERS):
        if key not in data:
            raise BackupError(f"The export has no {key!r}.")


def _people(data: Row) -> tuple[dict[str, User], list[str]]:
    """Each person of the file by e-mail: the site's account, or a new one without a usable
    password."""
    users: dict[str, User] = {}
    created = []
    for person in data[USERS]:
        email = person["email"]
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            zone = person.get("time_zone") or ""
            user = User.objects.create_user(
                email=email, password=None, display_name=person.get("display_name", ""),
                **({"time_zone": zone} if is_valid_time_zone(zone) else {}))
            created.append(user.email)
        users[email] = user
    return users, created


def _user(users: dict[str, User], email: str | None) -> User | None:
    if email is None:
        return None
    if email not in users:
        raise BackupError(f"The export names {email} but does not list that person.")
    return users[email]


def _game(data: Row, users: dict[str, User], *, as_new: bool,
          name: str | None) -> Game:
    row = data["game"]
    old_id = int(row["id"])
    name = (name or "").strip() or row["name"]
    if not as_new:
        if Game.objects.filter(pk=old_id).exists():
            raise BackupError(f"Campaign {old_id} already exists on this site: nothing was "
                              "imported (use --as-new to import it as a new campaign).")
        if Game.objects.filter(name=name).exists():
            raise BackupError(f"A campaign named {name!r} already exists on this site: "
                              "nothing was imported (use --as-new, and --name to rename it).")
    gm = _user(users, row.get("gm"))
    if gm is None:
        raise BackupError("The export names no GameMaster for the campaign.")
    game = Game(pk=None if as_new else old_id, gm=gm)
    for f in _fields(Game):
        if f.primary_key or f.name == "gm":
            continue
        if f.name in row:
            setattr(game, f.attname, _load(f, row[f.name]))
    game.name = name
    if as_new or Game.objects.filter(invite_token=game.invite_token).exists():
        game.invite_token = new_seed()  # the old invitation link is the other campaign's
    _refuse_control(Game, game)
    game.save(force_insert=True)
    _keep_times(Game, [game], [row])
    if not as_new:
        _reset_sequence(Game)
    return game


def _refuse_control(model: type[Model], obj: Model) -> None:
    try:
        refuse_control_characters(model, obj)
    except ValidationError as error:
        raise BackupError(f"The export is refused: {error.messages[0]}") from error


def _reset_sequence(model: type[Model]) -> None:
    """After inserting a row with its own id, the next new row must not take that id
    (PostgreSQL's sequences do not follow explicit ids)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _keep_times(model: type[Model], objs: list[Model], rows: list[Row]) -> None:
    """Saving stamps `auto_now` fields with the present: put back the exported times."""
    stamped = [f for f in _fields(model) if _auto_time(f)]
    kept = [f for f in stamped if all(row.get(f.name) is not None for row in rows)]
    if not kept or not objs:
        return
    for obj, row in zip(objs, rows, strict=True):
        for f in kept:
            setattr(obj, f.attname, _load(f, row[f.name]))
    model._default_manager.bulk_update(objs, [f.name for f in kept], batch_size=500)


def _create(table: Table, game: Game, rows: list[Row], ids: dict[str, OldIds],
            users: dict[str, User]) -> OldIds:
    """Insert one table's rows (references mapped to the new ids); returns old id -> new id."""
    model = table.model
    later: list[tuple[int, str, object]] = []  # references within the table (a reply to a speech)
    derived = _derived(model)
    objs = []
    for i, row in enumerate(rows):
        obj = model()
        for f in _fields(model):
            if f.primary_key or f.name in derived:
                continue
            if f.is_relation:
                target = _references(f, table)
                if target is None:
                    setattr(obj, f.attname, game.pk)
                    continue
                value = row.get(f.name)
                if target == USERS:
                    user = _user(users, value)
                    setattr(obj, f.attname, user.pk if user else None)
                elif value is None:
                    setattr(obj, f.attname, None)
                elif target == table.key:
                    later.append((i, f.attname, value))
                elif value in ids.get(target, {}):
                    setattr(obj, f.attname, ids[target][value])
                else:
                    raise BackupError(f"{table.key} row {row.get('id')}: {f.name} names "
                                      f"{target} row {value}, which the export does not hold.")
            elif f.name in row:
                setattr(obj, f.attname, _load(f, row[f.name]))
        if model in DERIVED:
            DERIVED[model][1](obj)
        _refuse_control(model, obj)
        objs.append(obj)
    for start in range(0, len(objs), 500):
        model._default_manager.bulk_create(objs[start:start + 500])
    mapping = {row["id"]: obj.pk for row, obj in zip(rows, objs, strict=True)}
    if later:
        changed = []
        for i, attname, value in later:
            if value not in mapping:
                raise BackupError(f"{table.key} row {rows[i].get('id')} names {table.key} row "
                                  f"{value}, which the export does not hold.")
            setattr(objs[i], attname, mapping[value])
            changed.append(objs[i])
        names = sorted({attname.removesuffix("_id") for _, attname, _ in later})
        model._default_manager.bulk_update(changed, names, batch_size=500)
    _keep_times(model, objs, rows)
    return mapping


def _audit_row(row: Row, players: OldIds) -> Row:
    """An audit entry naming players by their new row ids."""
    data = row.get("data")
    if not isinstance(data, dict) or not any(
            isinstance(data.get(k), int) and data[k] in players for k in AUDIT_PLAYER_KEYS):
        return row
    data = {k: players[v] if k in AUDIT_PLAYER_KEYS and isinstance(v, int) and v in players
            else v for k, v in data.items()}
    return {**row, "data": data}


def _delivery_row(row: Row, game: Game, old_game: int,
                  phases: OldIds) -> Row:
    """A mail already sent, under the key the new ids give it, so that it is not sent again."""
    def new_key(match: re.Match[str]) -> str:
        kind, number = match.group(1), int(match.group(2))
        if kind == "game" and number == old_game:
            return f"game:{game.pk}"
        if kind == "phase" and number in phases:
            return f"phase:{phases[number]}"
        return match.group(0)

    key = row.get("key")
    return {**row, "key": DELIVERY_KEY.sub(new_key, key)} if isinstance(key, str) else row


def board_state(game: Game) -> engine.GameState | None:
    """The state the board rows show: the start of the latest phase, or the result of a
    published last one (a finished campaign); None before the campaign starts."""
    phase = game.phases.order_by("-number").first()
    if phase is None:
        return None
    result = PhaseResult.objects.filter(phase=phase, published_at__isnull=False).first()
    if phase.status == Phase.Status.PUBLISHED and result is not None:
        return state_after(result)
    return state_before(phase)


def _rebuild_board(game: Game) -> None:
    try:
        state = board_state(game)
    except RuntimeError:
        return  # kept despite a mismatch (`keep_on_mismatch`): no sound state to show
    if state is not None:
        write_board(game, state)


def _store_files(game: Game, files: dict[str, str]) -> None:
    """The avatars: the same file already in storage is used as it is; otherwise the file is
    saved (under a new name if that one is taken) and the rows follow."""
    saved: dict[str, str] = {}
    for model, rows in ((Character, Character.objects.filter(player__game=game)),
                        (HeirDraft, HeirDraft.objects.filter(player__game=game))):
        for obj in rows.exclude(avatar=""):
            name = obj.avatar.name
            if name not in files:
                continue
            if name not in saved:
                content = base64.b64decode(files[name])
                saved[name] = _stored(name, content)
            if saved[name] != name:
                model.objects.filter(pk=obj.pk).update(avatar=saved[name])


def _stored(name: str, content: bytes) -> str:
    if default_storage.exists(name):
        with default_storage.open(name, "rb") as handle:
            if handle.read() == content:
                return name
    return default_storage.save(name, ContentFile(content))
