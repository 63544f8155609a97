"""The registry of order kinds: one entry for each thing a player may order.

Each kind says its label, the phases it may be given in, the adjudication step it acts at
(`steps.py`), whether a player gives one unconditional order of it a phase, its arguments
(name, label, type), how it reads in words and how it is given and drawn on the map (its
`MapForm`). Validation (`orders.py`), a seat's legal options
(`options.py`), the bots, the Status instructions, the pages, the GM panel and the API all read
this table; adding an order kind means an entry here, its check and its rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from . import catalog, steps
from .enums import PhaseKind, Step
from .labels import FORCE_NAMES, card_name, zone_name
from .state import BIL, GameState

if TYPE_CHECKING:
    from .orders import Order

ANY_PHASE = frozenset(PhaseKind(p) for p in steps.ADJUDICATION_ORDER)
VOTING_PHASES = frozenset({PhaseKind.ELECTION, PhaseKind.SPECIAL_MOTION, PhaseKind.BUDGET_VOTE})
COUP_PHASES = frozenset({PhaseKind.COUP, PhaseKind.COUP_FINAL})
REBEL_OR_COUP = frozenset({PhaseKind.LOCATIONS}) | COUP_PHASES  # the Rebel-Only step, then the coup


class ArgType(StrEnum):
    """What an argument holds, as the engine reads it."""
    SEAT = "seat"  # a player's seat (int)
    ZONE = "zone"  # a zone of the city (int)
    CARD = "card"  # a political card's number (int); an assassin may be "secret_police"
    CARDS = "cards"  # a list of card numbers
    CARD_NAMES = "card_names"  # cards asked for by name in a trade
    AMOUNT = "amount"  # whole MP or a count (int)
    LOCATION = "location"  # home, hq, bank, club, mistress (or exile for a location order)
    POSITION = "position"  # a Cabinet position's key
    UNITS = "units"  # a list of unit numbers
    UNIT_KIND = "unit_kind"  # a kind of unit ("Marine")
    UNIT_KINDS = "unit_kinds"  # kinds of unit, in order
    FORCES = "forces"  # Foreign Intervention forces
    CHOICE = "choice"  # one of a fixed set of words ("deposit", "grant", "junta")
    BALLOT = "ballot"  # yes / no / abstain, or a candidate's seat
    FLAG = "flag"  # true or false
    TABLE = "table"  # a value for each of several keys (allocations, appointments, split)


@dataclass(frozen=True)
class Arg:
    name: str
    label: str
    type: ArgType


class MapShape(StrEnum):
    """How an order is given and drawn on the Map page (`order_facts.py`)."""
    NONE = "none"  # not on the map
    ROUTE = "route"  # a stack from a zone to another: an arrow
    ZONE = "zone"  # a zone: its outline
    TARGET = "target"  # a zone struck or attacked, and whose units there: a crosshair


@dataclass(frozen=True)
class MapForm:
    """An order's map shape and the arguments the map fills in: the zone it acts in (a
    route's end), a route's start, a target's player."""
    shape: MapShape = MapShape.NONE
    zone: str = "zone"
    start: str = ""  # ROUTE: the argument naming the zone it starts from
    who: str = ""  # TARGET: the argument naming whose units
    moves: bool = False  # ROUTE: a stack's move; the stack stands at the end after the moves
    after_moves: bool = False  # given by a stack where it stands after the moves (an attack)


OFF_MAP = MapForm()
_MOVE = MapForm(MapShape.ROUTE, "to_zone", "from_zone", moves=True)
_STRIKE = MapForm(MapShape.TARGET, who="target")
_IN_A_ZONE = MapForm(MapShape.ZONE)


@dataclass(frozen=True)
class OrderKind:
    name: str
    label: str
    step: Step
    phases: frozenset[PhaseKind]
    args: tuple[Arg, ...] = ()
    single: bool = False  # one unconditional order of this kind a phase
    template: str = ""  # how it reads: "Pay {to} {amount} MP"; a describer otherwise
    map_form: MapForm = OFF_MAP  # how it is given and drawn on the map

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)


