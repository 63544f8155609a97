"""Forming a campaign: create it, let people join, seat them, start it (the seats closed up, the
engine's first state, the first phase open). Each write is one transaction in the shape of
every app's (README, Layout): the service named for it locks the campaign, `check_<verb>`
raises `CampaignError` with a message meant for the person who asked, changing nothing,
`do_<verb>` writes. `unseat_player` and `hand_seat_over` are the GM panel's writes,
checked there, called with the campaign locked."""

from __future__ import annotations

from datetime import datetime, time

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from accounts.public import User
from junta import engine
from junta.games import repository
from junta.games.locking import lock_game
from junta.games.models import AuditEntry, Character, Game, Order, Phase, Player


class CampaignError(Exception):
    """A request that cannot be carried out; the message says why, for the person who asked."""


@transaction.atomic
def create_game(
    gm: User,
    name: str,
    *,
    max_players: int = 10,
    deadline_time: time | None = None,
    time_zone: str | None = None,
    review_mode: str = Game.ReviewMode.AUTO,
    join_policy: str = Game.JoinPolicy.APPROVAL,
    extra_bills: tuple[int, int] = (0, 14),
    phase_days: dict[str, int] | None = None,
    gm_reads_talk: bool = False,
    watch: tuple[bool, int, bool] = (False, 1, False),
) -> Game:
    """`watch`: whether spectators may watch it, their delay in published phases, and whether
    anyone with the watching link may (`junta.games.watching`)."""
    check_create_game(name, max_players, extra_bills)
    return do_create_game(gm, Game(
        gm=gm, name=name.strip(), max_players=max_players, review_mode=review_mode,
        join_policy=join_policy, extra_bills_min=extra_bills[0],
        extra_bills_max=extra_bills[1], gm_reads_talk=gm_reads_talk,
        watchable=watch[0], watch_delay=watch[1], watch_by_link=watch[2],
    ), deadline_time=deadline_time, time_zone=time_zone, phase_days=phase_days)


def check_create_game(name: str, max_players: int, extra_bills: tuple[int, int]) -> None:
    """Whether a campaign may be made so (`CampaignError` if not; the model's own checks
    follow, `full_clean`)."""
    if not name.strip():
        raise CampaignError("A campaign needs a name.")
    if not 6 <= max_players <= 10:
        raise CampaignError(f"A campaign has 6 to 10 players, not {max_players}.")
    low, high = extra_bills
    if not 0 <= low <= high <= 14:
        raise CampaignError(
            f"The hidden extra bills must be a range within 0-14, not {low}-{high}."
        )


@transaction.atomic
def do_create_game(gm: User, game: Game, *, deadline_time: time | None, time_zone: str | None,
                   phase_days: dict[str, int] | None) -> Game:
    """The new campaign's row (its deadline, zone and phases' days where given, the model's
    defaults elsewhere) and its audit entry."""
    if deadline_time is not None:
        game.deadline_time = deadline_time
    if time_zone:
        game.time_zone = time_zone
    if phase_days:
        game.phase_days = {**game.phase_days, **phase_days}
    game.full_clean()
    game.save()
    AuditEntry.objects.create(game=game, actor=gm, action="create", data={
        "name": game.name, "max_players": game.max_players, "review_mode": game.review_mode,
        "join_policy": game.join_policy, "deadline_time": game.deadline_time.strftime("%H:%M"),
        "time_zone": str(game.time_zone), "phase_days": game.phase_days,
        "extra_bills": [game.extra_bills_min, game.extra_bills_max],
    })
    return game


def active_players(game: Game) -> list[Player]:
    return list(
        game.players.filter(membership=Player.Membership.ACTIVE).order_by("seat")
    )


@transaction.atomic
def join_game(
    game_id: int,
    user: User,
    character_name: str,
    *,
    bio: str = "",
    invite_token: str = "",
    avatar: UploadedFile[bytes] | None = None,
) -> Player:
    """Ask to join a forming campaign with a first character. Open campaigns and invitation
    links seat the player at once; otherwise the GM approves."""
    game = lock_game(game_id)
    seat = check_join_game(game, user, character_name, invite_token)
    return do_join_game(game, user, character_name.strip(), bio, avatar, seat)


def check_join_game(game: Game, user: User, character_name: str, invite_token: str
                    ) -> int | None:
    """Whether `user` may join the campaign now (`CampaignError` if not): the seat he takes at
    once (an open campaign, an invitation link), None when he waits for the GM's approval."""
    if game.status != Game.Status.FORMING:
        raise CampaignError(f"{game.name} has started; it takes no new players.")
    if game.gm_id == user.id:
        raise CampaignError("The GameMaster of a campaign cannot also play in it.")
    if game.players.filter(
        user=user, membership__in=[Player.Membership.PENDING, Player.Membership.ACTIVE]
    ).exists():
        raise CampaignError(f"You have already joined {game.name}.")
    if game.join_policy == Game.JoinPolicy.INVITE and invite_token != game.invite_token:
        raise CampaignError(f"{game.name} takes players by invitation link only.")
    if not character_name.strip():
        raise CampaignError("Give your first character a name.")
    immediate = game.join_policy == Game.JoinPolicy.OPEN or (
        invite_token and invite_token == game.invite_token
    )
    return check_seat_player(game) if immediate else None


