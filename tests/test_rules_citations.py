"""The rules in the repository: the code, the templates and the tests cite the paragraphs of
docs/rules.md and docs/rulings.md by their names (`§budget-vote`), never a file outside the
repository nor an issue number, and every name cited resolves to a heading of those files (or
to a section the Rules page adds: the cards and the zones). The Status page links each
instruction to the section `junta.engine`'s guidance names for it, so those resolve too.

No database: the files are read as text and the guidance is called on engine states.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from junta.engine import GameState, Instruction, instruction_lines
from junta.games import rulebook
from tests.engine.coup_states import aftermath_state, coup_state, final_state
from tests.engine.helpers import in_phase

REPO = Path(__file__).resolve().parent.parent
DOCS = (REPO / "docs" / "rules.md", REPO / "docs" / "rulings.md")
FOLDERS = ("junta", "accounts", "tests", "templates", "bench", "scripts")
THIS = Path(__file__).resolve()
SKIP_DIRS = {"__pycache__", "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache"}

# What points outside the repository or at the issue tracker instead of at a rule paragraph.
FORBIDDEN = {
    "the house supplement (SUPPLEMENT.md, outside the repository)":
        re.compile(r"\bsupplement\b", re.I),
    "a path outside the repository (../shared)": re.compile(r"\.\./shared|\bshared/rules"),
    "the published rules' text file, outside the repository":
        re.compile(r"rules-game\d|junta-rules[\w-]*\.txt"),
    "the engine's old RULINGS.md (now docs/rulings.md)": re.compile(r"\bRULINGS\.md"),
    "an issue number": re.compile(r"\bissues?\s*#?\s*\d+", re.I),
}
# `§name`; a name followed by "-" is a prefix written as a placeholder (`§ruling-...`,
# `§cards-<category>`), and `§name` itself is how the docs show the form of a name.
CITATION = re.compile(r"§([a-z0-9]+(?:-[a-z0-9]+)*)(-?)")
PLACEHOLDERS = {"name"}
HEADING = re.compile(r"^#{1,6} .*\{#([a-z0-9-]+)\}\s*$", re.M)


@cache
def text_files() -> tuple[Path, ...]:
    """Every file under the folders that hold code, templates and tests (and README.md)."""
    out = [REPO / "README.md"]
    for folder in FOLDERS:
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and not SKIP_DIRS.intersection(path.relative_to(REPO).parts):
                out.append(path)
    return tuple(out)


@cache
def read(path: Path) -> str | None:
    """The file's text, or None for a binary file (an image, a compiled file)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def anchors_of(path: Path) -> list[str]:
    return HEADING.findall(path.read_text(encoding="utf-8"))


def doc_anchors() -> set[str]:
    return {a for doc in DOCS for a in anchors_of(doc)}


def generated_anchors() -> set[str]:
    """The sections the Rules page adds after the two files: the cards, by category, and the
    zones, one by one (the ids its template gives them)."""
    categories = {c["category"] for c in rulebook.card_list()}
    return ({name for name, _ in rulebook.GENERATED}
            | {"cards-" + re.sub(r"[^a-z0-9]+", "-", c.lower()).strip("-") for c in categories}
            | {f"zone-{z['id']}" for z in rulebook.zone_list()})


def resolvable() -> set[str]:
    return doc_anchors() | generated_anchors()


def cited(text: str) -> set[str]:
    return {name for name, prefix in CITATION.findall(text)
            if not prefix and name not in PLACEHOLDERS}


def where(path: Path, text: str, pos: int) -> str:
    return f"{path.relative_to(REPO)}:{text.count(chr(10), 0, pos) + 1}"


# --- (a) nothing outside the repository, no issue numbers -------------------------------------

def test_no_reference_to_files_outside_the_repository_or_to_issue_numbers():
    found = []
    for path in text_files():
        if path.resolve() == THIS:  # this file names what it looks for
            continue
        text = read(path)
        if text is None:
            continue
        for what, pattern in FORBIDDEN.items():
            found += [f"{where(path, text, m.start())}: {what}: {m.group(0)!r}"
                      for m in pattern.finditer(text)]
    assert not found, "cite docs/rules.md or docs/rulings.md (§name) instead:\n" + \
        "\n".join(found)


def test_the_patterns_catch_what_they_are_for():
    """The forbidden patterns do match the references this test keeps out (a check of the
    check), and a citation is not mistaken for one."""
    samples = ["see SUPPLEMENT.md", "Supplement: \"...\"", "../shared/rules.md",
               "junta-rules-game7.txt", "the engine's RULINGS.md", "(issue 6)", "Issue 5:",
               "issues #12"]
    for sample in samples:
        assert any(p.search(sample) for p in FORBIDDEN.values()), sample
    for fine in ["docs/rules.md §budget-vote", "docs/rulings.md §ruling-deadlock",
                 "Soldier #12 (1st Brigade)", "RULINGS = \"rulings.md\""]:
        assert not any(p.search(fine) for p in FORBIDDEN.values()), fine


# --- (b) every citation resolves -------------------------------------------------------------

def test_every_cited_section_resolves():
    known = resolvable()
    unknown = []
    for path in [*text_files(), *DOCS]:
        text = read(path)
        if text is None:
            continue
        for m in CITATION.finditer(text):
            name, prefix = m.groups()
            if not prefix and name not in PLACEHOLDERS and name not in known:
                unknown.append(f"{where(path, text, m.start())}: §{name}")
    assert not unknown, "no such heading in docs/rules.md or docs/rulings.md:\n" + \
        "\n".join(unknown)


