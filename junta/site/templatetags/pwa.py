"""The installable web app's marks on every page (templates/base.html).

`{% pwa_owner %}`: the `data-pwa-user` attribute of <body>, an opaque id of the person logged
in ("" for a visitor), the same on every page of one person and telling nothing about him.
static/js/pwa.js keeps the copies of pages seen (for the offline page) under it and throws them
away when it changes: after a log-out, or when another person logs in on the same browser,
nobody sees the pages of the one before. Where the page has no request (an error page drawn
without one), no attribute: the script leaves the copies as they are.
"""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.utils.crypto import salted_hmac
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


def owner_id(user_pk: object) -> str:
    return salted_hmac("junta.site.pwa.owner", str(user_pk), algorithm="sha256").hexdigest()[:24]


@register.simple_tag(takes_context=True)
def pwa_owner(context: Context) -> SafeString:
    user = context.get("user")
    if user is None:
        return SafeString("")
    owner = owner_id(user.pk) if user.is_authenticated else ""
    return format_html(' data-pwa-user="{}"', owner)
