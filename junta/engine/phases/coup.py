"""The coup: the Rebel-Only step, Coup Phases 1-6 and the Pro-Junta / Pro-President vote.

"Any player taking military action in this phase immediately becomes a REBEL." Each coup
phase resolves in the order of `steps.ADJUDICATION_ORDER["coup"]`: incoming fire, bribes,
transfers, all movement at once, hand-overs, then combat in every contested zone. The map and
every die roll are public: each is an event for everyone.
(docs/rules.md §coup; docs/rulings.md §ruling-coup-adjudication).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .. import catalog, combat
from ..card_plays import play_of
from ..card_steps import UNIT_CARDS
from ..enums import PhaseKind, Status
from ..kinds import ORDER_KINDS
from ..labels import plural
from ..order import Order
from ..order_kinds.coup import (
    AIRSTRIKES,
    Airstrike,
    Attack,
    Casualties,
    EmbassyPassage,
    Intervene,
    Move,
    PermitRetreat,
    Place,
    PoliceResponse,
    Retreat,
    Transfer,
    embassy_holders,
    helicopter_only,
)
from ..order_kinds.coup import (
    CoupSide as ChooseSide,
)
from ..orders import played_card
from ..state_shapes import CoupSide, ForeignForce, RebelOrder, Unit
from ..units import (
    AGITATORS,
    BRIBES,
    CARD_UNITS,
    CONTROL_POINTS,
    EMBASSIES,
    FOREIGN_FORCES,
    FOREIGN_TABLE,
    deploy,
    new_unit,
    on_map,
    stack_moves,
)
from ..words import Card, Items, Param, Term, Words, Zone, gettext_noop, words

if TYPE_CHECKING:
    from ..context import Context
    from ..state import GameState

Moves = list[tuple[int, Order]]


def _zname(zone: int) -> str:
    return catalog.zones()[zone].name


def _card_name(order: Order) -> str | None:
    cid = played_card(order)
    return None if cid is None else catalog.card(cid).name


def _is_unit_card(order: Order) -> bool:
    return _card_name(order) in UNIT_CARDS


_UNIT_CARD_PLAYS = "\0unit card plays"  # keys of the index (`_due`) beside the kinds' names
_REBEL_ACTIONS = "\0rebel actions"


def _due(ctx: Context, kinds: set[str], cards: bool = False,
         rebel: bool = False) -> Moves:
    """Orders of these kinds (and unit/Bribe card plays, if asked; every Rebel action, if
    asked: `orders.is_rebel_action`) whose condition holds, in seat order, from players in the
    country."""
    if ctx.coup_orders is None:  # the orders by kind, indexed once a resolution
        index: dict[str, list[tuple[int, int, Order]]] = {}
        for seat, orders in sorted(ctx.orders.items()):
            for i, order in enumerate(orders):
                index.setdefault(order.kind, []).append((seat, i, order))
                unit_card = _is_unit_card(order)
                if unit_card:
                    index.setdefault(_UNIT_CARD_PLAYS, []).append((seat, i, order))
                if unit_card or ORDER_KINDS[order.kind].rebel_action:
                    index.setdefault(_REBEL_ACTIONS, []).append((seat, i, order))
        ctx.coup_orders = index
    keys = set(kinds)
    if cards:
        keys.add(_UNIT_CARD_PLAYS)
    if rebel:
        keys.add(_REBEL_ACTIONS)
    players = ctx.state.players
    if len(keys) == 1:  # one list, in seat order already
        listed = [(seat, order) for seat, _, order in ctx.coup_orders.get(keys.pop(), ())]
    else:
        found = {(seat, i): order for key in keys
                 for seat, i, order in ctx.coup_orders.get(key, ())}
        listed = [(seat, order) for (seat, _), order in sorted(found.items(),
                                                               key=lambda kv: kv[0])]
    return [(seat, order) for seat, order in listed
            if players[seat].active and ctx.holds(order.condition)]


def _count(units: list[Unit]) -> Items:
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u["kind"]] = kinds.get(u["kind"], 0) + 1
    return Items(tuple(words(gettext_noop("{n} {kind}"), n=n, kind=Term(plural(k, n)))
                       for k, n in sorted(kinds.items())))


def _verb(units: list[Unit], singular: str, many: str) -> str:
    return singular if len(units) == 1 else many


# --- the Rebel-Only step (Locations phase) --------------------------------------------------

def _rebel_order(seat: int, order: Order) -> RebelOrder:
    """A Rebel-Only move as the state keeps it: the mover's seat, then the order's arguments
    just as they were given (a checked `rebel_move`: its two zones; their order, and any
    argument the engine does not read, kept as the state's JSON always held them)."""
    return cast("RebelOrder", {"seat": seat, **order.args})



def rebel_only(ctx: Context) -> None:
    """"Such action cannot be taken unless there is a Coup Excuse or that player chose HQ";
    "Any player taking military action in this phase immediately becomes a REBEL"; "The first
    player to submit Rebel Only Movement Orders is considered the First Rebel". Ruling: an
    Event card that puts units on the map is military action too, and its own Coup Excuse
    counts for this step. No combat in this step: units that meet fight in Coup Phase 1.
    (docs/rules.md §rebel-only, §rebels, §first-rebel, §coup-excuse; docs/rulings.md
    §ruling-rebel-action)."""
    s = ctx.state
    s.rebel_orders = []
    actions: dict[int, list[Order]] = {}
    for seat, order in _due(ctx, set(), rebel=True):
        if seat != s.president:
            actions.setdefault(seat, []).append(order)
    for seat, orders in actions.items():
        for order in orders:
            spec = CARD_UNITS.get(_card_name(order) or "")
            if spec and spec.excuse and play_of(order)["card"] in s.players[seat].hand \
                    and not s.coup_excuse:
                s.coup_excuse = True
                ctx.public("coup_excuse", words(gettext_noop(
                    "{seat}'s {card} gives a Coup Excuse."), seat=s.name(seat),
                    card=Card(play_of(order)["card"])))
    movers = []
    for seat in sorted(actions):
        if not s.coup_excuse and s.players[seat].location != "hq":
            ctx.tell(seat, "rebel_refused", words(gettext_noop(
                "Your troops stay in barracks: there is no Coup Excuse and you were not at HQ.")))
            continue
        movers.append(seat)
        for o in actions[seat]:
            if o.kind == "rebel_move":
                s.rebel_orders.append(_rebel_order(seat, o))
    if not movers:
        return
    order_of = {seat: i for i, seat in enumerate(ctx.submission_order)}
    first = min(movers, key=lambda m: (order_of.get(m, len(order_of)), m))
    for seat in movers:
        s.players[seat].rebel = True
    s.first_rebel = first  # of this coup, even if an earlier coup's First Rebel still rebels
    names = Items(tuple(s.name(m) for m in movers))
    ctx.facts.coup = True
    ctx.public("rebels", words(gettext_noop(
        "Troops move! {seats} takes Rebel action; {first} is the First Rebel.")
        if len(movers) == 1 else gettext_noop(
        "Troops move! {seats} take Rebel action; {first} is the First Rebel."),
        seats=names, first=s.name(first)), headline=True, rebels=movers, first_rebel=first)
    s.coup = deploy(s)
    ordered = [(seat, o) for seat in movers for o in actions[seat]]
    _bribes(ctx, [(seat, o) for seat, o in ordered if _card_name(o) in BRIBES])
    _strikes(ctx, [(seat, o) for seat, o in ordered if o.kind in ("airstrike", "gunboat")])
    _movement(ctx, [(seat, o) for seat, o in ordered if o.kind in ("rebel_move", "place")
                    or _is_unit_card(o) and _card_name(o) not in BRIBES], rebel_step=True)


def begin(ctx: Context) -> None:
    """After the Rebel-Only phase: "the GameMaster will roll one die, the result of which will
    determine the choices available to the Foreign Minister".
    (docs/rules.md §foreign-intervention)."""
    s = ctx.state
    coup = ctx.coup
    roll = ctx.rng.die()
    allowed = FOREIGN_TABLE[roll]
    coup["foreign"].update({"roll": roll, "allowed": allowed})
    coup["phase"] = 1
    minister = s.commander(catalog.FOREIGN)
    who = s.name(minister) if minister is not None else \
        Term(gettext_noop("nobody (the post is vacant)"))
    ctx.public("foreign_intervention", words(gettext_noop(
        "Foreign Intervention: the die shows {roll}. The Foreign Minister, {seat}, may call in "
        "{allowed} of the four foreign forces (Air Strikes, Helicopter, Paratroopers, "
        "Commandos)."), roll=roll, seat=who, allowed=allowed), roll=roll,
               allowed=allowed)


# --- Coup Phases 1-6 -----------------------------------------------------------------------

def incoming_fire(ctx: Context) -> None:
    """"Incoming Fire (Airstrikes, Gunboat shelling) is adjudicated" first. The Foreign
    Minister's forces chosen now are in time for it (docs/rules.md §incoming-fire)."""
    ctx.coup["casualties_last"] = {
        str(seat): list(Casualties.of(order)["last"]) for seat, order in _due(ctx, {"casualties"})}
    for seat, order in _due(ctx, {"intervene"}):
        for force in Intervene.of(order)["forces"]:
            _choose_force(ctx, seat, force)
    _strikes(ctx, _due(ctx, {"airstrike", "gunboat"}))


def bribes(ctx: Context) -> None:
    _bribes(ctx, [(seat, o) for seat, o in _due(ctx, set(), cards=True)
                  if _card_name(o) in BRIBES])


def transfers(ctx: Context) -> None:
    """"Transfer of an unmoved unit transfers that unit's movement to the new controller for
    the phase": transfers before the moves (docs/rules.md §transfers)."""
    _transfer(ctx, [(s, o) for s, o in _due(ctx, {"transfer"})
                    if not Transfer.of(o).get("after_moves")])


def handovers(ctx: Context) -> None:
    """"Transfer of a unit that has already moved does not grant it any additional movement."
    (docs/rules.md §transfers)"""
    _transfer(ctx, [(s, o) for s, o in _due(ctx, {"transfer"})
                    if Transfer.of(o).get("after_moves")])


def movement(ctx: Context) -> None:
    """"All troop movement is adjudicated": stack moves, placements, unit cards, the Police
    Response, all at once; then flights to and returns through the embassies.
    (docs/rulings.md §ruling-coup-adjudication)."""
    _movement(ctx, [(s, o) for s, o in _due(ctx, {"move", "place", "police_response"},
                                             cards=True) if _card_name(o) not in BRIBES])
    _flights(ctx)
    _returns(ctx)


def fight(ctx: Context) -> None:
    """"All inter-troop combat is adjudicated.\""""
    attacks: combat.Attacks = {}
    permissions: combat.Permissions = {}
    retreat_to: combat.RetreatTo = {}
    for seat, order in _due(ctx, {"attack", "retreat", "permit_retreat"}):
        if order.kind == "attack":
            a = Attack.of(order)
            attacks.setdefault((seat, a["zone"]), []).append(a["target"])
        elif order.kind == "retreat":
            r = Retreat.of(order)
            retreat_to[(seat, r["zone"])] = r["to_zone"]
        else:
            p = PermitRetreat.of(order)
            permissions[(seat, p["seat"])] = p["allow"]
    combat.battles(ctx, ctx.coup["phase"], attacks, permissions, retreat_to)


def coup_vote(ctx: Context) -> None:
    """"Players must submit as an order a vote of either Pro-Junta or Pro-President... Any
    player failing to vote will be assumed to abstain"; "Any territory shared by players
    supporting both Pro-Junta and Pro-President defaults to Pro-President control, as do any
    unoccupied territories"; the faction with "3/5 or better" wins (docs/rules.md §control)."""
    s = ctx.state
    coup = ctx.coup
    votes = {}
    for seat, order in _due(ctx, {"coup_side"}):
        votes[seat] = ChooseSide.of(order)["side"]
    coup["votes"] = {str(k): v for k, v in sorted(votes.items())}
    for seat in s.active_seats():
        choice = {"junta": gettext_noop("{seat} votes Pro-Junta."),
                  "president": gettext_noop("{seat} votes Pro-President.")}.get(
            votes.get(seat, ""), gettext_noop("{seat} abstains."))
        ctx.public("coup_side", words(choice, seat=s.name(seat)), seat=seat,
                   side=votes.get(seat))
    control: dict[str, CoupSide] = {}
    for zone in CONTROL_POINTS:
        owners = {u["owner"] for u in on_map(coup) if u["zone"] == zone}
        junta = bool(owners) and all(o is not None and votes.get(o) == "junta" for o in owners)
        control[str(zone)] = "junta" if junta else "president"
        holders = Items(tuple(s.name(o) if o is not None else
                              Term(gettext_noop("leaderless units"))
                              for o in sorted(owners, key=lambda o: -1 if o is None else o)),
                        Term(gettext_noop("empty")))
        ctx.public("control", words(gettext_noop("{zone}: Pro-Junta ({seats}).") if junta else
                                    gettext_noop("{zone}: Pro-President ({seats})."),
                                    zone=Zone(zone), seats=holders),
                   zone=zone, side=control[str(zone)])
    coup["control"] = control
    junta_points = sum(1 for v in control.values() if v == "junta")
    coup["result"] = "junta" if junta_points >= 3 else "president"
    ctx.facts.coup_result = coup["result"]
    if coup["result"] == "junta":
        ctx.public("coup_result", words(gettext_noop(
            "The coup succeeds! The Junta holds {n} of the five control points and will elect a "
            "President."), n=junta_points), headline=True,
                   result="junta", points=junta_points)
    else:
        ctx.public("coup_result", words(gettext_noop(
            "The coup fails: the President's side holds {n} of the five control points."),
            n=5 - junta_points), headline=True,
                   result="president", points=junta_points)


# --- shared pieces --------------------------------------------------------------------------

def _choose_force(ctx: Context, seat: int, force: ForeignForce) -> bool:
    """The Foreign Minister's pick of a force, each kind once, up to the die's number (docs/rules.md
    §foreign-intervention; docs/rulings.md §ruling-foreign-intervention)."""
    s = ctx.state
    foreign = ctx.coup["foreign"]
    if force in foreign["chosen"] or len(foreign["chosen"]) >= foreign["allowed"] or \
            s.commander(catalog.FOREIGN) != seat:
        return False
    foreign["chosen"].append(force)
    kind, count = FOREIGN_FORCES[force]
    if kind != "Airstrike":  # the foreign Air Strikes strike: they stand on no zone
        for _ in range(count):
            new_unit(ctx.coup, kind, seat, None, new_weapons=True, temporary=True,
                     phase=ctx.coup["phase"])
    ctx.public("intervention", words(gettext_noop(
        "The Foreign Minister, {seat}, calls in foreign {force}."), seat=s.name(seat),
        force=Term(force)), force=force)
    return True


def _strikes(ctx: Context, orders: Moves) -> None:
    """"Airstrikes will roll 6 dice, and Gunboat shelling will roll 3 dice"; "Only one
    Airstrike may be used per Coup Phase"; the Gunboat "once per Coup Phase".
    (docs/rules.md §incoming-fire, §admiral, §air-force)."""
    s = ctx.state
    coup = ctx.coup
    used: set[tuple[int, str]] = set()
    for seat, order in orders:
        a = Airstrike.of(order)  # a Gunboat's the same but its source
        key = "gunboat" if order.kind == "gunboat" else a.get("source", "air_force")
        if (seat, key) in used:
            ctx.failed(seat, order, "strike_failed", words(gettext_noop(
                "Your second strike from the same source this phase did not fly: one Airstrike "
                "per source, and the Gunboat once, a Coup Phase.")))
            continue
        used.add((seat, key))
        if key == "gunboat":
            weapon, dice = Term(gettext_noop("The Gunboat's shelling")), 3
            if s.commander(catalog.ADMIRAL) != seat:
                ctx.failed(seat, order, "strike_failed", words(gettext_noop(
                    "The Gunboat did not fire: you no longer command it.")))
                continue
        elif key == "foreign":
            weapon, dice = Term(gettext_noop("A foreign Air Strike")), 6
            foreign = coup["foreign"]
            if s.commander(catalog.FOREIGN) != seat or "airstrikes" not in foreign["chosen"] \
                    and not _choose_force(ctx, seat, "airstrikes"):
                ctx.tell(seat, "strike_failed", words(gettext_noop(
                    "Your foreign Air Strike did not fly: it is not among your intervention "
                    "forces.")))
                continue
            if foreign["airstrikes_used"] >= FOREIGN_FORCES["airstrikes"][1]:
                ctx.failed(seat, order, "strike_failed", words(gettext_noop(
                    "Your foreign Air Strike did not fly: all four have been used.")))
                continue
            foreign["airstrikes_used"] += 1
        else:
            weapon, dice = Term(gettext_noop("An Airstrike")), 6
            if s.commander(catalog.AIR_FORCE) != seat or coup["airstrikes_used"] >= AIRSTRIKES:
                ctx.failed(seat, order, "strike_failed", words(gettext_noop(
                    "Your Airstrike did not fly: you no longer command the Air Force, or its "
                    "three Airstrikes are used.")))
                continue
            coup["airstrikes_used"] += 1
        combat.bombard(ctx, seat, a["zone"], a["target"], dice, weapon)


def _bribes(ctx: Context, plays: Moves) -> None:
    """"Name a zone; for each ... unit there you pay 1 MP and roll 1d6 (4-6 the unit comes
    under your control for the rest of the coup)." (docs/rulings.md §ruling-idle-bribe)"""
    s = ctx.state
    for seat, order in plays:
        play = play_of(order)
        cid = play["card"]
        p = s.players[seat]
        name = catalog.card(cid).name
        if cid not in p.hand:
            ctx.failed(seat, order, "card_failed", words(gettext_noop(
                "Your {card} was not played: the card is no longer in your hand."),
                card=Card(cid)))
            continue
        how, value = BRIBES[name]
        zone = play["zone"]
        targets = [u for u in on_map(ctx.coup) if u["zone"] == zone and u["owner"] != seat and (
            u["kind"] in AGITATORS | {"Labor Rioter"} if how == "agitators"
            else u.get(how) == value)]
        if not targets:
            ctx.tell(seat, "card_failed", words(gettext_noop(
                "Your {card} found no unit to bribe in {zone} and stays in your hand."),
                card=Card(cid), zone=Zone(zone)))
            continue
        ctx.discard(seat, cid)
        ctx.facts.cards_played.append((seat, name))
        won, rolls = [], []
        for u in sorted(targets, key=lambda u: u["id"]):
            if p.pocket < 1:
                break
            p.pocket -= 1
            s.spent += 1
            roll = ctx.rng.die()
            rolls.append(roll)
            if roll >= 4:
                u["owner"] = seat
                won.append(u)
        ctx.public("bribe", words(gettext_noop(
            "{seat} plays {card} in {zone}: pays {amount} MP, rolls {rolls}; {units} changes "
            "sides.") if len(won) == 1 else gettext_noop(
            "{seat} plays {card} in {zone}: pays {amount} MP, rolls {rolls}; {units} change "
            "sides."), seat=p.name, card=Card(cid), zone=Zone(zone), amount=len(rolls),
            rolls=Items(tuple(rolls), Term(gettext_noop("nothing"))),
            units=Items(_count(won).items, Term(gettext_noop("no unit")))),
                   zone=zone, rolls=rolls, won=len(won))


def _transfer(ctx: Context, orders: Moves) -> None:
    s = ctx.state
    by_id = {u["id"]: u for u in ctx.coup["units"]}
    for seat, order in orders:
        a = Transfer.of(order)
        to = a["to"]
        units = [by_id[i] for i in a["units"] if i in by_id
                 and by_id[i]["owner"] == seat]
        if not s.players[seat].active or not s.players[to].active:
            gone = seat if not s.players[seat].active else to
            ctx.failed(seat, order, "transfer_failed", words(gettext_noop(
                "{seat}'s hand-over of units to {to} did not happen: {gone} is {status}."),
                seat=s.name(seat), to=s.name(to), gone=s.name(gone),
                status=Term(s.players[gone].status)), parties=(to,))
            continue
        if len(units) < len(a["units"]):  # lost to fire or bribes: never in silence
            lost = [i for i in a["units"] if i not in {u["id"] for u in units}]
            text = words(gettext_noop(
                "{seat}'s hand-over of units to {to} did not happen: none of them is still his."),
                seat=s.name(seat), to=s.name(to)) if not units else words(gettext_noop(
                    "Of your hand-over to {to}, unit(s) {units} are no longer yours and stay "
                    "out of it."), to=s.name(to), units=Items(tuple(f"#{i}" for i in lost)))
            if not units:
                ctx.failed(seat, order, "transfer_failed", text, parties=(to,))
                continue
            ctx.tell(seat, "transfer_short", text)
        ctx.carried_out(seat, order)
        for u in units:
            u["owner"] = to
        ctx.public("transfer", words(gettext_noop("{seat} hands {units} over to {to}."),
                                     seat=s.name(seat), units=_count(units), to=s.name(to)),
                   giver=seat, to=to, units=[u["id"] for u in units])


def _movement(ctx: Context, orders: Moves, rebel_step: bool = False) -> None:
    """Every stack chooses its units first, then all move at once: stacks that swap zones
    pass each other without fighting (docs/rules.md §movement)."""
    s = ctx.state
    coup = ctx.coup
    phase_no = coup["phase"]
    used: dict[int, int] = {}
    allowed: dict[int, int] = {}  # each mover's stack moves a phase (`stack_moves`)
    taken: set[int] = set()
    plan: list[tuple[int, list[Unit], int | None, int, str]] = []
    for seat, order in orders:
        if _is_unit_card(order):
            _unit_card(ctx, seat, order)
            continue
        if order.kind == "place":
            land = Place.of(order)
            waiting = [u for u in coup["units"] if u["owner"] == seat and
                       u["kind"] == land["unit"] and u["zone"] is None]
            force = {v[0]: k for k, v in FOREIGN_FORCES.items()}.get(land["unit"])
            if not waiting and force and _choose_force(ctx, seat, force):
                waiting = [u for u in coup["units"] if u["owner"] == seat and
                           u["kind"] == land["unit"] and u["zone"] is None]
            if not waiting:
                ctx.tell(seat, "move_failed", words(gettext_noop(
                    "You have no {kind} waiting to be placed."), kind=Term(land["unit"])))
                continue
            plan.append((seat, waiting, None, land["zone"], "lands in"))
            taken.update(u["id"] for u in waiting)
            continue
        if order.kind == "police_response":
            response = PoliceResponse.of(order)
            only = response.get("units")
            police = [u for u in on_map(coup) if u["owner"] == seat and u["kind"] == "Police"
                      and u["id"] not in taken and (only is None or u["id"] in only)]
            if police:
                plan.append((seat, police, None, response["zone"], "rush in response to"))
                taken.update(u["id"] for u in police)
            else:
                ctx.failed(seat, order, "move_failed", words(gettext_noop(
                    "The Police Response did not happen: you have no Police left that can "
                    "move.")))
            continue
        a = Move.of(order)
        start, end = a["from_zone"], a["to_zone"]
        if not helicopter_only(s, order, seat):
            used[seat] = used.get(seat, 0) + 1
            if seat not in allowed:
                allowed[seat] = stack_moves(s, seat)
            if used[seat] > allowed[seat]:
                ctx.tell(seat, "move_failed", words(gettext_noop(
                    "Your move from {zone} was not carried out: you may move {n} stack(s) a "
                    "phase."), zone=Zone(start), n=allowed[seat]))
                continue
        ids = a.get("units")
        units = [u for u in coup["units"] if u["zone"] == start and u["owner"] == seat
                 and u["id"] not in taken and u.get("moved") != phase_no
                 and (ids is None or u["id"] in ids)]
        if not units:
            ctx.tell(seat, "move_failed", words(gettext_noop(
                "Your move from {zone} to {to} was not carried out: you have no unit there "
                "that can move."), zone=Zone(start), to=Zone(end)))
            continue
        taken.update(u["id"] for u in units)
        plan.append((seat, units, start, end, "move from"))
    for seat, units, origin, end, how in plan:
        for u in units:
            u["from_zone"] = u["zone"] if u["zone"] is not None else end
            u["zone"] = end
            u["entered"] = phase_no
            u["moved"] = phase_no
        if how == "move from":
            assert origin is not None  # a stack move always starts from a zone
            msgid = _verb(units, gettext_noop("{seat}'s {units} moves from {zone} to {to}."),
                          gettext_noop("{seat}'s {units} move from {zone} to {to}."))
        elif how == "lands in":
            msgid = _verb(units, gettext_noop("{seat}'s {units} lands in {to}."),
                          gettext_noop("{seat}'s {units} land in {to}."))
        else:
            msgid = _verb(units,
                          gettext_noop("{seat}'s {units} rushes to {to} in the Police Response."),
                          gettext_noop("{seat}'s {units} rush to {to} in the Police Response."))
        params: dict[str, Param] = {"seat": s.name(seat), "units": _count(units),
                                    "to": Zone(end)}
        if origin is not None and how == "move from":
            params["zone"] = Zone(origin)
        ctx.public("move", Words(msgid, params), seat=seat, to=end,
                   units=[u["id"] for u in units])
    if rebel_step:
        ctx.facts.rebel_moves = [(seat, end) for seat, _, _, end, _ in plan]


def _unit_card(ctx: Context, seat: int, order: Order) -> None:
    s = ctx.state
    play = play_of(order)
    cid = play["card"]
    p = s.players[seat]
    name = catalog.card(cid).name
    spec = CARD_UNITS[name]
    if cid not in p.hand:
        ctx.tell(seat, "card_failed", words(gettext_noop(
            "Your {card} was not played: the card is no longer in your hand."), card=Card(cid)))
        return
    if spec.cost and not ctx.pay_cost(seat, spec.cost):
        ctx.tell(seat, "card_failed", words(gettext_noop(
            "Your {card} was not played: you could not pay {amount} MP."), card=Card(cid),
            amount=spec.cost))
        return
    zone = spec.zones[0] if len(spec.zones) == 1 else play["zone"]
    ctx.discard(seat, cid)
    ctx.facts.cards_played.append((seat, name))
    coup = ctx.coup
    for _ in range(spec.count):
        new_unit(coup, spec.kind, seat, zone, temporary=True, phase=coup["phase"])
    if spec.kind in AGITATORS and coup["phase"] == 0 and zone not in coup["agitator_zones"]:
        coup["agitator_zones"].append(zone)
    if spec.excuse:
        s.coup_excuse = True
    ctx.public("units_appear", words(gettext_noop(
        "{seat} plays {card}: {n} {kind} appears in {zone} under {seat}'s control.")
        if spec.count == 1 else gettext_noop(
        "{seat} plays {card}: {n} {kind} appear in {zone} under {seat}'s control."),
        seat=p.name, card=Card(cid), n=spec.count, kind=Term(plural(spec.kind, spec.count)),
        zone=Zone(zone)), headline=coup["phase"] == 0,
               zone=zone, card=name)


def _flights(ctx: Context) -> None:
    """"A player may also flee the country during a Coup, but only if he can move one of his
    active units into an Embassy." (docs/rules.md §embassies; docs/rulings.md §ruling-flight)"""
    s = ctx.state
    for seat, _ in _due(ctx, {"flee"}):
        if not any(u["owner"] == seat and u["zone"] in EMBASSIES for u in ctx.coup["units"]):
            ctx.tell(seat, "flight_failed", words(gettext_noop(
                "You could not flee: none of your units stands in an embassy.")))
            continue
        p = s.players[seat]
        p.status = Status.EXILED
        p.location = "exile"
        vacated = [pos for pos in catalog.POSITIONS if s.positions.get(pos) == seat]
        for pos in vacated:
            s.positions[pos] = None
        ctx.facts.vacated.extend(p for p in vacated if p != catalog.PRESIDENT)
        ctx.facts.exiled.append(seat)
        for u in ctx.coup["units"]:
            if u["owner"] == seat:
                u["owner"] = None
        ctx.public("flight", words(gettext_noop(
            "{seat} flees the country through an embassy and goes into exile."), seat=p.name),
            headline=True, seat=seat)


def _returns(ctx: Context) -> None:
    """"A player may also return from Exile during a Coup, but only if either: He controls a
    unit in an embassy, or... Another player who controls a unit in an embassy grants the exile
    safe passage." Returning exiles stay "positionless until the next Cabinet Appointment".
    (docs/rules.md §embassies; docs/rulings.md §ruling-flight)."""
    s = ctx.state
    holders = embassy_holders(s)
    granted = {EmbassyPassage.of(o)["seat"] for seat, o in _due(ctx, {"embassy_passage"})
               if seat in holders}
    for p in s.players:
        if p.status != Status.EXILED:
            continue
        asked = any(o.kind == "return_from_exile" for o in ctx.orders.get(p.seat, []))
        if not asked:
            continue
        if p.seat in holders or p.seat in granted:
            p.status = Status.ALIVE
            p.location = None
            if p.seat in s.pending_returns:
                s.pending_returns.remove(p.seat)
            ctx.public("returned", words(gettext_noop(
                "{seat} returns from exile through an embassy, without a position until the "
                "next Cabinet Appointment."), seat=p.name), headline=True)
        else:
            ctx.tell(p.seat, "return_failed", words(gettext_noop(
                "You could not return: during a coup an exile comes back only through an "
                "embassy held by him or by a player who grants him safe passage.")))


def refresh_commanders(state: GameState) -> None:
    """Units of a position left without a commander (its holder fled) follow the position: to
    the President when his Brother-in-Law takes it over."""
    if state.coup is None:
        return
    for u in state.coup["units"]:
        if u["owner"] is None and u["position"]:
            u["owner"] = state.commander(u["position"])


def owes(state: GameState) -> list[int]:
    """Who the coup phase waits for: every player in the country with something to command,
    and everyone in Coup Phase 6 (the vote)."""
    active = state.active_seats()
    if state.phase == PhaseKind.COUP_FINAL:
        return active
    commanders = {u["owner"] for u in (state.coup["units"] if state.coup else [])}
    for pos in (catalog.AIR_FORCE, catalog.ADMIRAL, catalog.FOREIGN,
                catalog.INTERNAL_SECURITY):
        commanders.add(state.commander(pos))
    return [s for s in active if s in commanders]
