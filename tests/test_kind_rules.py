"""Each order kind says where in the rules it comes from (`OrderKindSpec.rules`): the sections
of docs/rules.md and docs/rulings.md that govern it, the main one first. Every name is a heading
of those files, and each kind's class docstring names its main section and quotes only what
those sections say.

No database: the files are read as text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from junta.engine import ORDER_KINDS, kinds_by_section

REPO = Path(__file__).resolve().parent.parent
DOCS = (REPO / "docs" / "rules.md", REPO / "docs" / "rulings.md")
HEADING = re.compile(r"^#{1,6} .*\{#([a-z0-9-]+)\}\s*$", re.M)
QUOTE = re.compile(r'"([^"]+)"')


def sections() -> dict[str, str]:
    """Each heading's id and the text under it, up to the next heading, in plain words: one
    space for any run of blanks, no Markdown emphasis, its quotation marks single (a docstring
    quotes within a quotation so)."""
    out = {}
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        heads = list(HEADING.finditer(text))
        for head, following in zip(heads, [*heads[1:], None], strict=True):
            body = text[head.end():following.start() if following else len(text)]
            out[head.group(1)] = plain(body).replace('"', "'")
    return out


def plain(text: str) -> str:
    return " ".join(text.replace("**", "").replace("*", "").split())


def quoted(doc: str) -> list[str]:
    """The passages a docstring quotes, each cut at its elisions ("a ... b" is "a", "b")."""
    return [part.strip(" ,;") for quote in QUOTE.findall(plain(doc))
            for part in quote.split("...") if part.strip(" ,;")]


KINDS = sorted(ORDER_KINDS.values(), key=lambda k: k.name)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_every_kind_names_the_sections_it_comes_from(kind):
    known = sections()
    assert kind.rules, f"{kind.name}: no section of the rules"
    assert len(set(kind.rules)) == len(kind.rules), kind.rules
    assert [s for s in kind.rules if s not in known] == []


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_each_kind_says_its_rule_in_its_docstring(kind):
    """The class's own docstring names the main section and quotes only the kind's sections."""
    doc = vars(type(kind)).get("__doc__") or ""
    assert f"§{kind.rules[0]}" in doc, f"{type(kind).__name__}'s docstring: {doc!r}"
    texts = [sections()[s] for s in kind.rules]
    quotes = quoted(doc)
    assert quotes, f"{type(kind).__name__}'s docstring quotes nothing"
    assert [q for q in quotes if not any(q in t for t in texts)] == []


def test_the_quote_check_sees_a_misquote():
    """A check of the check: a passage cut at its elision is found, a changed word is not."""
    text = sections()["location"]
    assert all(q in text for q in quoted('"Every player chooses Home ..., the Club"'))
    assert not all(q in text for q in quoted('"Every player picks Home"'))


def test_each_section_lists_the_kinds_it_governs():
    """The Rules page's lists: every kind under each of its sections, first under its main
    one; nothing else."""
    listed = kinds_by_section()
    for kind in KINDS:
        for section in kind.rules:
            assert kind.label in listed[section]
    assert set(listed) == {s for k in KINDS for s in k.rules}
    mains = [k.label for k in ORDER_KINDS.values() if k.rules[0] == "any-time"]
    assert list(listed["any-time"][:len(mains)]) == mains