def _a(name: str, label: str, kind: ArgType) -> Arg:
    return Arg(name, label, kind)


T = ArgType
KINDS: tuple[OrderKind, ...] = (
    # any time (docs/rules.md §any-time)
    OrderKind("pay", "Pay money", Step.ANY_TIME, ANY_PHASE,
              (_a("to", "To", T.SEAT), _a("amount", "MP", T.AMOUNT)),
              template="Pay {to} {amount} MP"),
    OrderKind("give_card", "Give a card", Step.ANY_TIME, ANY_PHASE,
              (_a("to", "To", T.SEAT), _a("card", "Card", T.CARD)),
              template="Give {card} to {to}"),
    OrderKind("trade", "Trade (both sides must order it)", Step.ANY_TIME, ANY_PHASE,
              (_a("with", "With", T.SEAT), _a("give_cards", "Cards you give", T.CARDS),
               _a("get_cards", "Cards you get", T.CARD_NAMES),
               _a("give_money", "MP you give", T.AMOUNT),
               _a("get_money", "MP you get", T.AMOUNT))),
    OrderKind("play_card", "Play a card", Step.ANY_TIME, ANY_PHASE,  # its step is the card's
              (_a("card", "Card", T.CARD), _a("target", "Target", T.SEAT),
               _a("zone", "Zone", T.ZONE)), map_form=_IN_A_ZONE),  # a card that names a zone
    OrderKind("discard", "Discard a card", Step.ANY_TIME, ANY_PHASE, (_a("card", "Card", T.CARD),),
              template="Discard {card}"),
    OrderKind("resign", "Resign the Presidency", Step.ANY_TIME, ANY_PHASE, single=True,
              template="Resign the Presidency"),
    OrderKind("return_from_exile", "Return from exile", Step.ANY_TIME, ANY_PHASE,
              template="Return from exile"),
    OrderKind("safe_passage", "Decide on a returning exile", Step.ANY_TIME, ANY_PHASE,
              (_a("seat", "Exile", T.SEAT), _a("decision", "Decision", T.CHOICE))),
    OrderKind("brother_in_law", "Position for your Brother-in-Law", Step.ANY_TIME, ANY_PHASE,
              (_a("position", "Position", T.POSITION),),
              template="Brother-in-Law takes {position} if vacant"),
    # before turn 1
    OrderKind("nominate", "Nominate a candidate", Step.NOMINATIONS,
              frozenset({PhaseKind.NOMINATION}), (_a("candidate", "Candidate", T.SEAT),),
              single=True, template="Nominate {candidate}"),
    OrderKind("second", "Second a nomination", Step.NOMINATIONS,
              frozenset({PhaseKind.NOMINATION}), (_a("candidate", "Candidate", T.SEAT),),
              template="Second {candidate}"),
    OrderKind("decline", "Decline your nomination", Step.NOMINATIONS,
              frozenset({PhaseKind.NOMINATION}), single=True, template="Decline my nomination"),
    # votes
    OrderKind("vote", "Vote", Step.VOTE_COUNT, VOTING_PHASES,
              (_a("choice", "Your vote", T.BALLOT), _a("cards", "Vote cards to play", T.CARDS),
               _a("split", "Split your votes", T.TABLE)), single=True),
    # the turn
    OrderKind("appoint", "Appoint the Cabinet", Step.APPOINTMENT, frozenset({PhaseKind.CABINET}),
              (_a("positions", "The Cabinet", T.TABLE),), single=True),
    OrderKind("new_weapons", "Assign New Weapons", Step.DRAWS, frozenset({PhaseKind.BUDGET_DRAW}),
              (_a("position", "Assign to", T.POSITION),), single=True),
    OrderKind("draw_bills", "Draw budget bills", Step.DRAWS, frozenset({PhaseKind.BUDGET_DRAW}),
              (_a("position", "As", T.POSITION), _a("count", "Bills", T.AMOUNT)),
              template="Draw {count} bills as {position}"),
    OrderKind("propose_budget", "Propose the budget", Step.PROPOSAL,
              frozenset({PhaseKind.BUDGET_PROPOSAL}),
              (_a("allocations", "Totals", T.TABLE),
               _a("from_pocket", "Add from your pocket", T.AMOUNT),
               _a("bills", "Bills", T.TABLE)), single=True),
    OrderKind("seize_chamber", "Seize the Chamber or not", Step.SEIZE_DECISION,
              frozenset({PhaseKind.INTERNAL_SECURITY}), (_a("seize", "Decision", T.FLAG),),
              single=True),
    OrderKind("location", "Choose a location", Step.LOCATIONS, frozenset({PhaseKind.LOCATIONS}),
              (_a("place", "Location", T.LOCATION),), single=True),
    OrderKind("assassinate", "Attempt an assassination", Step.ASSASSINATIONS,
              frozenset({PhaseKind.LOCATIONS}),
              (_a("card", "Assassin", T.CARD), _a("target", "Target", T.SEAT),
               _a("location", "Location", T.LOCATION)),
              template="Send {card} against {target} at the {location}"),
    OrderKind("bank", "Deposit or withdraw", Step.BANKING,
              frozenset({PhaseKind.LOCATIONS, PhaseKind.AFTERMATH}),
              (_a("action", "Action", T.CHOICE), _a("amount", "MP", T.AMOUNT)), single=True),
    OrderKind("rebel_move", "Rebel-Only move", Step.REBEL_ONLY, frozenset({PhaseKind.LOCATIONS}),
              (_a("from_zone", "From", T.ZONE), _a("to_zone", "To", T.ZONE)),
              template="Rebel-Only move from {from_zone} to {to_zone}", map_form=_MOVE),
    # the coup (in the Locations phase these act at the Rebel-Only step)
    OrderKind("airstrike", "Airstrike", Step.INCOMING_FIRE, REBEL_OR_COUP,
              (_a("source", "Airstrike from", T.CHOICE), _a("zone", "Zone to strike", T.ZONE),
               _a("target", "Whose units", T.SEAT)), map_form=_STRIKE),
    OrderKind("gunboat", "Gunboat shelling", Step.INCOMING_FIRE, REBEL_OR_COUP,
              (_a("zone", "Zone to strike", T.ZONE), _a("target", "Whose units", T.SEAT)),
              single=True, template="Gunboat shells {target}'s units in {zone}",
              map_form=_STRIKE),
    OrderKind("intervene", "Choose Foreign Intervention forces", Step.INCOMING_FIRE, COUP_PHASES,
              (_a("forces", "Forces", T.FORCES),), single=True),
    OrderKind("transfer", "Transfer units to another player", Step.TRANSFERS, COUP_PHASES,
              (_a("units", "Units", T.UNITS), _a("to", "To", T.SEAT),
               _a("after_moves", "When", T.FLAG))),
    OrderKind("place", "Place units on the map", Step.MOVEMENT, REBEL_OR_COUP,
              (_a("unit", "Unit", T.UNIT_KIND), _a("zone", "Zone", T.ZONE)),
              template="Land the {unit} in {zone}", map_form=_IN_A_ZONE),
    OrderKind("move", "Move a stack", Step.MOVEMENT, COUP_PHASES,
              (_a("from_zone", "From", T.ZONE), _a("to_zone", "To", T.ZONE),
               _a("units", "Only these units", T.UNITS)), map_form=_MOVE),
    OrderKind("police_response", "Police Response", Step.MOVEMENT, frozenset({PhaseKind.COUP}),
              (_a("zone", "Zone", T.ZONE), _a("units", "Only these Police", T.UNITS)),
              single=True, template="Police Response to {zone}", map_form=_IN_A_ZONE),
    OrderKind("flee", "Flee the country through an embassy", Step.MOVEMENT, COUP_PHASES,
              single=True, template="Flee the country through an embassy"),
    OrderKind("embassy_passage", "Safe passage through your embassy", Step.MOVEMENT, COUP_PHASES,
              (_a("seat", "Exile", T.SEAT),),
              template="Grant {seat} passage through my embassy"),
    OrderKind("casualties", "Which units fall last", Step.INCOMING_FIRE, COUP_PHASES,
              (_a("last", "Lose last", T.UNIT_KINDS),), single=True),
    OrderKind("attack", "Attack a player", Step.COMBAT, COUP_PHASES,
              (_a("zone", "Zone", T.ZONE), _a("target", "Player", T.SEAT)),
              template="Attack {target} in {zone}",
              map_form=MapForm(MapShape.TARGET, who="target", after_moves=True)),
    OrderKind("retreat", "Where to retreat", Step.COMBAT, COUP_PHASES,
              (_a("zone", "Retreat from", T.ZONE), _a("to_zone", "Retreat to", T.ZONE)),
              template="Retreat from {zone} to {to_zone}",
              map_form=MapForm(MapShape.ROUTE, "to_zone", "zone")),
    OrderKind("permit_retreat", "Retreat permission", Step.COMBAT, COUP_PHASES,
              (_a("seat", "Player", T.SEAT), _a("allow", "Allow the retreat", T.FLAG))),
    OrderKind("coup_side", "Vote Pro-Junta or Pro-President", Step.COUP_VOTE,
              frozenset({PhaseKind.COUP_FINAL}), (_a("side", "Your vote", T.CHOICE),), single=True),
    OrderKind("junta_vote", "Vote in the Junta", Step.JUNTA_VOTE, frozenset({PhaseKind.AFTERMATH}),
              (_a("candidate", "Candidate", T.SEAT),), single=True,
              template="Junta vote for {candidate}"),
    OrderKind("execute", "Send a player to the firing squad", Step.EXECUTION,
              frozenset({PhaseKind.AFTERMATH}), (_a("target", "Player", T.SEAT),), single=True,
              template="Send {target} to the firing squad"),
)
ORDER_KINDS: dict[str, OrderKind] = {k.name: k for k in KINDS}
SINGLES = frozenset(k.name for k in KINDS if k.single)


