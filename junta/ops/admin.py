from typing import TYPE_CHECKING

from django.contrib import admin

from .models import Heartbeat

if TYPE_CHECKING:  # django-stubs' type argument: Django's ModelAdmin takes none at run time
    _ModelAdmin = admin.ModelAdmin[Heartbeat]
else:
    _ModelAdmin = admin.ModelAdmin


@admin.register(Heartbeat)
class HeartbeatAdmin(_ModelAdmin):
    list_display = ["name", "last_seen", "runs", "detail"]
    readonly_fields = ["name", "last_seen", "runs", "detail"]
