"""Nominations, presidential elections and the motion on the President's competence.

"There is a one day period in which any player may nominate any other player for the
Presidency, as well as second or otherwise support a nomination. Any nominated individual may
also decline nomination." "Each player will be given ONE vote in the initial election, and in
the case of a tie, a re-vote will be taken until a President is elected." Later elections use
Chamber votes (docs/rules.md §first-election, §resignation, §competence).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .. import catalog
from ..facts import VoteResult
from ..order_kinds.nominations import Nominate, Second
from ..words import Items, Term, gettext_noop, words
from . import votes

if TYPE_CHECKING:
    from ..context import Context

LOT_FROM_ROUND = 3  # ruling: from the third round a tie is settled by lot


def nominations(ctx: Context) -> None:
    """The candidates: the nominated and seconded who did not decline, else every living player
    (docs/rules.md §first-election; docs/rulings.md §ruling-first-candidates)."""
    s = ctx.state
    nominated: dict[int, list[int]] = {}
    seconded: dict[int, list[int]] = {}
    declined: set[int] = set()
    for seat in s.active_seats():
        for order in ctx.orders.get(seat, []):
            if not ctx.holds(order.condition):
                continue
            if order.kind == "nominate":
                nominated.setdefault(Nominate.of(order)["candidate"], []).append(seat)
            elif order.kind == "second":
                seconded.setdefault(Second.of(order)["candidate"], []).append(seat)
            elif order.kind == "decline":
                declined.add(seat)
    for cand in seconded:
        nominated.setdefault(cand, [])
    candidates = sorted(c for c in nominated if c not in declined and s.players[c].active)
    s.nominations = {str(c): {"nominated_by": nominated.get(c, []),
                              "seconded_by": seconded.get(c, []),
                              "declined": c in declined} for c in sorted(nominated)}
    lines = []
    for c in sorted(nominated):
        nobody = Term(gettext_noop("nobody"))
        by = Items(tuple(s.name(x) for x in nominated[c]), nobody)
        sec = Items(tuple(s.name(x) for x in seconded.get(c, [])), nobody)
        lines.append(words(gettext_noop("{seat}, nominated by {by}, seconded by {seconds} "
                                        "(declined)") if c in declined else
                           gettext_noop("{seat}, nominated by {by}, seconded by {seconds}"),
                           seat=s.name(c), by=by, seconds=sec))
    if not candidates:
        candidates = s.active_seats()
        lines.append(words(gettext_noop("No nomination stands: every player is a candidate")))
    ctx.public("nominations", words(gettext_noop("Nominations: {lines}."),
                                    lines=Items(tuple(lines), sep="; ")),
               candidates=candidates)
    s.election = {"reason": "initial", "round": 1, "candidates": candidates}


def election_count(ctx: Context) -> None:
    totals = votes.count(ctx)
    ctx.facts.election_totals = totals
    _decide(ctx, totals)


def _decide(ctx: Context, totals: dict[int | str, int]) -> None:
    """The winner, or a tie (a re-vote); from the third round a tie is settled by lot
    (docs/rulings.md §ruling-deadlock)."""
    s = ctx.state
    election = s.election
    candidates = [c for c in ((election and election["candidates"]) or s.active_seats())
                  if s.players[c].active]
    scores = {c: totals.get(c, 0) for c in candidates}
    best = max(scores.values(), default=0)
    leaders = sorted(c for c, v in scores.items() if v == best)
    if len(leaders) == 1 and best > 0:
        ctx.facts.elected = leaders[0]
    elif (election["round"] if election else 1) >= LOT_FROM_ROUND and leaders:
        winner = ctx.rng.choice(leaders)
        ctx.facts.elected = winner
        ctx.public("lot", words(gettext_noop(
            "The Chamber is deadlocked again; the lot falls on {seat}."), seat=s.name(winner)))
    else:
        ctx.facts.elected = None
        ctx.facts.election_tied = leaders
    ctx.facts.vote_result = VoteResult("elected" if ctx.facts.elected is not None else "tied",
                                       _margin(scores.values()))


def _margin(scores: Iterable[int]) -> int:
    values = sorted(scores, reverse=True) + [0, 0]
    return values[0] - values[1]


def election_revote(ctx: Context) -> None:
    card = votes.annul_with_cards(ctx, ("Power Failure", "Summer Recess", "Recount"))
    if card is None:
        return
    s = ctx.state
    assert ctx.facts.annulled_by is not None  # set by annul_with_cards
    seat, _ = ctx.facts.annulled_by
    if card == "Power Failure":
        ctx.public("power_failure", words(gettext_noop(
            "{seat} plays Power Failure: the lights go out! The vote is run again without Vote "
            "cards."), seat=s.name(seat)), headline=True)
        totals = votes.count(ctx, count_cards=False)
        _decide(ctx, totals)
        return
    if card == "Recount":
        votes.return_vote_cards(ctx)
    ctx.facts.elected = None
    ctx.facts.election_annulled = card
    ctx.public("annulled", words(gettext_noop(
        "{seat} plays {card}: the election is annulled and held again tomorrow."),
        seat=s.name(seat), card=Term(card)), headline=True)


def take_office(ctx: Context, winner: int) -> None:
    """The new President takes office. Ruling: his former positions pass to the former
    President when he is alive and in the country, else they fall vacant; a resigning
    President's pocket goes to the successor (docs/rulings.md §ruling-new-president-positions)."""
    s = ctx.state
    old = s.president
    resigned = s.election.get("resigned") if s.election else None
    if resigned is not None and resigned != winner and s.players[resigned].active:
        amount = s.players[resigned].pocket
        s.players[resigned].pocket = 0
        s.players[winner].pocket += amount
        ctx.tell([resigned, winner], "pocket_handover", words(gettext_noop(
            "{seat}'s pocket of {amount} MP goes to the new President."),
            seat=s.name(resigned), amount=amount), amount=amount)
    if old != winner:
        former = [p for p in catalog.CABINET if s.positions.get(p) == winner]
        for pos in former:
            if old is not None and s.players[old].active:
                s.positions[pos] = old
            else:
                s.positions[pos] = None
                ctx.facts.vacated.append(pos)
        s.positions[catalog.PRESIDENT] = winner
        # The budget bills are in the President's pocket and he proposes the budget: a
        # budget under way passes to the new President with the office.
        for role in ("holder", "proposer"):
            if old is not None and s.budget.get(role) == old:
                s.budget[role] = winner
    ctx.public("president", words(gettext_noop(
        "{seat} is elected President of the Republica de los Papayas!"), seat=s.name(winner)),
        headline=True, president=winner)


