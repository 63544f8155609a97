"""Phase kinds, adjudication steps and player statuses are the engine's enums
(`junta/engine/enums.py`), not string literals compared across the code.

The guard parses every module of `junta/` and `accounts/` with `ast` and reports, as
'file:line', a string literal spelling a `PhaseKind`, `Step` or `Status` value that is
- compared (`==`, `!=`, `in`, `not in`, on either side, alone or inside a tuple, list or set)
  or matched by a `case`;
- an element of a tuple, list or set display (`COUP_KINDS = ("coup", "coup_final")`);
- a key of a module-level table (`{"nomination": 1}` assigned at module level);
- assigned to a name, attribute or key called phase, kind, status, step or resume_phase;
- passed as an argument: positionally (`steps.index(phase, "banking")`), or as a keyword of
  that name or a Django lookup on it (`phase__kind__in=`), except to the calls in
  `OTHER_WORDS`, whose arguments are event kinds, order kinds, condition kinds or keys;
- returned, or the default of a parameter or field.
Some words share a spelling without being a phase, a step or a status: condition kinds
("exiled", "coup_excuse"), card timings ("election", "rebel_only"...), order and event kinds
("junta_vote", "combat"), headline variants, the Django models' own choices. `ALLOWED` lists
them where they occur, each with its reason. A negative control proves the checker sees
literals, and the enums are checked against the engine's tables and the state's JSON.
"""

from __future__ import annotations

import ast
import enum
import json
from pathlib import Path

import pytest

from junta.engine import (
    GameState,
    PhaseKind,
    Status,
    Step,
    digest,
    new_game,
    resolve,
    steps,
)
from junta.engine.bots import play_phase
from junta.engine.kinds import ORDER_KINDS
from junta.engine.orders import CONDITION_KINDS
from junta.engine.resolve import HANDLERS
from junta.engine.rng import Rng

from .helpers import NAMES

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("junta", "accounts")
ENUMS = "junta/engine/enums.py"
VALUES = frozenset({*PhaseKind, *Step, *Status})
NAMED = frozenset({"phase", "kind", "status", "step", "resume_phase"})
# Calls whose string arguments are another vocabulary: an event's kind (`ctx.public("combat",
# ...)`, `ctx.tell(seat, "banking", ...)`), a key of a dict (`budget.get("proposal")`), an order
# kind (`ctx.orders_of(seat, "junta_vote")`, the options builder's `add("junta_vote", ...)`),
# a condition kind (the bots' `condition(option, "exiled", ...)`), the rules section an
# instruction explains (`Instruction(text, "draws")`: an anchor of docs/rules.md).
OTHER_WORDS = frozenset({"public", "tell", "get", "pop", "setdefault", "orders_of", "add",
                         "condition", "Instruction"})

