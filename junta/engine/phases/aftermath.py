"""The Coup Aftermath: the Junta's election, the firing squad, and banking after lunch.

"If the President Won the Coup... The President may send any one Rebel player to the Firing
Squad." "If the Rebels Won the Coup... The Junta will have one day to elect a President. Any
live player may be elected by the Junta, including the sitting President. A newly elected
President may execute ANY one player." "Should the Bank have been Closed for Lunch... it
reopens during the Coup Aftermath (with resolution occurring after the Presidential
execution)."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog
from ..enums import Status
from ..order_kinds.aftermath import Execute, JuntaVote
from ..words import gettext_noop, words
from .election import take_office
from .locations import banking as _banking

if TYPE_CHECKING:
    from ..context import Context


def junta_vote(ctx: Context) -> None:
    """"Players that are Rebels make up a Junta... and are each given one vote to decide the
    next President"; "the First Rebel has the tie-breaking vote in the resulting Junta".
    Ruling: with no ballot cast, the First Rebel takes the Presidency if he is in the country,
    else the lot decides among the Rebels who are; a tie the First Rebel's ballot does not settle
    goes to the lot; with no Rebel in the country the President falls and the Chamber elects.
    (docs/rules.md §junta; docs/rulings.md §ruling-junta)."""
    s = ctx.state
    coup = ctx.coup
    if coup.get("result") != "junta":
        return
    junta = [seat for seat in s.active_seats() if s.players[seat].rebel]
    ballots: dict[int, int] = {}
    for seat in junta:
        for order in ctx.orders_of(seat, "junta_vote"):
            candidate = JuntaVote.of(order)["candidate"]
            if ctx.holds(order.condition) and s.players[candidate].active:
                ballots[seat] = candidate
                break
    for seat, candidate in sorted(ballots.items()):
        ctx.public("junta_ballot", words(gettext_noop("{seat} votes for {candidate}."),
                                         seat=s.name(seat), candidate=s.name(candidate)),
                   seat=seat, candidate=candidate)
    tally: dict[int, int] = {}
    for candidate in ballots.values():
        tally[candidate] = tally.get(candidate, 0) + 1
    first = s.first_rebel
    if tally:
        best = max(tally.values())
        leaders = sorted(c for c, n in tally.items() if n == best)
        if len(leaders) == 1:
            winner = leaders[0]
        elif first is not None and ballots.get(first) in leaders:
            winner = ballots[first]
            ctx.public("junta_tie", words(gettext_noop(
                "The Junta is split; the First Rebel, {seat}, breaks the tie for {winner}."),
                seat=s.name(first), winner=s.name(winner)))
        else:
            winner = leaders[ctx.rng.below(len(leaders))]
            ctx.public("junta_tie", words(gettext_noop(
                "The Junta is split and the First Rebel's vote settles nothing: the lot falls "
                "on {winner}."), winner=s.name(winner)))
    elif first is not None and s.players[first].active:
        winner = first
        ctx.public("junta_tie", words(gettext_noop(
            "No member of the Junta votes: the First Rebel, {seat}, takes the Presidency."),
            seat=s.name(first)))
    elif junta:
        winner = junta[ctx.rng.below(len(junta))]
        ctx.public("junta_tie", words(gettext_noop(
            "No member of the Junta votes: the lot falls on {winner}."), winner=s.name(winner)))
    else:
        _no_junta(ctx)
        return
    coup["elected"] = winner
    ctx.facts.elected = winner
    take_office(ctx, winner)


def _no_junta(ctx: Context) -> None:
    """The Rebels won but none is left in the country (fled through an embassy, or dead): nobody
    sits in the Junta to elect the next President. The fallen government does not stay: the
    sitting President loses office (his execution order, given "if I am elected", lapses) and
    the Chamber elects a President when the Aftermath is over, as for a President who fled; he
    may stand again (docs/rules.md §junta, §after-lunch; docs/rulings.md §ruling-junta,
    §ruling-president-fled)."""
    s = ctx.state
    deposed = s.president
    if deposed is None:
        ctx.public("no_junta", words(gettext_noop(
            "No Rebel is left in the country to form the Junta: nobody elects a President in "
            "the Aftermath. The Chamber elects one when the Aftermath is over.")
            if s.active_seats() else gettext_noop(
            "No Rebel is left in the country to form the Junta: nobody elects a President in "
            "the Aftermath.")), headline=True)
        return
    s.positions[catalog.PRESIDENT] = None  # he is in the country: an election follows
    ctx.public("no_junta", words(gettext_noop(
        "No Rebel is left in the country to form the Junta: El Presidente {seat} falls with his "
        "government and executes nobody. The Chamber elects a President when the Aftermath is "
        "over."), seat=s.name(deposed)), headline=True, deposed=deposed)


def execution(ctx: Context) -> None:
    """"If she does not specify an execution order... she will be assumed to benevolently
    execute no one"; an execution has "the effects be otherwise the same as an assassination"
    (the victim's pocket goes to the President).
    (docs/rules.md §firing-squad, §missed-orders; docs/rulings.md §ruling-junta)."""
    s = ctx.state
    president = s.president
    if president is None or not s.players[president].active:
        return
    won = ctx.coup.get("result")
    for order in ctx.orders_of(president, "execute"):
        target = Execute.of(order)["target"]
        if not ctx.holds(order.condition) or target == president:
            continue
        victim = s.players[target]
        if victim.status != Status.ALIVE or won == "president" and not victim.rebel:
            ctx.tell(president, "execution_failed", words(gettext_noop(
                "{seat} cannot be sent to the firing squad."), seat=s.name(target)))
            continue
        ctx.facts.executed = target
        ctx.kill(target, president, words(gettext_noop(
            "sent to the firing squad by El Presidente {seat}"), seat=s.name(president)), None)
        return


def banking(ctx: Context) -> None:
    """Banking ordered in the aftermath, for those who chose the Bank, after the execution.
    (docs/rules.md §after-lunch; docs/rulings.md §ruling-after-lunch)."""
    _banking(ctx)
