"""The coup's order forms: the Rebel-Only step of the Locations phase, Coup Phases 1-6 and the
Aftermath, each with legal choices built from the engine's coup state.

`add_builders(state, seat, add)` calls `add(kind, help, fields, key=..., label=..., args=...)`
(see `order_builder.builders`) once for every coup order this player may give now. Units are
picked by readable labels ("Soldier #12 (1st Brigade) in Cathedral"), zones by name, players
by name; the engine checks what a form cannot (a move to a zone that is not next door).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from junta.engine import catalog
from junta.engine.card_plays import has_influence, playable_now
from junta.engine.coup_orders import AIRSTRIKES
from junta.engine.orders import COUP_PHASES, UNIT_CARDS
from junta.engine.phases.coup import plural
from junta.engine.state import BIL, GameState
from junta.engine.units import (
    AGITATORS,
    BODYGUARD_ZONES,
    BRIBES,
    CARD_UNITS,
    EMBASSIES,
    FOREIGN_FORCES,
    PLACED_ON_RIVER,
    RIVER_ZONES,
    deploy,
    distance,
    stack_moves,
)
from junta.games.order_builder import Field

Add = Callable[..., None]
Choices = list[tuple[str, str]]

BRIGADES = {catalog.GENERAL_1: "1st Brigade", catalog.GENERAL_2: "2nd Brigade",
            catalog.GENERAL_3: "3rd Brigade"}
FOREIGN_KINDS = {kind: force for force, (kind, _) in FOREIGN_FORCES.items()}
FORCE_LABELS = {
    "airstrikes": "Air Strikes (4 strikes of 6 dice)",
    "helicopter": "Helicopter (1, New Weapons, flies 2 zones)",
    "paratroopers": "Paratroopers (1, New Weapons, lands anywhere)",
    "commandos": "Commandos (3 Marines, New Weapons, land in a river zone)",
}
FORCE_NAMES = {"airstrikes": "Air Strikes", "helicopter": "the Helicopter",
               "paratroopers": "Paratroopers", "commandos": "Commandos"}
FOREIGN_NAMES = {"Helicopter": "the foreign Helicopter",
                 "Foreign Paratrooper": "the foreign Paratroopers",
                 "Commando": "the foreign Commandos"}
SIDE_CHOICES = [("junta", "Pro-Junta"), ("president", "Pro-President")]
YES_NO = [("yes", "Yes"), ("no", "No")]


# --- labels ------------------------------------------------------------------------------------

def zone_name(zone: int) -> str:
    return catalog.zones()[zone].name


def count_units(units: list[dict]) -> str:
    """ "5 Soldiers, 1 Tank" """
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u["kind"]] = kinds.get(u["kind"], 0) + 1
    return ", ".join(f"{n} {plural(k, n)}" for k, n in sorted(kinds.items()))


def unit_label(u: dict) -> str:
    """ "Soldier #12 (1st Brigade) in Cathedral"; "Marine #27, waiting to land" """
    text = f"{u['kind']} #{u['id']}"
    if u.get("position") in BRIGADES:
        text += f" ({BRIGADES[u['position']]})"
    elif u["kind"] in FOREIGN_KINDS and u.get("new_weapons"):  # not a Helicopter card's
        text += " (foreign)"
    if u["zone"] is None:
        return text + ", waiting to land"
    return f"{text} in {zone_name(u['zone'])}"


def _occupants(state: GameState, units: list[dict], zone: int) -> str:
    by_owner: dict[Any, list[dict]] = {}
    for u in units:
        if u["zone"] == zone:
            by_owner.setdefault(u["owner"], []).append(u)
    parts = [f"{'leaderless' if owner is None else state.name(owner)}: {count_units(us)}"
             for owner, us in sorted(by_owner.items(), key=lambda kv: -1 if kv[0] is None
                                     else kv[0])]
    return "; ".join(parts)


def _zone_choices(state: GameState, units: list[dict], zones: Iterable[int]) -> Choices:
    out = []
    for z in zones:
        who = _occupants(state, units, z)
        out.append((str(z), f"{zone_name(z)} ({who})" if who else zone_name(z)))
    return out


# --- the units on the map ----------------------------------------------------------------------

def coup_units(state: GameState) -> list[dict]:
    """The coup's units; in the Locations phase, the units as they would deploy if a coup
    began (the Rebel-Only step strikes and moves them where they start)."""
    if state.coup is not None:
        return state.coup["units"]
    if state.phase == "locations":
        return deploy(state)["units"]
    return []


def _mine(units: list[dict], seat: int) -> list[dict]:
    return [u for u in units if u["owner"] == seat]


def _stacks(units: list[dict]) -> dict[int, list[dict]]:
    stacks: dict[int, list[dict]] = {}
    for u in units:
        if u["zone"] is not None:
            stacks.setdefault(u["zone"], []).append(u)
    return dict(sorted(stacks.items()))


def _reach(zone: int, units: list[dict]) -> list[int]:
    """Zones a stack in `zone` may move to: next door; up to two zones for a Helicopter."""
    if units and all(u["kind"] == "Helicopter" for u in units):
        return [z for z in catalog.zones() if z != zone and distance(zone, z) <= 2]
    return sorted(catalog.zones()[zone].adjacent)


def moves_reason(state: GameState, seat: int) -> str:
    """ "2 stacks (Minister of War)" from units.stack_moves and the player's positions."""
    n = stack_moves(state, seat)
    why = [catalog.TITLES[p] for p in state.positions_of(seat) if p != catalog.PRESIDENT]
    if seat == state.president:
        why.insert(0, "El Presidente" + (" with your Brother-in-Law in office" if any(
            state.positions.get(p) == BIL for p in catalog.CABINET) else ""))
    text = f"{n} stack{'s' if n != 1 else ''}"
    return f"{text} ({', '.join(why)})" if why else text