# (file, owner) -> the words allowed there. The owner is the innermost enclosing class or
# function ("Execute.offers"), or at module level the name assigned ("CONDITION_KINDS").
ALLOWED: dict[tuple[str, str], frozenset[str]] = {
    # The data names marked for the translation catalogue, written out (data_words.py): the
    # statuses' English words are message ids there, as the catalogue's extraction reads them.
    ("junta/engine/data_words.py", "NAMES"): frozenset({"alive", "dead", "exiled"}),
    # Condition kinds (the keys of the table, and matched by kind): "exiled" is the condition
    # "a player goes into exile", "coup_excuse" "there is a Coup Excuse".
    ("junta/engine/conditions.py", "CONDITION_KINDS"): frozenset({"exiled", "coup_excuse"}),
    ("junta/engine/conditions.py", "holds"): frozenset({"exiled", "coup_excuse"}),
    ("junta/engine/conditions.py", "branch"): frozenset({"exiled"}),
    ("junta/engine/options.py", "condition_options"): frozenset({"exiled"}),
    # Card timings (`Card.when`): the words on the cards, a vocabulary of their own.
    ("junta/engine/card_steps.py", "PHASE_TIMINGS"): frozenset({
        "election", "special_motion", "cabinet", "budget_draw", "budget_proposal",
        "budget_vote", "banking", "rebel_only", "coup", "aftermath"}),
    ("junta/engine/card_plays.py", "TIMING_WORDS"): frozenset({
        "cabinet", "budget_draw", "budget_proposal", "budget_vote", "election",
        "special_motion", "banking", "rebel_only", "coup"}),
    ("junta/engine/bots/locations.py", "LocationsBot.rebellion"): frozenset({"rebel_only"}),
    ("junta/games/rulebook.py", "TIMINGS"): frozenset({
        "cabinet", "budget_draw", "budget_proposal", "budget_vote", "election",
        "special_motion", "banking", "rebel_only", "coup", "aftermath"}),
    # The names of the rules' paragraphs (docs/rules.md §cabinet, §locations...) a practice
    # campaign's Status page links each phase's purpose to: anchors, not phase kinds.
    ("junta/games/practice.py", "PURPOSES"): frozenset({
        "cabinet", "locations", "coup", "aftermath"}),
    # Order kinds: "junta_vote" is the order "Vote in the Junta".
    ("junta/engine/kinds.py", "OFFER_STEPS"): frozenset({"junta_vote"}),
    # The key of the state's coup (`GameState.coup`), read in the database's JSON.
    ("junta/games/play.py", "_read_facts"): frozenset({"coup"}),
    # Event kinds shown on the city map.
    ("junta/games/citymap.py", "FIGHTING_KINDS"): frozenset({"combat"}),
    ("junta/games/citymap.py", "battles"): frozenset({"combat"}),
    # A headline's variants, named after the news.
    ("junta/games/headlines.py", "VARIANTS"): frozenset({"execution"}),
    # The Django models' own choices (a Game's status, a seat's standing on the board).
    ("junta/games/models.py", "Game.Status"): frozenset({"finished"}),
    ("junta/games/models.py", "Player.State"): frozenset({"alive", "dead", "exiled"}),
}


def _is_value(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and node.value in VALUES


def _literals(node: ast.AST | None) -> list[ast.Constant]:
    """The literal itself, the literals of a tuple, list or set display, or those of either
    branch of `a if c else b`."""
    if node is None:
        return []
    if _is_value(node):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e for e in node.elts if _is_value(e)]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _named(target: ast.AST) -> bool:
    """A name, attribute or key called phase, kind, status, step or resume_phase."""
    if isinstance(target, ast.Name):
        return target.id in NAMED
    if isinstance(target, ast.Attribute):
        return target.attr in NAMED
    if isinstance(target, ast.Subscript):
        key = target.slice
        return isinstance(key, ast.Constant) and key.value in NAMED
    return False


def _lookup(keyword: str | None) -> bool:
    """`kind=`, `status=`, `phase__kind__in=`: a keyword on a phase, step or status."""
    if keyword is None:
        return False
    parts = [p for p in keyword.split("__") if p not in ("in", "exact", "iexact")]
    return bool(parts) and parts[-1] in NAMED