def test_the_citations_are_many_and_the_check_sees_them():
    """The check above reads the citations it should: the engine's tests cite dozens of
    paragraphs, and a name that is not a heading would be reported."""
    names = set()
    for path in text_files():
        names |= cited(read(path) or "")
    assert {"budget-vote", "secrets", "ruling-deadlock", "adjudication-order"} <= names
    assert len(names) > 50
    missing = "no-such-" + "rule"  # spelt in two so that this file cites no such rule
    assert cited(f"§{missing}, §ruling-..., `§cards-<category>`, `§name`") == {missing}
    assert missing not in resolvable()


def test_the_rules_page_has_every_anchor_of_the_files():
    """The page's anchors are the files' headings and its own lists: a link to `/rules/#name`
    for a name found here lands on its paragraph."""
    book = rulebook.rulebook()
    assert doc_anchors() | {name for name, _ in rulebook.GENERATED} == set(book.anchors)


# --- (c) the guidance's sections resolve -----------------------------------------------------

def guidance_sections() -> dict[str, str]:
    """Every section the guidance module can give, read from its source: the second argument
    (or `section=`) of each `Instruction(...)`, a string or a choice between strings. The place
    of each, for the message."""
    module = inspect.getmodule(instruction_lines)
    assert module is not None
    tree = ast.parse(inspect.getsource(module))
    found: dict[str, str] = {}

    def strings(node: ast.expr, line: int) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.setdefault(node.value, f"{module.__name__}:{line}")
        elif isinstance(node, ast.IfExp):
            strings(node.body, line)
            strings(node.orelse, line)
        else:
            pytest.fail(f"{module.__name__}:{line}: a section that is not a string literal; "
                        "this test cannot check where it links")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == Instruction.__name__:
            section = [k.value for k in node.keywords if k.arg == "section"] or node.args[1:2]
            assert section, f"{module.__name__}:{node.lineno}: an Instruction without a section"
            strings(section[0], node.lineno)
    return found


def test_every_section_the_guidance_names_resolves():
    sections = guidance_sections()
    assert len(sections) > 20  # the parse found the calls
    known = resolvable()
    assert {s: at for s, at in sections.items() if s not in known} == {}


def sample_states() -> list[GameState]:
    """A game in every phase kind, a coup's first and last phase and both Aftermaths, the
    dead, an exile and the end."""
    states = [in_phase(kind) for kind in (
        "nomination", "election", "special_motion", "cabinet", "budget_draw",
        "budget_proposal", "budget_vote", "internal_security", "locations")]
    states += [coup_state()[0], final_state(), aftermath_state("junta"),
               aftermath_state("president")]
    gone = in_phase("locations")
    gone.players[2].status = "dead"
    gone.players[3].status = "exiled"
    over = in_phase("locations")
    over.finished = True
    return [*states, gone, over]


def test_every_line_the_guidance_gives_links_to_a_section_that_exists():
    known = resolvable()
    given: Counter[str] = Counter()
    for state in sample_states():
        for seat in range(len(state.players)):
            for line in instruction_lines(state, seat):
                assert isinstance(line, Instruction)
                assert line.section in known, (state.phase, seat, line)
                given[line.section] += 1
    # every phase kind speaks; the statically found sections cover what the states gave
    assert len(given) > 15
    assert set(given) <= set(guidance_sections())


# --- (d) unique anchors ------------------------------------------------------------------------

def test_anchors_are_unique_across_both_files():
    counts = Counter(a for doc in DOCS for a in anchors_of(doc))
    assert {a: n for a, n in counts.items() if n > 1} == {}
    assert not doc_anchors() & generated_anchors()


def test_every_heading_has_an_anchor():
    """A heading without `{#name}` could not be cited (python-markdown would invent an id)."""
    bare = [f"{doc.name}: {line}" for doc in DOCS
            for line in doc.read_text(encoding="utf-8").splitlines()
            if re.match(r"#{1,6} ", line) and not HEADING.match(line)]
    assert bare == []


# --- (e) every rule is cited by its code and by its tests ------------------------------------

# Headings that only group the sections below them: no rule of their own to cite.
GROUPING = {
    "rules", "rulings",  # docs/rules.md's title and introduction, its pointer to the rulings
    "settled-rulings",  # docs/rulings.md's title and introduction
    "rulings-elections", "rulings-budget", "rulings-locations", "rulings-orders",
    "rulings-cards", "rulings-coup",
    "cabinet", "budget-draw", "locations", "aftermath", "elections", "end",  # phase groups
}


def cited_under(folder: str, *, exclude: Path | None = None) -> set[str]:
    """Every `§name` cited in the Python files under `folder` (this file excepted: it names
    anchors as data)."""
    names: set[str] = set()
    for path in text_files():
        if path.suffix == ".py" and path.relative_to(REPO).parts[0] == folder \
                and path.resolve() != exclude:
            names |= cited(read(path) or "")
    return names


def rule_anchors() -> set[str]:
    return doc_anchors() - GROUPING


def test_every_rule_is_cited_by_the_code_that_carries_it_out_and_by_its_tests():
    """docs/rules.md: "searching the site's code for `§budget-vote` finds the code and the tests
    of that rule", for every rule of both files (the grouping headings aside)."""
    assert doc_anchors() >= GROUPING, GROUPING - doc_anchors()
    rules = rule_anchors()
    in_code = cited_under("junta")
    in_tests = cited_under("tests", exclude=THIS)
    no_code = sorted(rules - in_code)
    no_test = sorted(rules - in_tests)
    assert not no_code, "rules cited nowhere in the code under junta/ (add `§name` to the " \
        "docstring of the function that carries the rule out): " + ", ".join(no_code)
    assert not no_test, "rules cited by no test under tests/ (add `§name` to the docstring " \
        "of the test that checks the rule): " + ", ".join(no_test)