def motion_count(ctx: Context) -> None:
    """"move to remove the President for incompetence; passes with 2/3 of votes".
    (docs/rules.md §competence; docs/rulings.md §ruling-competence)."""
    totals = votes.count(ctx)
    yes, no = totals.get("yes", 0), totals.get("no", 0)
    passed = yes > 0 and 3 * yes >= 2 * (yes + no)
    ctx.facts.vote_result = VoteResult("passes" if passed else "fails", abs(yes - no))
    ctx.facts.motion_passed = passed
    ctx.public("motion_result", words(gettext_noop(
        "The motion on the President's competence passes: the President is removed ({yes} for, "
        "{no} against).") if passed else gettext_noop(
        "The motion on the President's competence fails ({yes} for, {no} against)."),
        yes=yes, no=no), headline=passed, yes=yes, no=no)


def motion_revote(ctx: Context) -> None:
    card = votes.annul_with_cards(ctx, ("Power Failure",))
    if card:
        ctx.public("power_failure", words(gettext_noop(
            "Power Failure: the motion is voted again without Vote cards.")), headline=True)
        motion_count_without_cards(ctx)


def motion_count_without_cards(ctx: Context) -> None:
    totals = votes.count(ctx, count_cards=False)
    yes, no = totals.get("yes", 0), totals.get("no", 0)
    passed = yes > 0 and 3 * yes >= 2 * (yes + no)
    ctx.facts.motion_passed = passed
    ctx.facts.vote_result = VoteResult("passes" if passed else "fails", abs(yes - no))
