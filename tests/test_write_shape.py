"""Every app's writes keep one shape (README, Layout): a service named for the action locks,
calls `check_<verb>` (which refuses with a message, changing nothing), then `do_<verb>` (under
`transaction.atomic`: the rows, the audit, the content revision, the hooks on commit); the
views call services and save no row themselves.

Read from the source (ast), so that a new write out of shape fails here, not in review."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the modules that hold an app's writes in that shape
SERVICE_MODULES = [
    "junta/polls/services.py",
    "junta/lives/services.py",
    "junta/talk/services.py",
    "junta/notify/services.py",
    "junta/games/campaigns.py",
    "junta/games/order_intake.py",
    "junta/games/practice.py",
    "junta/games/speeches.py",
    "junta/gm/services/orders.py",
    "junta/gm/services/players.py",
    "junta/gm/services/review.py",
    "junta/gm/services/rollback.py",
    "junta/gm/services/rulings.py",
    "junta/gm/services/settings.py",
    "junta/gm/services/time.py",
    "junta/api/tokens.py",
]

# what a row's write is called: a model's (or a model form's) save and delete, a manager's or
# a queryset's create, update...
ROW_WRITES = {"save", "delete"}
QUERY_WRITES = {"create", "bulk_create", "bulk_update", "get_or_create", "update_or_create",
                "update", "delete"}

# the views' modules: every module of the pages, and the API's endpoints (tokens.py aside: the
# API's tokens' service)
NOT_VIEWS = {"__init__.py", "apps.py", "urls.py", "admin.py", "models.py", "tokens.py"}
VIEW_MODULES = sorted(
    {*ROOT.glob("junta/*/views.py"), *ROOT.glob("junta/*/*_views.py"),
     *(p for p in [*ROOT.glob("junta/site/*.py"), *ROOT.glob("junta/api/*.py")]
       if p.name not in NOT_VIEWS)})


def _tree(relative: str) -> ast.Module:
    return ast.parse((ROOT / relative).read_text(), relative)


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _is_atomic(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "atomic") \
        or (isinstance(target, ast.Name) and target.id == "atomic")


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _is_write(call: ast.Call) -> bool:
    """A row's write: `x.save()`, `Model.objects.create(...)`, `qs.filter(...).update(...)`
    (an `update` on a dict, `context.update(...)`, a service's `tokens.create(...)`, a form's
    `save(commit=False)` are none)."""
    if not isinstance(call.func, ast.Attribute):
        return False
    if call.func.attr in ROW_WRITES:
        return not any(k.arg == "commit" and isinstance(k.value, ast.Constant)
                       and k.value.value is False for k in call.keywords)
    receiver = call.func.value
    return call.func.attr in QUERY_WRITES and (
        isinstance(receiver, ast.Call)
        or (isinstance(receiver, ast.Attribute) and receiver.attr == "objects"))


def _named(module: str, prefix: str) -> tuple[dict[str, ast.FunctionDef], list[ast.FunctionDef]]:
    """The module's functions, and those whose name starts with `prefix` (at least one)."""
    functions = _functions(_tree(module))
    found = [f for name, f in functions.items() if name.startswith(prefix)]
    assert found, f"{module} has no {prefix} function"
    return functions, found


# services' modules without a check to make: accounts' profile (its form checks it), the GM
# panel's shared helpers
NO_CHECKS = {"accounts/services.py", "junta/gm/services/__init__.py",
             "junta/gm/services/common.py"}


def test_every_services_module_keeps_the_shape() -> None:
    """A new services' module is held to the shape too: listed above, or among those with
    nothing to check."""
    found = {p.relative_to(ROOT).as_posix() for p in [
        *ROOT.glob("junta/*/services.py"), *ROOT.glob("junta/*/services/*.py"),
        *ROOT.glob("accounts/services.py")]}
    assert len(found) >= 10
    assert not found - set(SERVICE_MODULES) - NO_CHECKS, sorted(found - set(SERVICE_MODULES))
    assert not NO_CHECKS - found


@pytest.mark.parametrize("module", SERVICE_MODULES)
def test_do_functions_run_in_one_transaction(module: str) -> None:
    for function in _named(module, "do_")[1]:
        assert any(_is_atomic(d) for d in function.decorator_list), \
            f"{module}: {function.name} is not under transaction.atomic"


@pytest.mark.parametrize("module", SERVICE_MODULES)
def test_checks_change_nothing_and_have_their_do(module: str) -> None:
    functions, checks = _named(module, "check_")
    for function in checks:
        verb = function.name.removeprefix("check_")
        assert f"do_{verb}" in functions, f"{module}: {function.name} has no do_{verb}"
        assert not any(_is_atomic(d) for d in function.decorator_list), function.name
        writes = [ast.unparse(c) for c in _calls(function)
                  if _is_write(c) or (_called_name(c) or "").startswith("do_")]
        assert not writes, f"{module}: {function.name} writes {writes}"


@pytest.mark.parametrize("module", SERVICE_MODULES)
def test_services_check_before_they_do(module: str) -> None:
    """A function that calls both `check_<verb>` and `do_<verb>` calls the check first, and
    runs in one transaction with them."""
    functions = _functions(_tree(module))
    pairs = 0
    for function in functions.values():
        lines: dict[str, tuple[int, int]] = {}  # when each is called: where its call ends
        for call in _calls(function):  # (`do_x(check_x(...))` checks first)
            name = _called_name(call)
            if name and name.startswith(("check_", "do_")):
                lines.setdefault(name, (call.end_lineno or 0, call.end_col_offset or 0))
        for name, line in lines.items():
            verb = name.removeprefix("check_")
            if name.startswith("check_") and f"do_{verb}" in lines:
                pairs += 1
                assert line < lines[f"do_{verb}"], \
                    f"{module}: {function.name} does {verb} before it checks"
                assert any(_is_atomic(d) for d in function.decorator_list), \
                    f"{module}: {function.name} checks and does {verb} outside one transaction"
    assert pairs, f"{module}: no service checks then does"


def test_views_save_no_row_themselves() -> None:
    found = []
    for path in VIEW_MODULES:
        relative = path.relative_to(ROOT).as_posix()
        source = path.read_text()
        lines = source.splitlines()
        found += [f"{relative}:{call.lineno}: {lines[call.lineno - 1].strip()}"
                  for call in _calls(ast.parse(source, relative)) if _is_write(call)]
    assert len(VIEW_MODULES) > 20
    assert not found, f"views write rows themselves (call a service instead): {found}"


def test_the_write_check_sees_writes() -> None:
    """The checks above are not blind: the shapes they look for are found where they are."""
    calls = _calls(ast.parse("x.save()\nM.objects.filter(a=1).update(b=2)\nctx.update(a=1)\n"
                             "M.objects.create(a=1)\ntokens.create(u)\nf.save(commit=False)\n"))
    assert [_is_write(c) for c in calls if _called_name(c) != "filter"] == \
        [True, True, False, True, False, False]
