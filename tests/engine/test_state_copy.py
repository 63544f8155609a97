"""`GameState.copy()`: the same state as `GameState.from_dict(state.to_dict())`, sharing nothing
that can change.

- On every state of several random bot campaigns (coups and Aftermaths included), "the copy
  equals the state": `copy().to_dict() == to_dict()`, and the copy equals the JSON round trip
  field by field, down to the type of every value.
- "Mutating the copy never changes the original": no list, dict, set or dataclass instance of
  the copy is one of the original's, and after every container of the copy has been changed
  (every list appended to, every dict given a key, every field of every nested dataclass set
  anew) the original's `to_dict()` is what it was.
- "A field added to a state dataclass but forgotten in copy() fails": a state is built with a
  value unlike the default in every field of every dataclass it holds (found by walking
  `dataclasses.fields` and the type hints), and each field must come through the copy. A
  negative control proves the check sees a forgotten field.
- The copy takes each unit of a coup's map for "a dict of plain values only": so every unit is,
  in every coup the campaigns reach.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

import pytest

from junta.engine import GameState, new_game, resolve
from junta.engine import state as state_module
from junta.engine.bots import play_phase
from junta.engine.enums import PhaseKind
from junta.engine.rng import Rng
from junta.engine.state import Player

from .helpers import NAMES

GAMES = 6
MAX_PHASES = 400


class Missing:
    """What `differences` finds where the copy lacks a field altogether."""


MISSING = Missing()


@pytest.fixture(scope="module")
def campaign_states() -> list[GameState]:
    """The state before every phase of `GAMES` bot campaigns of 6 to 10 players, and the final
    state of each."""
    states = []
    for i in range(GAMES):
        state = new_game(f"copy-{i}", NAMES[:6 + i % 5])
        rng = Rng(f"copy-bots-{i}")
        for _ in range(MAX_PHASES):
            states.append(state)
            if state.finished:
                break
            state = resolve(state, play_phase(state, rng)).state
        else:
            raise AssertionError(f"campaign copy-{i} did not end in {MAX_PHASES} phases")
    return states


# --- generic walks ----------------------------------------------------------------------------

def is_instance(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def children(value: Any) -> list[Any]:
    """The values held directly by a dataclass instance, dict, list, tuple or set."""
    if is_instance(value):
        return [getattr(value, f.name) for f in dataclasses.fields(value)]
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return []


def containers(value: Any) -> list[Any]:
    """Every mutable container reachable from `value`, itself included: dataclass instances,
    lists, dicts and sets."""
    out = []
    stack = [value]
    while stack:
        item = stack.pop()
        if is_instance(item) or isinstance(item, (dict, list, set)):
            out.append(item)
        stack.extend(children(item))
    return out


def mutate(item: Any) -> None:
    """Change one container in place: a list grows, a dict gains a key, a set an element, and
    every field of a dataclass instance is set to a new value."""
    if is_instance(item):
        for f in dataclasses.fields(item):
            setattr(item, f.name, ["mutated", f.name])
    elif isinstance(item, list):
        item.append("mutated")
    elif isinstance(item, dict):
        item["mutated"] = True
    elif isinstance(item, set):
        item.add("mutated")


def differences(a: Any, b: Any, path: str = "state") -> list[str]:
    """Where `a` and `b` differ in value or in the type of any value inside them."""
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} != {type(b).__name__}"]
    if is_instance(a):
        return [d for f in dataclasses.fields(a)
                for d in differences(getattr(a, f.name), getattr(b, f.name, MISSING),
                                     f"{path}.{f.name}")]
    if isinstance(a, dict):
        if list(a) != list(b):
            return [f"{path}: keys {list(a)} != {list(b)}"]
        return [d for k in a for d in differences(a[k], b[k], f"{path}[{k!r}]")]
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return [f"{path}: length {len(a)} != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


# --- every state of the campaigns -------------------------------------------------------------

def test_the_campaigns_reach_coups_and_aftermaths(campaign_states):
    """The states below include every kind of phase that the bots reach with a coup."""
    kinds = {s.phase for s in campaign_states}
    assert {PhaseKind.LOCATIONS, PhaseKind.COUP, PhaseKind.COUP_FINAL, PhaseKind.AFTERMATH,
            PhaseKind.BUDGET_VOTE, PhaseKind.ELECTION, PhaseKind.FINISHED} <= kinds
    assert any(s.coup for s in campaign_states) and any(s.election for s in campaign_states)


def test_the_copy_equals_the_state_and_its_json_round_trip(campaign_states):
    """"The copy equals the state": `copy().to_dict() == to_dict()`, and the copy equals
    `GameState.from_dict(to_dict())` in every field, down to the type of every value."""
    for state in campaign_states:
        before = state.to_dict()
        copied = state.copy()
        assert copied.to_dict() == before
        assert differences(copied, GameState.from_dict(before)) == []
        assert state.to_dict() == before


def test_the_copy_shares_no_mutable_object_with_the_state(campaign_states):
    """"Mutating the copy never changes the original": no list, dict, set or dataclass instance
    reachable from the copy is one reachable from the state."""
    for state in campaign_states:
        copied = state.copy()
        originals = {id(c) for c in containers(state)}
        shared = [c for c in containers(copied) if id(c) in originals]
        assert shared == []


def test_mutating_every_container_of_the_copy_leaves_the_state_unchanged(campaign_states):
    """"Mutating the copy never changes the original": every list of the copy appended to,
    every dict given a key, every field of every dataclass set anew; the state's `to_dict()`
    is what it was."""
    for state in campaign_states[::3]:
        before = state.to_dict()
        copied = state.copy()
        for item in containers(copied):
            mutate(item)
        assert copied.seed == ["mutated", "seed"]
        assert state.to_dict() == before


def as_dataclasses_give_it(state: GameState) -> dict[str, Any]:
    """What `to_dict` gave before it was written field by field: `dataclasses.asdict`, the
    phase, the statuses and the resumed phase as strings."""
    data = dataclasses.asdict(state)
    data["phase"] = str(state.phase)
    if state.resume_phase is not None:
        data["resume_phase"] = str(state.resume_phase)
    for p in data["players"]:
        p["status"] = str(p["status"])
    return data


def test_to_dict_gives_what_dataclasses_asdict_gives_and_shares_nothing(campaign_states):
    """The same keys in the same order, the same values of the same types (the digests of
    every stored state depend on it), in every state of the campaigns and in one with an
    unusual value in every field; no container of the state is one of the dict's."""
    for state in [*campaign_states, unusual_instance(GameState)]:
        data = state.to_dict()
        assert differences(data, as_dataclasses_give_it(state), "to_dict") == []
        originals = {id(c) for c in containers(state)}
        assert [c for c in containers(data) if id(c) in originals] == []


