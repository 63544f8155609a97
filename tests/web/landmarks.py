"""The regions of a page as a screen reader lists them: each <section> with a name, and each
element of role "region", with its accessible name (aria-label, or the text of the elements its
aria-labelledby names, text hidden only visually included). Two regions of one name cannot be
told apart in the list (axe's landmark-unique)."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Regions(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.regions: list[dict[str, str]] = []  # aria-label / aria-labelledby
        self.text: dict[str, str] = {}  # id -> text content
        self._open: list[tuple[str, str]] = []  # (tag, id)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        named = "aria-label" in a or "aria-labelledby" in a
        if named and (tag == "section" or a.get("role") == "region"):
            self.regions.append(a)
        if tag in VOID:
            return
        self._open.append((tag, a.get("id", "")))
        if a.get("id"):
            self.text.setdefault(a["id"], "")

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for _tag, element_id in self._open:
            if element_id:
                self.text[element_id] += data


def region_names(page: str) -> list[str]:
    """The accessible name of each region of the page, in the page's order."""
    parser = _Regions()
    parser.feed(page)
    names = []
    for attrs in parser.regions:
        if "aria-labelledby" in attrs:
            text = " ".join(parser.text.get(i, "") for i in attrs["aria-labelledby"].split())
        else:
            text = attrs["aria-label"]
        names.append(" ".join(text.split()))
    return names


def repeated(page: str) -> list[str]:
    """The names that more than one region of the page bears."""
    names = region_names(page)
    return sorted({name for name in names if names.count(name) > 1})
