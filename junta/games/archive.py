"""The players' side's rows of one campaign in its file (`junta.gm.backup`): the game row with
its settings, the players, the characters (their avatars travel inside the file), the phases
with their starting states, digests and deadlines, the orders, the results with their digests,
the speeches, the GM's announcements and audit log. Not the board's rows (positions, cards,
bills, units: a projection of the current state, rebuilt by `repository.write_board`), nor
the HTML of a speech or an announcement: an import renders and sanitises it again from its
Markdown, so that a file can bring no HTML the sanitiser has not passed. The machinery is
`junta.games.archive_tables`.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Model

from accounts.public import User
from junta.games.archive_tables import (
    ARCHIVE_USERS,
    AppArchive,
    ArchiveError,
    ArchiveExporting,
    ArchiveRestoring,
    ArchiveRow,
    ArchiveTable,
    dump,
    fields,
    keep_times,
    load,
    person,
    reset_sequence,
)
from junta.games.models import (
    Announcement,
    AuditEntry,
    Character,
    Game,
    Order,
    Phase,
    PhaseResult,
    Player,
    Speech,
    new_seed,
)

# Audit entries name players by their row ids (approve, remove, decline, replace).
AUDIT_PLAYER_KEYS = ("player", "old_player", "new_player")


def _audit_row(row: ArchiveRow, restoring: ArchiveRestoring) -> ArchiveRow:
    """An audit entry naming players by their new row ids."""
    players = restoring.ids["players"]
    data = row.get("data")
    if not isinstance(data, dict) or not any(
            isinstance(data.get(k), int) and data[k] in players for k in AUDIT_PLAYER_KEYS):
        return row
    data = {k: players[v] if k in AUDIT_PLAYER_KEYS and isinstance(v, int) and v in players
            else v for k, v in data.items()}
    return {**row, "data": data}


HTML = frozenset({"body_html"})

# In the order an import creates them: each after the tables it refers to.
GAMES_ARCHIVE = AppArchive((
    ArchiveTable("players", Player, lambda g: Player.objects.filter(game=g),
                 {"user": ARCHIVE_USERS}),
    ArchiveTable("characters", Character, lambda g: Character.objects.filter(player__game=g),
                 {"player": "players"}),
    ArchiveTable("phases", Phase, lambda g: Phase.objects.filter(game=g)),
    ArchiveTable("orders", Order, lambda g: Order.objects.filter(phase__game=g),
                 {"phase": "phases", "player": "players"}),
    ArchiveTable("results", PhaseResult, lambda g: PhaseResult.objects.filter(phase__game=g),
                 {"phase": "phases"}),
    ArchiveTable("speeches", Speech, lambda g: Speech.objects.filter(game=g),
                 {"player": "players", "phase": "phases", "reply_to": "speeches"},
                 derived=HTML, render=Speech.render),
    ArchiveTable("audit_entries", AuditEntry, lambda g: AuditEntry.objects.filter(game=g),
                 {"actor": ARCHIVE_USERS}, adjust=_audit_row),
    ArchiveTable("announcements", Announcement, lambda g: Announcement.objects.filter(game=g),
                 {"author": ARCHIVE_USERS, "phase": "phases"}, derived=HTML,
                 render=Announcement.render),
))


def export_game_row(game: Game, exporting: ArchiveExporting) -> ArchiveRow:
    """The game row: its settings, its GameMaster by e-mail address."""
    row: ArchiveRow = {}
    for f in fields(Game):
        if f.name == "gm":
            row["gm"] = exporting.people.email(game.gm_id)
        else:
            row["id" if f.primary_key else f.name] = dump(f.value_from_object(game))
    return row


def restore_game_row(row: ArchiveRow, people: dict[str, User], *, keep_id: bool, name: str,
                     refuse: Callable[[type[Model], Model], None]) -> Game:
    """The game row of the file created, named `name`, under its old id if `keep_id` (else a
    new one); a new invitation link unless the old one is free (it would open the other
    campaign's door). `refuse` checks the row before it is kept."""
    gm = person(people, row.get("gm"))
    if gm is None:
        raise ArchiveError("The export names no GameMaster for the campaign.")
    game = Game(pk=int(row["id"]) if keep_id else None, gm=gm)
    for f in fields(Game):
        if f.primary_key or f.name == "gm":
            continue
        if f.name in row:
            setattr(game, f.attname, load(f, row[f.name]))
    game.name = name
    if not keep_id or Game.objects.filter(invite_token=game.invite_token).exists():
        game.invite_token = new_seed()  # the old invitation link is the other campaign's
    if not keep_id or Game.objects.filter(watch_token=game.watch_token).exists():
        game.watch_token = new_seed()  # and so is its watching link
    refuse(Game, game)
    game.save(force_insert=True)
    keep_times(Game, [game], [row])
    if keep_id:
        reset_sequence(Game)
    return game