def test_copies_of_copies_stay_apart():
    """"Mutating the copy never changes the original", nor the other way round, along a chain
    of copies: each of three generations changes its own hand only."""
    first = new_game("chain", NAMES[:6])
    second = first.copy()
    third = second.copy()
    for n, state in enumerate((first, second, third)):
        state.players[0].hand.append(n)
        state.money_deck.pop()
    assert [s.players[0].hand for s in (first, second, third)] == [[0], [1], [2]]
    assert len({len(s.money_deck) for s in (first, second, third)}) == 1


# --- a field added but forgotten in copy() ----------------------------------------------------

def unusual(tp: Any) -> Any:
    """A value of type `tp` unlike any default of the state dataclasses: nested where the type
    allows, so that a shallow copy would show too."""
    origin = typing.get_origin(tp)
    if typing.is_typeddict(tp):  # every key, those sometimes absent too
        return {key: unusual(hint) for key, hint in typing.get_type_hints(tp).items()}
    if origin is typing.Literal:
        return typing.get_args(tp)[-1]
    if origin in (typing.Union, types.UnionType):
        return unusual(next(arg for arg in typing.get_args(tp) if arg is not type(None)))
    if origin is list:
        (item,) = typing.get_args(tp)
        return [unusual(item), unusual(item)]
    if origin is dict:
        key, item = typing.get_args(tp)
        return {unusual(key): unusual(item)}
    if tp is Any:
        return {"unusual": [7, {"deeper": ["x", None, True]}]}
    if tp is bool:
        return True
    if tp is int:
        return 7777
    if tp is str:
        return "unusual"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return list(tp)[-1]
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return unusual_instance(tp)
    raise TypeError(f"no unusual value for {tp!r}: teach `unusual` about this type")


