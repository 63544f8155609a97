"""The random bots order from the engine's one list of options, the one the Orders page draws,
as boardgame.io's bots call the game's own `enumerate`.

Over bot campaigns that reach every phase kind, coups included: every order a bot gives was
made by `options.build` from an option `legal_options` lists for the seat, with values that
option offers (each argument's `allowed` values once the others are chosen, numbers in range,
blanks only where offered) and a condition offered with it; every order is accepted by
`validate_order`, and every seat's set by `validate_orders` as the bot gives it, before
`bots.whole_set` would prune anything: the bots plan their money, cards, units and
one-a-phase orders themselves, so pruning never has to drop an order.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest

from junta.engine import Order, new_game, resolve, validate_order, validate_orders
from junta.engine.bots import Pick, bot_orders, bot_picks, whole_set
from junta.engine.options import ArgOption, OrderOption, Shape, build, legal_options
from junta.engine.rng import Rng

from .helpers import NAMES

PHASE_KINDS = ("nomination", "election", "cabinet", "budget_draw", "budget_proposal",
               "budget_vote", "internal_security", "special_motion", "locations", "coup",
               "coup_final", "aftermath")
# What the bots order over these campaigns: the strategy of the bots before they drew from the
# options (coups, strikes, bribes, votes, the budget, assassins, the Bank, trades...).
KINDS = ("appoint", "assassinate", "attack", "bank", "coup_side", "draw_bills", "give_card",
         "location", "move", "new_weapons", "nominate", "pay", "place", "play_card",
         "propose_budget", "rebel_move", "trade", "transfer", "vote")
# Conditions the bots give orders with: their own location or exile, a victim's survival, the
# result of a vote (Power Failure, Recount...).
CONDITIONS = ("location", "exiled", "survives", "vote_result")
CAMPAIGNS = [("bot-picks-a", 10, "picks-a"), ("bot-picks-b", 8, "picks-b"),
             ("bot-picks-c", 6, "picks-c"), ("bot-picks-d", 9, "picks-d")]


def _blank_ok(arg: ArgOption) -> bool:
    return arg.blank is not None or not arg.required


def _number_ok(arg: ArgOption, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and \
        (arg.minimum is None or value >= arg.minimum) and \
        (arg.maximum is None or value <= arg.maximum)


def value_problem(arg: ArgOption, value: Any, chosen: dict[str, Any]) -> str | None:
    """Why `value` is not one the argument offers once `chosen` are chosen (None: it is)."""
    allowed = arg.allowed(chosen)
    if value is None:
        return None if _blank_ok(arg) else "left blank"
    if arg.shape is Shape.ONE:
        return None if value in allowed else f"{value!r} not among {allowed}"
    if arg.shape is Shape.SOME:
        if not isinstance(value, list) or len(set(map(repr, value))) != len(value):
            return f"{value!r} is not a list of distinct values"
        if arg.required and not value:
            return "an empty list for a required argument"
        wrong = [v for v in value if v not in allowed]
        return f"{wrong} not among {allowed}" if wrong else None
    if arg.shape is Shape.NUMBER:
        return None if _number_ok(arg, value) else \
            f"{value!r} outside {arg.minimum}..{arg.maximum}"
    if arg.shape is Shape.RANKING:
        if not isinstance(value, list) or not value or len(set(value)) != len(value) or \
                (arg.maximum is not None and len(value) > arg.maximum):
            return f"{value!r} is not a ranking of at most {arg.maximum}"
        wrong = [v for v in value if v not in arg.values()]
        return f"{wrong} not among {arg.values()}" if wrong else None
    if not isinstance(value, dict):
        return f"{value!r} is not a table"
    keys = [k.value for k in arg.keys]
    for key, cell in value.items():
        if key not in keys:
            return f"row {key!r} not among {keys}"
        if cell is None:
            if arg.blank is None and arg.choices:
                return f"row {key!r} left blank"
        elif arg.choices and cell not in arg.values():
            return f"row {key!r}: {cell!r} not among {arg.values()}"
        elif not arg.choices and not _number_ok(arg, cell):
            return f"row {key!r}: {cell!r} outside {arg.minimum}..{arg.maximum}"
    return None


def pick_problems(state, seat: int, option: OrderOption | None, pick: Pick) -> list[str]:
    """Why this pick is not an order built from the option with values it offers."""
    if option is None:
        return [f"{pick.key}: no such option for seat {seat}"]
    out = []
    names = {a.name for a in option.args}
    if set(pick.values) - names:
        out.append(f"{pick.key}: values for {set(pick.values) - names}, not arguments")
    for arg in option.args:
        if arg.name not in pick.values:
            if not _blank_ok(arg):
                out.append(f"{pick.key}: {arg.name} not chosen")
            continue
        problem = value_problem(arg, pick.values[arg.name], dict(pick.values))
        if problem:
            out.append(f"{pick.key}: {arg.name}: {problem}")
    if pick.condition is not None:
        kind, details = pick.condition
        offered = option.condition(kind)
        if offered is None:
            out.append(f"{pick.key}: condition {kind} not offered")
        else:
            for arg in offered.args:
                problem = value_problem(arg, details.get(arg.name), dict(details))
                if problem:
                    out.append(f"{pick.key}: condition {kind}: {arg.name}: {problem}")
    if build(state, seat, option, pick.values, pick.condition) != pick.order:
        out.append(f"{pick.key}: the order is not what build makes of the values")
    out += [f"{pick.key}: refused: {p}" for p in validate_order(state, seat, pick.order)]
    return out


@cache
def checked_campaign(seed: str, players: int, bot_seed: str
                     ) -> tuple[Counter, Counter, Counter, int, tuple[str, ...]]:
    """Play a campaign with the bots, checking every seat's picks at every phase: the phase
    kinds seen, the kinds of order and of condition given, how many sets `whole_set` would
    prune, and every problem found."""
    state = new_game(seed, NAMES[:players])
    rng = Rng(bot_seed)
    phases: Counter = Counter()
    kinds: Counter = Counter()
    conditions: Counter = Counter()
    pruned = 0
    problems: list[str] = []
    for _ in range(400):
        if state.finished:
            break
        phases[state.phase] += 1
        orders = {}
        for seat in range(len(state.players)):
            options = legal_options(state, seat)
            picks = bot_picks(state, seat, rng, options)
            where = f"{seed} phase {state.phase_number} ({state.phase}) seat {seat}"
            for pick in picks:
                problems += [f"{where}: {m}" for m in pick_problems(
                    state, seat, options.get(pick.key), pick)]
                kinds[pick.order.kind] += 1
                if pick.condition is not None:
                    conditions[pick.condition[0]] += 1
            given = [p.order for p in picks]
            refused = validate_orders(state, seat, given)
            if refused or whole_set(given, state, seat) != given:
                pruned += 1
                problems += [f"{where}: the set is refused: {p}" for p in refused]
            orders[seat] = given
        state = resolve(state, orders).state
    assert state.finished, f"{seed} did not end"
    return phases, kinds, conditions, pruned, tuple(problems)


@pytest.mark.parametrize("seed, players, bot_seed", CAMPAIGNS)
def test_every_bot_order_comes_from_the_options_and_every_set_is_legal(seed, players,
                                                                       bot_seed):
    *_, pruned, problems = checked_campaign(seed, players, bot_seed)
    assert not problems, "\n".join(problems[:20])
    assert pruned == 0


def test_the_checked_campaigns_reach_every_phase_kind_and_order_kind():
    phases: Counter = Counter()
    kinds: Counter = Counter()
    conditions: Counter = Counter()
    for campaign in CAMPAIGNS:
        seen, given, waiting, _, _ = checked_campaign(*campaign)
        phases += seen
        kinds += given
        conditions += waiting
    assert set(PHASE_KINDS) <= set(phases), sorted(phases)
    assert phases["coup_final"] >= 2
    assert set(KINDS) <= set(kinds), sorted(set(KINDS) - set(kinds))
    assert set(CONDITIONS) <= set(conditions), sorted(conditions)


def test_bot_orders_are_the_picks_orders():
    """`bot_orders` gives the orders of `bot_picks` (nothing pruned), from the same draws."""
    state = new_game("bot-orders", NAMES[:7])
    first, second = Rng("same"), Rng("same")
    for _ in range(12):
        orders = {}
        for seat in range(len(state.players)):
            orders[seat] = bot_orders(state, seat, first)
            assert orders[seat] == [p.order for p in bot_picks(state, seat, second)]
        state = resolve(state, orders).state


def test_the_check_catches_values_and_orders_not_offered():
    """Negative control: a value the option does not offer, a condition it does not offer and
    an order `build` did not make are each caught."""
    state = new_game("bot-control", NAMES[:6])
    option = legal_options(state, 0).get("nominate")
    good = Pick("nominate", {"candidate": 1}, None, build(state, 0, option, {"candidate": 1}))
    assert pick_problems(state, 0, option, good) == []
    outsider = Pick("nominate", {"candidate": 99}, None,
                    build(state, 0, option, {"candidate": 99}))
    assert any("not among" in m for m in pick_problems(state, 0, option, outsider))
    waiting = Pick("nominate", {"candidate": 1}, ("coup_excuse", {}), good.order)
    assert any("not offered" in m for m in pick_problems(state, 0, option, waiting))
    forged = Pick("nominate", {"candidate": 1}, None, Order("nominate", {"candidate": 2}))
    assert any("not what build makes" in m for m in pick_problems(state, 0, option, forged))
    assert any("no such option" in m for m in pick_problems(state, 0, None, good))