def _move_fields(state: GameState, stacks: dict[int, list[dict]], extra_from: Choices = ()
                 ) -> tuple[list[Field], str]:
    from_choices = [(str(z), f"{zone_name(z)}: {count_units(us)}") for z, us in stacks.items()]
    from_choices += list(extra_from)
    reach = {z: _reach(z, us) for z, us in stacks.items()}
    for value, _ in extra_from:
        reach[int(value)] = _reach(int(value), [])
    targets = sorted({t for zs in reach.values() for t in zs})
    lines = "; ".join(f"from {zone_name(z)} to {', '.join(zone_name(t) for t in zs)}"
                      for z, zs in reach.items())
    fields = [Field("from_zone", "From", "select", from_choices),
              Field("to_zone", "To (a zone next to it)", "select",
                    [(str(z), zone_name(z)) for z in targets])]
    return fields, f"You can reach: {lines}."


def _foes(state: GameState, seat: int, units: list[dict]) -> list[dict]:
    """Other players' units on the map outside the embassies: what a strike can hit."""
    return [u for u in units if u["zone"] is not None and u["owner"] is not None
            and u["owner"] != seat and u["zone"] not in EMBASSIES]


def _strike_fields(state: GameState, seat: int, units: list[dict]) -> list[Field]:
    foes = _foes(state, seat, units)
    zones = sorted({u["zone"] for u in foes})
    owners = sorted({u["owner"] for u in foes})
    return [Field("zone", "Zone to strike", "select", _zone_choices(state, foes, zones)),
            Field("target", "Whose units", "select", [(str(o), state.name(o)) for o in owners])]


def _may_choose(state: GameState, force: str) -> bool:
    foreign = (state.coup or {}).get("foreign") or {"chosen": [], "allowed": 0}
    return force not in foreign["chosen"] and len(foreign["chosen"]) < foreign["allowed"]


# --- the builders ------------------------------------------------------------------------------

def add_builders(state: GameState, seat: int, add: Add) -> None:
    phase = state.phase
    if phase == "locations":
        if seat != state.president:
            _rebel_only(state, seat, add)
            _unit_cards(state, seat, add)
    elif phase in COUP_PHASES:
        _coup_phase(state, seat, add)
        _unit_cards(state, seat, add)
    elif phase == "aftermath":
        _aftermath(state, seat, add)


