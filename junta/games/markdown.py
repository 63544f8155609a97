"""Speeches are Markdown, rendered to HTML and then sanitised with nh3 (an allow-list)."""

from __future__ import annotations

import markdown as md
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "b", "i", "u", "s", "del", "blockquote", "code", "pre",
    "ul", "ol", "li", "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tr", "th", "td",
    "sup", "sub",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


def render_markdown(text: str) -> SafeString:
    """Markdown to safe HTML: raw HTML in the text is escaped, links get rel="nofollow noopener"
    and only http(s)/mailto targets; headings start at h3 so a speech cannot outshout the page."""
    html = md.markdown(
        text,
        extensions=["extra", "sane_lists", "nl2br"],
        output_format="html",
    )
    for level in (2, 1):  # demote # and ## headings below the page's own h1/h2
        html = html.replace(f"<h{level}", f"<h{level + 2}").replace(
            f"</h{level}>", f"</h{level + 2}>"
        )
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener noreferrer",
        strip_comments=True,
    )
    return mark_safe(clean)  # noqa: S308 - nh3 has sanitised it
