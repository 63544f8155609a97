"""The rows of a campaign.

A Game is one campaign. Its people are Players (one seat each, a family in the rules' words), each
living a series of Characters. The campaign advances in Phases; each Phase collects Orders and,
once adjudicated, gets exactly one PhaseResult. The state of the board lives in the rows below
(positions, cards, bills, units) and is turned into the engine's state, and back, by
`junta.games.repository` only.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from accounts.public import validate_time_zone
from junta.engine import PhaseKind
from junta.games.deadlines import DEFAULT_DEADLINE_TIME, DEFAULT_TIME_ZONE
from junta.games.markdown import render_markdown

# How many days each kind of phase stays open (docs/rules.md §timing, §first-election). A setting
# stored as JSON and written in the audit log: keyed by the kinds' plain strings.
DEFAULT_PHASE_DAYS = {PhaseKind.NOMINATION.value: 1, PhaseKind.ELECTION.value: 2, "default": 1}


def default_phase_days() -> dict[str, int]:
    return dict(DEFAULT_PHASE_DAYS)


def new_seed() -> str:
    return secrets.token_hex(16)

# The longest note to the GM a player may leave with his orders (characters).
MAX_NOTE = 4000

# The longest delay, in published phases, behind which watchers follow a campaign.
MAX_WATCH_DELAY = 10


class Game(models.Model):
    class Status(models.TextChoices):
        FORMING = "forming", "Forming (players join)"
        NOMINATING = "nominating", "Nominations and first election"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused by the GM"
        FINISHED = "finished", "Finished"

    class ReviewMode(models.TextChoices):
        AUTO = "auto", "Publish each result automatically"
        REVIEW = "review", "The GM reviews each result before it is published"

    class JoinPolicy(models.TextChoices):
        OPEN = "open", "Anyone may join"
        APPROVAL = "approval", "The GM approves each player"
        INVITE = "invite", "Only with the invitation link"

    name = models.CharField(max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="gm_games"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.FORMING)
    max_players = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(6), MaxValueValidator(10)]
    )
    deadline_time = models.TimeField(default=DEFAULT_DEADLINE_TIME)
    time_zone = models.CharField(
        max_length=64, default=DEFAULT_TIME_ZONE, validators=[validate_time_zone]
    )
    phase_days = models.JSONField(default=default_phase_days)
    min_hours = models.PositiveSmallIntegerField(
        default=12, help_text="A new phase never closes sooner than this many hours after it opens."
    )
    review_mode = models.CharField(
        max_length=8, choices=ReviewMode.choices, default=ReviewMode.AUTO
    )
    join_policy = models.CharField(
        max_length=8, choices=JoinPolicy.choices, default=JoinPolicy.APPROVAL
    )
    invite_token = models.CharField(max_length=32, default=new_seed, unique=True)
    # Chosen at creation and shown to everyone before joining: whether the GameMaster may read
    # the players' private conversations (never without it, docs/rules.md §talk).
    gm_reads_talk = models.BooleanField(default=False)
    # Whether seated players may post polls too, not only the GameMaster (docs/rules.md §polls).
    players_may_poll = models.BooleanField(default=False)
    # Whether the finished campaign is listed in the archive for anyone signed in (the GM may
    # keep it out; its pages stay where they are).
    archived_publicly = models.BooleanField(default=True)
    # A practice campaign against the bots (`junta.games.practice`): one person's, private to
    # him, no GM (a system account stands in the row), no deadline, never in anyone's results.
    practice = models.BooleanField(default=False)
    # how its bots play (the engine's `BOT_STYLES`): at random, as the current bots, cautiously
    bot_style = models.CharField(max_length=10, default="current", choices=[
        ("random", "Random bots (any legal order, no strategy)"),
        ("current", "The current bots"),
        ("cautious", "Cautious bots (they keep their money in the bank)")])
    # Spectators (`junta.games.watching`): whether people outside the campaign may watch its
    # public pages, `watch_delay` published phases behind the players; signed in, or with
    # `watch_by_link` anyone with the watching link (its secret `watch_token`).
    watchable = models.BooleanField(default=False)
    watch_delay = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(MAX_WATCH_DELAY)])
    watch_by_link = models.BooleanField(default=False)
    watch_token = models.CharField(max_length=32, default=new_seed)
    extra_bills_min = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(14)]
    )
    extra_bills_max = models.PositiveSmallIntegerField(
        default=14, validators=[MaxValueValidator(14)]
    )
    # Set at the start from the engine state: the hidden extra bills (GM's eyes only).
    extra_bills = models.PositiveSmallIntegerField(null=True, blank=True)
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    # Bumped by every change of the board; order forms carry it so a stale form is refused.
    state_version = models.PositiveIntegerField(default=0)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_from = models.CharField(max_length=12, blank=True, choices=Status.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(extra_bills_min__lte=models.F("extra_bills_max")),
                name="game_extra_bills_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def days_for(self, phase_kind: str) -> int:
        days = self.phase_days or {}
        return int(days.get(phase_kind, days.get("default", 1)))


class ContentRevision(models.Model):
    """How many times anything a page of this campaign shows has changed: the pages each viewer
    has seen are kept under this number (`junta.games.page_cache`), so a change must raise it
    in the transaction that makes the change (`junta.games.revisions` does, for every row of
    the campaign). A row of its own, so that saving a Game read earlier never writes an older
    number back."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="content_revision")
    number = models.PositiveBigIntegerField(default=1)

    def __str__(self) -> str:
        return f"{self.game_id}: revision {self.number}"


