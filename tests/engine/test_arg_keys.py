"""mypy checks every key read from an order's typed arguments (`Pay.of(order)["amount"]`),
except a `get` with a key the TypedDict lacks, which it types as object: compared with a value
(`a.get("decison") not in ("grant", "execute")`) that would still be a silent None. This test
reads the engine's code and fails on any key read with `get` from a typed reader (an order
kind's `of` or `read`, `ballot_of`, `play_of`, `attempt_of`, `proposal_of`, a condition's
`details`), directly or through the name it was given, that no TypedDict of the engine's
arguments declares."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import is_typeddict

import junta.engine  # noqa: F401 (every module below is imported)

ENGINE = Path(__file__).resolve().parents[2] / "junta" / "engine"
READERS = {"of", "read", "ballot_of", "play_of", "attempt_of", "proposal_of", "details"}


def _declared() -> set[str]:
    keys: set[str] = set()
    for name, module in list(sys.modules.items()):
        if name.startswith("junta.engine"):
            for value in vars(module).values():
                if isinstance(value, type) and is_typeddict(value):
                    keys |= set(value.__annotations__)
    return keys


def _is_reader(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else ""
    return name in READERS


def _misread(tree: ast.AST, declared: set[str]) -> list[tuple[int, str]]:
    out = set()  # a lambda's reads are found in it and in the function around it
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.Lambda | ast.Module):
            continue
        typed = {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                 and _is_reader(node.value) for target in node.targets
                 if isinstance(target, ast.Name)}
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr == "get" and node.args and \
                    isinstance(node.args[0], ast.Constant) and \
                    isinstance(node.args[0].value, str):
                receiver = node.func.value
                if (_is_reader(receiver) or isinstance(receiver, ast.Name)
                        and receiver.id in typed) and node.args[0].value not in declared:
                    out.add((node.lineno, node.args[0].value))
    return sorted(out)


def test_every_key_read_from_typed_arguments_is_declared() -> None:
    declared = _declared()
    assert {"to", "amount", "with", "seat", "margin_at_most"} <= declared
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, key in _misread(ast.parse(path.read_text()), declared):
            found.append(f"{path.relative_to(ENGINE)}:{line}: {key!r}")
    assert found == []


def test_a_misspelt_key_is_found() -> None:
    code = ("def f(order):\n    a = Pay.of(order)\n"
            "    return a.get('amonut'), Pay.of(order).get('too')\n")
    assert _misread(ast.parse(code), _declared()) == [(3, "amonut"), (3, "too")]
