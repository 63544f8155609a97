"""A message about an order, and what it is about.

The engine's checks return `Problem`s: each is the message itself (a `str`, so it reads,
compares and joins like one) and says what it concerns, so a page can put it next to the
field that causes it without trying other values:

- `arg`: the order's argument ("amount", "to", "allocations"), "condition" or
  "condition.<arg>" for its condition, or None for the order as a whole;
- `orders`: for a problem of a whole set of orders, the orders involved (0-based positions in
  the list checked), so that both orders of a clash are named;
- `words`: the message as a message id and its parameters (words.py), for a page to say it in
  its reader's language, when the message names something (a card, a player, an amount).
  A message that names nothing is its own message id (marked with `gettext_noop`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .words import Param, Term, Words, gettext_noop, words

ORDER_N = gettext_noop("Order {n}: {problem}")  # a problem of one order of a set


class Problem(str):
    arg: str | None
    orders: tuple[int, ...]
    words: Words | None

    def __new__(cls, text: str | Words, arg: str | None = None, orders: tuple[int, ...] = ()
                ) -> Problem:
        said = text if isinstance(text, Words) else None
        problem = super().__new__(cls, text.english() if isinstance(text, Words) else text)
        problem.arg = arg
        problem.orders = tuple(orders)
        problem.words = said
        return problem

    def __reduce__(self) -> tuple[type[Problem], tuple[str | Words, str | None, tuple[int, ...]]]:
        return (Problem, (self._said(), self.arg, self.orders))

    def _said(self) -> str | Words:
        return self.words if self.words is not None else str(self)

    def about(self, arg: str | None) -> Problem:
        """The same message, about `arg`."""
        return Problem(self._said(), arg, self.orders)

    def within(self, index: int) -> Problem:
        """The same message, about order `index` of a set."""
        return Problem(self._said(), self.arg, (index,))

    def numbered(self, index: int) -> Problem:
        """"Order 2: ...": the message about order `index` of a set, which it names."""
        return Problem(words(ORDER_N, n=index + 1, problem=said(self)), self.arg, (index,))

    def unnumbered(self) -> Problem:
        """The message without the number of the order it is about (`numbered`), for a page
        that shows it next to that order."""
        if self.words is not None and self.words.msgid == ORDER_N:
            inner = self.words.params["problem"]
            return Problem(inner if isinstance(inner, Words) else
                           inner.msgid if isinstance(inner, Term) else str(inner),
                           self.arg, self.orders)
        return self


def said(message: str) -> Param:
    """A message as a parameter of another: its words, else its text (a message id)."""
    if isinstance(message, Problem) and message.words is not None:
        return message.words
    return Term(str(message))


def keyed(messages: Sequence[str], arg: str | None) -> list[Problem]:
    """Messages about one argument (or, with None, about the order as a whole); a message that
    already names what it is about keeps it."""
    return [m if isinstance(m, Problem) and m.arg is not None else
            m.about(arg) if isinstance(m, Problem) else Problem(m, arg)
            for m in messages]
