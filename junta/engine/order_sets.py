"""What one player's orders for a phase may not do together: the whole-set checks.

Each order is checked on its own first (`orders.validate_order`); here the set: one order of a
kind that allows one (two locations, two ballots), the Secret Police's one attempt, one
Airstrike per source (each kind's `once`), the stack moves allowed, and every resource two
orders would spend twice (each kind's `share`).
A set that spends the same thing twice is refused when it is given, naming both orders, rather
than cut short when it resolves:

- the pocket: payments, money given in trades, deposits, the budget's money from the
  President's pocket, card and assassin costs;
- the Bank: withdrawals;
- a card: given, traded, played, discarded, counted in a ballot or sent as an assassin;
- a unit: handed over before the moves, moved, sent in the Police Response.

Two orders whose conditions cannot both hold ("if Bill is at the Bank", "if Bill is at Home")
never happen together, so they may draw on the same thing (`conditions.exclusive`).
(docs/rules.md §order-sets; docs/rulings.md §ruling-nothing-spent-twice,
§ruling-exclusive-conditions).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import catalog
from .conditions import branch, exclusive
from .kinds import ORDER_KINDS, fallback_group
from .order import Order
from .order_kinds.base import Share
from .order_kinds.coup import check_moves_allowed
from .problems import Problem
from .state import GameState
from .steps import COUP_PHASES

DISCOUNTED = ("Bankers", "Monarchists")  # 1 MP a turn each off Assassin and Bribe costs


def check_set(state: GameState, seat: int, orders: list[Order]) -> list[Problem]:
    """Why these orders cannot all be given together (each one legal on its own).
    (docs/rules.md §order-sets, docs/rulings.md §ruling-nothing-spent-twice)."""
    problems = _singles(orders)
    if state.phase in COUP_PHASES:
        problems += check_moves_allowed(state, seat, orders)
    problems += _pocket(state, seat, orders)
    problems += _bank(state, seat, orders)
    problems += _cards(state, orders)
    problems += _units(state, orders)
    return problems


# --- one of a kind ---------------------------------------------------------------------------

def _singles(orders: list[Order]) -> list[Problem]:
    groups: dict[tuple[str, str], list[int]] = {}  # (group, words) -> the orders in it
    for i, order in enumerate(orders):
        spec = ORDER_KINDS.get(order.kind)
        once = spec.once(order) if spec is not None and order.condition is None else None
        if once is not None:
            groups.setdefault(once, []).append(i)
    out = [Problem(words.format(count=len(found)), orders=tuple(found))
           for (_, words), found in groups.items() if len(found) > 1]
    fallback: dict[tuple[str, str], int] = {}
    for i, order in enumerate(orders):
        group = fallback_group(order)
        if group is None:
            continue
        if order.condition is None:
            fallback.setdefault(group, i)
        elif group in fallback:
            out.append(Problem(
                f"Order {i + 1} could never be carried out: order {fallback[group] + 1}, of the "
                "same kind with no condition, comes before it and always holds. Give the order "
                "with a condition first.", orders=(fallback[group], i)))
    return out


# --- what may happen together ----------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    index: int  # the order's position in the set
    order: Order
    amount: int
    words: str  # "your payment of 5 MP to Bill"


def worst_case(draws: list[Draw]) -> list[Draw]:
    """The largest draw that can happen at once: every draw whose condition no other excludes,
    and for each question that conditions answer (where Bill goes, how the vote ends) the answer
    whose orders draw the most (docs/rulings.md §ruling-exclusive-conditions)."""
    free = [d for d in draws if branch(d.order.condition) is None]
    questions: dict[tuple[object, ...], dict[object, list[Draw]]] = {}
    for d in draws:
        b = branch(d.order.condition)
        if b is not None:
            questions.setdefault(b[0], {}).setdefault(b[1], []).append(d)
    chosen = list(free)
    for answers in questions.values():
        chosen += max(answers.values(), key=lambda ds: sum(d.amount for d in ds))
    return sorted(chosen, key=lambda d: d.index)


def _listed(words: Iterable[str]) -> str:
    items = list(words)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _numbers(draws: list[Draw]) -> str:
    found = [str(d.index + 1) for d in draws]
    return f"order {found[0]}" if len(found) == 1 else f"orders {_listed(found)}"


def _overdrawn(draws: list[Draw], have: int, where: str, discount: int = 0) -> list[Problem]:
    together = worst_case(draws)
    total = sum(d.amount for d in together)
    if len(together) < 2 or total - discount <= have:
        return []
    orders = tuple(d.index for d in together)
    off = f" (after your {discount} MP discount)" if discount else ""
    if len(together) == 2:
        first, second = together
        text = (f"{first.words[0].upper()}{first.words[1:]} leaves your {where} short for "
                f"{second.words}: together "
                f"they need {total - discount} MP{off} and you have {have} MP "
                f"({_numbers(together)}). Lower an amount or give one up.")
    else:
        text = (f"Your orders take {total - discount} MP{off} from your {where}, which holds "
                f"{have} MP: {_listed(d.words for d in together)} ({_numbers(together)}). "
                "Lower an amount or give one up.")
    return [Problem(text, orders=orders)]


def _shares(state: GameState, orders: list[Order]) -> list[tuple[int, Order, Share]]:
    """Each order's share in what the set spends (its kind's `share`), with its position."""
    return [(i, o, ORDER_KINDS[o.kind].share(state, o)) for i, o in enumerate(orders)
            if o.kind in ORDER_KINDS]


def _pocket(state: GameState, seat: int, orders: list[Order]) -> list[Problem]:
    """"A player's pocket can never go negative; any payment that would is refused."""
    draws: list[Draw] = []
    discounted = 0  # Assassin and Bribe costs, which Bankers and Monarchists lower
    for i, o, share in _shares(state, orders):
        if share.pocket:
            draws.append(Draw(i, o, share.pocket, share.pocket_words))
            if share.discounted:
                discounted += share.pocket
    discount = min(_discount(state, seat), discounted)
    return _overdrawn(draws, state.players[seat].pocket, "pocket", discount)