def _rebel_only(state: GameState, seat: int, add: Add) -> None:
    """"Players wishing to initiate a Coup must order a movement of troops, or a bombardment of
    some kind during this phase" (with a Coup Excuse, or from HQ); it makes them Rebels."""
    commands = state.commanded_positions(seat)
    if not commands:
        return
    units = coup_units(state)
    mine = [u for u in _mine(units, seat) if u["kind"] != "Bodyguard"]
    extra: Choices = []
    if catalog.WAR in commands:  # the Bodyguard starts by the Minister's location
        extra = [(str(z), f"{zone_name(z)}: your Bodyguard, if you are at "
                          f"{catalog.LOCATION_NAMES[loc]}")
                 for loc, z in BODYGUARD_ZONES.items() if loc in catalog.LOCATION_NAMES]
    warning = (" Rebel action needs a Coup Excuse or your presence at HQ, and makes you a "
               "Rebel for good.")
    stacks = _stacks(mine)
    if stacks or extra:
        fields, reach = _move_fields(state, stacks, extra)
        add("rebel_move", f"Move a stack from where it starts to a zone next to it; you may "
            f"move {moves_reason(state, seat)}. {reach}{warning}", fields)
    _strikes(state, seat, units, add, warning)
    for kind, position in (("Paratrooper", catalog.AIR_FORCE), ("Marine", catalog.ADMIRAL)):
        if position in commands:
            _place(kind, 1, add, warning)


def _strikes(state: GameState, seat: int, units: list[dict], add: Add, extra: str = "") -> None:
    if not _foes(state, seat, units):
        return
    commands = state.commanded_positions(seat)
    coup = state.coup or {"airstrikes_used": 0, "foreign": {"chosen": [],
                                                             "airstrikes_used": 0}}
    sources: Choices = []
    if catalog.AIR_FORCE in commands and coup["airstrikes_used"] < AIRSTRIKES:
        left = AIRSTRIKES - coup["airstrikes_used"]
        sources.append(("air_force", f"the Air Force ({left} of {AIRSTRIKES} left)"))
    if state.phase in COUP_PHASES and catalog.FOREIGN in commands:
        foreign = coup["foreign"]
        total = FOREIGN_FORCES["airstrikes"][1]
        if "airstrikes" in foreign["chosen"] and foreign["airstrikes_used"] < total:
            sources.append(("foreign", f"the foreign Air Strikes "
                                       f"({total - foreign['airstrikes_used']} of {total} left)"))
        elif _may_choose(state, "airstrikes"):
            sources.append(("foreign", "the foreign Air Strikes (calls them in as one of your "
                                       "Foreign Intervention forces)"))
    if sources:
        add("airstrike", "An Airstrike rolls 6 dice at one player's units in one zone, before "
            "any movement; a 6 destroys a unit. One Airstrike per source each phase." + extra,
            [Field("source", "Airstrike from", "select", sources),
             *_strike_fields(state, seat, units)])
    if catalog.ADMIRAL in commands:
        add("gunboat", "The Gunboat shells one player's units in one zone with 3 dice, before "
            "any movement, once a phase." + extra, _strike_fields(state, seat, units))


def _place(kind: str, count: int, add: Add, extra: str = "") -> None:
    """A form to land waiting units of one kind; `count` 0 for a foreign force not yet called
    in (landing it calls it in)."""
    river = kind in PLACED_ON_RIVER
    zones = RIVER_ZONES if river else tuple(sorted(catalog.zones()))
    where = "a river zone" if river else "any zone"
    if count:
        label = f"Land your {plural(kind, count)}"
        what = f"Your {count_units([{'kind': kind}] * count)} "
    else:
        force = FOREIGN_KINDS[kind]
        label = f"Call in and land {FOREIGN_NAMES[kind]}"
        what = f"{FOREIGN_NAMES[kind][0].upper()}{FOREIGN_NAMES[kind][1:]} " \
            f"({FORCE_LABELS[force]}) "
        count = FOREIGN_FORCES[force][1]
        extra = " Landing them calls them in as one of your Foreign Intervention forces." + \
            extra
    verb = "lands" if count == 1 else "land"
    add("place", f"{what}{verb} in {where} with this phase's movement." + extra,
        [Field("unit", "Unit", "select", [(kind, kind)]),
         Field("zone", "Zone", "select", [(str(z), zone_name(z)) for z in zones])],
        key=f"place:{kind}", label=label)