class Player(models.Model):
    """A seat in a campaign: a family of the Republic, played by one person at a time."""

    class State(models.TextChoices):
        ALIVE = "alive", "Alive"
        DEAD = "dead", "Dead"
        EXILED = "exiled", "In exile"

    class Membership(models.TextChoices):
        PENDING = "pending", "Waiting for the GM's approval"
        ACTIVE = "active", "Playing"
        REPLACED = "replaced", "Replaced"
        REMOVED = "removed", "Removed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="players"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    membership = models.CharField(
        max_length=10, choices=Membership.choices, default=Membership.PENDING
    )
    state = models.CharField(max_length=8, choices=State.choices, default=State.ALIVE)
    pocket = models.PositiveIntegerField(default=0)
    bank = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat", "joined_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=Q(membership="active"),
                name="player_one_active_per_seat",
            ),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(membership__in=["pending", "active"]),
                name="player_one_live_membership_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.user}"

    @property
    def engine_seat(self) -> int:
        """The seat of an approved player: the number the engine knows his family by. Only a
        player still waiting for the GM's approval (or removed) has none."""
        if self.seat is None:
            raise ValueError(f"{self} has no seat")
        return self.seat

    @property
    def character(self) -> Character | None:
        """The current life (uses prefetched characters when there are any)."""
        lives = list(self.characters.all())
        return max(lives, key=lambda c: c.life) if lives else None


class Character(models.Model):
    """One life of a family: a name, an avatar and a bio. A new one after every death."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="characters")
    life = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=60)
    bio = models.TextField(blank=True, max_length=4000)
    avatar = models.ImageField(upload_to="avatars/%Y/%m/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    died_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["player", "life"]
        constraints = [
            models.UniqueConstraint(fields=["player", "life"], name="character_life_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Phase(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open for orders"
        RESOLVING = "resolving", "Being adjudicated"
        DRAFTED = "drafted", "Adjudicated, waiting for the GM's review"
        PUBLISHED = "published", "Published"
        SUPERSEDED = "superseded", "Superseded by a GM rollback"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    turn = models.PositiveSmallIntegerField(default=0)
    opens_at = models.DateTimeField()
    deadline = models.DateTimeField(db_index=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    # The engine's state when the phase opened (canonical JSON), for replay and rollback.
    state_before = models.JSONField()
    state_digest = models.CharField(max_length=64)
    # Seats that owe orders in this phase (from the engine when the phase opened).
    owing_seats = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="phase_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} phase {self.number} ({self.kind})"


class Order(models.Model):
    """A player's orders for one phase: the whole list, replaced on each change (revision + 1)."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="orders")
    payload = models.JSONField(default=list)
    note_to_gm = models.TextField(blank=True, max_length=MAX_NOTE)
    final = models.BooleanField(default=False)
    revision = models.PositiveIntegerField(default=1)
    # Global submission sequence: who submitted Rebel-Only orders first (the First Rebel).
    first_submitted_seq = models.PositiveBigIntegerField(null=True, blank=True)
    submitted_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["phase", "player__seat"]
        constraints = [
            models.UniqueConstraint(fields=["phase", "player"], name="order_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"orders of seat {self.player.seat} for {self.phase} (revision {self.revision})"


class PhaseResult(models.Model):
    """Exactly one per phase: what the adjudication used and produced."""

    phase = models.OneToOneField(Phase, on_delete=models.CASCADE, related_name="result")
    orders_used = models.JSONField()
    events = models.JSONField()
    state_after = models.JSONField()
    digest = models.CharField(max_length=64)
    engine_version = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"result of {self.phase}"


class Speech(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="speeches")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="speeches", null=True, blank=True
    )
    speaker = models.CharField(max_length=60, help_text="The character's name when speaking.")
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True)
    reply_to = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replies"
    )
    body = models.TextField(max_length=20000)  # the Markdown the speaker wrote
    # `body` rendered and sanitised (nh3) once, when the speech is posted or imported, so that
    # no page renders it again; `manage.py rerender_speeches` renews it when the policy changes.
    body_html = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # the Events page: a campaign's speeches newest first, a page at a time, read from the
        # index whatever the length of the talk
        indexes = [models.Index(fields=["game", "-created_at", "-id"],
                                name="speech_game_newest")]

    def __str__(self) -> str:
        return f"speech by {self.speaker} in {self.game}"

    def render(self) -> None:
        """Fill `body_html` from `body` (Markdown, sanitised by nh3)."""
        self.body_html = str(render_markdown(self.body))