def _discount(state: GameState, seat: int) -> int:
    used = state.turn_flags.get("influence_discount_used", {})
    return sum(1 for cid in state.players[seat].influence
               if catalog.card(cid).name in DISCOUNTED and not used.get(f"{seat}:{cid}"))


def _bank(state: GameState, seat: int, orders: list[Order]) -> list[Problem]:
    draws = [Draw(i, o, share.bank, share.bank_words)
             for i, o, share in _shares(state, orders) if share.bank]
    return _overdrawn(draws, state.players[seat].bank, "Bank account")


# --- one card, one unit, one use -------------------------------------------------------------

def _uses_of_cards(state: GameState, orders: list[Order]) -> dict[int, list[tuple[int, str]]]:
    uses: dict[int, list[tuple[int, str]]] = {}
    for i, _, share in _shares(state, orders):
        for card, words in share.cards:
            uses.setdefault(card, []).append((i, words))
    return uses


def _cards(state: GameState, orders: list[Order]) -> list[Problem]:
    out = []
    for card, uses in sorted(_uses_of_cards(state, orders).items()):
        clash = _clashing(orders, uses)
        if clash:
            (i, first), (j, second) = clash
            same = " (twice)" if i == j else ""
            out.append(Problem(
                f"{catalog.card(card).name} is used by two of your orders{same}: {first} "
                f"(order {i + 1}) and {second} (order {j + 1}). A card can be used once.",
                orders=tuple(sorted({i, j}))))
    return out


def _clashing(orders: list[Order], uses: list[tuple[int, str]]
              ) -> tuple[tuple[int, str], tuple[int, str]] | None:
    for n, (i, first) in enumerate(uses):
        for j, second in uses[n + 1:]:
            if i == j or not exclusive(orders[i].condition, orders[j].condition):
                return (i, first), (j, second)
    return None


def _units(state: GameState, orders: list[Order]) -> list[Problem]:
    """A unit is handed over once and moves once a phase; one handed over before the moves is
    no longer yours to move. (A unit may move and then be handed over after the moves.)"""
    units = state.coup["units"] if state.coup else []
    labels = {u["id"]: f"{u['kind']} #{u['id']}" for u in units}
    uses: dict[int, list[tuple[int, str, str]]] = {}  # unit -> (order, what, words)
    for i, _, share in _shares(state, orders):
        for unit in share.units:
            uses.setdefault(unit, []).append((i, share.unit_use, share.unit_words))
    out = []
    for unit, found in sorted(uses.items(), key=lambda kv: str(kv[0])):
        pairs = [(a, b) for n, a in enumerate(found) for b in found[n + 1:]
                 if _unit_clash(a[1], b[1]) and (
                     a[0] == b[0] or not exclusive(orders[a[0]].condition,
                                                   orders[b[0]].condition))]
        if pairs:
            (i, _, first), (j, _, second) = pairs[0]
            out.append(Problem(
                f"{labels.get(unit, f'Unit #{unit}')} is named in two of your orders: {first} "
                f"(order {i + 1}) and {second} (order {j + 1}). A unit is handed over once and "
                "moves once a phase.", orders=tuple(sorted({i, j}))))
    return out


def _unit_clash(first: str, second: str) -> bool:
    """Two uses of one unit that cannot both happen: anything but a move and a hand-over
    after the moves."""
    return {first, second} != {"move", "handover"}
