"""Whether a condition holds, from the facts the resolution has settled so far."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .orders import Condition

if TYPE_CHECKING:
    from .context import Context


def holds(ctx: Context, c: Condition) -> bool:
    f = ctx.facts
    seat = c.args.get("seat")
    match c.kind:
        case "card_played":
            return any(p == seat and name == c.args.get("card")
                       for p, name in f.get("cards_played", []))
        case "location":
            return f.get("locations", {}).get(seat) == c.args.get("location")
        case "exiled":
            return seat in f.get("exiled", [])
        case "killed":
            return seat in f.get("killed", [])
        case "survives":
            return seat not in f.get("killed", [])
        case "banks":
            return seat in f.get("banked", [])
        case "coup_excuse":
            return bool(ctx.state.coup_excuse)
        case "voted":
            return f.get("votes_cast", {}).get(seat) == c.args.get("choice")
        case "vote_result":
            result = f.get("vote_result")
            if result is None:
                return False
            wanted = c.args.get("result")
            if wanted and result["outcome"] != wanted:
                return False
            margin = c.args.get("margin_at_most")
            return margin is None or result["margin"] <= margin
        case "elected":
            return f.get("elected") == seat
        case "appointed":
            return ctx.state.positions.get(c.args.get("position")) == seat \
                and f.get("appointed", False)
    return False
