"""Locations, Assassinations, Banking and Rebel-Only moves.

"All players must choose one location from a possible five: Home, HQ, Bank, Club, Mistress",
or exile. Assassins "must specify the assassin to be used, the player to be targeted, and the
location at which to target them"; the assassination step is simultaneous ("a player killed in
this step still has his own attempt carried out", docs/rules.md §assassinations; who may send
which assassin: assassins.py). "Players wishing to deposit or withdraw money from the Bank must
have chosen the Bank as their location."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog
from ..assassins import SECRET_POLICE, THEFTS, attempt_of, check_assassination
from ..card_plays import play_of
from ..conditions import details
from ..enums import PhaseKind, Status
from ..order_kinds.locations import Bank, Location
from ..problems import said
from ..state import GameState
from ..words import Card, Items, Place, Term, Words, gettext_noop, words

if TYPE_CHECKING:
    from ..context import Context
    from ..order import Order


def locations(ctx: Context) -> None:
    """Every player's location (Home with no order), or exile: the exile's positions fall vacant
    (docs/rules.md §location, §exile, §missed-orders)."""
    s = ctx.state
    chosen: dict[int, str] = {}
    for seat in s.active_seats():
        place = "home"
        for order in ctx.orders_of(seat, "location"):
            if ctx.holds(order.condition):
                place = Location.of(order)["place"]
                break
        chosen[seat] = place
    for seat, place in chosen.items():
        p = s.players[seat]
        if place == "exile":
            p.status = Status.EXILED
            p.location = None
            vacated = [pos for pos in catalog.POSITIONS if s.positions.get(pos) == seat]
            for pos in vacated:
                s.positions[pos] = None
            ctx.facts.vacated.extend(pos for pos in vacated if pos != catalog.PRESIDENT)
            if catalog.PRESIDENT in vacated:
                ctx.facts.president_died = True
            ctx.facts.exiled.append(seat)
            ctx.public("exile", words(gettext_noop("{seat} flees the country into exile."),
                                      seat=p.name), headline=True,
                       seat=seat)
        else:
            p.location = place
            ctx.tell(seat, "my_location", words(gettext_noop("You spend the day at the {place}."),
                                                place=Place(place)), location=place)
    ctx.facts.locations = {seat: place for seat, place in chosen.items() if place != "exile"}


def _attempts(ctx: Context) -> list[dict[str, Any]]:
    s = ctx.state
    out: list[dict[str, object]] = []
    for seat in sorted(ctx.orders):
        police_used = False
        for order in ctx.orders[seat]:
            if not ctx.holds(order.condition):
                continue
            if not s.players[seat].active and (order.kind == "assassinate" or _theft_card(order)):
                ctx.failed(seat, order, "attempt_dropped", words(gettext_noop(
                    "You went into exile: your assassination-step order was not carried out."))
                    if s.players[seat].status == Status.EXILED else words(gettext_noop(
                        "You are {status}: your assassination-step order was not carried out."),
                        status=Term(s.players[seat].status)))
                continue
            if _is_attack(s, seat, order) and (_informed(ctx, seat, order) or
                                               _target_gone(ctx, seat, order)):
                continue
            if order.kind == "play_card" and _theft_card(order) and \
                    play_of(order).get("card") not in s.players[seat].hand:
                ctx.failed(seat, order, "attempt_dropped", words(gettext_noop(
                    "Your {card} was not sent: the card is no longer in your hand."),
                    card=Term(str(_theft_card(order)))))
                continue
            if order.kind == "assassinate":
                args = attempt_of(order)
                refused = check_assassination(s, seat, args)
                if refused:  # e.g. the Monarchists his assassin needs lost to a card today
                    ctx.failed(seat, order, "attempt_dropped", words(gettext_noop(
                        "Your attempt on {seat} was not made: {problem}"),
                        seat=ctx.name(args["target"]), problem=said(refused[0])))
                    continue
                if args["card"] == SECRET_POLICE:
                    if police_used:
                        ctx.tell(seat, "attempt_dropped", words(gettext_noop(
                            "The Secret Police make one attempt a turn: your order against "
                            "{seat} was not carried out."), seat=s.name(args["target"])))
                        continue
                    police_used = True
                out.append({"attacker": seat, "card": args["card"], "target": args["target"],
                            "location": args["location"]})
            elif order.kind == "play_card" and play_of(order).get("card") in s.players[seat].hand:
                play = play_of(order)
                name = catalog.card(play["card"]).name
                target = play.get("target")
                if name in THEFTS and isinstance(target, int):
                    out.append({"attacker": seat, "card": play["card"], "target": target,
                                "location": None})
    return out


def _theft_card(order: Order) -> str | None:
    """The name of the Burglar, Bank Robber or Character Assassin an order plays, if any."""
    cid = play_of(order).get("card")
    if order.kind != "play_card" or not isinstance(cid, int) or isinstance(cid, bool) or \
            not 0 <= cid < len(catalog.cards()):
        return None
    name = catalog.card(cid).name
    return name if name in THEFTS else None


def _is_attack(s: GameState, seat: int, order: Order) -> bool:
    """An assassination attempt, or a Burglar, Bank Robber or Character Assassin played."""
    cid = play_of(order).get("card")
    return order.kind == "assassinate" or order.kind == "play_card" and \
        cid in s.players[seat].hand and catalog.card(cid).name in THEFTS


def _informed(ctx: Context, seat: int, order: Order) -> bool:
    """An order of the assassination step tied to a card played after the locations were
    known, on a condition about another player's location or exile: dropped, since
    "Assassination attempts CAN be conditional, but only upon effects that would resolve
    chronologically prior to assassination declaration" (locations and dispatch are one step).
    (docs/rulings.md §ruling-assassination-conditions).
    """
    c = order.condition
    if c is None or c.kind != "card_played":
        return False
    a = details(c)
    if (a.get("seat"), a.get("card")) not in ctx.facts.informed_plays:
        return False
    ctx.tell(seat, "attempt_dropped", words(gettext_noop(
        "Your order tied to {seat}'s {card} was not carried out: that card was played on a "
        "condition about another player's location or exile, which is not known before "
        "assassins are dispatched."), seat=ctx.name(a["seat"]), card=Term(str(a["card"]))))
    return True


def _target_gone(ctx: Context, seat: int, order: Order) -> bool:
    """An attempt on a player who fled into exile this phase is not made: the attacker keeps
    his card and pays nothing (docs/rulings.md §ruling-attempt-on-exile)."""
    s = ctx.state
    a = attempt_of(order)  # or a theft card's play, whose card and target read alike
    target, cid = a.get("target"), a.get("card")
    if not isinstance(target, int) or isinstance(target, bool) or \
            not 0 <= target < len(s.players) or s.players[target].active or \
            cid != SECRET_POLICE and cid not in s.players[seat].hand:
        return False
    gone = words(gettext_noop("fled into exile")) \
        if s.players[target].status == Status.EXILED else \
        words(gettext_noop("is {status}"), status=Term(s.players[target].status))
    if isinstance(cid, str):  # SECRET_POLICE: any other is a card in his hand
        sent = words(gettext_noop(
            "the Secret Police were not sent against him and stay at their posts"))
    else:
        sent = words(gettext_noop(
            "your {card} was not sent against him, and you keep the card and pay nothing"),
            card=Card(cid))
    ctx.tell(seat, "attempt_dropped", words(gettext_noop("{seat} {gone}: {sent}."),
                                            seat=s.name(target), gone=gone, sent=sent))
    return True


def _defences(ctx: Context) -> dict[int, list[int]]:
    """Bribe the Assassin and the defensive Monarchist Assassin played, by seat (docs/rulings.md
    §ruling-foiled-attempts)."""
    s = ctx.state
    out: dict[int, list[int]] = {}
    for seat in sorted(ctx.orders):
        for order in ctx.orders[seat]:
            cid = play_of(order).get("card")
            if order.kind == "play_card" and cid in s.players[seat].hand and \
                    catalog.card(cid).name in ("Bribe the Assassin", "Monarchist Assassin") \
                    and ctx.holds(order.condition) and not _informed(ctx, seat, order):
                out.setdefault(seat, []).append(cid)
    return out


def assassinations(ctx: Context) -> None:
    """The assassination step, all at once: thefts before deaths, each defence foils the first
    successful attempt on its holder, the first killer in seat order (docs/rules.md §assassinations;
    docs/rulings.md §ruling-assassination-step, §ruling-foiled-attempts,
    §ruling-psychotic-assassin)."""
    s = ctx.state
    where = ctx.facts.locations
    kills: dict[int, int] = {}  # target -> first successful attacker
    defences = _defences(ctx)
    thefts = []
    for a in _attempts(ctx):
        seat, target, card_id = a["attacker"], a["target"], a["card"]
        attacker = s.players[seat]
        if card_id == SECRET_POLICE:
            name, cost = gettext_noop("the Secret Police"), 0
            if a["location"] == "bank":
                s.secret_police_bank_turn = s.turn
        else:
            c = catalog.card(card_id)
            name, cost = c.name, c.cost
            if card_id not in attacker.hand:
                continue
            if cost and not ctx.pay_cost(seat, cost):
                ctx.tell(seat, "attempt_failed", words(gettext_noop(
                    "You could not pay the {card}'s {amount} MP: the card stays in your hand."),
                    card=Card(card_id), amount=cost))
                continue
            ctx.discard(seat, card_id)
            ctx.facts.cards_played.append((seat, c.name))
            if c.name == "Secret Police Overtime" and a["location"] == "bank":
                s.secret_police_bank_turn = s.turn
        if name in ("Burglar", "Bank Robber", "Character Assassin"):
            thefts.append((seat, target, name))
            continue
        if not s.players[target].active:
            continue
        right = where.get(target) == a["location"]
        success = right
        if name == "Amateur Assassin" and right:
            success = ctx.rng.die() >= 4
        if name == "Psychotic Assassin":
            roll = ctx.rng.die()
            if roll >= 4 and roll <= 5:
                success = False
            elif roll == 6:
                success = False
                if ctx.rng.die() >= 4:
                    ctx.facts.psychotic.append(seat)
        place = Place(a["location"])
        if success and defences.get(target):
            cid = defences[target].pop(0)
            card_name = catalog.card(cid).name
            paid = card_name != "Bribe the Assassin" or ctx.pay_cost(target, 2)
            if paid:
                ctx.discard(target, cid)
                ctx.facts.cards_played.append((target, card_name))
                ctx.tell([seat, target], "attempt_foiled", words(gettext_noop(
                    "An attempt on {seat}'s life at the {place} is foiled by {card}."),
                    seat=s.name(target), place=place, card=Card(cid)))
                continue
        if success:
            kills.setdefault(target, seat)
            ctx.tell(seat, "attempt_succeeded", words(gettext_noop(
                "Your {card} kills {seat} at the {place}."), card=Term(name),
                seat=s.name(target), place=place))
        else:
            ctx.tell([seat, target], "attempt_failed", words(gettext_noop(
                "{seat}'s {card} strikes at {target} at the {place}, and fails."),
                seat=s.name(seat), card=Term(name), target=s.name(target), place=place))
    for seat, target, name in thefts:
        _theft(ctx, seat, target, name, where)
    # The deaths of the step are simultaneous, and so is the hand-over of their pockets
    # (context.kill_together): who inherits does not depend on seat numbers.
    deaths: list[tuple[int, int | None, Words, str | None]] = [
        (target, killer, words(gettext_noop("assassinated")), where.get(target))
              for target, killer in sorted(kills.items())]
    deaths += [(seat, None, words(gettext_noop("killed by his own Psychotic Assassin")), None)
               for seat in ctx.facts.psychotic if seat not in kills]
    taken = ctx.kill_together(deaths)
    for target, killer in sorted(kills.items()):
        ctx.tell(target, "killed_by", words(gettext_noop("You were killed by {seat}'s assassin."),
                                            seat=s.name(killer)))
    for seat, shares in sorted(taken.items()):
        parts = Items(tuple(words(gettext_noop("{amount} MP of {seat}'s"), amount=amount,
                                  seat=s.name(victim)) for victim, amount in shares))
        ctx.tell(seat, "pocket_taken", words(gettext_noop(
            "From the pockets of the dead you take {parts} ({amount} MP)."), parts=parts,
            amount=sum(a for _, a in shares)), amount=sum(a for _, a in shares))
    if ctx.facts.killed:
        s.coup_excuse = True


def _theft(ctx: Context, seat: int, target: int, name: str, where: dict[int, str]) -> None:
    s = ctx.state
    t = s.players[target]
    place = where.get(target)
    if name == "Burglar":
        if place == "home" or place is None:
            ctx.tell([seat, target], "burglary_failed", words(gettext_noop(
                "A burglar sent by {seat} finds {target} at home and leaves empty-handed."),
                seat=s.name(seat), target=t.name))
            return
        amount = min(2, t.pocket)
        t.pocket -= amount
        s.players[seat].pocket += amount
        ctx.tell([seat, target], "burglary", words(gettext_noop(
            "A burglar sent by {seat} takes {amount} MP from {target}'s pocket."),
            seat=s.name(seat), amount=amount, target=t.name), amount=amount)
    elif name == "Bank Robber":
        if place == "bank" or place is None:
            ctx.tell([seat, target], "robbery_failed", words(gettext_noop(
                "{target} guards his account at the Bank: {seat}'s Bank Robber gets nothing."),
                target=t.name, seat=s.name(seat)))
            return
        amount = min(3, t.bank)
        t.bank -= amount
        s.players[seat].pocket += amount
        ctx.tell([seat, target], "robbery", words(gettext_noop(
            "{seat}'s Bank Robber takes {amount} MP from {target}'s bank account."),
            seat=s.name(seat), amount=amount, target=t.name), amount=amount)
    elif name == "Character Assassin":
        if place != "mistress":
            ctx.tell([seat, target], "scandal_failed", words(gettext_noop(
                "{seat}'s Character Assassin finds nothing on {target}."), seat=s.name(seat),
                target=t.name))
            return
        lost = Items(tuple(Card(i) for i in t.influence), Term(gettext_noop("none in play")))
        for cid in list(t.influence):
            ctx.discard(target, cid)
        ctx.public("scandal", words(gettext_noop(
            "Scandal! {seat} is caught with a mistress and loses all influence ({cards})."),
            seat=t.name, cards=lost), headline=True)


def banking(ctx: Context) -> None:
    """"Players wishing to deposit or withdraw money from the Bank must have chosen the Bank as
    their location". A Bank closed for lunch keeps the orders until the Rebel-Only step has
    shown whether a coup comes: "If no Coup results in this phase, the Bank reopens (if it was
    Closed for Lunch)... and may now do so" (see `after_lunch`).
    (docs/rules.md §banking; docs/rulings.md §ruling-dead-do-not-bank)."""
    s = ctx.state
    if s.phase == PhaseKind.LOCATIONS and s.bank_status == "closed_for_lunch":
        return
    for seat in sorted(ctx.orders):
        p = s.players[seat]
        orders = [o for o in ctx.orders_of(seat, "bank") if ctx.holds(o.condition)]
        why = None
        if orders and not p.active:
            why = (gettext_noop(
                "You were killed before the banking step: the dead do not bank, and your "
                "banking order was not carried out.") if p.status == Status.DEAD else
                gettext_noop("You went into exile: your banking order was not carried out."))
        elif orders and s.bank_status != "open":
            why = gettext_noop("The Bank is closed: your banking order was not carried out.")
        elif orders and p.location != "bank":
            why = gettext_noop("You were not at the Bank: your banking order was not carried "
                               "out.")
        if why is not None:
            _all_failed(ctx, seat, orders, why)
            continue
        for order in orders:
            a = Bank.of(order)
            amount, action = a["amount"], a["action"]
            deposit = action == "deposit"
            have = p.pocket if deposit else p.bank
            if amount > have:
                # carried out whole or not at all, never cut down
                # (docs/rulings.md §ruling-dead-do-not-bank, §ruling-no-silent-orders)
                ctx.failed(seat, order, "banking_failed", words(gettext_noop(
                    "Your deposit of {amount} MP was not carried out: your pocket held {have} "
                    "MP at the banking step, not {amount} MP. Bank: {bank} MP; pocket: {pocket} "
                    "MP.") if deposit else gettext_noop(
                    "Your withdrawal of {amount} MP was not carried out: your Bank account held "
                    "{have} MP at the banking step, not {amount} MP. Bank: {bank} MP; pocket: "
                    "{pocket} MP."), amount=amount, have=have, bank=p.bank, pocket=p.pocket),
                    amount=amount)
                continue
            if deposit:
                p.pocket -= amount
                p.bank += amount
            else:
                p.bank -= amount
                p.pocket += amount
            ctx.facts.banked.append(seat)
            ctx.carried_out(seat, order)
            ctx.tell(seat, "banking", words(gettext_noop(
                "You deposit {amount} MP. Bank: {bank} MP; pocket: {pocket} MP.") if deposit
                else gettext_noop(
                "You withdraw {amount} MP. Bank: {bank} MP; pocket: {pocket} MP."),
                amount=amount, bank=p.bank, pocket=p.pocket), amount=amount)


def _all_failed(ctx: Context, seat: int, orders: list[Order], why: str) -> None:
    """Every one of these orders fails for one reason, told once."""
    for i, order in enumerate(orders):
        if i == 0:
            ctx.failed(seat, order, "banking_failed", words(why))
        else:
            ctx.failed_with_it(seat, order)


def coup_excuse(ctx: Context) -> None:
    """Announce the Coup Excuse (a defeated budget, a successful assassination, a card)
    (docs/rules.md §coup-excuse)."""
    if ctx.state.coup_excuse:
        ctx.public("coup_excuse", words(gettext_noop("There is a Coup Excuse this turn.")))


def after_lunch(ctx: Context, coup: bool) -> None:
    """The end of a Locations phase with the Bank closed for lunch: with no coup it reopens and
    the banking orders are carried out; with a coup they wait for the Coup Aftermath.
    (docs/rules.md §after-lunch; docs/rulings.md §ruling-after-lunch)."""
    s = ctx.state
    if coup:
        for seat in s.active_seats():
            orders = [o for o in ctx.orders_of(seat, "bank") if ctx.holds(o.condition)]
            if orders:
                _all_failed(ctx, seat, orders, gettext_noop(
                    "A coup has begun: the Bank stays closed for lunch. Give your banking order "
                    "again in the Coup Aftermath."))
        return
    s.bank_status = "open"
    ctx.public("bank_reopens", words(gettext_noop(
        "No coup came: the Bank reopens after lunch, and those at the Bank do their banking.")))
    banking(ctx)
