"""What the other apps may use of the players' side (games), and nothing else of it.

games holds the campaigns: their rows, the engine's state as stored, the order intake and the
publishing of a phase's result. The apps above it (talk, polls, lives, notify, ops, the GM panel,
the API) import from this module only (an import contract in pyproject.toml enforces it), so
that what they rely on is listed here and the rest of games may change freely:

- the models they share: a campaign (`Game`) and its players, characters, phases, results,
  orders and speeches, for their own foreign keys and queries; the board's rows
  (`Bill`, `PoliticalCard`, `Position`, `Unit`), the audit log and the content revisions
  for the GM's panel and its backups;
- the services that change games' rows, under the campaign's lock (`lock_game`): seating a
  player, taking him out or handing his seat over, starting a campaign, taking orders (and
  the same orders as last time: `last_time`, the plan, `repeat_orders`, its confirmation),
  publishing a result, speeches and announcements; and the GameMaster's changes (his audit
  entries, the clock, drafts, settings, orders, rollbacks: `gm_changes`) and lives' (a
  character's death, his heir, a profile: `characters`);
- the engine's state as stored (`state_before`, `state_after`, `write_board`, ...: read and
  written only through these);
- selectors (a viewer's campaigns and seat, the roster, the unread speeches, the reports and
  the clock of a phase) and the content revision (`watch`, `raised`) and hooks
  (`on_phase_published`, `on_announcement_posted`) the apps above register with, and the
  number now (`current_revision`: the site's live answer to a page left open is kept under it;
  `lobby_revision`, those of all a person's campaigns), and what conditional GETs are made of
  (`clock_moments` the apps register, `valid_until`, `conditional_etag`, `not_modified`);
- a practice campaign against the bots: the dashboard's form that starts one
  (`PracticeForm`), and its phases played on once its player is final (`play_practice_on`:
  the API's final mark, as the Orders page's);
- the forms and fields the GM's panel and talk reuse, Markdown rendering, how a time is
  written for a reader in his zone (`when`, a template filter the GM's messages use too), a
  form's errors as the page's alert says them (`form_error_lines`: talk's form sent by its
  script answers them as JSON), and
  the demo's accounts and campaigns for ops' demo, and the touches talk's and polls' demos give
  its rows;
- a campaign's rows in its file, for the GM panel's backups: games' own (the game row,
  `export_game_row` and `restore_game_row`; the players, phases, orders, results,
  speeches...: `GAMES_ARCHIVE`), and the machinery the other apps' archive modules write and
  read theirs with (`AppArchive`, `ArchiveTable`);
- watchers (`watching`): the last published phase a person may see of a campaign
  (`last_phase_seen_by`: all for its members, the delayed watchers' for others of a watchable
  one), where an outsider of a campaign under way is sent from the members' pages, the
  campaigns to watch (the archive lists them), and the settings' fields (`watch_fields`);
- what the engine says, in the reader's language (`event_text`, `stored_event_text`: the GM's
  draft review, a character's death line; `problem_text`: the API's refusals of orders).
"""

from __future__ import annotations

from junta.games.adjudication import publish
from junta.games.archive import GAMES_ARCHIVE, export_game_row, restore_game_row
from junta.games.archive_tables import (
    ARCHIVE_USERS,
    AppArchive,
    ArchiveError,
    ArchiveExporting,
    ArchiveRestoring,
    ArchiveRow,
    ArchiveTable,
)
from junta.games.avatars import MAX_AVATAR_BYTES, validate_avatar
from junta.games.cache_keys import site_version
from junta.games.campaign_rows import rows as kept_rows
from junta.games.campaigns import (
    CampaignError,
    check_seat_player,
    do_seat_player,
    hand_seat_over,
    join_game,
    start_campaign,
    unseat_player,
)
from junta.games.characters import add_heir, remove_lives, save_profile, set_died_at
from junta.games.demo import (
    DEMO_GM,
    DEMO_PASSWORD,
    DEMO_PLAYERS,
    backdate_speech,
    demo_account,
    let_players_poll,
)
from junta.games.forms import (
    AnnouncementForm,
    JoinGameForm,
    MultilineField,
    PracticeForm,
    SpeechForm,
    watch_fields,
)
from junta.games.fragments import drawn_entries
from junta.games.gm_changes import (
    bump_state_version,
    change_settings,
    extend_phase_deadline,
    keep_draft,
    record_audit,
    restart_clock,
    resume_after_rollback,
    rewrite_orders,
    stop_clock,
    supersede,
)
from junta.games.hooks import (
    AnnouncementPosted,
    PhasePublished,
    on_announcement_posted,
    on_phase_published,
)
from junta.games.locking import lock_game
from junta.games.markdown import render_markdown, renders
from junta.games.models import (
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
    new_seed,
)
from junta.games.order_forms import EngineValue, OrderForm, form_prefix, token
from junta.games.order_intake import (
    OrdersRejected,
    Repeat,
    StaleOrders,
    StaleRepeat,
    last_time,
    repeat_orders,
    set_final,
    submit_orders,
)
from junta.games.page_cache import (
    NO_DAY,
    NO_MOMENT,
    NO_ZONE,
    Clock,
    ClockRow,
    answered_not_modified,
    clock_moments,
    kept_dashboard,
    kept_for_viewer,
    kept_lobby,
    not_modified,
    valid_until,
)
from junta.games.page_cache import etag as conditional_etag
from junta.games.play import (
    Seat,
    current_turn_results,
    display_state,
    history_results,
    phase_title,
    reports,
    seat_for,
)
from junta.games.practice import play_on as play_practice_on
from junta.games.replay import ReplayLine, changelog_for, older_notes, replay_game
from junta.games.report_pages import drawn_reports
from junta.games.report_views import drawn_report
from junta.games.repository import (
    active_players,
    campaign_running,
    event_to_json,
    open_phase,
    orders_as_json,
    orders_for_engine,
    rewrite_state_before,
    state_after,
    state_before,
    submission_order,
    write_board,
)
from junta.games.revisions import current as current_revision
from junta.games.revisions import lobby as lobby_revision
from junta.games.revisions import raised, watch
from junta.games.rollbacks import undone, undone_phases
from junta.games.selectors import (
    LIVE,
    EventsItem,
    SeatStatus,
    events_items,
    events_reader,
    game_for,
    joinable_games,
    mark_new,
    my_games,
    my_seats,
    pending,
    roster,
    seated,
    seen_until,
    speeches,
    unread_speeches,
)
from junta.games.simulation import demo_campaign, finished_demo_campaign
from junta.games.speeches import (
    mark_seen,
    post_announcement,
    post_speech,
    quote,
    resent,
    speaker_for,
    why_silent,
)
from junta.games.status_info import clock, who_is_in
from junta.games.tasks import queue_due_phases
from junta.games.templatetags.local_times import when
from junta.games.templatetags.page_alert import form_error_lines
from junta.games.watching import (
    MAX_WATCH_DELAY,
    last_phase_seen_by,
    last_watched_phase,
    outsider_sent_to,
    watchable_games,
)
from junta.games.wording import event_text, problem_text, stored_event_text