def _coup_phase(state: GameState, seat: int, add: Add) -> None:
    coup = state.coup
    if coup is None:
        return
    units = coup["units"]
    commands = state.commanded_positions(seat)
    mine = _mine(units, seat)
    on_map = [u for u in mine if u["zone"] is not None]
    others = [(str(p.seat), p.name) for p in state.players if p.active and p.seat != seat]
    _strikes(state, seat, units, add)
    foreign = coup["foreign"]
    left = foreign["allowed"] - len(foreign["chosen"])
    if catalog.FOREIGN in commands and left > 0:
        free = [(f, FORCE_LABELS[f]) for f in FOREIGN_FORCES if f not in foreign["chosen"]]
        add("intervene", f"The die showed {foreign['roll']}: you may call in {left} more "
            f"Foreign Intervention force{'s' if left != 1 else ''}, each once a coup. They "
            "arrive with this phase's incoming fire; the units then wait to be landed.",
            [Field("forces", "Forces", "multiselect", free)])
    waiting: dict[str, int] = {}
    for u in mine:
        if u["zone"] is None:
            waiting[u["kind"]] = waiting.get(u["kind"], 0) + 1
    for kind, count in sorted(waiting.items()):
        _place(kind, count, add)
    if catalog.FOREIGN in commands:
        for force in ("helicopter", "paratroopers", "commandos"):
            kind = FOREIGN_FORCES[force][0]
            if kind not in waiting and _may_choose(state, force):
                _place(kind, 0, add)
    stacks = _stacks(on_map)
    if stacks:
        fields, reach = _move_fields(state, stacks)
        fields.append(Field("units", "Only these units (leave empty to move the whole stack)",
                            "multiselect", [(str(u["id"]), unit_label(u)) for u in on_map],
                            required=False))
        add("move", f"You may move {moves_reason(state, seat)} this phase; a Helicopter "
            f"alone flies up to two zones and does not count. {reach}", fields)
    if state.phase == "coup" and coup["phase"] == 1 and coup.get("agitator_zones") and \
            catalog.INTERNAL_SECURITY in commands:
        police = [u for u in on_map if u["kind"] == "Police"]
        add("police_response", "Rush any or all Police to a zone where Mob, Striker or "
            "Rioter units were deployed in the Rebel-Only step. This does not count as your "
            "stack move.",
            [Field("zone", "Zone", "select",
                   _zone_choices(state, units, sorted(coup["agitator_zones"]))),
             Field("units", "Only these Police (leave empty for all)", "multiselect",
                   [(str(u["id"]), unit_label(u)) for u in police], required=False)])
    kinds_held = sorted({u["kind"] for u in mine})
    if len(kinds_held) > 1:
        add("casualties", "Your units hit by strikes or in battle fall weakest first (unarmed, "
            "then armed, then 2-dice units). Name the kinds to lose last instead, the first "
            "named the very last; it holds for this phase.",
            [Field(f"last:{i}", label, "select",
                   [(k, k) for k in kinds_held] if i == 1 else
                   [("", "-"), *[(k, k) for k in kinds_held]], required=i == 1)
             for i, label in enumerate(("Lose last", "Then", "Then"), start=1)
             if i <= len(kinds_held)])
    if mine and others:
        add("transfer", "Hand units over to another player. Unmoved units handed over before "
            "the moves bring their move along; units handed over after moving do not move "
            "again this phase.",
            [Field("units", "Units", "multiselect", [(str(u["id"]), unit_label(u))
                                                     for u in mine]),
             Field("to", "To", "select", others),
             Field("after_moves", "When", "select",
                   [("no", "before the moves"), ("yes", "after the moves")])])
    if on_map:
        embassies = " or ".join(zone_name(z) for z in EMBASSIES)
        add("flee", f"Flee the country: it works only if one of your units stands in an "
            f"embassy ({embassies}) after this phase's moves. You lose your positions.", [])
        exiles = [(str(p.seat), p.name) for p in state.players if p.status == "exiled"]
        if exiles:
            add("embassy_passage", "Let an exile come home through an embassy where you hold "
                "a unit after the moves (he must also order his return).",
                [Field("seat", "Exile", "select", exiles)])
    if mine and others:
        fighting = [z for z in sorted(catalog.zones()) if z not in EMBASSIES]
        add("attack", "Attack a player's units in a zone after the moves (Rebels and "
            "Loyalists who meet fight anyway). Embassies are no-combat zones.",
            [Field("zone", "Zone", "select", _zone_choices(state, units, fighting)),
             Field("target", "Player", "select", others)])
        add("retreat", "If your units in a zone must retreat after a battle, where they go "
            "(a zone next to it); otherwise they go back where they came from.",
            [Field("zone", "Retreat from", "select", _zone_choices(state, units, fighting)),
             Field("to_zone", "Retreat to", "select",
                   [(str(z), zone_name(z)) for z in sorted(catalog.zones())])])
        add("permit_retreat", "Whether a player's retreating units may enter zones you hold. "
            "Unless you say so, Rebels deny Loyalists and Loyalists deny Rebels.",
            [Field("seat", "Player", "select", others),
             Field("allow", "Allow the retreat", "select", YES_NO)])
    if state.phase == "coup_final":
        sides = SIDE_CHOICES[1:] if seat == state.president else SIDE_CHOICES
        add("coup_side", "Vote Pro-Junta or Pro-President. A control point counts Pro-Junta "
            "only if every unit in it belongs to a Pro-Junta voter; empty or shared points "
            "count Pro-President. The side with 3 of the 5 control points wins; no vote "
            "abstains." + (" The President cannot vote Pro-Junta."
                           if seat == state.president else ""),
            [Field("side", "Your vote", "select", sides)])


