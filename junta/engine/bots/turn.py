"""The bot's orders of the turn: the Cabinet, the New Weapons and the draws of bills, the
budget proposal, seizing the Chamber; and what a proposal spends."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cabinet import random_cabinet
from ..enums import PhaseKind
from ..order_kinds import turn as kinds
from .core import BotCore, Spends, Spent

SPENDS: Spends = {
    kinds.ProposeBudget.name: lambda order: Spent(
        price=kinds.ProposeBudget.of(order).get("from_pocket") or 0),
}


class TurnBot(BotCore):
    def cabinet(self) -> None:
        """A random legal Cabinet (the engine's own lot) when every holder it names is offered;
        else the Cabinet the form starts with."""
        option = self.options.get("appoint")
        arg = option.arg("positions") if option is not None else None
        if option is None or arg is None:
            return
        cabinet = random_cabinet(self.state, self.rng)
        holders = arg.values()
        keys = [k.value for k in arg.keys]
        if set(cabinet) != set(keys) or any(h is not None and h not in holders
                                            for h in cabinet.values()):
            cabinet = dict(arg.default or {})
        self.use(option, {"positions": cabinet})

    def budget_draw(self) -> None:
        weapons = self.options.get("new_weapons")
        if weapons is not None:
            arg = weapons.arg("position")
            blank = [None] if arg is not None and arg.blank is not None else []
            self.use(weapons, {"position": self.rng.choice(
                [*blank, *self.allowed(weapons, "position")])})
        draw = self.options.get("draw_bills")
        if draw is not None:
            for position in self.allowed(draw, "position"):
                if self.rng.below(5):
                    self.use(draw, {"position": position, "count": self.number(
                        draw, "count", 1, 6)})

    def proposal(self) -> None:
        """Each bill to a random player, now and then one skimmed; sometimes the bills named,
        sometimes money added from the pocket."""
        rng = self.rng
        option = self.options.get("propose_budget")
        totals = option.arg("allocations") if option is not None else None
        if option is None or totals is None:
            return
        held = sorted(self.state.budget.get("held", []), reverse=True)  # the bills' rows
        rows = list(range(len(held)))
        rng.shuffle(rows)
        seats = [k.value for k in totals.keys]
        allocations: dict[int, int] = {}
        bills: dict[int, int] = {}
        for row in rows:
            if rng.below(4) == 0 or not seats:
                continue  # skimmed
            to = rng.choice(seats)
            allocations[to] = allocations.get(to, 0) + held[row]
            bills[row] = to
        values: dict[str, Any] = {"allocations": allocations}
        bill_arg = option.arg("bills")
        if bill_arg is not None and rng.below(2) == 0 and \
                all(to in bill_arg.values() for to in bills.values()):
            values["bills"] = bills
        if self.pocket and rng.below(4) == 0 and allocations:
            extra = self.number(option, "from_pocket", 1, self.pocket)
            if extra:
                first = min(allocations)
                allocations[first] += extra
                values["from_pocket"] = extra
        self.use(option, values)

    def internal_security(self) -> None:
        option = self.options.get("seize_chamber")
        if option is not None:
            seize = self.rng.below(2) == 0
            if seize in self.allowed(option, "seize"):
                self.use(option, {"seize": seize})


PLAYS: Mapping[PhaseKind, tuple[Callable[[TurnBot], None], ...]] = {
    PhaseKind.CABINET: (TurnBot.cabinet,),
    PhaseKind.BUDGET_DRAW: (TurnBot.budget_draw,),
    PhaseKind.BUDGET_PROPOSAL: (TurnBot.proposal,),
    PhaseKind.INTERNAL_SECURITY: (TurnBot.internal_security,),
}
