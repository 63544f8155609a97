"""Draw Budget / New Weapons, Budget Proposal, Budget Vote and the Minister's decision.

"The Foreign Minister and the Farm & Labor Secretary must each secretly decide how many budget
bills to draw from the Money Deck (between 1 and 6 bills each). If they do not submit orders in
time, then a random amount of bills will be selected for them." "The President draws exactly 2
bills himself." "The budget must be possible. If the money allocated cannot be given out with
the current combination of bills in the President's pocket..." "Any money drawn in the budget
not allocated in the proposed budget is pocketed by the President." A proposal's check and the
plan of the bills that pay it are budget_plan.py's.
(docs/rules.md §budget-draw, §budget-proposal, §budget-vote, §seize)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog
from ..budget_plan import (
    ProposalArgs,
    bills_words,
    check_proposal,
    pay_plan,
    proposal_of,
    read_allocations,
)
from ..facts import VoteResult
from ..order_kinds.turn import DrawBills, NewWeapons, SeizeChamber
from ..words import Items, Position, Term, gettext_noop, words
from . import votes

if TYPE_CHECKING:
    from ..context import Context


# --- draws ---------------------------------------------------------------------------------

def draws(ctx: Context) -> None:
    """New Weapons, then the budget draws: a random count for a minister who gave none (or a vacant
    one), the President's 2 bills first near the end of the deck; a Mole in the Treasury reports the
    bills (docs/rules.md §new-weapons, §war, §foreign, §draws, §missed-orders; docs/rulings.md
    §ruling-draws-near-end, §ruling-vacant-draw, §ruling-mole)."""
    s = ctx.state
    if len(s.money_deck) < 4:  # e.g. a Secret Political Donation drew one earlier today
        ctx.finish()  # "As soon as the budget cannot be drawn, the game has ended."
        return
    war = s.commander(catalog.WAR)
    s.new_weapons = None
    for order in ctx.orders_of(war, "new_weapons") if war is not None else []:
        if ctx.holds(order.condition):
            s.new_weapons = NewWeapons.of(order).get("position")
            break
    target = Position(s.new_weapons) if s.new_weapons else Term(gettext_noop("no one"))
    ctx.public("new_weapons", words(gettext_noop("New Weapons are assigned to {position}."),
                                    position=target),
               position=s.new_weapons)

    wanted = {}
    for pos in (catalog.FOREIGN, catalog.FARM_LABOR):
        commander = s.commander(pos)
        count = None
        for order in ctx.orders_of(commander, "draw_bills") if commander is not None else []:
            draw = DrawBills.of(order)
            if draw.get("position") == pos and ctx.holds(order.condition):
                count = draw["count"]
                break
        if count is None:
            count = ctx.rng.between(1, 6)
            ctx.facts.random_draws.append(pos)
        wanted[pos] = count
    # Ruling: the President's 2 first, then each minister as asked, as long as the other can
    # still draw at least one (the game only ends when fewer than 4 bills remain).
    president_bills = [s.money_deck.pop() for _ in range(min(2, len(s.money_deck)))]
    fm_cap = max(1, len(s.money_deck) - 1)
    fm_bills = [s.money_deck.pop() for _ in range(min(wanted[catalog.FOREIGN], fm_cap,
                                                      len(s.money_deck)))]
    fl_bills = [s.money_deck.pop() for _ in range(min(wanted[catalog.FARM_LABOR],
                                                      len(s.money_deck)))]
    held = fm_bills + fl_bills + president_bills
    s.budget = {"drawn": {catalog.FOREIGN: fm_bills, catalog.FARM_LABOR: fl_bills,
                          catalog.PRESIDENT: president_bills},
                "all_drawn": list(held), "held": list(held), "holder": s.president,
                "proposer": s.president, "proposal": None, "outcome": None}
    fm, fl, pres = (s.commander(catalog.FOREIGN), s.commander(catalog.FARM_LABOR), s.president)
    ctx.public("draws", words(gettext_noop(
        "The Foreign Minister draws {foreign} bills, the Farm & Labor Secretary {farm}, the "
        "President {president}."), foreign=len(fm_bills), farm=len(fl_bills),
        president=len(president_bills)),
               counts={catalog.FOREIGN: len(fm_bills), catalog.FARM_LABOR: len(fl_bills),
                       catalog.PRESIDENT: len(president_bills)})
    for seat, title, bills, pos in ((fm, gettext_noop("Foreign Minister"), fm_bills,
                                     catalog.FOREIGN),
                                    (fl, gettext_noop("Farm & Labor Secretary"), fl_bills,
                                     catalog.FARM_LABOR)):
        if seat is None:
            continue
        # a draw cut short near the end of the deck says so (docs/rulings.md
        # §ruling-draws-near-end, §ruling-no-silent-orders)
        drew = words(gettext_noop("As {title} you drew {bills}."), title=Term(title),
                     bills=bills_words(bills))
        if not (len(bills) == wanted[pos] or pos in ctx.facts.random_draws):
            drew = words(gettext_noop(
                "{drew} You asked for {wanted}: only {n} could be drawn, the money deck "
                "running out."), drew=drew, wanted=wanted[pos], n=len(bills))
        ctx.tell(seat, "my_draw", drew, bills=bills)
    if pres is not None:
        ctx.tell(pres, "budget_bills", words(gettext_noop(
            "Your budget bills: the Foreign Minister's {foreign}, the Farm & Labor Secretary's "
            "{farm}, and your own {own}: {amount} MP in all."), foreign=bills_words(fm_bills),
            farm=bills_words(fl_bills), own=bills_words(president_bills), amount=sum(held)),
            bills=held)
    for seat in s.turn_flags.get("mole", []):
        ctx.tell(seat, "intelligence", words(gettext_noop(
            "Mole in the Treasury: this turn's budget bills are {bills}."),
            bills=bills_words(held)))


# --- proposal --------------------------------------------------------------------------------

def proposal(ctx: Context) -> None:
    """The President's proposal (with none, a budget of zeros); the pocket money it needs is set
    aside with the budget bills (docs/rules.md §budget-proposal, §missed-orders; docs/rulings.md
    §ruling-pocket-set-aside)."""
    s = ctx.state
    proposer = s.budget.get("proposer", s.president)
    chosen: ProposalArgs = {"allocations": {}, "from_pocket": 0}
    if proposer is not None:
        for order in ctx.orders_of(proposer, "propose_budget"):
            if ctx.holds(order.condition) and not check_proposal(s, proposer, order.args):
                chosen = proposal_of(order)
                break
    allocations, _ = read_allocations(s, chosen)
    from_pocket = chosen.get("from_pocket") or 0
    plan, _ = pay_plan(s.budget.get("held", []), allocations, from_pocket, chosen.get("bills"),
                       s)
    if plan is None:  # cannot happen after validation; keep the bills with the proposer
        allocations, from_pocket, plan = {}, 0, {"bills": {}, "top_up": {}}
    s.budget["proposal"] = {"allocations": {str(k): v for k, v in allocations.items()},
                            "from_pocket": from_pocket,
                            "bills": {str(k): v for k, v in plan["bills"].items()},
                            "top_up": {str(k): v for k, v in plan["top_up"].items()}}
    lines = Items(tuple(words(gettext_noop("{seat} {amount} MP"), seat=s.name(k), amount=v)
                        for k, v in sorted(allocations.items())),
                  Term(gettext_noop("nothing for anyone")))
    # (the draws name one)
    who = s.name(proposer) if proposer is not None else Term(gettext_noop("Nobody"))
    ctx.public("proposal", words(gettext_noop("{seat} proposes a budget: {lines}."), seat=who,
                                 lines=lines),
               allocations={str(k): v for k, v in allocations.items()})
    handed = sum(sum(b) for b in plan["bills"].values())
    skim = sum(s.budget.get("held", [])) - handed
    # The pocket money the budget needs is set aside with the budget bills now, so a passed
    # budget pays what was proposed; it comes back if the budget fails (set_aside 1 MP units
    # in "held": money in transit, counted by GameState.bills_total).
    set_aside = sum(plan["top_up"].values())
    if proposer is not None and set_aside:
        s.players[proposer].pocket -= set_aside  # check_proposal: he holds from_pocket
        s.budget["held"] = list(s.budget.get("held", [])) + [1] * set_aside
    s.budget["set_aside"] = set_aside
    if proposer is not None:
        kept = words(gettext_noop(
            "If the budget passes you keep {amount} MP of the budget bills unallocated."),
            amount=skim)
        if set_aside:
            kept = words(gettext_noop(
                "{kept} {amount} MP of your pocket money is set aside to make up the budget; "
                "you get it back if the budget fails."), kept=kept, amount=set_aside)
        ctx.tell(proposer, "skim", kept, skim=skim, set_aside=set_aside)


# --- the vote ------------------------------------------------------------------------------

def vote_count(ctx: Context) -> None:
    totals = votes.count(ctx)
    _result(ctx, totals)


def _result(ctx: Context, totals: dict[int | str, int]) -> None:
    """A budget passes with more votes for than against; a tie fails (docs/rules.md §votes;
    docs/rulings.md §ruling-budget-tie)."""
    yes, no = totals.get("yes", 0), totals.get("no", 0)
    passed = yes > no  # ruling: a tie fails, a budget needs a majority
    ctx.facts.vote_result = VoteResult("passes" if passed else "fails", abs(yes - no), yes, no)
    ctx.facts.budget_passed = passed


def revote(ctx: Context) -> None:
    """The first card that annuls the vote whose condition holds: the vote run again, held again, or
    replaced (docs/rules.md §revote-cards; docs/rulings.md §ruling-one-annulling-card)."""
    s = ctx.state
    allowed = ["Power Failure", "Summer Recess", "Recount"]
    if not ctx.facts.budget_passed and not s.budget.get("alternative_used"):
        allowed.append("Alternative Budget")
    card = votes.annul_with_cards(ctx, tuple(allowed))
    if card == "Power Failure":
        seat = _annulling_seat(ctx)
        ctx.public("power_failure", words(gettext_noop(
            "{seat} plays Power Failure: the lights go out! The vote is run again at once, "
            "without Vote cards."), seat=s.name(seat)), headline=True)
        _result(ctx, votes.count(ctx, count_cards=False))
    elif card in ("Summer Recess", "Recount"):
        if card == "Recount":
            votes.return_vote_cards(ctx)
        seat = _annulling_seat(ctx)
        ctx.facts.budget_annulled = card
        ctx.public("annulled", words(gettext_noop(
            "{seat} plays {card}: the budget vote is annulled and held again tomorrow."),
            seat=s.name(seat), card=Term(card)), headline=True)
        return
    elif card == "Alternative Budget":
        _alternative(ctx)
        return
    _announce(ctx)


def _annulling_seat(ctx: Context) -> int:
    """The seat whose card annulled the vote (votes.annul_with_cards has just set it)."""
    assert ctx.facts.annulled_by is not None
    return ctx.facts.annulled_by[0]


def _announce(ctx: Context) -> None:
    s = ctx.state
    r = ctx.facts.vote_result
    assert r is not None and r.yes is not None and r.no is not None  # set by _result
    if ctx.facts.budget_passed:
        ctx.public("budget_passed", words(gettext_noop("The budget passes, {yes} votes to {no}."),
                                          yes=r.yes, no=r.no),
                   headline=True)
        payout(ctx)
        s.budget["outcome"] = "passed"
    else:
        s.budget_failed = True
        s.coup_excuse = True
        s.budget["outcome"] = "defeated"
        ctx.public("budget_failed", words(gettext_noop(
            "The budget is defeated, {yes} votes to {no}! There is a Coup Excuse; the Minister "
            "of Internal Security must decide whether to seize the Chamber."), yes=r.yes,
            no=r.no), headline=True)


def _alternative(ctx: Context) -> None:
    """Alternative Budget: "you take all of the President's budget bills but one, propose a
    new budget and it is voted" (docs/rulings.md §ruling-alternative-budget)."""
    s = ctx.state
    seat = _annulling_seat(ctx)
    held = sorted(s.budget.get("held", []), reverse=True)
    holder = s.budget.get("holder", s.president)
    set_aside = s.budget.get("set_aside") or 0
    if set_aside:  # the defeated proposer's own pocket money goes back to him first
        for _ in range(set_aside):
            held.remove(1)
        if holder is not None:
            s.players[holder].pocket += set_aside
        else:
            s.spent += set_aside
    if held and holder is not None:
        kept = held.pop()  # the President keeps the smallest bill, in his pocket
        s.players[holder].pocket += kept
    s.budget.update({"held": held, "holder": seat, "proposer": seat, "proposal": None,
                     "alternative_used": True, "set_aside": 0})
    s.coup_excuse = True  # "If the budget fails, there is immediately a Coup Excuse"
    ctx.facts.alternative_budget = seat
    ctx.public("alternative_budget", words(gettext_noop(
        "The budget is defeated, and {seat} plays Alternative Budget: taking the budget bills, "
        "he will propose a budget of his own. There is a Coup Excuse."), seat=s.name(seat)),
        headline=True)
    ctx.tell(seat, "budget_bills", words(gettext_noop("You now hold the budget bills: {bills}."),
                                         bills=bills_words(held)),
             bills=held)


