"""How often a campaign's page left open asks what changed (`junta.site.live.POLL_MS`), for the
game menu's `data-live-interval`."""

from __future__ import annotations

from django import template

from junta.site import live

register = template.Library()


@register.simple_tag
def live_interval() -> int:
    return live.POLL_MS
