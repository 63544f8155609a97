"""Practice campaigns against the bots: one person plays one family against 5 to 9 bot families
(the engine's bots, `engine.bot_orders`, in the style he chose: `BOT_STYLES`), with no
GameMaster and no deadline. A phase is played
as soon as he marks his orders final: the bots give theirs at once and the phase is adjudicated
through the same pipeline as a deadline's (`adjudication.adjudicate_phase`, exactly once: the
game row locked, the phase still open), then the next, and so on while he owes nothing, until
he owes orders again (`play_on`). In exile he owes nothing, yet may ask to return at any time:
each phase waits for his final mark. Dead, he may not act: the bots play on to the next turn,
when his family returns.

A practice campaign is his alone: its pages are 404 to anyone else (`selectors.game_for`), it
takes nobody else, it is never in the lobby, the archive, the mails or anyone's results (the
profile's career). Its GameMaster's row is a system account nobody logs into, so that nobody
has the GM panel or its view of the bots' secrets; each bot seat is played by a bot account
(one per seat number, shared by all practice campaigns, never able to log in). He may run
`MAX_RUNNING` at once, abandon one (it ends and leaves his dashboard) or restart it (a new one
with the same family and as many bots).

Each write is one transaction in the shape of every app's (README, Layout): the service locks
the row it hangs on, `check_<verb>` raises `CampaignError` with a message for the person,
`do_<verb>` writes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.public import User
from junta.engine import BOT_STYLES, PHASE_TITLES, PhaseKind, Rng, Status, bot_orders
from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import CampaignError, do_start_campaign
from junta.games.locking import lock_game
from junta.games.models import AuditEntry, Character, Game, Order, Phase, Player

MIN_BOTS, MAX_BOTS = 5, 9
MAX_RUNNING = 3
HIS_SEAT = 0  # the person's seat in his practice campaign; the bots' come after
# the most phases one final mark may play before he owes orders again (a bound, never reached
# in play: he owes orders in every turn's phases, and an exile is asked in every phase)
MAX_PHASES_AT_ONCE = 40

SYSTEM_EMAIL = "practice-gm@practice.invalid"
BOT_EMAIL = "practice-bot-{n}@practice.invalid"
BOT_NAMES = [
    "Generalissimo Carlos", "Dona Isabel", "Colonel Miguel", "Senora Lucia", "Don Rafael",
    "Madame Elena", "Captain Diego", "Dona Pilar", "Professor Tomas",
]


def _account(email: str, name: str) -> User:
    """A system account nobody logs into (no password, inactive): created once."""
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User.objects.create_user(email=email, password=None, display_name=name,
                                        is_active=False)
    return user


def system_gm() -> User:
    """The account in a practice campaign's GameMaster row: nobody's, so nobody's panel."""
    return _account(SYSTEM_EMAIL, "Practice")


def bot_account(n: int) -> User:
    """The account of the `n`-th bot seat (1-based) of every practice campaign."""
    return _account(BOT_EMAIL.format(n=n), f"Bot {n}")


def running_practice(user: User) -> int:
    """How many practice campaigns the person plays now."""
    return Game.objects.filter(practice=True, players__user=user,
                               players__membership=Player.Membership.ACTIVE).exclude(
        status=Game.Status.FINISHED).distinct().count()


# --- start ------------------------------------------------------------------------------------

@transaction.atomic
def start_practice(user: User, family: str, bots: int, now: datetime | None = None,
                   style: str = "current") -> Game:
    """A new practice campaign: `user`'s family against `bots` bot families playing in
    `style` (`BOT_STYLES`), started at once (its first phase open, the bots' orders given
    where he owes none)."""
    User.objects.select_for_update().filter(pk=user.pk).first()  # one start at a time each
    check_start_practice(user, family, bots, style)
    game = do_start_practice(user, family.strip(), bots, style, now or timezone.now())
    play_on(game.id, now=now)
    return game


def check_start_practice(user: User, family: str, bots: int, style: str) -> None:
    """Whether the person may start a practice campaign so (`CampaignError` if not)."""
    if style not in BOT_STYLES:
        raise CampaignError(f"The bots play in one of these styles: {', '.join(BOT_STYLES)}.")
    if not family.strip():
        raise CampaignError("Give your family a name.")
    if not MIN_BOTS <= bots <= MAX_BOTS:
        raise CampaignError(f"A practice campaign has {MIN_BOTS} to {MAX_BOTS} bot families, "
                            f"not {bots}.")
    if running_practice(user) >= MAX_RUNNING:
        raise CampaignError(f"You already play {MAX_RUNNING} practice campaigns: abandon one "
                            "before you start another.")


