"""What in a page's HTML would act rather than read: elements that run or load something
(script, style, iframe, img, object, embed...), event-handler attributes (onerror=...) and
javascript: links. Text that merely shows such things ("&lt;script&gt;" written by a player)
is not active: it is read as written."""

from __future__ import annotations

from html.parser import HTMLParser

ACTIVE_TAGS = {"script", "style", "iframe", "img", "object", "embed", "svg", "math", "form",
               "input", "button", "link", "meta", "base", "frame", "frameset", "video",
               "audio", "source"}


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ACTIVE_TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("href", "src", "action") and (value or "").strip().lower() \
                    .replace("\t", "").replace("\n", "").startswith(("javascript:", "data:")):
                self.found.append(f"{tag} {name}={value}")


def active(html: str) -> list[str]:
    """The active things in `html` (a fragment: a speech's, a mail's)."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.found
