"""The Rules page: the players' rules reference (`docs/rules.md`) and the settled rulings
(`docs/rulings.md`) as HTML, with a table of contents and the lists of the political cards and
the city's zones, which the text does not carry.

Every heading of the two files carries its own id (`## Budget Vote {#budget-vote}`): the page
shows it as `§budget-vote`, the Status page links each instruction to it, and the code and the
tests cite it. The files are read from `settings.JUNTA_DOCS_DIR` and rendered once for each
version of them (the cache key is their modification time and size).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypedDict

import markdown as md
import nh3
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

from junta.engine import CARD_CATEGORIES, Catalog, kinds_by_section

RULES = "rules.md"
RULINGS = "rulings.md"
# The id of rulings.md's first heading: a link to `rulings.md` on the page goes there.
RULINGS_TOP = "settled-rulings"
# What the line under a section that governs order kinds starts with: "Orders: Pay money, ..."
ORDERS_LINE = "Orders:"
# The generated sections that follow the two files.
GENERATED = (("cards", "The political cards"), ("zones", "The city's zones"))

ALLOWED_TAGS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "em", "strong", "code", "pre",
    "blockquote", "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title", "class"}, "p": {"class"}, "th": {"align"}, "td": {"align"},
    **{f"h{level}": {"id"} for level in range(1, 7)},
}
HEADING = re.compile(r'<h([1-6]) id="([^"]+)">(.*?)</h\1>', re.S)
LOCAL_LINK = re.compile(r'href="(rules|rulings)\.md(#[^"]*)?"')
CITED = re.compile(r"§([a-z0-9][a-z0-9-]*[a-z0-9])")

CATEGORIES = CARD_CATEGORIES  # the engine's words for the card categories
TIMINGS = {
    "cabinet": "Cabinet Appointment", "budget_draw": "Draw Budget",
    "budget_proposal": "Budget Proposal", "budget_vote": "Budget Vote",
    "election": "an election", "special_motion": "the competence vote",
    "location": "Locations", "assassination": "the assassination step", "banking": "banking",
    "rebel_only": "the Rebel-Only step", "coup": "a Coup Phase",
    "coup_movement": "a Coup Phase's movement", "aftermath": "the Aftermath",
    "any_except_assassination": "any time, except at the assassination step",
}
ZONE_KINDS = {
    "palace": "the Palace", "power_center": "power center", "precinct": "police precinct",
    "barracks": "barracks", "embassy": "embassy", "district": "district",
}


@dataclass(frozen=True)
class Section:
    """One heading of the page: its id, its text and the headings under it."""
    id: str
    title: str
    children: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Rulebook:
    intro: SafeString  # docs/rules.md up to its first section: the title and the preamble
    rules: SafeString  # the rest of docs/rules.md as HTML
    rulings: SafeString  # docs/rulings.md as HTML, its headings one level down
    contents: tuple[Section, ...]  # the page's sections and their subsections, in order
    anchors: frozenset[str]  # every id a link may point to (`/rules/#id`)


def docs_dir() -> Path:
    return Path(settings.JUNTA_DOCS_DIR)


def rulebook() -> Rulebook:
    """The page for the files as they are now (rendered again only when one of them changes)."""
    folder = docs_dir()
    stamp = tuple((name, (folder / name).stat().st_mtime_ns, (folder / name).stat().st_size)
                  for name in (RULES, RULINGS))
    return _render(str(folder), stamp)


@lru_cache(maxsize=4)
def _render(folder: str, stamp: tuple[tuple[str, int, int], ...]) -> Rulebook:
    rules, rules_toc = render(Path(folder, RULES).read_text(encoding="utf-8"), baselevel=1)
    rulings, rulings_toc = render(Path(folder, RULINGS).read_text(encoding="utf-8"),
                                  baselevel=2)
    # rules.md's h1 is the page title; its h2 sections, then rulings.md's h2, then the lists
    contents = tuple(_sections(rules_toc[0]["children"] if rules_toc else [])) + \
        tuple(_sections(rulings_toc)) + \
        tuple(Section(anchor, title) for anchor, title in GENERATED)
    anchors = frozenset(_ids(rules_toc) | _ids(rulings_toc) | {a for a, _ in GENERATED})
    cut = rules.find("<h2")
    cut = len(rules) if cut < 0 else cut
    return Rulebook(mark_safe(rules[:cut]), mark_safe(rules[cut:]), rulings,  # noqa: S308
                    contents, anchors)


# A table of contents' entry as python-markdown's toc gives it (untyped: Any values)
TocToken = dict[str, Any]


def render(text: str, baselevel: int = 1) -> tuple[SafeString, list[TocToken]]:
    """One Markdown file to safe HTML (each heading followed by its `§name` link) and its table
    of contents (python-markdown's toc tokens). Links to `rules.md` and `rulings.md` become
    links within the page. `baselevel=2` turns `#` into `<h2>`."""
    converter = md.Markdown(
        extensions=["extra", "sane_lists", "toc"],  # `extra` brings attr_list: `{#id}`
        extension_configs={"toc": {"baselevel": baselevel, "permalink": False}},
        output_format="html",
    )
    out = converter.convert(text)
    out = LOCAL_LINK.sub(_local_href, out)
    out = HEADING.sub(_heading, out)
    clean = nh3.clean(
        out,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel=None,
        strip_comments=True,
    )
    tokens = list(getattr(converter, "toc_tokens", []))  # set by the toc extension
    return mark_safe(clean), tokens  # noqa: S308 - nh3 has sanitised it


def _local_href(match: re.Match[str]) -> str:
    target = match.group(2) or ("#" + RULINGS_TOP if match.group(1) == "rulings" else "#rules")
    return f'href="{target}"'


def _heading(match: re.Match[str]) -> str:
    """A heading with its `§name` link and, when the section governs order kinds, the line that
    names them."""
    level, anchor, inner = match.groups()
    return (f'<h{level} id="{anchor}">{inner} <a class="section-link" href="#{anchor}">'
            f"§{anchor}</a></h{level}>" + orders_line(anchor))


def orders_line(anchor: str) -> str:
    """The kinds of order a section governs, by the engine's labels (`OrderKindSpec.rules`):
    those whose main section it is first; "" for a section that governs none. The Orders page
    has no anchor of its own for a kind (its forms are the seat's options now), so the labels
    link nowhere."""
    labels = kinds_by_section().get(anchor)
    if not labels:
        return ""
    return (f'<p class="rules-orders">{html.escape(ORDERS_LINE)} '
            f'{html.escape(", ".join(labels))}</p>')


def _sections(tokens: list[TocToken]) -> list[Section]:
    return [Section(t["id"], _plain(t["name"]),
                    tuple(Section(c["id"], _plain(c["name"])) for c in t["children"]))
            for t in tokens]


def _plain(name: str) -> str:
    """A toc token's name is HTML-escaped text; the template escapes it again."""
    return html.unescape(nh3.clean(name, tags=set()))


def _ids(tokens: list[TocToken]) -> set[str]:
    out: set[str] = set()
    for t in tokens:
        out.add(t["id"])
        out |= _ids(t["children"])
    return out


def cited_sections(text: str) -> set[str]:
    """Every `§name` cited in a text (a code comment, a docstring, a test)."""
    return set(CITED.findall(text))


class CardEntry(TypedDict):
    """A political card on the Rules page: its name, category, effect, timings, cost and
    votes, how many copies the deck holds, and its category's place in the list."""
    name: str
    category: str
    effect: str
    when: list[str]
    cost: int
    votes: int
    copies: int
    order: int


class ZoneEntry(TypedDict):
    id: int
    name: str
    kind: str
    control_point: bool
    river: bool
    no_combat: bool
    adjacent: list[str]


@cache
def card_list() -> tuple[CardEntry, ...]:
    """The 88 political cards, one entry per name with its number of copies, by category."""
    entries: dict[str, CardEntry] = {}
    for c in Catalog.cards():
        entry = entries.setdefault(c.name, {
            "name": c.name, "category": CATEGORIES.get(c.category, c.category),
            "effect": c.effect, "when": [TIMINGS.get(w, w) for w in c.when],
            "cost": c.cost, "votes": c.votes, "copies": 0, "order": list(CATEGORIES).index(
                c.category) if c.category in CATEGORIES else len(CATEGORIES),
        })
        entry["copies"] += 1
    return tuple(sorted(entries.values(), key=lambda e: (e["order"], e["name"])))


@cache
def zone_list() -> tuple[ZoneEntry, ...]:
    """The 28 zones of the city: number, name, kind, control point, river, neighbours."""
    zones = Catalog.zones()
    return tuple(ZoneEntry({
        "id": z.id, "name": z.name, "kind": ZONE_KINDS.get(z.kind, z.kind),
        "control_point": z.control_point, "river": z.river,
        "no_combat": "no_combat" in z.flags,
        "adjacent": [f"{a} {zones[a].name}" for a in z.adjacent],
    }) for z in sorted(zones.values(), key=lambda z: z.id))