@transaction.atomic
def do_start_practice(user: User, family: str, bots: int, style: str, now: datetime) -> Game:
    """The campaign's row, its seats (his first, the bots' after) and its start."""
    game = Game(gm=system_gm(), name=f"Practice: {family}", max_players=bots + 1,
                practice=True, bot_style=style, join_policy=Game.JoinPolicy.INVITE,
                archived_publicly=False)
    game.full_clean()
    game.save()
    AuditEntry.objects.create(game=game, actor=user, action="create",
                              data={"practice": True, "bots": bots, "style": style})
    seated = [(user, family)] + [(bot_account(n), BOT_NAMES[n - 1]) for n in range(1, bots + 1)]
    players = []
    for seat, (person, name) in enumerate(seated):
        player = Player.objects.create(game=game, user=person, seat=seat,
                                       membership=Player.Membership.ACTIVE)
        Character.objects.create(player=player, life=1, name=name)
        players.append(player)
    do_start_campaign(game, user, players, now)
    return game


# --- play -------------------------------------------------------------------------------------

def _his_seat(game: Game) -> Player:
    """The person's seat (every other is a bot's)."""
    return game.players.select_related("user").get(seat=HIS_SEAT,
                                                   membership=Player.Membership.ACTIVE)


def play_on(game_id: int, now: datetime | None = None) -> int:
    """Play the practice campaign's phases while its player owes nothing more (he is final,
    or the phase asks nothing of him): in each, the bots give their orders and the phase is
    adjudicated and published at once. One transaction a phase; how many were played."""
    played = 0
    for _ in range(MAX_PHASES_AT_ONCE):
        if not _play_one(game_id, now or timezone.now()):
            break
        played += 1
    return played


def _play_one(game_id: int, now: datetime) -> bool:
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.practice or game.status not in adjudication.ACTIVE_GAME_STATUSES:
            return False
        phase = game.phases.filter(status=Phase.Status.OPEN).order_by("-number").first()
        if phase is None:
            return False
        me = _his_seat(game)
        if _waits_for_him(phase, me) and not phase.orders.filter(player=me, final=True).exists():
            return False  # his turn
        _bots_order(game, phase, now)
        return adjudication.adjudicate_phase(phase.id, now=now, force=True) is not None


def _waits_for_him(phase: Phase, me: Player) -> bool:
    """Whether the phase waits for his final mark: he owes orders in it, or he is in exile,
    whence he may ask to return at any time (docs/rules.md §exile), though he owes nothing
    (played on, the bots would take every phase from him). The dead may not act until the
    next turn begins (§death): the bots play on without him."""
    if me.engine_seat in (phase.owing_seats or []):
        return True
    return repository.state_before(phase).players[me.engine_seat].status == Status.EXILED


def _bots_order(game: Game, phase: Phase, now: datetime) -> None:
    """Each bot's orders for the phase, final, through the intake (checked by the engine as
    any player's), drawn from the game's seed, the phase and the seat: the same every time."""
    state = repository.state_before(phase)
    for bot in game.players.filter(membership=Player.Membership.ACTIVE, seat__gt=HIS_SEAT) \
            .select_related("user"):
        rng = Rng(f"practice:{game.seed}:{phase.number}:{bot.engine_seat}")
        orders = bot_orders(state, bot.engine_seat, rng, style=game.bot_style)
        try:
            order_intake.submit_orders(phase.id, bot.user, [o.to_dict() for o in orders],
                                       state_version=game.state_version, final=True, now=now)
        except CampaignError:
            continue  # a dead bot gives nothing; the phase is played without him


# --- abandon, restart ---------------------------------------------------------------------------

@transaction.atomic
def abandon_practice(game_id: int, user: User, now: datetime | None = None) -> Game:
    """End the practice campaign: it leaves his dashboard (nothing of it counts anywhere)."""
    game = lock_game(game_id)
    check_abandon_practice(game, user)
    return do_abandon_practice(game, user, now or timezone.now())


def check_abandon_practice(game: Game, user: User) -> None:
    if not game.practice or not game.players.filter(
            user=user, seat=HIS_SEAT, membership=Player.Membership.ACTIVE).exists():
        raise CampaignError("This is not one of your practice campaigns.")
    if game.status == Game.Status.FINISHED:
        raise CampaignError("This practice campaign is over already.")


@transaction.atomic
def do_abandon_practice(game: Game, user: User, now: datetime) -> Game:
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.state_version += 1
    game.save(update_fields=["status", "finished_at", "state_version"])
    AuditEntry.objects.create(game=game, actor=user, action="abandon")
    return game


@transaction.atomic
def restart_practice(game_id: int, user: User, now: datetime | None = None) -> Game:
    """Abandon the practice campaign and start a new one with the same family's name and as
    many bots playing as they did."""
    game = lock_game(game_id)
    check_abandon_practice(game, user)
    family = _family_name(game)
    do_abandon_practice(game, user, now or timezone.now())
    return start_practice(user, family, game.max_players - 1, now=now, style=game.bot_style)


def _family_name(game: Game) -> str:
    first = Character.objects.filter(player__game=game, player__seat=HIS_SEAT) \
        .order_by("life").first()
    return first.name if first else "My family"