# --- in words ----------------------------------------------------------------------------------

def word(state: GameState, arg: Arg | None, value: Any) -> str:
    """One argument's value in words: a seat by name, a zone, a card, a location, a position."""
    if arg is None:
        return str(value)
    if arg.type is T.SEAT and isinstance(value, int) and not isinstance(value, bool) and (
            value == BIL or 0 <= value < len(state.players)):
        return state.name(value)
    if arg.type is T.ZONE and value in catalog.zones():
        return zone_name(value)
    if arg.type is T.CARD:
        return card_name(value)
    if arg.type is T.LOCATION:
        return catalog.LOCATION_NAMES.get(value, str(value))
    if arg.type is T.POSITION:
        return catalog.TITLES.get(value, "no one") if value else "no one"
    return str(value)


def describe(state: GameState, kind: str, args: Mapping[str, Any]) -> str:
    """A sentence for an order without its condition ("Pay Maria 3 MP")."""
    spec = ORDER_KINDS.get(kind)
    if spec is None:
        return str(kind).replace("_", " ")
    custom = _DESCRIBERS.get(kind)
    if custom is not None:
        return custom(state, args)
    fields = {a.name: word(state, a, args.get(a.name)) for a in spec.args}
    return spec.template.format(**fields) if spec.template else spec.label