class AuditEntry(models.Model):
    """A GM action: who, what, why, and whether it was announced to the players."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    action = models.CharField(max_length=64)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict)
    announcement = models.TextField(blank=True)  # Markdown, shown to every player
    announcement_html = models.TextField(blank=True, editable=False)  # rendered once, on save
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor} in {self.game}"

    def save(self, *args: Any, **kwargs: Any) -> None:  # Any: Django's save arguments
        """The announcement's HTML, rendered and sanitised once, as a speech's."""
        self.announcement_html = str(render_markdown(self.announcement)) \
            if self.announcement else ""
        super().save(*args, **kwargs)


# --- the board, projected from the engine state ----------------------------------------------
# The canonical state is the engine's JSON on Phase/PhaseResult; these rows hold the same facts
# of the current state (the one `play.display_state` gives) in a form that can be queried: the
# GM panel's Board page (who holds which card, where every unit stands, the money deck with the
# hidden extra bills) and the Django admin read them; no player's page does. `repository.
# write_board` is the only writer: after every published phase and every GM ruling, it writes
# only the rows that changed.


class Zone(models.Model):
    """One of the 28 zones of the city (static map data, loaded from the engine's map file)."""

    number = models.PositiveSmallIntegerField(primary_key=True)
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=20)
    control_point = models.BooleanField(default=False)
    river = models.BooleanField(default=False)
    flags = models.JSONField(default=list)
    adjacent = models.JSONField(default=list)

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class Position(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="positions")
    key = models.CharField(max_length=24)
    holder = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="positions")
    brother_in_law = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="position_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.key} in {self.game}"


class PoliticalCard(models.Model):
    """One of the 88 political cards of a campaign and where it lies."""

    class Pile(models.TextChoices):
        DECK = "deck", "Draw pile"
        HAND = "hand", "In a hand"
        PLAY = "play", "In play (Influence)"
        DISCARD = "discard", "Discard pile"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards")
    card_id = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    pile = models.CharField(max_length=8, choices=Pile.choices)
    holder = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="cards")
    order = models.PositiveSmallIntegerField(
        default=0, help_text="Place in its pile, counted from the bottom (0): the draw pile's "
                             "top card and the newest discard have the highest number; in a "
                             "hand or in play, the order the family got them.")

    class Meta:
        ordering = ["game", "pile", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "card_id"], name="card_once_per_game"),
        ]

    def __str__(self) -> str:
        return self.name


class Bill(models.Model):
    """A bill of the money deck still to be drawn, the hidden extra bills among them (GM's eyes
    only). Counted from the bottom (0), so that drawing from the top deletes rows and moves
    none; the default ordering lists the top first."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="bills")
    order = models.PositiveSmallIntegerField(help_text="Place in the deck from the bottom (0).")
    denomination = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["game", "-order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="bill_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.denomination} MP bill"


class Unit(models.Model):
    """A unit on the city map during a coup, written from the engine state (none outside a
    coup). `number` is the engine's id of the unit within the coup."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="units")
    number = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=24)
    armed = models.BooleanField(default=True)
    new_weapons = models.BooleanField(default=False)
    temporary = models.BooleanField(default=False,
                                    help_text="Created by a card or the foreign intervention: "
                                              "it leaves the map when the coup ends.")
    owner = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="units")
    zone = models.ForeignKey(Zone, on_delete=models.PROTECT, null=True, blank=True)
    position = models.CharField(max_length=24, blank=True,
                                help_text="The position the unit comes from, if any.")

    class Meta:
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"{self.kind} in {self.zone}"


class Announcement(models.Model):
    """A free announcement by the campaign's GameMaster (narration, news of the Republic):
    Markdown, shown on the Events page among the speeches and marked as his. Rendered and
    sanitised once, when posted, as a speech is (`render`)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="+")
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    body = models.TextField(max_length=20000)  # the Markdown the GM wrote
    body_html = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"announcement in {self.game}"

    def render(self) -> None:
        """Fill `body_html` from `body` (Markdown, sanitised by nh3, as a speech)."""
        self.body_html = str(render_markdown(self.body))


class EventsSeen(models.Model):
    """How far a person (a seated player or the GM) has read a campaign's Events page: the
    time of the newest speech or announcement on it when he last looked at its first page.
    What is newer is marked new for him (`selectors.unread_speeches`). Written only when it
    moves, so a reload writes nothing."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    seen_until = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="events_seen_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} read {self.game} until {self.seen_until}"