class _Finder(ast.NodeVisitor):
    """Every offending literal of one module, as (line, owner, value, how)."""

    def __init__(self) -> None:
        self.found: dict[tuple[int, int], tuple[int, str, str, str]] = {}
        self.owners: list[str] = []
        self.table: str | None = None  # the name a module-level statement assigns

    def flag(self, nodes: list[ast.Constant], how: str) -> None:
        where = ".".join(self.owners) or self.table or "<module>"
        for n in nodes:
            self.found.setdefault((n.lineno, n.col_offset), (n.lineno, where, n.value, how))

    def _scope(self, node: ast.AST, name: str) -> None:
        self.owners.append(name)
        self.generic_visit(node)
        self.owners.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._scope(node, node.name)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        args = node.args
        for default in [*args.defaults, *args.kw_defaults]:
            self.owners.append(node.name)
            self.flag(_literals(default), "default")
            self.owners.pop()
        self._scope(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _assignment(self, node: ast.Assign | ast.AnnAssign, targets: list[ast.AST],
                    value: ast.AST | None, how: str) -> None:
        """A literal assigned to a phase, kind, status or step; at module level a table, whose
        keys are flagged too and whose literals are owned by its name."""
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        module_level = not self.owners and names
        if module_level:
            self.table = names[0]
            for sub in ast.walk(node):
                if isinstance(sub, ast.Dict):
                    self.flag([k for k in sub.keys if k is not None and _is_value(k)], "key")
        if any(_named(t) for t in targets) or how == "default":
            self.flag(_literals(value), how)
        self.generic_visit(node)
        self.table = None

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == SECTIONS for t in node.targets):
            return  # an order kind's rules sections (§transfers), not its step
        self._assignment(node, node.targets, node.value, "assigned")

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and node.target.id == SECTIONS:
            return
        field = bool(self.owners) and isinstance(node.target, ast.Name)  # a dataclass field
        self._assignment(node, [node.target], node.value, "default" if field else "assigned")

    def visit_Compare(self, node: ast.Compare) -> None:
        for side in (node.left, *node.comparators):
            self.flag(_literals(side), "compared")
        self.generic_visit(node)

    def visit_MatchValue(self, node: ast.MatchValue) -> None:
        self.flag(_literals(node.value), "matched")
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple | ast.List | ast.Set) -> None:
        self.flag(_literals(node), "element")
        self.generic_visit(node)

    visit_List = visit_Set = visit_Tuple

    def visit_Return(self, node: ast.Return) -> None:
        self.flag(_literals(node.value), "returned")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else \
            func.attr if isinstance(func, ast.Attribute) else None
        if name not in OTHER_WORDS:
            for arg in node.args:
                self.flag(_literals(arg) if _is_value(arg) else [], "passed")
        for kw in node.keywords:
            if _lookup(kw.arg):
                self.flag(_literals(kw.value), "keyword")
        self.generic_visit(node)


# The attribute of an order kind naming the sections of docs/rules.md it comes from: words such
# as "transfers" or "banking" there are the names of sections, not steps.
SECTIONS = "rules"


def offending_literals(source: str, filename: str) -> list[str]:
    """'file:line: "value" (how, in owner)' for each literal that should be an enum member."""
    finder = _Finder()
    finder.visit(ast.parse(source, filename))
    out = []
    for line, owner, value, how in sorted(finder.found.values()):
        if value in ALLOWED.get((filename, owner), ()):
            continue
        out.append(f"{filename}:{line}: {value!r} {how} in {owner}: use "
                   f"{_member(value)}")
    return out


def _member(value: str) -> str:
    names = [f"{e.__name__}.{e(value).name}" for e in (PhaseKind, Step, Status)
             if value in e._value2member_map_]
    return " or ".join(names)


def modules() -> list[Path]:
    return sorted(p for root in ROOTS for p in (REPO / root).rglob("*.py")
                  if "migrations" not in p.parts and p.relative_to(REPO).as_posix() != ENUMS)


def test_there_are_modules_to_check():
    names = {p.relative_to(REPO).as_posix() for p in modules()}
    assert {"junta/engine/steps.py", "junta/engine/flow.py", "junta/engine/resolve.py",
            "junta/games/play.py", "junta/gm/services/rulings.py", "accounts/models.py"} <= names
    assert ENUMS not in names


def test_no_phase_step_or_status_literals():
    problems = []
    for path in modules():
        rel = path.relative_to(REPO).as_posix()
        problems += offending_literals(path.read_text(), rel)
    assert problems == [], "String literals of phase kinds, steps or statuses (use the " \
        "enums of junta/engine/enums.py):\n" + "\n".join(problems)