def _units(state: GameState, ids: Any) -> str:
    from .labels import coup_units

    known = {u["id"]: u for u in coup_units(state)}
    picked = [known[i] for i in ids or [] if i in known]
    return ", ".join(f"{u['kind']} #{u['id']}" for u in picked) or "units"


def _trade(state: GameState, a: Mapping[str, Any]) -> str:
    gives = [card_name(c) for c in a.get("give_cards") or []]
    if a.get("give_money"):
        gives.append(f"{a['give_money']} MP")
    gets = [card_name(c) for c in a.get("get_cards") or []]
    if a.get("get_money"):
        gets.append(f"{a['get_money']} MP")
    return (f"Trade with {word(state, ORDER_KINDS['trade'].args[0], a.get('with'))}: give "
            f"{', '.join(gives) or 'nothing'}, get {', '.join(gets) or 'nothing'}")


def _play(state: GameState, a: Mapping[str, Any]) -> str:
    target = a.get("target")
    on = f" on {state.name(target)}" if isinstance(target, int) and \
        0 <= target < len(state.players) else ""
    zone = a.get("zone")
    where = f" in {zone_name(zone)}" if zone in catalog.zones() else ""
    return f"Play {card_name(a.get('card'))}{on}{where}"


def _vote(state: GameState, a: Mapping[str, Any]) -> str:
    from .voting import source_label

    choice = a.get("choice")
    text = f"Vote {state.name(choice) if isinstance(choice, int) else choice}"
    if a.get("cards"):
        text += " with " + ", ".join(card_name(c) for c in a["cards"])
    if a.get("split"):
        text += " (" + ", ".join(
            f"{source_label(k)}: {state.name(v) if isinstance(v, int) else v}"
            for k, v in a["split"].items()) + ")"
    return text