# --- archiving the idle ---------------------------------------------------------------------

IDLE = timedelta(days=30)  # a practice campaign untouched this long is archived


def idle_practice(now: datetime) -> list[int]:
    """The running practice campaigns nobody touched for `IDLE`: no phase opened, no order
    given or changed since. Two queries, whatever the number of campaigns."""
    cutoff = now - IDLE
    old = list(Game.objects.filter(practice=True, status__in=adjudication.ACTIVE_GAME_STATUSES)
               .annotate(opened=Max("phases__opens_at")).filter(opened__lt=cutoff)
               .values_list("pk", flat=True))
    touched = set(Order.objects.filter(phase__game_id__in=old, submitted_at__gte=cutoff)
                  .values_list("phase__game_id", flat=True))
    return [pk for pk in old if pk not in touched]


def archive_idle_practice(now: datetime | None = None) -> list[int]:
    """The minute sweep's: archive every practice campaign left idle for `IDLE` (it ends and
    leaves its player's dashboard, as abandoned); their ids."""
    now = now or timezone.now()
    done = []
    for game_id in idle_practice(now):
        try:
            archive_practice(game_id, now)
        except CampaignError:
            continue  # touched since the query
        done.append(game_id)
    return done


@transaction.atomic
def archive_practice(game_id: int, now: datetime) -> None:
    game = lock_game(game_id)
    check_archive_practice(game, now)
    do_archive_practice(game, now)


def check_archive_practice(game: Game, now: datetime) -> None:
    """Whether the practice campaign is idle still (`CampaignError` if not), the row locked."""
    if not game.practice or game.status not in adjudication.ACTIVE_GAME_STATUSES \
            or game.pk not in idle_practice(now):
        raise CampaignError("This practice campaign is not idle.")


@transaction.atomic
def do_archive_practice(game: Game, now: datetime) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.state_version += 1
    game.save(update_fields=["status", "finished_at", "state_version"])
    AuditEntry.objects.create(game=game, actor_id=game.gm_id, action="archive",
                              reason=f"untouched for {IDLE.days} days")


# --- what each phase is for ---------------------------------------------------------------------

# What each kind of phase is for, in a sentence, and the paragraph of docs/rules.md it comes
# from: the Status page of a practice campaign says it the first time the kind comes up.
PURPOSES: dict[str, tuple[str, str]] = {
    PhaseKind.NOMINATION: ("Each family may put a candidate forward for the first Presidential "
                           "election.", "first-election"),
    PhaseKind.ELECTION: ("The families vote for El Presidente, who will appoint the Cabinet "
                         "and propose the budget.", "elections"),
    PhaseKind.SPECIAL_MOTION: ("The Chamber votes on whether El Presidente is still fit to "
                               "rule.", "competence"),
    PhaseKind.CABINET: ("Everyone draws political cards, and El Presidente hands out the "
                        "positions of the Cabinet.", "cabinet"),
    PhaseKind.BUDGET_DRAW: ("The foreign aid is drawn from the money deck for El Presidente to "
                            "share out, and New Weapons go to a commander.", "budget-draw"),
    PhaseKind.BUDGET_PROPOSAL: ("El Presidente says how the aid is shared among the "
                                "positions.", "budget-proposal"),
    PhaseKind.BUDGET_VOTE: ("The families vote the budget up or down with the votes their "
                            "positions and cards give them.", "budget-vote"),
    PhaseKind.INTERNAL_SECURITY: ("If the budget failed, the Minister of Internal Security "
                                  "decides whether to seize it.", "seize"),
    PhaseKind.LOCATIONS: ("Each family chooses where to spend the day, may send assassins, "
                          "banks money, and may start a coup.", "locations"),
    PhaseKind.COUP: ("The Rebels and the Loyalists move and fight their units on the city "
                     "map.", "coup"),
    PhaseKind.COUP_FINAL: ("The last Coup Phase: the families vote for or against the Rebels, "
                           "and the control points decide the coup.", "control"),
    PhaseKind.AFTERMATH: ("After the coup: a winning Junta elects a President, and the "
                          "executions and the banking follow.", "aftermath"),
}


def first_time_lesson(game: Game, phase: Phase | None) -> tuple[str, str, str] | None:
    """(the phase's title, what it is for, its rules paragraph's name) the first time a
    phase of its kind asks the player of a practice campaign for orders (those played on
    while he owed nothing he never stopped at); None otherwise."""
    if not game.practice or phase is None or phase.kind not in PURPOSES:
        return None
    earlier = game.phases.filter(kind=phase.kind, number__lt=phase.number) \
        .values_list("owing_seats", flat=True)
    if any(HIS_SEAT in (seats or []) for seats in earlier):
        return None
    purpose, section = PURPOSES[phase.kind]
    return PHASE_TITLES.get(phase.kind, phase.kind), purpose, section
