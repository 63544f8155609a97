"""The players: approve a request to join, remove or decline a player while the campaign forms,
replace a player by another person once it runs."""

from __future__ import annotations

from typing import TypedDict

from django.db import transaction

from accounts.public import User
from junta.engine import GameState, RulingError, rule
from junta.games.public import (
    Game,
    Phase,
    Player,
    bump_state_version,
    check_seat_player,
    do_seat_player,
    hand_seat_over,
    rewrite_state_before,
    state_after,
    unseat_player,
    write_board,
)
from junta.talk.public import drop_player, hand_over

from .common import GMError, audit, given_reason, lock_as_gm, sound_state_before
from .review import redraft_if_drafted


class _Left(TypedDict, total=False):
    conversations_left: int  # the private conversations the removed player left


@transaction.atomic
def approve_player(game_id: int, by: User, player_id: int) -> Player:
    game = lock_as_gm(game_id, by)
    player, seat = check_approve_player(game, player_id)
    return do_approve_player(game, by, player, seat)


def check_approve_player(game: Game, player_id: int) -> tuple[Player, int]:
    """Whether the player may be seated now (`GMError`, `CampaignError` when full): he and
    the seat he takes."""
    if game.status != Game.Status.FORMING:
        raise GMError(f"{game.name} has started: seats change by replacing a player now.")
    player = game.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise GMError("There is no such player in this campaign.")
    if player.membership != Player.Membership.PENDING:
        raise GMError(f"{player.user.public_name} is not waiting for approval.")
    return player, check_seat_player(game)


@transaction.atomic
def do_approve_player(game: Game, by: User, player: Player, seat: int) -> Player:
    """He takes the seat; the audit entry (the campaign locked)."""
    do_seat_player(player, seat)
    audit(game, by, "approve", player=player.pk, user=player.user.public_name, seat=player.seat)
    return player


@transaction.atomic
def remove_player(game_id: int, by: User, player_id: int, reason: str = "") -> Player:
    """Decline a request to join, or take a seated player out, while the campaign forms (he
    leaves the conversations he is in: `junta.talk.services.drop_player`). Once it runs, every
    seat is a family of the game: replace its player instead."""
    game = lock_as_gm(game_id, by)
    return do_remove_player(game, by, check_remove_player(game, player_id), reason)


def check_remove_player(game: Game, player_id: int) -> Player:
    """Whether the player may be declined or removed now (`GMError` if not): he."""
    player = game.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise GMError("There is no such player in this campaign.")
    if player.membership not in (Player.Membership.PENDING, Player.Membership.ACTIVE):
        raise GMError(f"{player.user.public_name} is no longer in {game.name}.")
    if game.status != Game.Status.FORMING and player.membership == Player.Membership.ACTIVE:
        raise GMError(f"{game.name} has started: the seat stays in the game. Replace "
                      f"{player.user.public_name} by another person instead.")
    return player


@transaction.atomic
def do_remove_player(game: Game, by: User, player: Player, reason: str) -> Player:
    """His seat free, the conversations he leaves, the audit entry (the campaign locked)."""
    was = player.membership
    unseat_player(player)
    seated = was == Player.Membership.ACTIVE
    left: _Left = {"conversations_left": drop_player(player)} if seated else {}
    audit(game, by, "remove" if seated else "decline",
           reason=given_reason(reason, required=False), player=player.pk,
           user=player.user.public_name, **left)
    return player


def _board_state(game: Game) -> tuple[Phase | None, GameState | None]:
    """The latest phase and the state the board rows show: the start of an open or drafted
    phase, or the result of a published one (a finished game)."""
    phase = game.phases.order_by("-number").first()
    if phase is None:
        return None, None
    if phase.status == Phase.Status.PUBLISHED:
        return phase, state_after(phase.result)
    return phase, sound_state_before(phase)


@transaction.atomic
def replace_player(game_id: int, by: User, player_id: int, newcomer_email: str,
                   character_name: str = "", reason: str = "", announcement: str = "") -> Player:
    """The newcomer takes the seat and its state (money, cards, positions, orders in progress)
    with a Player row of their own; the leaver's row, orders and speeches stay theirs. The
    family's private conversations go with the seat (docs/rules.md §talk): the newcomer reads
    them and speaks in them, the leaver no longer does."""
    reason = given_reason(reason)
    game = lock_as_gm(game_id, by)
    old, user, name = check_replace_player(game, player_id, newcomer_email, character_name)
    return do_replace_player(game, by, old, user, name, reason, announcement)


def check_replace_player(game: Game, player_id: int, newcomer_email: str,
                         character_name: str) -> tuple[Player, User, str]:
    """Whether the player may be replaced by that person now (`GMError` if not): the leaver,
    the newcomer and the family's character's name from now on."""
    if game.status == Game.Status.FORMING:
        raise GMError("While the campaign forms, remove the player and invite the newcomer.")
    if game.status == Game.Status.FINISHED:
        raise GMError("The game is over: its seats no longer change.")
    old = game.players.select_related("user").prefetch_related("characters") \
        .filter(pk=player_id).first()
    if old is None or old.membership != Player.Membership.ACTIVE:
        raise GMError("Only a seated player can be replaced.")
    email = (newcomer_email or "").strip()
    user = User.objects.filter(email__iexact=email).first() if email else None
    if user is None:
        raise GMError(f"Nobody has an account with the e-mail address {email or '(none)'}: "
                      "ask the newcomer to sign up first.")
    if user.pk == game.gm_id:
        raise GMError("The GameMaster of a campaign cannot also play in it.")
    if game.players.filter(user=user, membership__in=[
            Player.Membership.PENDING, Player.Membership.ACTIVE]).exists():
        raise GMError(f"{user.public_name} is already in {game.name}.")
    character = old.character
    name = (character_name or "").strip()[:60] or (character.name if character else
                                                   f"Family {old.engine_seat + 1}")
    return old, user, name


@transaction.atomic
def do_replace_player(game: Game, by: User, old: Player, user: User, name: str, reason: str,
                      announcement: str) -> Player:
    """The newcomer in the seat with its state and orders in progress, the family's talk
    handed over, the character renamed in the phase's state (the engine's ruling may still
    refuse the name: `GMError`), the board, the audit entry (the campaign locked, then the
    phase)."""
    seat = old.engine_seat
    phase = game.phases.select_for_update(no_key=True).order_by("-number").first()
    working = phase if phase is not None and phase.status in (
        Phase.Status.OPEN, Phase.Status.DRAFTED) else None
    new, moved = hand_seat_over(old, user, name, working)
    talks = hand_over(old, new, name)
    digest_after = None
    if phase is not None and phase.status in (Phase.Status.OPEN, Phase.Status.DRAFTED):
        state = sound_state_before(phase)
        if state.players[seat].name != name:
            try:
                state = rule(state, "name", {"seat": seat, "name": name}).state
            except RulingError as error:
                raise GMError(str(error)) from error
            rewrite_state_before(phase, state)
            redraft_if_drafted(game, phase)
        digest_after = phase.state_digest
    _, board = _board_state(game)
    if board is not None:
        write_board(game, board)
    bump_state_version(game)
    audit(game, by, "replace", reason=reason, announcement=announcement, seat=seat,
           old_player=old.pk, old_user=old.user.public_name, new_player=new.pk,
           new_user=user.public_name, character=name, orders_moved=moved,
           conversations_moved=talks,
           phase=phase.number if phase else None, digest_after=digest_after)
    return new
