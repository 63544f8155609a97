"""The board rows in Django's admin (site staff only, as the whole admin is): read-only.

Campaigns change through their services (orders, adjudication, the GM's rulings with their audit
entries), never by editing rows here: every page below only reads. The rows are a projection of
each campaign's current state kept by `junta.games.repository.write_board`; this is where staff
query them across campaigns (by campaign, holder, pile, zone, kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.db.models import Count, Model, QuerySet, Sum
from django.http import HttpRequest

from junta.games.models import Bill, Game, PoliticalCard, Position, Unit, Zone

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    _ModelAdmin = admin.ModelAdmin
else:  # Django's ModelAdmin takes no type argument at run time (django-stubs give it one)
    class _ModelAdmin[M: Model](admin.ModelAdmin):
        pass


class ReadOnly[M: Model](_ModelAdmin[M]):
    """Lists and details only: nothing is added, changed or deleted from the admin."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False


class _Bills(TypedDict):  # what GameAdmin.get_queryset annotates
    bill_count: int
    bill_total: int | None


@admin.register(Game)
class GameAdmin(ReadOnly[Game]):
    """The campaigns with their money decks: the bills left and the hidden extra bills. The seed
    (it decides every roll to come) and the invitation token are left out."""

    list_display = ["name", "gm", "status", "extra_bills", "bills_left", "mp_left",
                    "started_at"]
    list_filter = ["status"]
    search_fields = ["name"]
    fields = readonly_fields = (
        "name", "gm", "status", "review_mode", "join_policy", "max_players", "extra_bills_min",
        "extra_bills_max", "extra_bills", "bills_left", "mp_left", "state_version", "created_at",
        "started_at", "finished_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("gm").annotate(
            bill_count=Count("bills"), bill_total=Sum("bills__denomination"))

    @admin.display(description="bills left", ordering="bill_count")
    def bills_left(self, game: WithAnnotations[Game, _Bills]) -> int:
        return game.bill_count

    @admin.display(description="MP left in the deck", ordering="bill_total")
    def mp_left(self, game: WithAnnotations[Game, _Bills]) -> int:
        return game.bill_total or 0


@admin.register(Position)
class PositionAdmin(ReadOnly[Position]):
    list_display = ["key", "holder", "brother_in_law", "game"]
    list_filter = ["game", "key", "brother_in_law"]
    list_select_related = ["game", "holder__game", "holder__user"]


@admin.register(PoliticalCard)
class PoliticalCardAdmin(ReadOnly[PoliticalCard]):
    list_display = ["card_id", "name", "pile", "holder", "order", "game"]
    list_filter = ["game", "pile", ("holder", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["game", "holder__game", "holder__user"]
    search_fields = ["name"]


@admin.register(Bill)
class BillAdmin(ReadOnly[Bill]):
    """The money deck bill by bill, the top first (the hidden extra bills are among them)."""

    list_display = ["order", "denomination", "game"]
    list_filter = ["game", "denomination"]
    list_select_related = ["game"]


@admin.register(Unit)
class UnitAdmin(ReadOnly[Unit]):
    list_display = ["number", "kind", "owner", "zone", "armed", "new_weapons", "temporary",
                    "position", "game"]
    list_filter = ["game", "kind", "zone", ("owner", admin.RelatedOnlyFieldListFilter),
                   "temporary"]
    list_select_related = ["game", "owner__game", "owner__user", "zone"]


@admin.register(Zone)
class ZoneAdmin(ReadOnly[Zone]):
    list_display = ["number", "name", "kind", "control_point", "river"]
    list_filter = ["kind", "control_point", "river"]
