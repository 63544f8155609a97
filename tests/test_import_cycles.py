"""No import circles: the modules of junta/ and accounts/ import in one direction.

The graph is read with `ast` from the source, the migrations aside. It counts every import the
code runs, at the top of a module or inside a function: an import inside a function ties the
two modules together as much as one at the top, it only hides the circle until the function
runs. It leaves out the imports under `if TYPE_CHECKING:`, which only the type checker reads.
An import reaches the module it names: `from .x import y` reaches `x.y` when that is a module,
else `x`, and a name outside the project reaches nothing. The packages above a module are not
counted (importing `junta.engine.orders` runs junta/engine/__init__.py first, which would tie
every module of a package to its package).

A circle is a set of two or more modules each of which reaches all the others; the test fails
on any. No import waits in a function either, but in an app's `AppConfig.ready` (apps.py),
which runs once the models are loaded: the engine's modules import in one direction (the data,
the rules the order kinds read, the kinds, validation, the phases, the flow; an import-linter
contract in pyproject.toml keeps the layers), and so do the apps' (the layers contract).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("junta", "accounts")

# The circles left, both to be removed as the engine's was: when one of them changes or is
# gone, change this list with it, down to none.
KNOWN: list[frozenset[str]] = []  # the circles still to break: none

Graph = dict[str, dict[str, int]]  # module -> {module it imports: the line of the first import}


def module_files() -> dict[str, Path]:
    """Every module of the project by its dotted name ("junta.engine", "junta.engine.orders")."""
    out = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(REPO).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or \
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def run_imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import the code may run, with whether it is inside a function; the body of an
    `if TYPE_CHECKING:` is left out (its `else` is not)."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node.test):
            stack.extend((child, in_function) for child in node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_function
        inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef |
                                          ast.Lambda)
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def reached(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
            known: Mapping[str, object] | set[str]) -> set[str]:
    """The modules of the project one import statement of `module` reaches."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[:len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                 for alias in node.names]
    out = set()
    for name in names:
        while name not in known and "." in name:
            name = name.rpartition(".")[0]
        if name in known and name != module:
            out.add(name)
    return out


def import_graph(files: Mapping[str, Path]) -> Graph:
    graph: Graph = {}
    for module, path in files.items():
        edges = graph.setdefault(module, {})
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, _ in run_imports(tree):
            for target in reached(node, module, path.name == "__init__.py", files):
                edges[target] = min(edges.get(target, node.lineno), node.lineno)
    return graph


def _reachable(graph: Graph, start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def circles(graph: Graph) -> list[frozenset[str]]:
    """The sets of two or more modules each reaching all the others, in name order."""
    reach = {module: _reachable(graph, module) for module in graph}
    out, placed = [], set()
    for module in sorted(graph):
        if module in placed:
            continue
        group = frozenset({module} | {m for m in reach[module] if module in reach[m]})
        placed |= group
        if len(group) > 1:
            out.append(group)
    return out


def describe(graph: Graph, group: frozenset[str]) -> str:
    """A circle's modules and the imports between them ("a:12 imports b")."""
    lines = [f"  {len(group)} modules: {', '.join(sorted(group))}"]
    lines += [f"    {module}:{line} imports {target}" for module in sorted(group)
              for target, line in sorted(graph[module].items()) if target in group]
    return "\n".join(lines)


def test_the_graph_counts_imports_as_they_run():
    known = {"pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c", "pkg.sub.d", "pkg.e", "pkg.f"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "import typing\n"
        "from . import d\n"  # a submodule
        "from . import helper\n"  # a name of the package: the package
        "from .. import e\n"
        "if TYPE_CHECKING:\n"
        "    from pkg import b\n"  # never run
        "else:\n"
        "    import pkg.sub\n"
        "if typing.TYPE_CHECKING:\n"
        "    from ..f import F\n"
        "def later():\n"
        "    from pkg.sub.d import other\n"  # inside a function: counted, and said so
        "    from django.db import models\n"  # outside the project
    )
    found = [(sorted(reached(node, "pkg.sub.c", False, known)), in_function)
             for node, in_function in run_imports(ast.parse(source))]
    assert sorted(found) == [([], False), ([], False), ([], True),
                             (["pkg.e"], False), (["pkg.sub"], False), (["pkg.sub"], False),
                             (["pkg.sub.d"], False), (["pkg.sub.d"], True)]
    # in a package's __init__, a relative import starts from the package itself
    node = ast.parse("from .c import x\nfrom . import d\n").body
    assert [reached(n, "pkg.sub", True, known) for n in node] == [{"pkg.sub.c"}, {"pkg.sub.d"}]
    # and a module importing from itself is no circle
    assert reached(ast.parse("from .c import x").body[0], "pkg.sub.c", False, known) == set()


def test_the_circle_finder_finds_each_circle():
    graph: Graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 2}, "d": {"e": 1},
                    "e": {"d": 1}, "f": {"a": 1}, "g": {}}
    assert circles(graph) == [frozenset("abc"), frozenset("de")]
    assert describe(graph, frozenset("de")) == "  2 modules: d, e\n    d:1 imports e\n" \
        "    e:1 imports d"


def test_no_import_circle_but_the_known_ones():
    graph = import_graph(module_files())
    found = circles(graph)
    new = [group for group in found if group not in KNOWN]
    gone = [group for group in KNOWN if group not in found]
    report = []
    if new:
        report.append("Import circles (import in one direction: move what both sides need "
                      "below them; a known circle that changed is listed here with its new "
                      "modules):")
        report += [describe(graph, group) for group in new]
    if gone:
        report.append("Known circles no longer found as listed (remove or update them in "
                      "KNOWN):")
        report += [f"  {', '.join(sorted(group))}" for group in gone]
    assert not report, "\n".join(report)


def test_nothing_imports_inside_a_function_but_an_app_s_ready():
    """The modules import in one direction, so no import needs to wait for a function to run;
    an `AppConfig.ready` (apps.py) imports what needs the models loaded (signals, hooks)."""
    offences = []
    for path in module_files().values():
        if path.name == "apps.py":
            continue
        for node, in_function in run_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if in_function:
                offences.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not offences, "Imports inside functions (import at the top of the module):\n" + \
        "\n".join(offences)