def _appoint(state: GameState, a: Mapping[str, Any]) -> str:
    parts = []
    for pos, holder in (a.get("positions") or {}).items():
        who = "vacant" if holder is None else state.name(holder)
        parts.append(f"{catalog.TITLES.get(pos, pos)}: {who}")
    return "Appoint " + "; ".join(parts)


def _budget(state: GameState, a: Mapping[str, Any]) -> str:
    def name(seat: Any) -> str:
        return state.name(int(seat)) if str(seat).lstrip("-").isdigit() else str(seat)

    parts = [f"{name(s)} {n} MP" for s, n in sorted((a.get("allocations") or {}).items())]
    text = "Budget: " + (", ".join(parts) or "nothing for anyone")
    if a.get("from_pocket"):
        text += f", adding {a['from_pocket']} MP from my pocket"
    if isinstance(a.get("bills"), dict) and a["bills"]:
        text += " (bills: " + "; ".join(f"{name(s)} {', '.join(map(str, d))} MP"
                                        for s, d in sorted(a["bills"].items())) + ")"
    return text


def _bank(state: GameState, a: Mapping[str, Any]) -> str:
    return f"{str(a.get('action', '')).title()} {a.get('amount')} MP"


def _location(state: GameState, a: Mapping[str, Any]) -> str:
    place: Any = a.get("place")
    return "Exile" if place == "exile" else \
        f"Location: {catalog.LOCATION_NAMES.get(place, str(place))}"


def _new_weapons(state: GameState, a: Mapping[str, Any]) -> str:
    pos: Any = a.get("position")
    return f"New Weapons to {catalog.TITLES.get(pos, 'no one')}"


def _seize(state: GameState, a: Mapping[str, Any]) -> str:
    return "Seize the Chamber" if a.get("seize") else "Let the budget stay defeated"


def _safe_passage(state: GameState, a: Mapping[str, Any]) -> str:
    seat = a.get("seat")
    who = state.name(seat) if isinstance(seat, int) else "an exile"
    return f"{str(a.get('decision', '')).title()} {who} on return"


def _move(state: GameState, a: Mapping[str, Any]) -> str:
    what = _units(state, a["units"]) if a.get("units") else "the stack"
    return f"Move {what} from {_zone(a.get('from_zone'))} to {_zone(a.get('to_zone'))}"


def _zone(value: Any) -> str:
    return zone_name(value) if value in catalog.zones() else "?"


def _airstrike(state: GameState, a: Mapping[str, Any]) -> str:
    source = "foreign Air Strike" if a.get("source") == "foreign" else "Airstrike"
    return f"{source} on {_seat(state, a.get('target'))}'s units in {_zone(a.get('zone'))}"


def _seat(state: GameState, value: Any) -> str:
    return state.name(value) if isinstance(value, int) and 0 <= value < len(state.players) \
        else "?"


def _intervene(state: GameState, a: Mapping[str, Any]) -> str:
    return "Call in the foreign " + ", ".join(FORCE_NAMES.get(f, f) for f in
                                              a.get("forces") or [])


