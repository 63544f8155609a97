"""Whether a condition holds, from the facts the resolution has settled so far."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .orders import Condition

if TYPE_CHECKING:
    from .context import Context


def holds(ctx: Context, c: Condition) -> bool:
    f = ctx.facts
    seat: Any = c.args.get("seat")  # None for a condition about no one
    match c.kind:
        case "card_played":
            return any(p == seat and name == c.args.get("card")
                       for p, name in f.cards_played)
        case "location":
            return f.locations.get(seat) == c.args.get("location")
        case "exiled":
            return seat in f.exiled
        case "killed":
            return seat in f.killed
        case "survives":
            return seat not in f.killed
        case "banks":
            return seat in f.banked
        case "coup_excuse":
            return bool(ctx.state.coup_excuse)
        case "voted":
            return f.votes_cast.get(seat) == c.args.get("choice")
        case "vote_result":
            result = f.vote_result
            if result is None:
                return False
            wanted = c.args.get("result")
            if wanted and result.outcome != wanted:
                return False
            margin = c.args.get("margin_at_most")
            return margin is None or bool(result.margin <= margin)
        case "elected":
            return bool(f.elected == seat)
        case "appointed":
            position: Any = c.args.get("position")
            return ctx.state.positions.get(position) == seat \
                and f.appointed
    return False


def branch(c: Condition | None) -> tuple[tuple[object, ...], object] | None:
    """The question a condition answers and the answer it waits for, when another answer to
    the same question rules it out: ("whereabouts", seat) is answered by one location or exile,
    ("fate", seat) by killed or survives, ("ballot", seat) by one choice, ("result",) by passes
    or fails, ("elected",) by one seat, ("appointed", position) by one seat. None for a
    condition that no other condition excludes (a card played, a deposit, a Coup Excuse, a vote
    result "either way")."""
    if c is None:
        return None
    seat = c.args.get("seat")
    match c.kind:
        case "location":
            return ("whereabouts", seat), c.args.get("location")
        case "exiled":
            return ("whereabouts", seat), "exile"
        case "killed" | "survives":
            return ("fate", seat), c.kind
        case "voted":
            return ("ballot", seat), c.args.get("choice")
        case "vote_result" if c.args.get("result"):
            return ("result",), c.args.get("result")
        case "elected":
            return ("elected",), seat
        case "appointed":
            return ("appointed", c.args.get("position")), seat
    return None


def exclusive(a: Condition | None, b: Condition | None) -> bool:
    """Whether two conditions can never both hold: the same question, different answers
    ("Bill is at the Bank" and "Bill is at Home"; "the vote passes" and "the vote fails").
    (docs/rulings.md §ruling-exclusive-conditions)."""
    first, second = branch(a), branch(b)
    return first is not None and second is not None and first[0] == second[0] \
        and first[1] != second[1]
