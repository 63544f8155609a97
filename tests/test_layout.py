"""How the tests share code: fixtures through conftest.py files, plain helpers through
modules whose names do not start with `test_` (tests/web/campaigns.py, tests/engine/helpers.py,
...). A test module never imports another one: its tests would be collected a second time under
the importing module's name, its fixtures would be registered there again, and the two modules
could no longer be run, moved or deleted on their own."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def python_files() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


def module_name(path: Path) -> str:
    """The dotted name of a file under tests/ ("tests.web.test_map", "tests.web")."""
    parts = path.relative_to(TESTS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    """The package a relative import in the file starts from."""
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports(source: str, package: str) -> Iterator[tuple[int, str, list[str]]]:
    """Each import in the source of a module of `package`: (line, the absolute name of the
    module imported from, the names taken from it)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            yield node.lineno, module, [alias.name for alias in node.names]


def is_test_name(name: str) -> bool:
    return name.startswith("test_")


def test_the_layout_check_reads_relative_and_absolute_imports():
    assert package_of(TESTS / "engine" / "test_coup.py") == "tests.engine"
    assert package_of(TESTS / "engine" / "__init__.py") == "tests.engine"
    assert module_name(TESTS / "web" / "campaigns.py") == "tests.web.campaigns"
    source = ("import tests.web.test_map\nfrom .test_coup import units\n"
              "from ..web import campaigns\nfrom tests.web import test_characters\n"
              "from . import helpers\n")
    assert list(imports(source, "tests.engine")) == [
        (1, "tests.web.test_map", []),
        (2, "tests.engine.test_coup", ["units"]),
        (3, "tests.web", ["campaigns"]),
        (4, "tests.web", ["test_characters"]),
        (5, "tests.engine", ["helpers"]),
    ]


def test_no_module_of_the_tests_imports_a_test_module():
    """Neither `import tests.web.test_x`, `from .test_x import y`, `from tests.web import test_x`
    nor an imported test function (`from tests.web.campaigns import test_y`)."""
    offences = []
    for path in python_files():
        source = path.read_text(encoding="utf-8")
        for line, module, names in imports(source, package_of(path)):
            if not (module == "tests" or module.startswith("tests.")):
                continue
            if any(is_test_name(part) for part in module.split(".")) or \
                    any(is_test_name(name) for name in names):
                where = path.relative_to(TESTS.parent)
                offences.append(f"{where}:{line}: {module} {', '.join(names)}".rstrip())
    assert not offences, ("Share fixtures through a conftest.py and helpers through a module "
                          "not named test_*:\n" + "\n".join(offences))


def is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "fixture") or \
        (isinstance(target, ast.Name) and target.id == "fixture")


def test_fixtures_are_defined_only_in_conftest_files_and_test_modules():
    """A fixture in a helper module is shared by importing it into each test module (where
    ruff sees an unused import, and the test's argument as its redefinition); in a conftest.py
    pytest finds it by itself."""
    offences = []
    for path in python_files():
        if path.name == "conftest.py" or is_test_name(path.name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    any(is_fixture(d) for d in node.decorator_list):
                offences.append(f"{path.relative_to(TESTS.parent)}:{node.lineno}: {node.name}")
    assert not offences, "Move these fixtures into a conftest.py:\n" + "\n".join(offences)
