"""The families' characters as lives changes them: a death recorded or undone, the heir who
returns, the later lives a rollback undoes, a profile edited.

`Character` is games' model and games' rows change through games only: lives decides what
happens to a family's lives (`junta.lives.services`) and these write it. The caller holds the
transaction and the game row's lock.
"""

from __future__ import annotations

from datetime import datetime

from junta.games.models import Character, Player


def set_died_at(character: Character, at: datetime | None) -> None:
    """The character died at `at` (None: he is alive, a death undone)."""
    character.died_at = at
    character.save(update_fields=["died_at"])


def add_heir(player: Player, life: int, name: str, bio: str, avatar_name: str) -> Character:
    """The family's character of its `life`-th life (`avatar_name`: a stored file, "" none).
    Made through the family's lives, so that lives read before (prefetched) are read again."""
    return player.characters.create(life=life, name=name, bio=bio, avatar=avatar_name)


def remove_lives(characters: list[Character]) -> None:
    """These characters never lived (a rollback to before their return)."""
    Character.objects.filter(pk__in=[c.pk for c in characters]).delete()


def save_profile(character: Character) -> None:
    """The character's name, bio and avatar as edited (its avatar's file stored already)."""
    character.save()