def _unit_cards(state: GameState, seat: int, add: Add) -> None:
    """Event cards that put units on the map and the Bribe cards, each with the zones it may
    use: in the Rebel-Only step (before anyone moves) and during the coup."""
    p = state.players[seat]
    units = coup_units(state)
    rebel_step = state.phase == "locations"
    for cid in p.hand:
        card = catalog.card(cid)
        if card.name not in UNIT_CARDS or not playable_now(state, card):
            continue
        if card.name in BRIBES:
            how, value = BRIBES[card.name]
            targets = [u for u in units if u["zone"] is not None and u["owner"] != seat and (
                u["kind"] in AGITATORS | {"Labor Rioter"} if how == "agitators"
                else u.get(how) == value)]
            if not targets or p.pocket < 1:
                continue
            zones = sorted({u["zone"] for u in targets})
            help_text = (f"Name a zone: for each unit there the card can buy you pay 1 MP and "
                         f"roll a die; on 4-6 the unit is yours for the rest of the coup. You "
                         f"have {p.pocket} MP.")
            zone_field = Field("zone", "Zone", "select", _zone_choices(state, targets, zones))
        else:
            spec = CARD_UNITS[card.name]
            if spec.requires and not has_influence(state, seat, spec.requires) or \
                    spec.cost > p.pocket:
                continue
            help_text = f"{spec.count} {plural(spec.kind, spec.count)} appear under your " \
                "control"
            help_text += f" in {zone_name(spec.zones[0])}." if len(spec.zones) == 1 else \
                " in the zone you choose."
            if spec.cost:
                help_text += f" Costs {spec.cost} MP."
            if rebel_step:
                help_text += " Rebel action: it makes you a Rebel" + (
                    " and gives a Coup Excuse." if spec.excuse else ".")
            zone_field = Field("zone", "Where", "select",
                               [(str(z), zone_name(z)) for z in spec.zones])
        add("play_card", help_text,
            [Field("card", "Card", "select", [(str(cid), card.name)]), zone_field],
            key=f"play_card:{cid}", label=f"Play {card.name}", args={"card": cid})


