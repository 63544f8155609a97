"""A message about an order, and what it is about.

The engine's checks return `Problem`s: each is the message itself (a `str`, so it reads,
compares and joins like one) and says what it concerns, so a page can put it next to the
field that causes it without trying other values:

- `arg`: the order's argument ("amount", "to", "allocations"), "condition" or
  "condition.<arg>" for its condition, or None for the order as a whole;
- `orders`: for a problem of a whole set of orders, the orders involved (0-based positions in
  the list checked), so that both orders of a clash are named.
"""

from __future__ import annotations

from collections.abc import Sequence


class Problem(str):
    arg: str | None
    orders: tuple[int, ...]

    def __new__(cls, text: str, arg: str | None = None, orders: tuple[int, ...] = ()
                ) -> Problem:
        problem = super().__new__(cls, text)
        problem.arg = arg
        problem.orders = tuple(orders)
        return problem

    def __reduce__(self) -> tuple[type[Problem], tuple[str, str | None, tuple[int, ...]]]:
        return (Problem, (str(self), self.arg, self.orders))

    def about(self, arg: str | None) -> Problem:
        """The same message, about `arg`."""
        return Problem(str(self), arg, self.orders)

    def within(self, index: int) -> Problem:
        """The same message, about order `index` of a set."""
        return Problem(str(self), self.arg, (index,))


def keyed(messages: Sequence[str], arg: str | None) -> list[Problem]:
    """Messages about one argument (or, with None, about the order as a whole); a message that
    already names what it is about keeps it."""
    return [m if isinstance(m, Problem) and m.arg is not None else Problem(m, arg)
            for m in messages]