def _transfer(state: GameState, a: Mapping[str, Any]) -> str:
    when = " after the moves" if a.get("after_moves") else ""
    return f"Hand {_units(state, a.get('units'))} to {_seat(state, a.get('to'))}{when}"


def _casualties(state: GameState, a: Mapping[str, Any]) -> str:
    return "Units to lose last: " + ", then ".join(a.get("last") or [])


def _permit(state: GameState, a: Mapping[str, Any]) -> str:
    verb = "Allow" if a.get("allow") else "Deny"
    return f"{verb} {_seat(state, a.get('seat'))} to retreat into my zones"


def _side(state: GameState, a: Mapping[str, Any]) -> str:
    return "Vote Pro-Junta" if a.get("side") == "junta" else "Vote Pro-President"


_DESCRIBERS: dict[str, Callable[[GameState, Mapping[str, Any]], str]] = {
    "trade": _trade, "play_card": _play, "vote": _vote, "appoint": _appoint,
    "propose_budget": _budget, "bank": _bank, "location": _location,
    "new_weapons": _new_weapons, "seize_chamber": _seize, "safe_passage": _safe_passage,
    "move": _move, "airstrike": _airstrike, "intervene": _intervene, "transfer": _transfer,
    "casualties": _casualties, "permit_retreat": _permit, "coup_side": _side,
}


def takes_the_place_of(new: Order, old: Order) -> bool:
    """Whether a new order replaces an old one rather than standing beside it: an
    unconditional order of a kind given once a phase (a location, a ballot, the Cabinet, the
    bank) replaces the unconditional one given before; a draw replaces the draw for the same
    position. Orders with conditions stand side by side (docs/rules.md §orders)."""
    if new.kind != old.kind or new.condition is not None or old.condition is not None:
        return False
    if new.kind == "draw_bills":
        return bool(new.args.get("position") == old.args.get("position"))
    spec = ORDER_KINDS.get(new.kind)
    return spec is not None and spec.single


# the kinds of which a player's first order whose condition holds is carried out and the others
# are not (phases/votes.py `ballots`, phases/locations.py, phases/budget.py: the New Weapons,
# the draws, the proposal, the Minister's decision; phases/cabinet.py): an order of these after
# one of its kind with no condition could never be carried out
FIRST_THAT_HOLDS = frozenset({"vote", "location", "new_weapons", "draw_bills", "propose_budget",
                              "seize_chamber", "appoint"})


def fallback_group(order: Any) -> tuple[str, str] | None:
    """The orders among which the first whose condition holds is carried out and the rest are
    not (`FIRST_THAT_HOLDS`; the draws, for one position): None for an order that stands
    beside the others of its kind."""
    if order.kind not in FIRST_THAT_HOLDS:
        return None
    return (order.kind, str(order.args.get("position")) if order.kind == "draw_bills" else "")


def arranged(orders: list[Any]) -> list[Any]:
    """The orders with each conditional one placed before the unconditional order of its group
    (`fallback_group`) given earlier: of a group the first order whose condition holds is
    carried out, so an order with a condition after the one without could never be; before
    it, it is tried first and the one without is the fallback (docs/rules.md §conditions).
    Nothing else moves; a set already in that order comes back as it was."""
    out: list[Any] = []
    fallback: dict[tuple[str, str], int] = {}  # a group's unconditional order: its index in out
    for order in orders:
        group = fallback_group(order)
        if group is None:
            out.append(order)
        elif order.condition is not None and group in fallback:
            at = fallback[group]
            out.insert(at, order)
            fallback = {g: i + 1 if i >= at else i for g, i in fallback.items()}
        else:
            if order.condition is None and group not in fallback:
                fallback[group] = len(out)
            out.append(order)
    return out


def describe_order(state: GameState, order: Any) -> str:
    """A sentence for an order with its condition ("Pay Maria 3 MP if Bill is
    assassinated")."""
    from .orders import describe_condition

    text = describe(state, order.kind, order.args)
    if order.condition is not None:
        text += f" if {describe_condition(state, order.condition)}"
    return text