def payout(ctx: Context) -> None:
    """"Should the budget pass, the money is immediately distributed to the players according
    to the President's proposal." What is not allocated goes to the proposer's pocket.
    (docs/rules.md §budget-vote; docs/rulings.md §ruling-share-of-the-dead: the share of a player
    gone stays with the proposer)."""
    s = ctx.state
    proposal = s.budget.get("proposal")
    handed, topped = (proposal["bills"], proposal["top_up"]) if proposal else ({}, {})
    holder = s.budget.get("holder", s.president)
    held = list(s.budget.get("held", []))
    set_aside = s.budget.get("set_aside")  # None: proposed before pocket money was set aside
    for key, given in handed.items():
        seat = int(key)
        for bill in given:
            held.remove(bill)
        top = topped.get(key, 0)
        if set_aside is not None and top:
            for _ in range(top):  # paid out of the pocket money set aside at the proposal
                held.remove(1)
        elif holder is not None and top:
            top = min(top, s.players[holder].pocket)
            s.players[holder].pocket -= top
        amount = sum(given) + top
        if s.players[seat].active:
            s.players[seat].pocket += amount
        elif holder is not None:
            s.players[holder].pocket += amount  # the absent's share stays with the proposer
        ctx.tell(seat, "budget_paid", words(gettext_noop(
            "You receive {amount} MP from the budget."), amount=amount),
                 amount=amount)
    if holder is not None:
        s.players[holder].pocket += sum(held)
    else:
        s.spent += sum(held)
    s.budget["held"] = []
    s.budget["set_aside"] = 0