def test_every_allowance_is_still_needed():
    """An allow-list entry whose words no longer occur there is stale: remove it."""
    seen: dict[tuple[str, str], set[str]] = {}
    for path in modules():
        rel = path.relative_to(REPO).as_posix()
        finder = _Finder()
        finder.visit(ast.parse(path.read_text(), rel))
        for _line, owner, value, _how in finder.found.values():
            seen.setdefault((rel, owner), set()).add(value)
    stale = {key: sorted(words - seen.get(key, set())) for key, words in ALLOWED.items()
             if words - seen.get(key, set())}
    assert stale == {}


def test_checker_catches_literals():
    source = "\n".join([
        "COUP = ('coup', 'coup_final')",  # 1: elements
        "DAYS = {'nomination': 1, 'default': 2}",  # 2: a table's key
        "def f(state, p, phase='cabinet'):",  # 3: a default
        "    if state.phase == 'election' or 'locations' != phase:",  # 4: compared (twice)
        "        return 'vote_count'",  # 5: returned
        "    if p.status in ('dead', 'exiled'):",  # 6: compared in a tuple (twice)
        "        p.status = 'alive'",  # 7: assigned
        "    match p.status:",
        "        case 'dead':",  # 9: matched
        "            pass",
        "    state.filter(phase__kind__in=['aftermath'])",  # 11: a Django lookup
        "    coup = view.get('coup')",  # 12: a key of the view: allowed
        "    ctx.public('combat', 'Battle.')",  # 13: an event kind: allowed
        "    n = steps.index(phase, 'banking')",  # 14: passed
        "    kind = 'finished' if state.finished else phase",  # 15: assigned
        "    return 'the coup'",  # 16: not a value
        "class State:",
        "    phase: str = 'nomination'",  # 18: a field's default
        "    title: str = 'Coup'",  # 19: not a value
    ])
    found = offending_literals(source, "example.py")
    lines = [int(f.split(":")[1]) for f in found]
    assert lines == [1, 1, 2, 3, 4, 4, 5, 6, 6, 7, 9, 11, 14, 15, 18]
    assert "use PhaseKind.COUP" in found[0]
    assert "use PhaseKind.LOCATIONS or Step.LOCATIONS" in found[5]
    assert "use Status.DEAD" in found[7]
    assert found[-3] == "example.py:14: 'banking' passed in f: use Step.BANKING"
    assert found[-1] == "example.py:18: 'nomination' default in State: use " \
        "PhaseKind.NOMINATION"


def test_the_allow_list_only_spares_its_own_words():
    source = "CONDITION_KINDS = {'exiled': 1, 'coup_excuse': 2, 'dead': 3}\n"
    assert offending_literals(source, "junta/engine/conditions.py") == [
        "junta/engine/conditions.py:1: 'dead' key in CONDITION_KINDS: use Status.DEAD"]


# --- the enums and the engine's tables -----------------------------------------------------

def test_phase_kinds_are_the_phases_of_the_tables():
    assert set(PhaseKind) == set(steps.PHASE_TITLES)
    assert set(PhaseKind) == {*steps.ADJUDICATION_ORDER, PhaseKind.FINISHED}
    assert all(type(k) is PhaseKind for k in (*steps.PHASE_TITLES, *steps.ADJUDICATION_ORDER))


def test_steps_are_the_steps_of_the_adjudication_order():
    used = {s for order in steps.ADJUDICATION_ORDER.values() for s in order}
    assert set(Step) == used == set(steps.STEP_TITLES)
    assert all(type(s) is Step for s in used | set(steps.STEP_TITLES))


def test_statuses():
    assert [s.value for s in Status] == ["alive", "dead", "exiled"]


