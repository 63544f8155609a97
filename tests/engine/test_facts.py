"""The facts a resolution settles, read by conditional orders.

Rules: "Orders may be given conditionally, as long as the condition for the order precedes the
action to be undertaken in adjudication." Each step records what it settled in `ctx.facts`, a
slotted dataclass (`junta/engine/facts.py`): a misspelt fact name fails loudly instead of
reading as missing, and `conditions.holds` reads the typed fields. The standard cabinet of
`helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of Internal Security, 2 Bill
1st General, 3 Dona 2nd General, 4 Ernesto 3rd General.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from junta.engine import Condition, Order
from junta.engine import catalog as cat
from junta.engine.conditions import holds
from junta.engine.context import Context
from junta.engine.facts import Facts, VoteResult
from junta.engine.orders import CONDITION_KINDS
from junta.engine.phases import locations

from .helpers import in_phase

CARLOS, MARIA, BILL, DONA, ERNESTO = range(5)


def context(phase: str = "locations", orders: dict[int, list[Order]] | None = None) -> Context:
    state = in_phase(phase)
    return Context(state, orders or {}, state.rng())


# --- a misspelt fact fails loudly ------------------------------------------------------------

def test_a_context_starts_with_empty_typed_facts() -> None:
    ctx = context()
    assert isinstance(ctx.facts, Facts)
    assert ctx.facts == Facts()
    assert ctx.facts.killed == [] and ctx.facts.locations == {}
    assert ctx.facts.vote_result is None and ctx.facts.elected is None
    assert context().facts.killed is not ctx.facts.killed  # a fresh list per resolution


def test_reading_a_misspelt_fact_raises() -> None:
    ctx = context()
    with pytest.raises(AttributeError):
        ctx.facts.kiled  # noqa: B018  (the misspelling is the point)


def test_writing_a_misspelt_fact_raises() -> None:
    ctx = context()
    with pytest.raises(AttributeError):
        setattr(ctx.facts, "kiled", [BILL])  # noqa: B010
    assert ctx.facts.killed == []


def test_a_vote_result_is_read_by_attribute() -> None:
    result = VoteResult("passes", 3, yes=5, no=2)
    assert (result.outcome, result.margin, result.yes, result.no) == ("passes", 3, 5, 2)
    with pytest.raises(AttributeError):
        result.outcom  # type: ignore[attr-defined]  # noqa: B018
    assert VoteResult("tied", 0).yes is None  # yes and no are kept for the budget vote only


def test_the_locations_step_records_typed_locations() -> None:
    """The locations step settles where each player spends the day; the assassinations and
    the conditions on a location read it."""
    ctx = context(orders={BILL: [Order("location", {"place": "club"})],
                          DONA: [Order("location", {"place": "exile"})]})
    locations.locations(ctx)
    assert ctx.facts.locations[BILL] == "club"
    assert DONA not in ctx.facts.locations and ctx.facts.exiled == [DONA]
    assert ctx.facts.vacated == [cat.CABINET[2]]  # Dona was 2nd General
    assert holds(ctx, Condition("location", {"seat": BILL, "location": "club"}))
    assert holds(ctx, Condition("exiled", {"seat": DONA}))


# --- conditions.holds reads the typed fields -------------------------------------------------

Setup = Callable[[Context], None]


def _card_played(ctx: Context) -> None:
    ctx.facts.cards_played.append((BILL, "Power Failure"))


def _location(ctx: Context) -> None:
    ctx.facts.locations = {BILL: "club", DONA: "home"}


def _exiled(ctx: Context) -> None:
    ctx.facts.exiled.append(BILL)


def _killed(ctx: Context) -> None:
    ctx.facts.killed.append(BILL)


def _banks(ctx: Context) -> None:
    ctx.facts.banked.append(BILL)


def _coup_excuse(ctx: Context) -> None:
    ctx.state.coup_excuse = True


def _voted(ctx: Context) -> None:
    ctx.facts.votes_cast = {BILL: "yes", DONA: "no"}


def _vote_result(ctx: Context) -> None:
    ctx.facts.vote_result = VoteResult("passes", 2, yes=6, no=4)


def _elected(ctx: Context) -> None:
    ctx.facts.elected = BILL


def _appointed(ctx: Context) -> None:
    ctx.state.positions[cat.CABINET[0]] = BILL
    ctx.facts.appointed = True


# kind: (setup, a condition that then holds, one that does not)
CASES: dict[str, tuple[Setup, dict, dict]] = {
    "card_played": (_card_played, {"seat": BILL, "card": "Power Failure"},
                    {"seat": DONA, "card": "Power Failure"}),
    "location": (_location, {"seat": BILL, "location": "club"},
                 {"seat": BILL, "location": "home"}),
    "exiled": (_exiled, {"seat": BILL}, {"seat": DONA}),
    "killed": (_killed, {"seat": BILL}, {"seat": DONA}),
    "survives": (_killed, {"seat": DONA}, {"seat": BILL}),
    "banks": (_banks, {"seat": BILL}, {"seat": DONA}),
    "coup_excuse": (_coup_excuse, {}, {}),
    "voted": (_voted, {"seat": BILL, "choice": "yes"}, {"seat": DONA, "choice": "yes"}),
    "vote_result": (_vote_result, {"result": "passes", "margin_at_most": 2},
                    {"result": "passes", "margin_at_most": 1}),
    "elected": (_elected, {"seat": BILL}, {"seat": DONA}),
    "appointed": (_appointed, {"seat": BILL, "position": cat.CABINET[0]},
                  {"seat": DONA, "position": cat.CABINET[0]}),
}


def test_every_condition_kind_has_a_case() -> None:
    assert set(CASES) == set(CONDITION_KINDS)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_holds_reads_the_typed_fact(kind: str) -> None:
    """Rules: "Orders may be given conditionally, as long as the condition for the order
    precedes the action to be undertaken in adjudication." Each condition reads the fact its
    step settled."""
    setup, true_args, false_args = CASES[kind]
    ctx = context()
    before = holds(ctx, Condition(kind, true_args))
    setup(ctx)
    assert holds(ctx, Condition(kind, true_args))
    if kind == "coup_excuse":
        assert not before  # nothing settled yet: no Coup Excuse
    elif kind == "survives":
        assert before  # nobody killed yet: everyone survives so far
        assert not holds(ctx, Condition(kind, false_args))
    else:
        assert not before  # the fact is not settled yet: the condition does not hold
        assert not holds(ctx, Condition(kind, false_args))


def test_a_vote_result_either_way_and_by_outcome() -> None:
    ctx = context("budget_vote")
    assert not holds(ctx, Condition("vote_result", {}))  # no vote counted yet
    ctx.facts.vote_result = VoteResult("fails", 1, yes=4, no=5)
    assert holds(ctx, Condition("vote_result", {}))
    assert holds(ctx, Condition("vote_result", {"result": "fails"}))
    assert not holds(ctx, Condition("vote_result", {"result": "passes"}))


def test_appointed_needs_the_appointment_step() -> None:
    """The standard cabinet already holds the positions; the condition holds only once the
    appointment step has run."""
    ctx = context("cabinet")
    holder = ctx.state.positions[cat.CABINET[0]]
    condition = Condition("appointed", {"seat": holder, "position": cat.CABINET[0]})
    assert not holds(ctx, condition)
    ctx.facts.appointed = True
    assert holds(ctx, condition)