def _aftermath(state: GameState, seat: int, add: Add) -> None:
    coup = state.coup or {}
    result = coup.get("result")
    p = state.players[seat]
    living = [(str(x.seat), x.name) for x in state.players if x.status == "alive"]
    if result == "junta" and p.rebel:
        first = state.first_rebel
        tie = f" The First Rebel, {state.name(first)}, breaks ties." if first is not None \
            else ""
        add("junta_vote", "The Junta elects the President: any living player, the sitting "
            "President included." + tie, [Field("candidate", "Candidate", "select", living)])
    if result == "president" and seat == state.president:
        rebels = [(str(x.seat), x.name) for x in state.players
                  if x.status == "alive" and x.rebel and x.seat != seat]
        if rebels:
            add("execute", "You won the coup: you may send one Rebel to the firing squad "
                "(Loyalists are immune). His pocket money comes to you. No order: you "
                "benevolently execute no one.",
                [Field("target", "Rebel", "select", rebels)])
    elif result == "junta":
        targets = [(v, n) for v, n in living if v != str(seat)]
        add("execute", "Should you be elected President by the Junta, you may execute ANY one "
            "player and take his pocket money; the order counts only if you are elected. No "
            "order: you benevolently execute no one.",
            [Field("target", "Player", "select", targets)])


# --- reading and describing ----------------------------------------------------------------------

def describe(state: GameState, order: dict) -> str | None:
    """A sentence for a stored coup order, or None for other kinds."""
    name = state.name
    units = {u["id"]: u for u in coup_units(state)}

    def z(key: str) -> str:
        value = order.get(key)
        return zone_name(value) if value in catalog.zones() else "?"

    def listed(ids: Any) -> str:
        picked = [units[i] for i in ids or [] if i in units]
        return ", ".join(f"{u['kind']} #{u['id']}" for u in picked) or "units"

    match order.get("kind"):
        case "rebel_move":
            return f"Rebel-Only move from {z('from_zone')} to {z('to_zone')}"
        case "move":
            what = listed(order["units"]) if order.get("units") else "the stack"
            return f"Move {what} from {z('from_zone')} to {z('to_zone')}"
        case "airstrike":
            source = "foreign Air Strike" if order.get("source") == "foreign" else "Airstrike"
            return f"{source} on {name(order['target'])}'s units in {z('zone')}"
        case "gunboat":
            return f"Gunboat shells {name(order['target'])}'s units in {z('zone')}"
        case "intervene":
            return "Call in the foreign " + ", ".join(FORCE_NAMES.get(f, f) for f in
                                                      order.get("forces") or [])
        case "transfer":
            when = " after the moves" if order.get("after_moves") else ""
            return f"Hand {listed(order.get('units'))} to {name(order['to'])}{when}"
        case "place":
            return f"Land the {order.get('unit')} in {z('zone')}"
        case "police_response":
            return f"Police Response to {z('zone')}"
        case "flee":
            return "Flee the country through an embassy"
        case "embassy_passage":
            return f"Grant {name(order['seat'])} passage through my embassy"
        case "casualties":
            return "Units to lose last: " + ", then ".join(order.get("last") or [])
        case "attack":
            return f"Attack {name(order['target'])} in {z('zone')}"
        case "retreat":
            return f"Retreat from {z('zone')} to {z('to_zone')}"
        case "permit_retreat":
            verb = "Allow" if order.get("allow") else "Deny"
            return f"{verb} {name(order['seat'])} to retreat into my zones"
        case "coup_side":
            return "Vote Pro-Junta" if order.get("side") == "junta" else "Vote Pro-President"
        case "junta_vote":
            return f"Junta vote for {name(order['candidate'])}"
        case "execute":
            return f"Send {name(order['target'])} to the firing squad"
    return None
