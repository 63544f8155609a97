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
`repository.write_board`. Nor is the HTML of a speech, an announcement or a message: an import
renders and sanitises it again from its Markdown (`ArchiveTable.derived`), so that a file can
bring no HTML the sanitiser has not passed.

Each app writes and reads its own rows (its archive module, through its public surface:
`GAMES_ARCHIVE`, `TALK_ARCHIVE`, `POLLS_ARCHIVE`, `LIVES_ARCHIVE`, `NOTIFY_ARCHIVE`, the game
row itself through `export_game_row` and `restore_game_row`, the people through accounts'
`PeopleNamed` and `find_or_create_people`); this module keeps the file (its format, its
versions, the order of its lists), the order of the steps of an import, in one transaction, and
its checks (the control characters in every row, `_refuse_control`, and the replay below).

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

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone

from accounts.public import User, find_or_create_people
from junta import engine
from junta.games.public import (
    GAMES_ARCHIVE,
    AppArchive,
    ArchiveError,
    ArchiveExporting,
    ArchiveRestoring,
    ArchiveRow,
    ArchiveTable,
    Bill,
    ContentRevision,
    EventsSeen,
    Game,
    Phase,
    PhaseResult,
    PoliticalCard,
    Position,
    Unit,
    export_game_row,
    lock_game,
    orders_as_json,
    orders_for_engine,
    restore_game_row,
    state_after,
    state_before,
    write_board,
)
from junta.gm.checks import check_campaign
from junta.lives.public import LIVES_ARCHIVE
from junta.notify.public import NOTIFY_ARCHIVE
from junta.ops.public import refuse_control_characters
from junta.polls.public import POLLS_ARCHIVE
from junta.talk.public import TALK_ARCHIVE

FORMAT = "junta-campaign"
# 2: what the mail of new messages told each member moved from his row (conversation_members'
# mailed_until and mailed_at) to conversation_mails; a version 1 file is read as before.
FORMAT_VERSION = 2
USERS = "users"  # the people the rows name by e-mail address (`accounts.public.PeopleNamed`)


class BackupError(Exception):
    """A campaign that cannot be exported or imported; the message says why."""


# Each app's part of the file (its archive module: `junta.games.archive`, `junta.talk.archive`,
# ...), in the order an import creates them: each app after those whose rows its own refer to
# (the players' side first, then talk and polls, then lives and notify).
ARCHIVES: tuple[AppArchive, ...] = (GAMES_ARCHIVE, TALK_ARCHIVE, POLLS_ARCHIVE, LIVES_ARCHIVE,
                                    NOTIFY_ARCHIVE)
# Their tables, in the order of the file's lists.
_APPS_TABLES = {t.key: t for archive in ARCHIVES for t in archive.tables}
TABLES: tuple[ArchiveTable, ...] = tuple(_APPS_TABLES[key] for key in (
    "players", "characters", "phases", "orders", "results", "speeches", "audit_entries",
    "announcements", "heir_drafts", "obituaries", "preferences", "absences", "deliveries",
    "conversations", "conversation_members", "conversation_mails", "messages", "polls",
    "poll_choices", "poll_votes"))
# Not in the file: `repository.write_board` makes them again from the current state.
REBUILT: tuple[type[Model], ...] = (Position, PoliticalCard, Bill, Unit)
# Not in the file, ever: the count of changes this site has seen of the campaign, under which its
# pages are kept (`junta.games.revisions`). An import starts a new count; putting an old one back
# would serve pages drawn before the import.
# How far each person has read the Events page is this site's too: an import starts it anew.
SITE_OWN: tuple[type[Model], ...] = (ContentRevision, EventsSeen)


# --- export ------------------------------------------------------------------------------------


def export_campaign(game_id: int) -> dict[str, Any]:  # Any: JSON's values
    """Every row of the campaign as one JSON-ready dict (the game row locked meanwhile, so that
    no adjudication or ruling changes it half-way)."""
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id).exists():
            raise BackupError(f"There is no campaign {game_id}.")
        game = lock_game(game_id)
        exporting = ArchiveExporting()
        data: dict[str, Any] = {  # Any: JSON's values
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "engine_version": engine.ENGINE_VERSION,
            "exported_at": timezone.now().isoformat(),
            "game": export_game_row(game, exporting),
        }
        rows: dict[str, list[ArchiveRow]] = {}
        try:
            for archive in ARCHIVES:
                rows.update(archive.export_rows(game, exporting))
        except ArchiveError as error:
            raise BackupError(str(error)) from error
        for table in TABLES:
            data[table.key] = rows[table.key]
        data[USERS] = exporting.people.rows()
        data["files"] = exporting.files
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


def import_campaign(data: dict[str, Any], *, as_new: bool = False, name: str | None = None,
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
    except ArchiveError as error:
        raise BackupError(str(error)) from error
    except IntegrityError as error:
        raise BackupError(f"The export clashes with rows of this site ({error}): nothing "
                          "was imported.") from error
    except (KeyError, TypeError, ValueError, ValidationError) as error:
        raise BackupError(f"The export is malformed ({type(error).__name__}: {error}): "
                          "nothing was imported.") from error


def _import(data: dict[str, Any], *, as_new: bool, name: str | None,
            keep_on_mismatch: bool) -> Imported:  # Any: JSON's values
    with transaction.atomic():
        users, created = find_or_create_people(data[USERS])
        game = _game(data, users, as_new=as_new, name=name)
        if data["version"] < 2:
            data = {**data, "conversation_mails": _conversation_mails_of_version_1(data)}
        restoring = ArchiveRestoring(game, int(data["game"]["id"]), users, _refuse_control,
                                     files=data.get("files", {}))
        for archive in ARCHIVES:
            archive.restore_rows(data, restoring)
        verification = verify(game)
        if not verification.ok and not keep_on_mismatch:
            raise Refused(verification)
        _rebuild_board(game)
        for archive in ARCHIVES:
            archive.restore_files(restoring)
        game.refresh_from_db()
    return Imported(game, created, verification)


def _conversation_mails_of_version_1(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A version 1 file kept what the mail of new messages told a member in his row of the
    conversation (mailed_until, mailed_at): those that have any, as rows of conversation_mails."""
    return [{"id": row["id"], "member": row["id"], "user": row.get("user"),
             "mailed_until": row.get("mailed_until"), "mailed_at": row.get("mailed_at")}
            for row in data.get("conversation_members", [])
            if row.get("mailed_until") is not None or row.get("mailed_at") is not None]


def _check_format(data: Any) -> None:  # Any: whatever the file holds
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


def _game(data: dict[str, Any], users: dict[str, User], *, as_new: bool,
          name: str | None) -> Game:  # Any: JSON's values
    """The campaign created from the file's game row, unless it clashes with one of this
    site's."""
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
    return restore_game_row(row, users, keep_id=not as_new, name=name, refuse=_refuse_control)


def _refuse_control(model: type[Model], obj: Model) -> None:
    """No row of the file is kept with a control character in a text (as the pages refuse
    them: `junta.ops.public.refuse_control_characters`)."""
    try:
        refuse_control_characters(model, obj)
    except ValidationError as error:
        raise BackupError(f"The export is refused: {error.messages[0]}") from error


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
