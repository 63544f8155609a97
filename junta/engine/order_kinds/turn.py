"""The orders of the turn's Cabinet and budget: the appointment of the Cabinet, the New
Weapons, the draws of budget bills, the proposal of the budget and the Minister of Internal
Security's decision to seize the Chamber (phases/cabinet.py, phases/budget.py carry them out).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from .. import catalog
from ..budget_plan import ProposalArgs, check_proposal, pay_plan, read_allocations
from ..cabinet import check_cabinet, eligible_seats
from ..enums import PhaseKind, Step
from ..order import As, Order
from ..problems import Problem
from ..state import BIL, GameState
from ..words import gettext_noop
from .base import NOTHING, OrderKindSpec, Share, T, amount_of, positive
from .offering import ArgOption, Choice, Shape, number, one, standing_cabinet

if TYPE_CHECKING:
    from .offering import Builder, OrderOption


class AppointArgs(TypedDict):
    # every position of the Cabinet, each to a seat, the Brother-in-Law (BIL) or no one
    positions: Annotated[dict[str, int | None], As("The Cabinet", T.TABLE)]


class NewWeaponsArgs(TypedDict):
    position: Annotated[str | None, As("Assign to", T.POSITION)]  # None: no one


class DrawArgs(TypedDict):
    position: Annotated[str, As("As", T.POSITION)]
    count: Annotated[int, As("Bills", T.AMOUNT)]


class SeizeArgs(TypedDict):
    seize: Annotated[bool, As("Decision", T.FLAG)]


class Appoint(OrderKindSpec[AppointArgs]):
    """"The President appoints the nine Cabinet positions" (docs/rules.md §appointment)."""
    name = "appoint"
    label = "Appoint the Cabinet"
    rules = ("appointment", "ruling-exile-back-in-cabinet", "ruling-no-president")
    step = Step.APPOINTMENT
    phases = frozenset({PhaseKind.CABINET})
    single = True
    likely = True
    first_that_holds = True

    def from_form(self, state: GameState, seat: int, option: OrderOption,
                  values: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """Every position of the table, a blank one too (no one appointed to it)."""
        table, chosen = option.arg("positions"), values.get("positions") or {}
        args["positions"] = {k.value: chosen.get(k.value) for k in table.keys} \
            if table is not None else chosen
        return args

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.president != seat:
            return [Problem(gettext_noop("Only the President appoints the Cabinet."))]
        return check_cabinet(state, self.of(order).get("positions"))

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        parts = []
        for pos, holder in (self.read(args).get("positions") or {}).items():
            who = "vacant" if holder is None else state.name(holder)
            parts.append(f"{catalog.TITLES.get(pos, pos)}: {who}")
        return "Appoint " + "; ".join(parts)

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if s.phase != PhaseKind.CABINET or b.seat != s.president:
            return
        holders: list[tuple[Any, str]] = [(x, s.name(x)) for x in eligible_seats(s)]
        holders.append((BIL, "your Brother-in-Law"))
        b.add("appoint", "Every living player in the country needs a position; at most two "
              "each, never two Generals; your Brother-in-Law may take one. The form starts "
              "with the Cabinet as it stands.",
              [ArgOption("positions", "The Cabinet", Shape.TABLE,
                         tuple(Choice(v, t) for v, t in holders),
                         keys=tuple(Choice(k, catalog.TITLES[k]) for k in catalog.CABINET),
                         blank="vacant", default=standing_cabinet(s), combined=True)])


class NewWeapons(OrderKindSpec[NewWeaponsArgs]):
    """"The Minister of War gives New Weapons to a General, the Admiral, the Air Force
    Commander, or to nobody" (docs/rules.md §new-weapons)."""
    name = "new_weapons"
    label = "Assign New Weapons"
    rules = ("new-weapons", "war")
    step = Step.DRAWS
    phases = frozenset({PhaseKind.BUDGET_DRAW})
    single = True
    first_that_holds = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if catalog.WAR not in state.commanded_positions(seat):
            return [Problem(gettext_noop("Only the Minister of War assigns New Weapons."))]
        target = self.of(order).get("position")
        if target is not None and target not in catalog.NEW_WEAPONS_TARGETS:
            return [Problem(gettext_noop(
                "New Weapons go to a General, the Admiral, the Air Force Commander or "
                            "no one."), "position")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        pos = self.read(args).get("position")
        title = catalog.TITLES.get(pos, "no one") if isinstance(pos, str) else "no one"
        return f"New Weapons to {title}"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase == PhaseKind.BUDGET_DRAW and catalog.WAR in b.commands:
            b.add("new_weapons", "New Weapons: a General, the Admiral, the Air Force "
                  "Commander or no one.",
                  [one("position", "Assign to", [(k, catalog.TITLES[k]) for k in
                                                 catalog.NEW_WEAPONS_TARGETS],
                       blank="no one")])


class DrawBills(OrderKindSpec[DrawArgs]):
    """The Foreign Minister and the Farm & Labor Secretary "each decide secretly how
    many bills to draw, 1 to 6" (docs/rules.md §draws)."""
    name = "draw_bills"
    label = "Draw budget bills"
    rules = ("draws", "ruling-draws-near-end", "ruling-vacant-draw")
    step = Step.DRAWS
    phases = frozenset({PhaseKind.BUDGET_DRAW})
    template = "Draw {count} bills as {position}"
    first_that_holds = True
    likely = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        a = self.of(order)
        position = a.get("position")
        count = amount_of(a.get("count"))
        errors = []
        if position not in (catalog.FOREIGN, catalog.FARM_LABOR):
            errors.append(Problem(gettext_noop(
                "Budget bills are drawn by the Foreign Minister or the Farm & "
                                  "Labor Secretary."), "position"))
        elif position not in state.commanded_positions(seat):
            errors.append(Problem(f"You are not the {catalog.TITLES[position]}.", "position"))
        if count is None or not 1 <= count <= 6:
            errors.append(Problem(gettext_noop("Draw between 1 and 6 bills."), "count"))
        return errors

    def fallback_group(self, order: Order) -> tuple[str, str] | None:
        """The draws for one position: of them the first whose condition holds is carried
        out."""
        return (self.name, str(self.of(order).get("position")))

    def once(self, order: Order) -> tuple[str, str] | None:
        return (f"{self.name}:{self.of(order).get('position')}",
                "You gave two draw orders for the same position; give one.")

    def replaces(self, new: Order, old: Order) -> bool:
        """A draw replaces the draw for the same position."""
        return self.of(new).get("position") == self.of(old).get("position")

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase != PhaseKind.BUDGET_DRAW:
            return
        mine = [(k, catalog.TITLES[k]) for k in (catalog.FOREIGN, catalog.FARM_LABOR)
                if k in b.commands]
        if mine:
            b.add("draw_bills", "Draw 1 to 6 bills; with no order the number is random.",
                  [one("position", "As", mine), number("count", "Bills", 1, 6)])


class ProposeBudget(OrderKindSpec[ProposalArgs]):
    """"The President proposes a total in MP for each player"
    (docs/rules.md §budget-proposal)."""
    name = "propose_budget"
    label = "Propose the budget"
    rules = ("budget-proposal", "ruling-feasibility", "ruling-pocket-set-aside",
             "ruling-alternative-budget")
    step = Step.PROPOSAL
    phases = frozenset({PhaseKind.BUDGET_PROPOSAL})
    single = True
    likely = True
    first_that_holds = True

    def from_form(self, state: GameState, seat: int, option: OrderOption,
                  values: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """The totals by seat (a blank or 0 total none), what the pocket adds (blank: 0), and
        the bills handed out, chosen row by row of the held bills (highest first)."""
        totals = values.get("allocations") or {}
        args["allocations"] = {str(k): v for k, v in totals.items() if v not in (None, "") and v}
        if option.arg("from_pocket") is not None:
            args.setdefault("from_pocket", 0)
        held = sorted(state.budget.get("held", []), reverse=True)
        bills: dict[str, list[int]] = {}
        for index, to in sorted((values.get("bills") or {}).items()):
            if to not in (None, "") and isinstance(index, int) and 0 <= index < len(held):
                bills.setdefault(str(to), []).append(held[index])
        args.pop("bills", None)
        if bills:
            args["bills"] = bills
        return args

    def to_form(self, state: GameState, order: Order, values: dict[str, Any]) -> None:
        a = self.of(order)
        values["allocations"] = {int(k): v for k, v in (a.get("allocations") or {}).items()}
        held = sorted(state.budget.get("held", []), reverse=True)
        rows: dict[int, Any] = {}
        for to, denoms in (a.get("bills") or {}).items():
            for d in denoms:
                index = next((i for i, b in enumerate(held) if b == d and i not in rows), None)
                if index is not None:
                    rows[index] = int(to)
        values["bills"] = rows

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if state.budget.get("proposer", state.president) != seat:
            return [Problem(gettext_noop("Only the President proposes the budget."))]
        return check_proposal(state, seat, order.args)

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        def name(seat: str) -> str:
            return state.name(int(seat)) if str(seat).lstrip("-").isdigit() else str(seat)

        a = self.read(args)
        parts = [f"{name(s)} {n} MP" for s, n in sorted((a.get("allocations") or {}).items())]
        text = "Budget: " + (", ".join(parts) or "nothing for anyone")
        if a.get("from_pocket"):
            text += f", adding {a['from_pocket']} MP from my pocket"
        bills = a.get("bills")
        if isinstance(bills, dict) and bills:
            text += " (bills: " + "; ".join(f"{name(s)} {', '.join(map(str, d))} MP"
                                            for s, d in sorted(bills.items())) + ")"
        return text

    def share(self, state: GameState, order: Order) -> Share:
        """What the proposal takes from the proposer's pocket: the gap its totals leave after
        the budget bills (at most what he says he adds)."""
        a = self.of(order)
        allocations, errors = read_allocations(state, a)
        from_pocket = positive(a.get("from_pocket", 0))
        if errors or not from_pocket:
            return NOTHING
        plan, _ = pay_plan(state.budget.get("held", []), allocations, from_pocket,
                           a.get("bills"), state)
        need = sum(plan["top_up"].values()) if plan else from_pocket
        return Share(pocket=need, pocket_words=f"the budget's {need} MP from your pocket") \
            if need else NOTHING

    def offers(self, b: Builder, group: str = "") -> None:
        s, p = b.s, b.p
        if s.phase != PhaseKind.BUDGET_PROPOSAL or b.seat != s.budget.get("proposer",
                                                                          s.president):
            return
        held = sorted(s.budget.get("held", []), reverse=True)
        bills = (f"You hold {sum(held)} MP in bills ({', '.join(map(str, held))})."
                 if held else "You hold no bills.")
        everyone = b.players(include_self=True)
        args = [ArgOption("allocations", "Totals", Shape.TABLE,
                          keys=tuple(Choice(x, n) for x, n in everyone), minimum=0,
                          maximum=sum(held) + p.pocket, required=False, combined=True,
                          help="The MP each player receives; a player left empty gets "
                               "nothing."),
                number("from_pocket", "Add from your pocket", 0, p.pocket, required=False,
                       help=f"You have {p.pocket} MP in your pocket.", combined=True)]
        if held:
            args.append(ArgOption(
                "bills", "Which bill goes to whom", Shape.TABLE,
                tuple(Choice(x, n) for x, n in everyone),
                keys=tuple(Choice(i, f"Bill {i + 1}: {bill} MP goes to")
                           for i, bill in enumerate(held)),
                blank="as the plan decides", required=False, combined=True,
                help="Optional: a bill you hand to a player counts toward his total; the "
                     "other bills make up the totals with as little from your pocket as "
                     "possible."))
        b.add("propose_budget", f"Give each player a total; what you do not allocate you "
              f"keep. {bills}", args)


class SeizeChamber(OrderKindSpec[SeizeArgs]):
    """After a defeated budget the Minister of Internal Security "either seizes the
    Chamber ... or lets the budget stay defeated" (docs/rules.md §seize)."""
    name = "seize_chamber"
    label = "Seize the Chamber or not"
    rules = ("seize",)
    step = Step.SEIZE_DECISION
    phases = frozenset({PhaseKind.INTERNAL_SECURITY})
    single = True
    likely = True
    first_that_holds = True

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        if catalog.INTERNAL_SECURITY not in state.commanded_positions(seat):
            return [Problem(gettext_noop(
                "Only the Minister of Internal Security decides whether to seize the "
                            "Chamber."))]
        if not isinstance(self.of(order).get("seize"), bool):
            return [Problem(gettext_noop(
                "Decide: seize the Chamber (true) or let the budget stay defeated "
                            "(false)."), "seize")]
        return []

    def describe(self, state: GameState, args: Mapping[str, object]) -> str:
        return "Seize the Chamber" if self.read(args).get("seize") else \
            "Let the budget stay defeated"

    def offers(self, b: Builder, group: str = "") -> None:
        if b.s.phase == PhaseKind.INTERNAL_SECURITY and catalog.INTERNAL_SECURITY in b.commands:
            b.add("seize_chamber", "Seize the Chamber (the budget passes at gunpoint, the "
                  "Bank closes for lunch) or let it stay defeated.",
                  [one("seize", "Decision", [(False, "Let the budget stay defeated"),
                                             (True, "Seize the Chamber")])])
