"""Staff see and revoke API tokens in the admin; nobody sees a secret (only its hash is kept)."""

from typing import TYPE_CHECKING

from django.contrib import admin

from junta.api.models import ApiToken

if TYPE_CHECKING:  # django-stubs' type argument: Django's ModelAdmin takes none at run time
    _ModelAdmin = admin.ModelAdmin[ApiToken]
else:
    _ModelAdmin = admin.ModelAdmin


@admin.register(ApiToken)
class ApiTokenAdmin(_ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__email")
    readonly_fields = ("user", "name", "prefix", "created_at", "last_used_at")
    exclude = ("secret_hash",)