__all__ = [
    "event_text", "problem_text", "stored_event_text",
    "Announcement", "AnnouncementForm", "AnnouncementPosted", "AuditEntry", "Bill",
    "CampaignError", "Character", "EngineValue",
    "ContentRevision", "DEMO_GM", "DEMO_PASSWORD", "DEMO_PLAYERS", "EventsItem", "EventsSeen",
    "Game", "JoinGameForm", "LIVE", "MAX_AVATAR_BYTES", "MultilineField", "Order", "OrderForm",
    "PracticeForm", "play_practice_on",
    "OrdersRejected", "Phase", "PhasePublished", "PhaseResult", "Player", "PoliticalCard",
    "Position", "ReplayLine", "Seat", "SeatStatus", "Speech", "SpeechForm", "StaleOrders",
    "Unit", "active_players", "add_heir", "backdate_speech", "bump_state_version",
    "campaign_running",
    "change_settings", "changelog_for", "clock", "current_revision", "current_turn_results",
    "demo_account",
    "demo_campaign", "display_state", "drawn_entries", "drawn_report", "drawn_reports",
    "event_to_json",
    "events_items", "events_reader", "extend_phase_deadline", "finished_demo_campaign",
    "form_error_lines", "form_prefix", "game_for", "hand_seat_over", "history_results", "join_game",
    "joinable_games", "keep_draft", "kept_dashboard", "kept_for_viewer", "kept_lobby",
    "let_players_poll",
    "lock_game", "mark_new", "mark_seen", "my_games", "my_seats", "new_seed", "older_notes",
    "on_announcement_posted", "on_phase_published", "open_phase", "orders_as_json",
    "orders_for_engine", "pending",
    "phase_title", "post_announcement", "post_speech", "publish", "queue_due_phases", "quote",
    "raised", "record_audit", "remove_lives", "render_markdown", "renders", "replay_game",
    "reports", "resent", "restart_clock", "resume_after_rollback", "rewrite_orders",
    "rewrite_state_before", "roster", "save_profile", "seat_for", "seated", "seen_until",
    "set_died_at", "set_final", "speaker_for", "speeches", "start_campaign", "state_after",
    "state_before", "stop_clock", "submission_order", "submit_orders", "supersede", "token",
    "undone", "undone_phases", "unread_speeches", "unseat_player", "validate_avatar", "watch",
    "when", "who_is_in", "why_silent", "write_board",
    "check_seat_player", "do_seat_player",
    # the same orders as last time, for the API (order_intake: the plan, its confirmation)
    "Repeat", "StaleRepeat", "last_time", "repeat_orders",
    # a campaign's file (junta.gm.backup): games' rows, and the machinery the others' use
    "ARCHIVE_USERS", "AppArchive", "ArchiveError", "ArchiveExporting", "ArchiveRestoring",
    "ArchiveRow", "ArchiveTable", "GAMES_ARCHIVE", "export_game_row", "restore_game_row",
    # conditional GET (page_cache): the clock's moments each app registers, the ETag of an
    # answer drawn under a key until a moment, and the 304 for a browser that holds it
    "answered_not_modified", "clock_moments", "conditional_etag", "lobby_revision",
    "not_modified", "site_version", "valid_until", "Clock", "ClockRow", "NO_DAY", "NO_MOMENT",
    "NO_ZONE",
    # a campaign's shared rows as kept at the revision a page is drawn at (None otherwise)
    "kept_rows",
    # watchers (spectators): the last phase a person may see (`last_phase_seen_by`, the
    # replay's limit), the watchers' own, where an outsider is sent, the campaigns to watch
    "MAX_WATCH_DELAY", "last_phase_seen_by", "last_watched_phase", "outsider_sent_to",
    "watch_fields", "watchable_games",
]
