"""Speeches are Markdown, rendered to HTML and then sanitised with nh3 (an allow-list).

Every text players write in Markdown (speeches, the GM's announcements, private messages) is
rendered once, when it is posted, into a `body_html` field beside its `body`; `rerender` renews
them after the extensions or the policy here changed (`manage.py rerender_speeches`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import markdown as md
import nh3
from django.db import transaction
from django.db.models import QuerySet
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions import Extension

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "b", "i", "u", "s", "del", "blockquote", "code", "pre",
    "ul", "ol", "li", "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tr", "th", "td",
    "sup", "sub",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}
# Python-Markdown's link patterns take time that grows with the square of the number of "["
# (20,000 take most of a minute): beyond this many, they are written as entities, which read
# the same but start no link
MAX_BRACKETS = 1000


class TextNotHtml(Extension):  # type: ignore[misc]  # markdown is untyped: Extension is Any
    """Raw HTML in the text is text: "I pay <Lucia> 2 MP" reads as written (escaped), where
    Python-Markdown would pass "<Lucia>" on as a tag for the sanitiser to delete. Autolinks
    (<https://...>) still work. Registered last, after "extra" has set up its own HTML
    block handling."""

    def extendMarkdown(self, md: Any) -> None:  # noqa: N802 - Python-Markdown's name
        for registry, name in ((md.preprocessors, "html_block"), (md.inlinePatterns, "html")):
            if name in registry:
                registry.deregister(name)


def render_markdown(text: str) -> SafeString:
    """Markdown to safe HTML: raw HTML in the text is escaped, links get rel="nofollow noopener"
    and only http(s)/mailto targets; headings start at h3 so a speech cannot outshout the page."""
    if text.count("[") > MAX_BRACKETS:
        text = text.replace("[", "&#91;")
    html = md.markdown(
        text,
        extensions=["extra", "sane_lists", "nl2br", TextNotHtml()],
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


# Any: the rows of any model with `body`, `body_html` and `render()` (no common base names them)
def rerender(rows: QuerySet[Any], batch: int = 500) -> tuple[int, int]:
    """Render again the Markdown `body` of each row (a model with `body`, `body_html` and
    `render()`) and store what changed: (rows read, rows whose HTML changed). In batches by id,
    each read, rendered and written in one transaction, so that memory stays flat however long
    the talk."""
    model = rows.model
    seen = changed = 0
    last = 0
    while True:
        with transaction.atomic():
            chunk = list(rows.filter(pk__gt=last).order_by("pk")
                         .only("pk", "body", "body_html")[:batch])
            if not chunk:
                break
            stale = []
            for row in chunk:
                before = row.body_html
                row.render()
                if row.body_html != before:
                    stale.append(row)
            model.objects.bulk_update(stale, ["body_html"])
        seen += len(chunk)
        changed += len(stale)
        last = chunk[-1].pk
    return seen, changed


def rerender_bodies(model: Any) -> int:  # Any: a migration's historical model (Django's)
    """For a data migration (whose historical models have no `render()`): render every row's
    `body` again into `body_html`; how many changed."""
    changed = 0
    for row in model.objects.only("pk", "body", "body_html").iterator():
        html = str(render_markdown(row.body))
        if html != row.body_html:
            model.objects.filter(pk=row.pk).update(body_html=html)
            changed += 1
    return changed


# What `manage.py rerender_speeches` renders again: (one, many, the rows of a campaign or of
# all when None). The games app's texts are below; other apps append theirs in `ready()`.
# (Any: as `rerender`'s rows)
RENDERED: list[tuple[str, str, Callable[[int | None], QuerySet[Any]]]] = []


def renders(one: str, many: str, rows: Callable[[int | None], QuerySet[Any]]  # as RENDERED
            ) -> None:
    """Have `rerender_speeches` renew these rows' HTML too."""
    RENDERED.append((one, many, rows))