def seize_decision(ctx: Context) -> None:
    """"She may choose to seize the Chamber of Deputies and force the Budget's passage at
    gunpoint... The Bank becomes Closed for Lunch" or "allow the Budget to remain defeated in
    which case the money is pocketed by the President, and the Bank is closed for THE REST of
    the turn." Default: the budget stays defeated.
    (docs/rules.md §seize, §internal-security, §missed-orders)."""
    s = ctx.state
    minister = s.commander(catalog.INTERNAL_SECURITY)
    seize = False
    for order in ctx.orders_of(minister, "seize_chamber") if minister is not None else []:
        if ctx.holds(order.condition):
            seize = bool(SeizeChamber.of(order).get("seize"))
            break
    if seize:
        s.chamber_seized = True
        s.bank_status = "closed_for_lunch"
        s.coup_excuse = True
        ctx.public("chamber_seized", words(gettext_noop(
            "The Minister of Internal Security seizes the Chamber of Deputies: the budget passes "
            "at gunpoint. The Bank is closed for lunch.")),
                   headline=True)
        payout(ctx)
        s.budget["outcome"] = "forced"
    else:
        holder = s.budget.get("holder", s.president)
        if holder is not None:
            s.players[holder].pocket += sum(s.budget.get("held", []))
        else:
            s.spent += sum(s.budget.get("held", []))
        s.budget["held"] = []  # the proposer's set-aside pocket money goes back with it
        s.budget["set_aside"] = 0
        s.bank_status = "closed"
        s.budget["outcome"] = "failed"
        ctx.public("budget_stays_defeated", words(gettext_noop(
            "The budget stays defeated: the money goes into the President's pocket, and the Bank "
            "is closed for the rest of the turn.")),
                   headline=True)
