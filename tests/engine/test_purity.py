"""The engine is a pure library: standard library only, and no wall clock or global random.

Every module under `junta/engine` is parsed with `ast` (imports inside functions and under
`TYPE_CHECKING` included); an import of anything outside the standard library, or of `random`,
`time` or `datetime`, fails. A negative control proves the checker sees a bad import.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "junta" / "engine"
FORBIDDEN = frozenset({"random", "time", "datetime"})
DYNAMIC_IMPORTS = frozenset({"__import__", "import_module"})


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in the tree."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
    return out


def impurities(source: str, filename: str = "<source>") -> list[str]:
    """Every import that breaks the engine's purity, as 'file:line: reason'."""
    tree = ast.parse(source, filename)
    problems = []
    for line, module in imported_modules(tree):
        if module in FORBIDDEN:
            problems.append(f"{filename}:{line}: imports {module} (no wall clock or global "
                            "random in the engine)")
        elif module not in sys.stdlib_module_names:
            problems.append(f"{filename}:{line}: imports {module}, outside the standard "
                            "library")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else None
            if name in DYNAMIC_IMPORTS:
                problems.append(f"{filename}:{node.lineno}: imports dynamically ({name})")
    return problems


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_engine_has_modules_to_check():
    names = {p.relative_to(ENGINE).as_posix() for p in engine_modules()}
    assert {"__init__.py", "state.py", "rng.py", "resolve.py", "flow.py", "visibility.py",
            "bots/core.py", "events.py", "phases/cabinet.py"} <= names


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_engine_module_is_pure(path):
    assert impurities(path.read_text(), str(path.relative_to(ENGINE.parent.parent))) == []


def test_checker_catches_bad_imports():
    source = "\n".join([
        "from __future__ import annotations",
        "import json",
        "import hashlib as h",
        "from collections.abc import Callable",
        "from . import catalog",
        "from .state import GameState",
        "import random",
        "from time import monotonic",
        "import datetime as dt",
        "from django.db import models",
        "import numpy.linalg",
        "def later():",
        "    import requests",
        "    return __import__('os')",
        "if False:",
        "    from celery import shared_task",
    ])
    found = impurities(source, "synthetic.py")
    flagged = {p.split(": imports ")[1].split()[0].strip(",") for p in found}
    assert flagged == {"random", "time", "datetime", "django", "numpy", "requests", "celery",
                       "dynamically"}
    lines = sorted(int(p.split(":")[1]) for p in found)
    assert lines == [7, 8, 9, 10, 11, 13, 14, 16]


def test_checker_passes_the_standard_library():
    assert impurities("import json\nimport hashlib\nfrom dataclasses import dataclass\n"
                      "from typing import Any\nfrom functools import cache\n") == []
