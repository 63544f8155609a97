"""The budget proposal's rule: the amount for each player, the money the proposer adds from his
pocket, and the bills that pay them. A proposal's check (the order kind's, `order_kinds/turn.py`)
and the plan its payout follows (phases/budget.py), below both.
(docs/rules.md §budget-proposal; docs/rulings.md §ruling-feasibility)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, NotRequired, TypedDict, cast

from .order import ArgType, As, Order
from .problems import Problem, keyed
from .state import GameState
from .words import Items, Term, gettext_noop, words


class ProposalArgs(TypedDict):
    """A budget proposal (order_kinds/turn.py's `ProposeBudget`): the total for each player
    (by seat, as a text: a JSON object's key), what the proposer adds from his pocket, and the
    bills he hands to players (by seat), each a list of denominations."""
    allocations: NotRequired[Annotated[dict[str, int], As("Totals", ArgType.TABLE)]]
    from_pocket: NotRequired[Annotated[int, As("Add from your pocket", ArgType.AMOUNT)]]
    bills: NotRequired[Annotated[dict[str, list[int]], As("Bills", ArgType.TABLE)]]


def proposal_of(order: Order) -> ProposalArgs:
    """A proposal's arguments (not validated: `check_proposal` says what is wrong)."""
    return cast(ProposalArgs, order.args)


def bills_words(bills: list[int]) -> Items:
    """"1 MP, 3 MP", or "no bills"."""
    return Items(tuple(words(gettext_noop("{amount} MP"), amount=b) for b in bills),
                 Term(gettext_noop("no bills")))



def _int(value: int | None) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_allocations(state: GameState, args: Mapping[str, object]
                     ) -> tuple[dict[int, int], list[Problem]]:
    """The amount for each player (the order's "allocations"), and what is wrong with it."""
    raw = cast(ProposalArgs, args).get("allocations") or {}
    errors: list[Problem] = []
    out: dict[int, int] = {}
    if not isinstance(raw, dict):
        return {}, [Problem(gettext_noop(
            "Give the budget as an amount for each player."), "allocations")]
    for key, amount in raw.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            errors.append(Problem(gettext_noop(
                "The budget names a player who is not in this game."),
                                  "allocations"))
            continue
        if not 0 <= seat < len(state.players):
            errors.append(Problem(gettext_noop(
                "The budget names a player who is not in this game."),
                                  "allocations"))
            continue
        value = _int(amount)
        if value is None or value < 0:
            errors.append(Problem(words(gettext_noop(
                "{seat}'s amount must be a whole number of MP, 0 or more."),
                seat=state.name(seat)), "allocations"))
            continue
        if value and not state.players[seat].active:
            errors.append(Problem(words(gettext_noop(
                "{seat} is {status} and cannot receive money."), seat=state.name(seat),
                status=Term(state.players[seat].status)), "allocations"))
            continue
        if value:
            out[seat] = value
    return out, errors


def check_proposal(state: GameState, seat: int, args: Mapping[str, object]) -> list[Problem]:
    """Why this budget cannot be proposed: its "allocations" (the totals), the money added
    "from_pocket", or the denominations ("bills"); a budget the bills cannot pay is about its
    totals (docs/rules.md §budget-proposal; docs/rulings.md §ruling-feasibility)."""
    a = cast(ProposalArgs, args)
    allocations, errors = read_allocations(state, args)
    from_pocket = _int(a.get("from_pocket", 0))
    if from_pocket is None or from_pocket < 0:
        errors.append(Problem(gettext_noop(
            "Money added from your pocket is a whole number of MP, 0 or "
                              "more."), "from_pocket"))
    elif from_pocket > state.players[seat].pocket:
        errors.append(Problem(words(gettext_noop(
            "You have {pocket} MP in your pocket; you cannot add {amount} MP to the budget."),
            pocket=state.players[seat].pocket, amount=from_pocket), "from_pocket"))
    if errors or from_pocket is None:  # None was refused just above
        return errors
    plan, message = pay_plan(state.budget.get("held", []), allocations, from_pocket,
                             a.get("bills"), state)
    return [] if plan is not None else keyed([message], "allocations")


class PayPlan(TypedDict):
    bills: dict[int, list[int]]  # seat -> the bills he is given
    top_up: dict[int, int]  # seat -> MP added from the proposer's pocket


def pay_plan(held: list[int], allocations: dict[int, int], from_pocket: int,
             bills: object, state: GameState) -> tuple[PayPlan | None, str]:
    """Which bills go to whom, and how much the President's pocket tops up, or why it
    cannot be paid (a `Problem` about the "bills" given or the "allocations"). Explicit
    denominations, when given, are honoured first (docs/rulings.md §ruling-feasibility)."""
    remaining = {1: held.count(1), 2: held.count(2), 3: held.count(3)}
    fixed: dict[int, list[int]] = {}
    if bills:
        if not isinstance(bills, dict):
            return None, Problem(gettext_noop(
                "Give denominations as a list of bills for each player."),
                                 "bills")
        for key, denoms in bills.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                return None, Problem(gettext_noop(
                    "The denominations name a player who is not in this game."),
                                     "bills")
            if not isinstance(denoms, list) or any(d not in (1, 2, 3) for d in denoms):
                return None, Problem(gettext_noop(
                    "Denominations are bills of 1, 2 or 3 MP."), "bills")
            if sum(denoms) > allocations.get(seat, 0):
                return None, Problem(words(gettext_noop(
                    "The bills you give {seat} add up to {amount} MP, more than the {allotted} "
                    "MP allotted."), seat=state.name(seat), amount=sum(denoms),
                    allotted=allocations.get(seat, 0)), "bills")
            for d in denoms:
                remaining[d] -= 1
                if remaining[d] < 0:
                    return None, Problem(words(gettext_noop(
                        "You hold no more {amount} MP bills to give; your bills are {bills}."),
                        amount=d, bills=bills_words(sorted(held, reverse=True))), "bills")
            fixed[seat] = list(denoms)
    needs = [(seat, total - sum(fixed.get(seat, []))) for seat, total in sorted(
        allocations.items())]
    gap, choice = _best(tuple(n for _, n in needs), (remaining[1], remaining[2], remaining[3]))
    if gap > from_pocket:
        total = sum(allocations.values())
        wanted = Items(tuple(words(gettext_noop("{seat} {amount} MP"), seat=state.name(s),
                                   amount=a) for s, a in sorted(allocations.items())))
        return None, Problem(words(gettext_noop(
            "This budget cannot be paid: with bills {bills} you cannot make {wanted} ({total} "
            "MP); {missing} MP is missing. Add money from your pocket or change the totals."),
            bills=bills_words(sorted(held, reverse=True)), wanted=wanted, total=total,
            missing=gap - from_pocket), "allocations")
    plan: PayPlan = {"bills": {}, "top_up": {}}
    for (seat, need), combo in zip(needs, choice, strict=True):
        given = fixed.get(seat, []) + [3] * combo[2] + [2] * combo[1] + [1] * combo[0]
        plan["bills"][seat] = given
        short = need - (combo[0] + 2 * combo[1] + 3 * combo[2])
        if short:
            plan["top_up"][seat] = short
    return plan, ""


@cache
def _best(needs: tuple[int, ...], counts: tuple[int, int, int]
          ) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """Minimal pocket top-up to pay `needs` from bills `counts` (ones, twos, threes)."""
    if not needs:
        return 0, ()
    need, rest = needs[0], needs[1:]
    best: tuple[int, tuple[tuple[int, int, int], ...]] | None = None
    c1, c2, c3 = counts
    for a3 in range(min(c3, need // 3), -1, -1):
        for a2 in range(min(c2, (need - 3 * a3) // 2), -1, -1):
            a1 = min(c1, need - 3 * a3 - 2 * a2)
            short = need - 3 * a3 - 2 * a2 - a1
            sub_gap, sub = _best(rest, (c1 - a1, c2 - a2, c3 - a3))
            total = short + sub_gap
            if best is None or total < best[0]:
                best = (total, ((a1, a2, a3), *sub))
                if total == 0:
                    return best
    assert best is not None  # a need is 0 or more: taking no Threes is always tried
    return best
