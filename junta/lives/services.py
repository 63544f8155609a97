"""A family's lives: the character who dies, the heir prepared meanwhile, the one who returns.

`sync_lives` runs inside the transaction that publishes a phase (`phase_published`, registered
with `junta.games.hooks` in this app's `ready()`), after the board rows are written and before
the next phase opens (so the new phase's state already carries the heir's name): it records
each death (the character's `died_at` and an obituary from the public report) and, when the
engine brings a family back at the start of a turn, makes the prepared heir (or a default one)
the family's new Character.

A player's own writes (his heir, his character) are in the shape of every app's (README,
Layout): the service named for it locks the campaign, `check_<verb>` refuses with a
`CampaignError`, changing nothing, `do_<verb>` writes.
"""

from __future__ import annotations

from datetime import datetime

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.public import User
from junta.engine import GameState, Status
from junta.games.public import (
    CampaignError,
    Character,
    Game,
    Phase,
    PhasePublished,
    PhaseResult,
    Player,
    active_players,
    add_heir,
    lock_game,
    remove_lives,
    save_profile,
    set_died_at,
)
from junta.lives.models import HeirDraft, Obituary

# the numbers after a name: "the Younger" is the second of a line, then III, IV ...
NUMERALS = ("III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV")


def default_heir_name(dead: str) -> str:
    """The name an heir takes when his player gives none: "Don Carlos" is followed by "Don
    Carlos the Younger", then "Don Carlos III", "Don Carlos IV" and so on."""
    base, _, last = dead.rpartition(" ")
    if dead.endswith(" the Younger"):
        name = f"{dead.removesuffix(' the Younger')} {NUMERALS[0]}"
    elif base and last in NUMERALS[:-1]:
        name = f"{base} {NUMERALS[NUMERALS.index(last) + 1]}"
    else:
        name = f"{dead} the Younger"
    return name[:60]


def _death_line(result: PhaseResult | None, seat: int) -> str:
    for event in (result.events if result else []):
        if event.get("kind") == "death" and event.get("audience") == "public" \
                and (event.get("data") or {}).get("victim") == seat:
            return str(event.get("text", ""))[:500]
    return ""


def sync_lives(game: Game, state: GameState, now: datetime, phase: Phase | None = None,
               result: PhaseResult | None = None, active: list[Player] | None = None) -> None:
    """Bring the Character rows in line with the engine's lives (see the module's text).
    `active`: the campaign's active players with their lives, read in this transaction
    (`PhasePublished.players`); otherwise they are read here (two queries)."""
    players = {p.seat: p for p in (active if active is not None
                                   else active_players(game, lives=True))}
    for engine_player in state.players:
        player = players.get(engine_player.seat)
        if player is None:
            continue
        lives = {c.life: c for c in player.characters.all()}
        latest = lives[max(lives)] if lives else None
        if engine_player.status == Status.DEAD:
            dead = lives.get(engine_player.life) or latest
            if dead is not None and dead.died_at is None:
                _remember(dead, now, phase, phase.turn if phase else state.turn,
                          _death_line(result, engine_player.seat))
        elif latest is not None and engine_player.life > latest.life:
            if latest.died_at is None:  # died and came back in the one phase just published
                _remember(latest, now, phase, phase.turn if phase else state.turn,
                          _death_line(result, engine_player.seat))
            _return_with_heir(player, latest, engine_player.life, now)
        elif latest is not None and latest.died_at is not None \
                and engine_player.life == latest.life:
            # alive again in the same life: a GM rolled the campaign back past the death
            set_died_at(latest, None)
            Obituary.objects.filter(character=latest).delete()


def _remember(dead: Character, now: datetime, phase: Phase | None, turn: int,
              line: str) -> None:
    """The character's death: when, and his obituary (the turn and the report's line)."""
    set_died_at(dead, now)
    Obituary.objects.update_or_create(character=dead, defaults={
        "phase": phase, "turn": turn, "text": line})


def phase_published(published: PhasePublished) -> None:
    """`junta.games.hooks`' callback: the lives after the phase just published."""
    sync_lives(published.game, published.state, published.now, published.phase,
               published.result, published.players)


