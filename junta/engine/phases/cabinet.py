"""Cabinet Appointment: the President's legal appointment, else a Cabinet by lot (the rule of
a legal Cabinet: cabinet.py). (docs/rules.md §appointment, §brother-in-law, §president) """

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog
from ..cabinet import check_cabinet, random_cabinet
from ..order_kinds.turn import Appoint
from ..words import Items, Position, Term, gettext_noop, words

if TYPE_CHECKING:
    from ..context import Context


def appoint(ctx: Context) -> None:
    """The President's legal appointment, else a Cabinet by lot (docs/rules.md §appointment,
    §missed-orders)."""
    s = ctx.state
    president = s.president
    chosen = None
    for order in ctx.orders_of(president, "appoint") if president is not None else []:
        if ctx.holds(order.condition) and not check_cabinet(s, Appoint.of(order).get("positions")):
            positions = Appoint.of(order)["positions"]
            chosen = {p: positions.get(p) for p in catalog.CABINET}
            break
    if chosen is None:
        chosen = random_cabinet(s, ctx.rng)
        if president is not None:
            ctx.public("cabinet_default", words(gettext_noop(
                "No legal appointment reached the Chamber: the Cabinet is appointed by lot.")))
    for pos in catalog.CABINET:
        s.positions[pos] = chosen[pos]
    ctx.facts.appointed = True
    lines = []
    for pos in catalog.CABINET:
        holder = chosen[pos]
        who = Term(gettext_noop("vacant")) if holder is None else s.name(holder)
        lines.append(words(gettext_noop("{position}: {seat}"), position=Position(pos),
                           seat=who))
    ctx.public("cabinet", words(gettext_noop("The Cabinet is appointed. {lines}."),
                                lines=Items(tuple(lines), sep="; ")), positions=dict(chosen))