def test_members_are_their_strings():
    assert PhaseKind.COUP == "coup" and isinstance(PhaseKind.COUP, str)
    assert hash(Step.LOCATIONS) == hash("locations") and PhaseKind.LOCATIONS == Step.LOCATIONS
    assert {"dead": 1}[Status.DEAD] == 1 and Status.DEAD in {"dead"}
    assert f"{PhaseKind.BUDGET_VOTE}" == str(PhaseKind.BUDGET_VOTE) == "budget_vote"
    assert json.dumps({Step.ANY_TIME: [Status.EXILED]}) == '{"any_time": ["exiled"]}'


def test_the_registries_are_typed():
    for spec in ORDER_KINDS.values():
        assert type(spec.step) is Step, spec.name
        assert spec.phases and all(type(p) is PhaseKind for p in spec.phases), spec.name
    for step, phases, _text in CONDITION_KINDS.values():
        assert type(step) is Step and all(type(p) is PhaseKind for p in phases)
    for phase, step in HANDLERS:
        assert type(phase) is PhaseKind and type(step) is Step
        assert step in steps.steps(phase)


# --- the state: enums in the code, plain strings in JSON -------------------------------------

def _enums_in(data: object, path: str = "") -> list[str]:
    """Where an Enum member hides in plain data."""
    if isinstance(data, enum.Enum):
        return [path or "<root>"]
    if isinstance(data, dict):
        return [p for k, v in data.items()
                for p in _enums_in(k, f"{path}/key {k}") + _enums_in(v, f"{path}/{k}")]
    if isinstance(data, (list, tuple)):
        return [p for i, v in enumerate(data) for p in _enums_in(v, f"{path}/{i}")]
    return []


def test_from_dict_gives_enums_and_to_dict_plain_strings():
    state = new_game("enums", NAMES[:6])
    data = json.loads(json.dumps(state.to_dict()))
    data["phase"] = "coup_final"
    data["resume_phase"] = "budget_draw"
    data["players"][1]["status"] = "dead"
    data["players"][2]["status"] = "exiled"
    read = GameState.from_dict(data)
    assert type(read.phase) is PhaseKind and read.phase is PhaseKind.COUP_FINAL
    assert [type(p.status) for p in read.players] == [Status] * 6
    assert read.players[1].status is Status.DEAD and read.players[2].status is Status.EXILED
    out = read.to_dict()
    assert type(out["phase"]) is str and type(out["resume_phase"]) is str
    assert all(type(p["status"]) is str for p in out["players"])
    assert _enums_in(out) == []
    assert out == data
    assert json.loads(json.dumps(out)) == data
    assert digest(read) == digest(GameState.from_dict(json.loads(json.dumps(out))))


def test_unknown_phase_or_status_is_refused():
    data = new_game("enums", NAMES[:6]).to_dict()
    with pytest.raises(ValueError):
        GameState.from_dict({**data, "phase": "lunch"})
    data["players"][0]["status"] = "asleep"
    with pytest.raises(ValueError):
        GameState.from_dict(data)


@pytest.mark.parametrize("players", [6, 9])
def test_a_campaign_keeps_enums_in_the_state_and_strings_in_its_json(players):
    """After every phase the resolved state holds enums, its `to_dict` none, and the JSON copy
    reads back to the same digest."""
    state = new_game(f"enum-campaign-{players}", NAMES[:players])
    rng = Rng(f"bots-enum-{players}")
    seen = set()
    while not state.finished:
        state = resolve(state, play_phase(state, rng)).state
        assert type(state.phase) is PhaseKind
        assert all(type(p.status) is Status for p in state.players)
        data = state.to_dict()
        assert _enums_in(data) == []
        copy = GameState.from_dict(json.loads(json.dumps(data)))
        assert digest(copy) == digest(state) and copy.to_dict() == data
        seen.add(state.phase)
        seen.update(p.status for p in state.players)
    assert state.phase is PhaseKind.FINISHED
    assert {PhaseKind.CABINET, PhaseKind.LOCATIONS, Status.ALIVE} <= seen
