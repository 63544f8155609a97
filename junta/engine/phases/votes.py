"""Shared by every vote (elections, the budget, the competence motion): ballots, the count,
the public record, and the cards that annul a vote (Power Failure, Summer Recess, Recount)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog
from ..card_plays import play_of
from ..card_steps import REVOTE_CARDS
from ..order import Order
from ..voting import ABSTAIN, ballot_of, tally
from ..words import Card, Items, Term, gettext_noop, words

if TYPE_CHECKING:
    from ..context import Context


def ballots(ctx: Context) -> dict[int, Order]:
    """Each voter's ballot: his first vote order whose condition holds ("Any player failing
    to vote will be assumed to abstain") (docs/rules.md §votes, §missed-orders)."""
    out = {}
    for seat in ctx.state.active_seats():
        for order in ctx.orders_of(seat, "vote"):
            if ctx.holds(order.condition):
                out[seat] = order
                break
    return out


def count(ctx: Context, count_cards: bool = True) -> dict[int | str, int]:
    s = ctx.state
    cast = ballots(ctx)
    totals, record, used = tally(s, cast, count_cards=count_cards)
    for seat, cid in used:
        if cid in s.players[seat].hand:
            ctx.discard(seat, cid)
    ctx.facts.vote_cards_used.extend(used)
    ctx.facts.votes_cast = {seat: ballot_of(o).get("choice", ABSTAIN) for seat, o in cast.items()}
    lines = []
    for r in record:
        choice = r["choice"]
        shown = s.name(choice) if isinstance(choice, int) else Term(choice)
        lines.append(words(gettext_noop("{seat}: {n} for {choice} ({source})"),
                           seat=s.name(r["seat"]), n=r["votes"], choice=shown,
                           source=Term(r["source"])))
    ctx.public("votes_cast", words(gettext_noop("Votes cast: {lines}."), lines=Items(
        tuple(lines), Term(gettext_noop("nobody voted")), "; ")), record=record)
    return totals


def annul_with_cards(ctx: Context, allowed: tuple[str, ...]) -> str | None:
    """The first card in seat order, among those that annul a vote, whose condition holds.
    One such card takes effect per count (ruling). Returns its name. Every other such play
    whose condition holds is not carried out, the card staying in hand, and its player is told
    why (docs/rulings.md §ruling-no-silent-orders).
    (docs/rules.md §revote-cards; docs/rulings.md §ruling-one-annulling-card)."""
    s = ctx.state
    taken: str | None = None
    for seat in sorted(ctx.orders):
        for order in ctx.orders[seat]:
            cid = play_of(order).get("card")
            if order.kind != "play_card" or not isinstance(cid, int) or \
                    catalog.card(cid).name not in REVOTE_CARDS or \
                    not ctx.holds(order.condition):
                continue
            name = catalog.card(cid).name
            if not s.players[seat].active or cid not in s.players[seat].hand:
                why = words(gettext_noop("you are {status}"),
                            status=Term(s.players[seat].status)) \
                    if not s.players[seat].active else \
                    words(gettext_noop("the card is no longer in your hand"))
            elif taken is not None:
                by, card = ctx.facts.annulled_by or (seat, taken)
                why = words(gettext_noop(
                    "{seat}'s {card} already annulled this count (one card a count)"),
                    seat=s.name(by), card=Term(card))
            elif name not in allowed:
                why = words(gettext_noop(
                    "the budget was not defeated, or an Alternative Budget was already put "
                    "this turn") if name == "Alternative Budget" else
                    gettext_noop("it has no effect on this vote"))
            else:
                ctx.discard(seat, cid)
                ctx.facts.cards_played.append((seat, name))
                ctx.facts.annulled_by = (seat, name)
                ctx.carried_out(seat, order)
                taken = name
                continue
            ctx.failed(seat, order, "card_failed", words(gettext_noop(
                "Your {card} was not played: {why}. It stays in your hand."), card=Card(cid),
                why=why))
    return taken


def return_vote_cards(ctx: Context) -> None:
    """Recount: "one-shot Vote cards played in the annulled vote go back to their owners'
    hands"."""
    s = ctx.state
    for seat, cid in ctx.facts.vote_cards_used:
        if cid in s.political_discard and s.players[seat].active:
            s.political_discard.remove(cid)
            s.players[seat].hand.append(cid)
    ctx.facts.vote_cards_used = []