@transaction.atomic
def do_join_game(game: Game, user: User, character_name: str, bio: str,
                 avatar: UploadedFile[bytes] | None, seat: int | None) -> Player:
    """The player's row, his first character, and his seat when he takes one at once (the
    campaign locked by the caller)."""
    player = Player.objects.create(game=game, user=user)
    character = Character(player=player, life=1, name=character_name, bio=bio)
    if avatar:
        character.avatar.save(avatar.name or "avatar", avatar, save=False)
    character.save()
    if seat is not None:
        do_seat_player(player, seat)
    return player


def check_seat_player(game: Game) -> int:
    """The lowest free seat (`CampaignError` when the campaign is full), for a pending player
    the caller (this module, the GM panel) seats (`do_seat_player`) under the game's lock."""
    seated = active_players(game)
    if len(seated) >= game.max_players:
        raise CampaignError(f"{game.name} is full ({game.max_players} players).")
    taken = {p.seat for p in seated}
    return min(seat for seat in range(game.max_players) if seat not in taken)


@transaction.atomic
def do_seat_player(player: Player, seat: int) -> None:
    player.seat = seat
    player.membership = Player.Membership.ACTIVE
    player.save(update_fields=["seat", "membership"])


def unseat_player(player: Player) -> None:
    """The GameMaster takes a player out of a forming campaign (or declines his request): his
    seat is free again (the game row is locked by the caller)."""
    player.membership = Player.Membership.REMOVED
    player.seat = None
    player.save(update_fields=["membership", "seat"])


def hand_seat_over(old: Player, user: User, name: str, phase: Phase | None) -> tuple[Player, int]:
    """`user` takes `old`'s seat and its state (money, cards, positions), with a Player row of
    his own and the family's character named `name` (its life goes on); the leaver's row,
    orders and speeches stay his, but his orders for `phase` (the open or drafted one, None
    if none) go to the newcomer. The new player and how many orders moved (the game row is
    locked by the caller, then the phase)."""
    character = old.character
    old.membership = Player.Membership.REPLACED
    old.save(update_fields=["membership"])
    new = Player.objects.create(game=old.game, user=user, seat=old.engine_seat,
                                membership=Player.Membership.ACTIVE, state=old.state,
                                pocket=old.pocket, bank=old.bank)
    Character.objects.create(player=new, life=character.life if character else 1, name=name)
    moved = Order.objects.filter(phase=phase, player=old).update(player=new) if phase else 0
    return new, moved


@transaction.atomic
def approve_player(game_id: int, player_id: int) -> Player:
    game = lock_game(game_id)
    player, seat = check_approve_player(game, player_id)
    do_approve_player(player, seat)
    return player


def check_approve_player(game: Game, player_id: int) -> tuple[Player, int]:
    """Whether the player may be seated now (`CampaignError` if not): he and his seat."""
    if game.status != Game.Status.FORMING:
        raise CampaignError(f"{game.name} has started; seats can no longer change this way.")
    player = game.players.get(pk=player_id)
    if player.membership != Player.Membership.PENDING:
        raise CampaignError(f"{player.user.public_name} is not waiting for approval.")
    return player, check_seat_player(game)


@transaction.atomic
def do_approve_player(player: Player, seat: int) -> None:
    do_seat_player(player, seat)


@transaction.atomic
def start_campaign(game_id: int, by: User, now: datetime | None = None) -> Phase:
    """Seat order is fixed, the engine deals the decks, and the nomination phase opens."""
    game = lock_game(game_id)
    return do_start_campaign(game, by, check_start_campaign(game, by), now or timezone.now())


def check_start_campaign(game: Game, by: User) -> list[Player]:
    """Whether `by` may start the campaign now (`CampaignError` if not): its seated players."""
    if game.gm_id != by.id:
        raise CampaignError("Only the campaign's GameMaster can start it.")
    if game.status != Game.Status.FORMING:
        raise CampaignError(f"{game.name} has already started.")
    players = active_players(game)
    if len(players) < engine.MIN_PLAYERS:
        raise CampaignError(f"{game.name} needs at least {engine.MIN_PLAYERS} seated players "
                            f"to start; it has {len(players)}.")
    return players


@transaction.atomic
def do_start_campaign(game: Game, by: User, players: list[Player], now: datetime) -> Phase:
    """The seats closed up, the engine's first state on the board, the first phase open, the
    audit entry (the campaign locked by the caller)."""
    for seat, player in enumerate(players):  # close any gaps left by removals
        if player.seat != seat:
            Player.objects.filter(pk=player.pk).update(seat=None)
            player.seat = seat
    for player in players:
        Player.objects.filter(pk=player.pk).update(seat=player.seat)
    names = repository.character_names(game, players)
    state = repository.new_state(game, names)
    game.status = Game.Status.NOMINATING
    game.started_at = now
    game.state_version += 1
    game.save(update_fields=["status", "started_at", "state_version"])
    phase = repository.open_phase(game, state, now)
    repository.write_board(game, state)
    entry = AuditEntry.objects.create(game=game, actor=by, action="start",
                                      announcement=f"{game.name} begins: nominations are open.")
    # dated when the campaign started (a simulated campaign's start lies in the past)
    AuditEntry.objects.filter(pk=entry.pk).update(created_at=now)
    return phase
