"""One order kind, one place: the engine's registry (junta/engine/kinds.py) says what each kind
of order is, and the engine answers every question the pages ask about an order (its words,
its map shape, whether it is Rebel action, the card it plays: junta/engine/order_facts.py).
So no code in junta/games, junta/gm, junta/api or static/js names an order kind or tests an
order's kind; the tests may, and so may the data a template receives.

Python is read with `ast`, the scripts as text. What fails:
- a string that is the name of an order kind ("play_card"), unless the word also names
  something else of the project (`HOMONYMS`: a player's bank, the discard pile);
- a comparison that reads the kind of an order or an option (`order.kind in (...)`,
  `o.get("kind") == ...`), whatever it compares it with, and `options.of_kind(...)`;
- an order written by its kind (`{"kind": "vote", ...}`);
- in a script, a kind's name in quotes, or reading a `kind` property at all.
A negative control shows the checker sees each of them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from junta.engine import ORDER_KINDS

REPO = Path(__file__).resolve().parent.parent
PYTHON_TREES = ("junta/games", "junta/gm", "junta/api")
SCRIPTS = "static/js"
# Order kinds whose names are also words of the project for other things: a string with one
# of these names is no offence by itself (only read as an order's kind, above).
HOMONYMS = {
    "bank": "a player's bank account",
    "location": "a player's location; the GM's ruling that sets it",
    "discard": "the discard pile",
    "decline": "the GM declining a request to join",
    "vote": "a report's block of votes",
    "place": "a family's place in the final ranking",
    "brother_in_law": "a position the Brother-in-Law holds",
    "new_weapons": "a unit with New Weapons",
    "casualties": "the losses of a battle (an event's data)",
    "retreat": "a retreat in a coup's fighting (an event)",
    "coup_side": "the event of a player's coup vote",
}
ORDERISH = re.compile(r"\b(o|opt|option|options|order|orders|\w+_order|\w+_option)\b")


def kind_read(node: ast.expr) -> str | None:
    """The source of what a `kind` is read from (`order` in `order.kind`, `o.get("kind")`,
    `o["kind"]`), or None when the node reads no kind."""
    if isinstance(node, ast.Attribute) and node.attr == "kind":
        return ast.unparse(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "get" and node.args and \
            isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind":
        return ast.unparse(node.func.value)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
            node.slice.value == "kind":
        return ast.unparse(node.value)
    return None


def python_offences(source: str, where: str) -> list[str]:
    kinds = set(ORDER_KINDS)
    out = []
    for node in ast.walk(ast.parse(source)):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and node.value in kinds - set(HOMONYMS):
            out.append(f"{line}: names the order kind {node.value!r}")
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                base = kind_read(operand)
                if base is not None and ORDERISH.search(base):
                    out.append(f"{line}: tests the kind of {base}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "of_kind":
            out.append(f"{line}: picks options by kind")
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "kind" and \
                        isinstance(value, ast.Constant) and value.value in kinds:
                    out.append(f"{line}: writes an order of kind {value.value!r}")
    return out


QUOTED = re.compile(r"""(["'])(\w+)\1""")
KIND_PROPERTY = re.compile(r"""\.kind\b|\[\s*["']kind["']\s*\]""")


def script_offences(source: str, where: str) -> list[str]:
    kinds = set(ORDER_KINDS) - set(HOMONYMS)
    out = []
    for number, text in enumerate(source.splitlines(), 1):
        code = text.split("//", 1)[0]
        out += [f"{where}:{number}: names the order kind {name!r}"
                for _, name in QUOTED.findall(code) if name in kinds]
        if KIND_PROPERTY.search(code):
            out.append(f"{where}:{number}: reads a kind")
    return out


def test_no_code_outside_the_engine_names_an_order_kind_or_tests_one():
    offences = []
    for tree in PYTHON_TREES:
        for path in sorted((REPO / tree).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            offences += python_offences(path.read_text(encoding="utf-8"),
                                        str(path.relative_to(REPO)))
    for path in sorted((REPO / SCRIPTS).rglob("*.js")):
        offences += script_offences(path.read_text(encoding="utf-8"),
                                    str(path.relative_to(REPO)))
    assert not offences, ("Ask the engine (junta/engine/order_facts.py, the kind's entry in "
                          "kinds.py) instead:\n" + "\n".join(offences))


def test_the_homonyms_are_order_kinds():
    assert set(HOMONYMS) <= set(ORDER_KINDS)


def test_the_checker_sees_each_offence_and_no_other_word():
    source = (
        'ROUTES = frozenset({"move", "rebel_move"})\n'
        'if order.kind in ROUTES: pass\n'
        'if o.get("kind") == "vote": pass\n'
        'if option.kind != x: pass\n'
        'mine = options.of_kind(k)\n'
        'order = {"kind": "bank", "action": "deposit"}\n'
        # not offences: an event's kind, a player's bank, the discard pile
        'if event.kind == "retreat" or e.get("kind") == "coup_side": pass\n'
        'money = player["bank"] + len(piles["discard"])\n'
    )
    found = python_offences(source, "x.py")
    assert sorted(f.split(": ", 1)[0] for f in found) == \
        ["x.py:1", "x.py:1", "x.py:2", "x.py:3", "x.py:4", "x.py:5", "x.py:6"], found
    script = ('var ROUTES = ["move", "retreat"];\n'
              'if (o.kind === x) {}\n'
              'var kind = box.value;  // "airstrike" in a comment is words\n'
              'var place = data["bank"];\n')
    assert script_offences(script, "x.js") == [
        "x.js:1: names the order kind 'move'", "x.js:2: reads a kind"]
