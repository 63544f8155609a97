from django.contrib import admin

from .models import Heartbeat


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ["name", "last_seen", "runs", "detail"]
    readonly_fields = ["name", "last_seen", "runs", "detail"]