def unusual_instance(cls: type) -> Any:
    """An instance of the dataclass `cls` with an unusual value in every field (a boolean the
    opposite of its default)."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        value = unusual(hints[f.name])
        if hints[f.name] is bool and f.default is True:
            value = False
        values[f.name] = value
    return cls(**values)


def defaults_kept(instance: Any) -> list[str]:
    """The fields of a dataclass instance (and of those inside it) still at their default."""
    out = []
    for item in containers(instance):
        if not is_instance(item):
            continue
        for f in dataclasses.fields(item):
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                continue
            if getattr(item, f.name) == default:
                out.append(f"{type(item).__name__}.{f.name}")
    return out


def forgotten(cls: type) -> list[str]:
    """The fields of `cls`, or of the dataclasses inside it, that `copy()` does not carry over
    from an instance with an unusual value in every field."""
    original = unusual_instance(cls)
    assert defaults_kept(original) == []
    copied = original.copy()
    out = []
    for f in dataclasses.fields(original):
        out += differences(getattr(original, f.name), getattr(copied, f.name, MISSING),
                           f"{cls.__name__}.{f.name}")
    return out


def test_every_field_of_every_state_dataclass_comes_through_the_copy(monkeypatch):
    """"A field added to a state dataclass but forgotten in copy() fails": with an unusual
    value in every field of GameState and of every Player (none at its default), the copy
    holds every value, shares no container, and equals the JSON round trip."""
    state = unusual_instance(GameState)
    monkeypatch.setattr(state_module, "SCHEMA", state.schema)  # unusual too: read as today's
    assert defaults_kept(state) == []
    assert {type(p) for p in state.players} == {Player}
    assert forgotten(GameState) == []
    assert forgotten(Player) == []
    copied = state.copy()
    assert differences(copied, GameState.from_dict(state.to_dict())) == []
    originals = {id(c) for c in containers(state)}
    assert [c for c in containers(copied) if id(c) in originals] == []


def test_the_check_sees_a_forgotten_field():
    """Negative control: a GameState with one more field, which the inherited copy() does not
    know, is reported."""
    extended = dataclasses.make_dataclass(
        "Extended", [("added", int, dataclasses.field(default=0))], bases=(GameState,))
    assert forgotten(extended) == ["Extended.added: int != Missing"]


def test_every_unit_of_a_coup_holds_plain_values_only(campaign_states):
    """`copy()` copies each unit of a coup's map with `dict.copy`, without looking inside: "the
    units are dicts of plain values only" (numbers, strings, booleans, None) in every coup the
    campaigns reach."""
    plain = (int, str, bool, type(None))
    units = [u for s in campaign_states if s.coup for u in s.coup["units"]]
    assert units
    assert [u for u in units if not all(isinstance(v, plain) for v in u.values())] == []


def test_a_stored_state_is_digested_without_building_it(campaign_states):
    """Pages check each stored state against its digest: `data_digest` reads the stored data
    itself and must agree with `digest` of the state built from it; `from_dict` shares no list
    or dict with the data it was given."""
    from junta.engine import data_digest, digest

    for state in campaign_states[::7]:
        data = state.to_dict()
        assert data_digest(data) == digest(state) == digest(GameState.from_dict(data))
        built = GameState.from_dict(data)
        built.players[0].hand.append(-1)
        built.money_deck.append(-1)
        assert data_digest(data) == digest(state)  # the data given is left as it was
