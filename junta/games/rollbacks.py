"""The phases a GM rollback undid.

A rollback (`junta.gm.services.rollback`) writes one AuditEntry with action "rollback" whose
data holds `to_phase` (the phase whose start was restored) and `new_phase` (the phase it
opened). Every phase numbered from `to_phase` up to, not including, `new_phase` was undone:
its result stays (History shows it, set apart) but no longer counts. Derived from the audit
log alone, so nothing is stored twice."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Exists, IntegerField, OuterRef, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from junta.games.models import AuditEntry, Game

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

ROLLBACK = "rollback"


class _Undid(TypedDict):
    undid_from: int | None
    undid_until: int | None


def _rollbacks(game: Game | OuterRef) -> QuerySet[WithAnnotations[AuditEntry, _Undid]]:
    return AuditEntry.objects.filter(game=game, action=ROLLBACK).annotate(
        undid_from=Cast(KeyTextTransform("to_phase", "data"), IntegerField()),
        undid_until=Cast(KeyTextTransform("new_phase", "data"), IntegerField()))


def undone(prefix: str = "phase__") -> Exists:
    """An expression true for a phase (reached through `prefix`: "phase__" from a
    PhaseResult, "" from a Phase) that a GM rollback undid; `.exclude(undone())` keeps the
    phases that count, in the same query."""
    return Exists(_rollbacks(OuterRef(f"{prefix}game_id")).filter(
        undid_from__lte=OuterRef(f"{prefix}number"),
        undid_until__gt=OuterRef(f"{prefix}number")))


def undone_phases(game: Game) -> dict[int, datetime]:
    """Each undone phase's number and when the rollback that undid it happened (the first one,
    when a later rollback went back past it again). One query."""
    out: dict[int, datetime] = {}
    for entry in _rollbacks(game).order_by("created_at", "id"):
        if entry.undid_from is None or entry.undid_until is None:
            continue
        for number in range(entry.undid_from, entry.undid_until):
            out.setdefault(number, entry.created_at)
    return out