def restore_lives(game: Game, state: GameState) -> None:
    """After a GM rollback to a phase's start (inside its transaction, `state` being that
    phase's starting state): undo what `sync_lives` did after it. A character who died later
    is alive again (no `died_at`, no obituary); an heir who came back later (a life beyond the
    engine's) is removed, and the first of them goes back to the family's heir draft, name,
    bio and avatar, so that he returns again when the engine brings the family back."""
    players = {p.seat: p for p in game.players.filter(membership=Player.Membership.ACTIVE)}
    for engine_player in state.players:
        player = players.get(engine_player.seat)
        if player is None:
            continue
        lives = sorted(player.characters.all(), key=lambda c: c.life)
        later = [c for c in lives if c.life > engine_player.life]
        if later:
            heir = later[0]
            draft = HeirDraft.objects.filter(player=player).first() or HeirDraft(player=player)
            draft.name, draft.bio = heir.name, heir.bio
            draft.avatar.name = heir.avatar.name or ""  # the same stored file
            draft.save()
            remove_lives(later)
        current = next((c for c in lives if c.life == engine_player.life), None)
        if current is not None and engine_player.status != Status.DEAD \
                and current.died_at is not None:
            set_died_at(current, None)
            Obituary.objects.filter(character=current).delete()


def _return_with_heir(player: Player, dead: Character, life: int, now: datetime) -> Character:
    if dead.died_at is None:  # a death this module missed (rows written by hand, an old game)
        set_died_at(dead, now)
    draft = HeirDraft.objects.filter(player=player).first()
    heir = add_heir(player, life, draft.name if draft else default_heir_name(dead.name),
                    draft.bio if draft else "",
                    (draft.avatar.name or "") if draft and draft.avatar else "")
    if draft:
        draft.delete()
    return heir


def _seat(game: Game, user: User) -> Player:
    player = game.players.filter(user=user, membership=Player.Membership.ACTIVE).first()
    if player is None:
        raise CampaignError(_("You have no seat in this campaign."))
    return player


def _set_avatar(holder: HeirDraft | Character, avatar: UploadedFile[bytes] | None, clear: bool
                ) -> None:
    """An upload replaces the avatar; `clear` without one removes it (the caller saves)."""
    if avatar:
        holder.avatar.save(avatar.name or "avatar", avatar, save=False)
    elif clear:
        holder.avatar = ""


@transaction.atomic
def prepare_heir(game_id: int, user: User, name: str, bio: str = "",
                 avatar: UploadedFile[bytes] | None = None, clear_avatar: bool = False
                 ) -> HeirDraft:
    """The dead player names the character who returns with his family next turn."""
    game = lock_game(game_id)
    player = check_prepare_heir(game, user, name)
    return do_prepare_heir(player, name, bio, avatar, clear_avatar)


def check_prepare_heir(game: Game, user: User, name: str) -> Player:
    """Whether `user` may name his heir now (`CampaignError` if not): his seat."""
    player = _seat(game, user)
    if game.status == Game.Status.FINISHED:
        raise CampaignError(_("%(name)s is over.") % {"name": game.name})
    if player.state != Player.State.DEAD:
        raise CampaignError(_("Your character is alive: a new one comes only after a death."))
    if not name.strip():
        raise CampaignError(_("Give your new character a name."))
    return player


@transaction.atomic
def do_prepare_heir(player: Player, name: str, bio: str,
                    avatar: UploadedFile[bytes] | None, clear_avatar: bool) -> HeirDraft:
    """The family's heir draft, made or changed (the campaign locked)."""
    draft = HeirDraft.objects.filter(player=player).first() or HeirDraft(player=player)
    draft.name, draft.bio = name.strip(), bio.strip()
    _set_avatar(draft, avatar, clear_avatar)
    draft.save()
    return draft


@transaction.atomic
def edit_character(game_id: int, user: User, *, bio: str, name: str | None = None,
                   avatar: UploadedFile[bytes] | None = None,
                   clear_avatar: bool = False) -> Character:
    """Change the living character's bio and avatar (and name, before the campaign starts:
    afterwards the name is in the reports)."""
    game = lock_game(game_id)
    character = check_edit_character(game, user)
    return do_edit_character(game, character, bio=bio, name=name, avatar=avatar,
                             clear_avatar=clear_avatar)


def check_edit_character(game: Game, user: User) -> Character:
    """Whether `user` may change his character now (`CampaignError` if not): the character."""
    player = _seat(game, user)
    character = max(player.characters.all(), key=lambda c: c.life, default=None)
    if character is None or player.state == Player.State.DEAD:
        raise CampaignError(_("Your character is dead: prepare the next one instead."))
    return character


@transaction.atomic
def do_edit_character(game: Game, character: Character, *, bio: str, name: str | None,
                      avatar: UploadedFile[bytes] | None, clear_avatar: bool) -> Character:
    """The living character's bio, avatar and (before the start) name (the campaign locked)."""
    character.bio = bio.strip()
    if name is not None and name.strip() and game.status == Game.Status.FORMING:
        character.name = name.strip()
    _set_avatar(character, avatar, clear_avatar)
    save_profile(character)
    return character
