"""The GM's rulings on offer (`junta.engine.ruling_offers`): what the engine offers, it carries
out; what it does not offer, it refuses, naming the argument (docs/rulings.md §ruling-gm).

The sweep takes states from random bot campaigns at every phase kind (coups included,
tests/engine/bot_samples.py) and, for every kind of ruling offered, tries every offered value
of every argument (the others at values offered with it): `rule` must carry each out, leave the
state it rules on unchanged and keep every invariant. Then it tampers with each argument (a
value not offered, one offered only with another choice, a number out of range, an argument
that does not exist): `rule` must refuse, with a message about that argument. A kind of ruling
not offered is refused with the reason the offer gives.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from junta.engine import (
    RULING_KINDS,
    UNIT_KINDS,
    GameState,
    RulingError,
    RulingOption,
    digest,
    rule,
    ruling_options,
    state_problems,
)
from junta.engine.options import Shape
from junta.engine.units import CARD_UNITS, deploy

from .bot_samples import PHASE_KINDS, sample_states
from .coup_states import coup_state
from .helpers import in_phase


def _fit(option: RulingOption, values: dict[str, Any], fixed: str) -> dict[str, Any] | None:
    """`values` with every other argument moved to a value offered with the ones chosen (the
    argument `fixed` stays), or None when there is none."""
    out = dict(values)
    for arg in option.args:
        if arg.name == fixed and arg.depends_on is not None:
            parents = [p for p, allowed in arg.choices_for.items() if out[arg.name] in allowed]
            if not parents:
                return None
            out[arg.depends_on] = parents[0]
    for arg in option.args:
        if arg.depends_on is not None and arg.name != fixed:
            allowed = arg.choices_for.get(out[arg.depends_on], ())
            if out[arg.name] not in allowed:
                if not allowed:
                    return None
                out[arg.name] = allowed[0]
    for limit in option.limits:
        if limit.arg != fixed:
            out[limit.arg] = min(out[limit.arg], limit.maximum_for[out[limit.depends_on]])
        elif out[limit.arg] > limit.maximum_for[out[limit.depends_on]]:
            parents = [p for p, most in limit.maximum_for.items() if most >= out[limit.arg]]
            if not parents:
                return None
            return _fit(option, {**out, limit.depends_on: parents[0]}, limit.depends_on)
    return out


def offers(option: RulingOption) -> Iterator[dict[str, Any]]:
    """Each offered value of each argument, with the other arguments at values offered with it."""
    base = {**option.defaults(), **{t.name: "Pancho Villa" for t in option.texts}}
    fitted = _fit(option, base, "")
    assert fitted is not None, f"{option.kind}: nothing offered fits together"
    yield fitted
    for arg in option.args:
        if arg.shape is Shape.ONE:
            tries = arg.values() + ([None] if arg.blank is not None else [])
        elif arg.shape is Shape.NUMBER:
            tries = [arg.minimum, arg.maximum]
        else:  # TABLE (a budget): nothing, or all of it to one row
            tries = [{}] + [{k.value: arg.maximum} for k in arg.keys]
        for value in tries:
            trial = _fit(option, {**fitted, arg.name: value}, arg.name)
            if trial is not None:
                yield trial
    for limit in option.limits:  # a number up to what the other argument allows
        for parent, most in limit.maximum_for.items():
            trial = _fit(option, {**fitted, limit.depends_on: parent, limit.arg: most},
                         limit.depends_on)
            if trial is not None:
                yield trial


def tampered(option: RulingOption, fitted: dict[str, Any]) -> Iterator[tuple[str, dict]]:
    """(the argument, values with a value of it that is not offered)."""
    for arg in option.args:
        if arg.shape is Shape.ONE:
            for bad in ("Dragon", 10**6, True if not isinstance(arg.values()[0], bool) else 7):
                yield arg.name, {**fitted, arg.name: bad}
            if arg.blank is None:
                yield arg.name, {**fitted, arg.name: None}
            if arg.depends_on is not None:
                allowed = arg.choices_for.get(fitted[arg.depends_on], ())
                for value in arg.values():
                    if value not in allowed:
                        yield arg.name, {**fitted, arg.name: value}
                        break
        elif arg.shape is Shape.NUMBER:
            yield arg.name, {**fitted, arg.name: (arg.minimum or 0) - 1}
            yield arg.name, {**fitted, arg.name: (arg.maximum or 0) + 1}
            yield arg.name, {**fitted, arg.name: "3"}
        else:
            yield arg.name, {**fitted, arg.name: {99: 1}}
            yield arg.name, {**fitted, arg.name: {arg.keys[0].value: (arg.maximum or 0) + 1}}
    for limit in option.limits:
        most = limit.maximum_for[fitted[limit.depends_on]]
        yield limit.arg, {**fitted, limit.arg: most + 1}
    yield "bogus", {**fitted, "bogus": 1}


def test_the_sample_reaches_every_phase_kind_coups_included():
    assert set(PHASE_KINDS) <= set(sample_states()), sorted(sample_states())


@pytest.mark.parametrize("kind", PHASE_KINDS)
def test_every_ruling_offered_is_carried_out_and_every_other_refused(kind):
    states = [GameState.from_dict(d) for d in sample_states().get(kind, [])]
    assert states, f"no sampled state of {kind}"
    for state in states:
        before = digest(state)
        options = ruling_options(state)
        assert set(RULING_KINDS) == {o.kind for o in options.rulings} | set(options.refused)
        for ruling, why in options.refused.items():
            assert why and options.why_not(ruling) == why
            with pytest.raises(RulingError) as refused:
                rule(state, ruling, {})
            assert str(refused.value) == why
        for option in options.rulings:
            assert options.why_not(option.kind) == ""
            fitted = None
            for values in offers(option):
                try:
                    done = rule(state, option.kind, values)
                except RulingError as error:
                    raise AssertionError(f"{option.kind} {values} in {state.phase}: offered "
                                         f"but refused: {error}") from error
                assert state_problems(done.state) == [], (option.kind, values)
                fitted = fitted or values
            assert fitted is not None
            for name, values in tampered(option, fitted):
                with pytest.raises(RulingError) as refused:
                    rule(state, option.kind, values)
                about = {p.arg for p in refused.value.problems}
                assert about == ({None} if name == "bogus" else {name}), \
                    (option.kind, name, values, refused.value.problems)
        assert digest(state) == before, "a ruling changed the state it ruled on"


def test_a_kind_of_unit_is_one_of_the_rules_and_every_unit_of_the_rules_is_offered():
    """docs/rules.md §units: the positions' units, the unit cards' and the foreign forces on the
    map; the GM adds one of those, never a kind he makes up."""
    state, _ = coup_state()
    kinds = ruling_options(state).get("unit_add").arg("kind")
    assert kinds.values() == list(UNIT_KINDS)
    assert {u["kind"] for u in deploy(state)["units"]} <= set(UNIT_KINDS)
    assert {spec.kind for spec in CARD_UNITS.values()} <= set(UNIT_KINDS)
    assert "Airstrike" not in UNIT_KINDS and "Gunboat" not in UNIT_KINDS
    with pytest.raises(RulingError) as refused:
        rule(state, "unit_add", {"kind": "Dragon", "owner": None, "zone": 3})
    assert [p.arg for p in refused.value.problems] == ["kind"]
    assert str(refused.value) == "Kind of unit: 'Dragon' is not among the options offered now."
    mob = rule(state, "unit_add", {"kind": "Mob", "owner": 1, "zone": 3})
    added = mob.state.coup["units"][-1]
    assert (added["kind"], added["armed"], mob.facts["armed"]) == ("Mob", False, False)
    armed = rule(state, "unit_add", {"kind": "Mob", "owner": 1, "zone": 3, "armed": True})
    assert armed.state.coup["units"][-1]["armed"] is True


def test_each_kind_not_available_says_why():
    state = in_phase("cabinet")
    assert ruling_options(state).why_not("money") == \
        "No pocket, bank account or out-of-play sum holds any money."
    state.players[0].bank = 3
    options = ruling_options(state)
    assert options.why_not("unit_add") == options.why_not("unit_remove") == \
        "There is no coup under way: units are on the map only in a coup."
    assert options.why_not("fiat").startswith("A budget by fiat replaces the proposal being "
                                              "voted on, in the Budget Vote phase.")
    assert options.why_not("location").startswith("Nobody has a location yet this turn")
    assert {o.kind for o in options.rulings} == {"money", "card", "name"}
    assert options.why_not("teleport") == "There is no ruling 'teleport'."
    with pytest.raises(RulingError, match="There is no ruling 'teleport'."):
        rule(in_phase("cabinet"), "teleport", {})


def test_the_money_offered_is_what_each_pot_holds():
    state = in_phase("locations")
    state.players[0].pocket, state.players[1].pocket, state.spent = 7, 0, 0
    state.players[2].bank = 20
    money = ruling_options(state).get("money")
    sources = dict((c.value, c.label) for c in money.arg("source").choices)
    assert sources["pocket:0"] == "Carlos's pocket (7 MP)"
    assert "pocket:1" not in sources and "out" not in sources
    assert "pocket:0" not in money.arg("target").choices_for["pocket:0"]
    with pytest.raises(RulingError) as refused:
        rule(state, "money", {"source": "pocket:0", "target": "bank:0", "amount": 8})
    assert str(refused.value) == "Carlos's pocket holds 7 MP, not 8 MP."
    assert refused.value.arg == "amount"
    with pytest.raises(RulingError) as refused:
        rule(state, "money", {"source": "pocket:0", "target": "bank:0", "amount": 21})
    assert str(refused.value) == "Amount (MP): give a whole number from 1 to 20."
    with pytest.raises(RulingError) as refused:
        rule(state, "money", {"source": "pocket:1", "target": "bank:0", "amount": 1})
    assert str(refused.value) == "From: 'pocket:1' is not among the options offered now."
    assert refused.value.arg == "source"


def test_a_location_is_offered_once_the_turn_s_locations_are_chosen():
    """docs/rules.md §location: locations are chosen in the Locations phase; before it is
    carried out nobody has one, and the location orders would replace one set by the GM."""
    state, _ = coup_state()
    location = ruling_options(state).get("location")
    at = {p.seat: p.location for p in state.players if p.alive}
    assert location.arg("seat").values() == list(at)
    for seat, where in at.items():
        assert where not in location.arg("location").choices_for[seat]
        assert None in location.arg("location").choices_for[seat]
