"""The order forms: for each order a player may give now, its fields with legal choices.

Built from the engine's order model and the player's view of the state: players pick from
lists (players, cards in hand, positions, zones), never type names. `read_order` turns a
submitted form back into the engine's JSON order; the engine validates it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from junta.engine import catalog, steps
from junta.engine.orders import (
    CONDITION_KINDS,
    COUP_PHASES,
    ORDER_KINDS,
    UNIT_CARDS,
    Condition,
    Order,
    action_step,
    condition_step,
)
from junta.engine.state import BIL, GameState
from junta.engine.voting import source_label, sources


@dataclass
class Field:
    name: str
    label: str
    kind: str  # select, multiselect, number
    choices: list[tuple[str, str]] = field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True


@dataclass
class Builder:
    kind: str
    label: str
    help: str
    fields: list[Field]
    conditions: list[tuple[str, str]]  # (condition kind, its description) offered
    refused: list[str]  # why other conditions are not offered
    key: str = ""  # the form's name when one kind has several forms ("place:Marine")

    def __post_init__(self) -> None:
        self.key = self.key or self.kind


def _players(state: GameState, seat: int, include_self: bool = False) -> list[tuple[str, str]]:
    return [(str(p.seat), p.name) for p in state.players
            if p.active and (include_self or p.seat != seat)]


def _hand(state: GameState, seat: int, pred=lambda c: True) -> list[tuple[str, str]]:
    return [(str(cid), catalog.card(cid).name) for cid in state.players[seat].hand
            if pred(catalog.card(cid))]


LOCATION_CHOICES = [(k, v) for k, v in catalog.LOCATION_NAMES.items()]


def builders(state: GameState, seat: int) -> list[Builder]:
    """Every kind of order this player may give in the current phase, with its fields."""
    if state.finished:
        return []
    p = state.players[seat]
    phase = state.phase
    commands = state.commanded_positions(seat)
    out: list[Builder] = []

    def add(kind: str, help_text: str, fields: list[Field], key: str = "", label: str = "",
            args: dict | None = None) -> None:
        if phase not in ORDER_KINDS[kind].phases:
            return
        out.append(Builder(kind, label or ORDER_KINDS[kind].label, help_text, fields,
                           *_condition_options(state, kind, args), key=key))

    if p.status == "exiled":
        if seat not in state.pending_returns or phase in COUP_PHASES:
            add("return_from_exile", "Ask the Minister of Internal Security for safe passage.",
                [])
        return out
    if not p.active:
        return out
    others = _players(state, seat)
    everyone = _players(state, seat, include_self=True)
    if phase == "nomination":
        add("nominate", "Nominate a player for the Presidency.",
            [Field("candidate", "Candidate", "select", everyone)])
        add("second", "Second or support a nomination.",
            [Field("candidate", "Candidate", "select", everyone)])
        add("decline", "Decline any nomination of you.", [])
    if phase in ("election", "special_motion", "budget_vote") and sources(state, seat):
        if phase == "election":
            cands = (state.election or {}).get("candidates") or state.active_seats()
            choices = [(str(c), state.name(c)) for c in cands if state.players[c].active]
        else:
            choices = [("yes", "Yes"), ("no", "No")]
        choices.append(("abstain", "Abstain"))
        fields = [Field("choice", "Your vote", "select", choices)]
        own = sources(state, seat)
        if len(own) > 1:
            for source, votes in own.items():
                fields.append(Field(f"split:{source}", f"{source_label(source)} ({votes})",
                                    "select", [("", "as my vote"), *choices], required=False))
        vote_cards = _hand(state, seat, lambda c: c.category == "vote")
        if vote_cards:
            fields.append(Field("cards", "Vote cards to play", "multiselect", vote_cards,
                                required=False))
        add("vote", "All your votes go to your choice unless you split them.", fields)
    if phase == "cabinet" and seat == state.president:
        holders = [("", "vacant"), *[(str(s), state.name(s)) for s in state.active_seats()
                                     if s != seat], (str(BIL), "your Brother-in-Law")]
        add("appoint", "Every living player in the country needs a position; at most two "
            "each, never two Generals; your Brother-in-Law may take one.",
            [Field(f"position:{pos}", catalog.TITLES[pos], "select", holders)
             for pos in catalog.CABINET])
    if phase == "budget_draw":
        if catalog.WAR in commands:
            add("new_weapons", "New Weapons: a General, the Admiral, the Air Force Commander "
                "or no one.", [Field("position", "Assign to", "select", [
                    ("", "no one"), *[(k, catalog.TITLES[k]) for k in
                                      catalog.NEW_WEAPONS_TARGETS]])])
        mine = [(k, catalog.TITLES[k]) for k in (catalog.FOREIGN, catalog.FARM_LABOR)
                if k in commands]
        if mine:
            add("draw_bills", "Draw 1 to 6 bills; with no order the number is random.",
                [Field("position", "As", "select", mine),
                 Field("count", "Bills", "number", minimum=1, maximum=6)])
    if phase == "budget_proposal" and seat == state.budget.get("proposer", state.president):
        fields = [Field(f"alloc:{s}", name, "number", minimum=0, maximum=99, required=False)
                  for s, name in everyone]
        fields.append(Field("from_pocket", "Add from your pocket", "number", minimum=0,
                            maximum=p.pocket, required=False))
        add("propose_budget", "Give each player a total; what you do not allocate you keep.",
            fields)
    if phase == "internal_security" and catalog.INTERNAL_SECURITY in commands:
        add("seize_chamber", "Seize the Chamber (the budget passes at gunpoint, the Bank closes "
            "for lunch) or let it stay defeated.",
            [Field("seize", "Decision", "select", [("no", "Let the budget stay defeated"),
                                                   ("yes", "Seize the Chamber")])])
    if phase == "locations":
        add("location", "Where you spend the day.",
            [Field("place", "Location", "select", [*LOCATION_CHOICES, ("exile", "Exile")])])
        assassins = _hand(state, seat, lambda c: (c.category == "assassin" and c.name not in (
            "Burglar", "Bank Robber", "Character Assassin")) or c.name ==
            "Secret Police Overtime")
        if catalog.INTERNAL_SECURITY in commands:
            assassins.insert(0, ("secret_police", "the Secret Police"))
        if assassins:
            add("assassinate", "Name the assassin, the target and the location to strike.",
                [Field("card", "Assassin", "select", assassins),
                 Field("target", "Target", "select", others),
                 Field("location", "Location", "select", LOCATION_CHOICES)])
    if phase == "locations" or (phase == "aftermath" and p.location == "bank"
                                and state.turn_flags.get("bank_after_lunch")):
        add("bank", "Only from the Bank location, and only when the Bank is open." if
            phase == "locations" else "The Bank reopens after lunch: your deposit or "
            "withdrawal is carried out after the post-coup execution, if you survive it.",
            [Field("action", "Action", "select", [("deposit", "Deposit"),
                                                   ("withdraw", "Withdraw")]),
             Field("amount", "MP", "number", minimum=1, maximum=max(p.pocket, p.bank, 1))])
    if phase in ("locations", "aftermath", *COUP_PHASES):
        from junta.games import coup_forms

        coup_forms.add_builders(state, seat, add)
    # any time
    if p.pocket and others:
        add("pay", "Pay money from your pocket.",
            [Field("to", "To", "select", others),
             Field("amount", "MP", "number", minimum=1, maximum=p.pocket)])
    if p.hand and others:
        add("give_card", "Give a card (not to a player at the hand limit).",
            [Field("to", "To", "select", others), Field("card", "Card", "select",
                                                         _hand(state, seat))])
        add("trade", "A trade happens only if the other player orders the same trade.",
            [Field("with", "With", "select", others),
             Field("give_cards", "Cards you give", "multiselect", _hand(state, seat),
                   required=False),
             Field("give_money", "MP you give", "number", minimum=0, maximum=p.pocket,
                   required=False),
             Field("get_money", "MP you get", "number", minimum=0, maximum=999,
                   required=False)])
    # (unit and Bribe cards have a form each, with their zones: see coup_forms)
    playable = _hand(state, seat, lambda c: c.category not in ("vote",) and not (
        c.category == "assassin" and c.name not in ("Burglar", "Bank Robber",
                                                    "Character Assassin",
                                                    "Monarchist Assassin"))
        and c.name not in UNIT_CARDS)
    if playable:
        targets = [("", "no target"), *others,
                   *[(str(x.seat), f"{x.name} (in exile)") for x in state.players
                     if x.status == "exiled"]]
        add("play_card", "Play a card; some need a target.",
            [Field("card", "Card", "select", playable),
             Field("target", "Target", "select", targets, required=False)])
    discardable = _hand(state, seat) + [(str(c), f"{catalog.card(c).name} (in play)")
                                        for c in p.influence]
    if discardable:
        add("discard", "Discard a card (the hand limit is 6, Influence in play counts).",
            [Field("card", "Card", "select", discardable)])
    if seat == state.president and phase not in ("nomination", "election") and \
            state.coup is None:
        add("resign", "Resign the Presidency: the Chamber elects a successor at once.", [])
    if seat == state.president:
        add("brother_in_law", "If several positions fall vacant, your Brother-in-Law takes "
            "this one.", [Field("position", "Position", "select",
                                [(k, catalog.TITLES[k]) for k in catalog.CABINET])])
    if catalog.INTERNAL_SECURITY in commands and state.pending_returns:
        add("safe_passage", "Decide on an exile asking to return.",
            [Field("seat", "Exile", "select", [(str(s), state.name(s))
                                               for s in state.pending_returns]),
             Field("decision", "Decision", "select", [("grant", "Grant safe passage"),
                                                      ("execute", "Execute")])])
    return out


def _condition_options(state: GameState, kind: str, args: dict | None = None
                       ) -> tuple[list[tuple[str, str]], list[str]]:
    phase = state.phase
    act = action_step(Order(kind, dict(args or {})), phase)
    act_index = steps.index(phase, act)
    offered, refused = [], []
    for cond, (_, phases, template) in CONDITION_KINDS.items():
        step = condition_step(Condition(cond, {}), phase)
        cond_index = steps.index(phase, step)
        if phase not in phases or cond_index < 0:
            continue
        label = template.format(seat="a player", choice="a way", location="a location",
                                card="a card", position="a position", result="ends")
        if cond_index < act_index or (act == "any_time" and cond_index > act_index):
            offered.append((cond, label))
        else:
            refused.append(f"\u201c{label}\u201d is settled at {steps.describe(phase, step)}, "
                           f"not before this order ({steps.describe(phase, act)}).")
    return offered, refused


def condition_fields(state: GameState) -> list[Field]:
    """The fields that complete a condition (which player, which location, which result)."""
    everyone = [(str(p.seat), p.name) for p in state.players]
    return [
        Field("cond_seat", "Player", "select", [("", "-"), *everyone], required=False),
        Field("cond_location", "Location", "select", [("", "-"), *LOCATION_CHOICES],
              required=False),
        Field("cond_choice", "Vote", "select", [("", "-"), ("yes", "yes"), ("no", "no")],
              required=False),
        Field("cond_result", "Result", "select", [("", "-"), ("passes", "passes"),
                                                  ("fails", "fails")], required=False),
        Field("cond_margin", "By at most (votes)", "number", minimum=0, maximum=999,
              required=False),
        Field("cond_card", "Card", "select", [("", "-"), *sorted(
            {(c.name, c.name) for c in catalog.cards()})], required=False),
        Field("cond_position", "Position", "select", [("", "-"), *[
            (k, catalog.TITLES[k]) for k in catalog.CABINET]], required=False),
    ]


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def read_order(state: GameState, seat: int, data: QueryDict) -> tuple[dict | None, str]:
    """The engine order a submitted builder form describes, or a message why not.

    The form's `kind` names a builder by its key ("place:Marine") or by its order kind; when
    several forms share the kind (a map posting `kind=place`), the first that reads wins."""
    key = data.get("kind", "")
    offered = builders(state, seat)
    matching = [b for b in offered if b.key == key] or [b for b in offered if b.kind == key]
    if not matching:
        return None, "That order cannot be given now."
    problem = ""
    for builder in matching:
        order, problem = _read_builder(builder, data)
        if order is not None:
            return order, ""
    return None, problem


def _read_builder(builder: Builder, data: QueryDict) -> tuple[dict | None, str]:
    kind = builder.kind
    order: dict[str, Any] = {"kind": kind}
    allocations: dict[str, int] = {}
    split: dict[str, str] = {}
    last: list[str] = []  # casualties: the kinds to lose last, in order
    for f in builder.fields:
        if f.kind == "multiselect":
            raw = data.getlist(f.name)
            allowed = {c for c, _ in f.choices}
            if any(v not in allowed for v in raw):
                return None, f"{f.label}: choose among the options offered."
            value: Any = [_coerce_choice(v) for v in raw]
            if f.name == "units" and not f.required and not value:
                continue  # no units named: the whole stack (or every Police unit)
        elif f.kind == "number":
            value = _int(data.get(f.name))
            if value is None and f.required:
                return None, f"{f.label}: give a whole number."
        else:
            raw = data.get(f.name, "")
            allowed = {c for c, _ in f.choices}
            if raw not in allowed:
                return None, f"{f.label}: choose one of the options offered."
            value = raw
        if f.name.startswith("alloc:"):
            if value:
                allocations[f.name[6:]] = value
            continue
        if f.name.startswith("split:"):
            if value:
                split[f.name[6:]] = _coerce_choice(value)
            continue
        if f.name.startswith("last:"):
            if value:
                last.append(value)
            continue
        if f.name.startswith("position:"):
            order.setdefault("positions", {})[f.name[9:]] = _int(value)
            continue
        order[f.name] = _coerce(f.name, value)
    if kind == "propose_budget":
        order["allocations"] = allocations
        order["from_pocket"] = order.get("from_pocket") or 0
    if kind == "vote":
        order["choice"] = _coerce_choice(order["choice"])
        if split:
            order["split"] = split
    if kind == "casualties":
        order["last"] = last
    if kind == "play_card" and order.get("target") is None:
        order.pop("target", None)
    for key in ("give_money", "get_money"):
        if key in order and order[key] is None:
            order[key] = 0
    cond = data.get("condition", "")
    if cond:
        if cond not in dict(builder.conditions):
            return None, "That condition cannot be used with this order: see why below."
        order["condition"] = _read_condition(cond, data)
    return order, ""


def _coerce_choice(value: str) -> Any:
    return int(value) if value.lstrip("-").isdigit() else value


INT_FIELDS = frozenset({"candidate", "to", "with", "target", "seat", "card", "count", "amount",
                        "zone", "from_zone", "to_zone"})
BOOL_FIELDS = frozenset({"seize", "allow", "after_moves"})  # "yes" / "no" selects


def _coerce(name: str, value: Any) -> Any:
    if name in INT_FIELDS and isinstance(value, str):
        if value == "":
            return None
        return int(value) if value.lstrip("-").isdigit() else value
    if name in BOOL_FIELDS:
        return value == "yes"
    if name == "position" and value == "":
        return None
    return value


def _read_condition(kind: str, data: QueryDict) -> dict:
    out: dict[str, Any] = {"kind": kind}
    if _int(data.get("cond_seat")) is not None:
        out["seat"] = _int(data.get("cond_seat"))
    for key in ("location", "choice", "result", "card", "position"):
        value = data.get(f"cond_{key}")
        if value:
            out[key] = value
    if _int(data.get("cond_margin")) is not None:
        out["margin_at_most"] = _int(data.get("cond_margin"))
    return out


def describe_order(state: GameState, order: dict) -> str:
    """A sentence for a stored order ("Pay Maria 3 MP if Bill is assassinated")."""
    from junta.engine.orders import describe_condition, parse_order

    kind = order.get("kind")
    name = state.name

    def card(c: Any) -> str:
        return catalog.card(c).name if isinstance(c, int) else "the Secret Police"

    match kind:
        case "pay":
            text = f"Pay {name(order['to'])} {order['amount']} MP"
        case "give_card":
            text = f"Give {card(order['card'])} to {name(order['to'])}"
        case "trade":
            gives = [card(c) for c in order.get("give_cards") or []]
            if order.get("give_money"):
                gives.append(f"{order['give_money']} MP")
            gets = [card(c) for c in order.get("get_cards") or []]
            if order.get("get_money"):
                gets.append(f"{order['get_money']} MP")
            text = (f"Trade with {name(order['with'])}: give {', '.join(gives) or 'nothing'},"
                    f" get {', '.join(gets) or 'nothing'}")
        case "play_card":
            target = f" on {name(order['target'])}" if isinstance(order.get("target"), int) \
                else ""
            zone = order.get("zone")
            where = f" in {catalog.zones()[zone].name}" if zone in catalog.zones() else ""
            text = f"Play {card(order['card'])}{target}{where}"
        case "discard":
            text = f"Discard {card(order['card'])}"
        case "nominate" | "second":
            text = f"{kind.title()} {name(order['candidate'])}"
        case "vote":
            choice = order.get("choice")
            shown = name(choice) if isinstance(choice, int) else choice
            text = f"Vote {shown}"
            if order.get("cards"):
                text += " with " + ", ".join(card(c) for c in order["cards"])
            if order.get("split"):
                text += " (" + ", ".join(f"{source_label(k)}: {v}" for k, v in
                                         order["split"].items()) + ")"
        case "appoint":
            parts = []
            for pos, holder in (order.get("positions") or {}).items():
                who = "vacant" if holder is None else name(holder)
                parts.append(f"{catalog.TITLES.get(pos, pos)}: {who}")
            text = "Appoint " + "; ".join(parts)
        case "new_weapons":
            pos = order.get("position")
            text = f"New Weapons to {catalog.TITLES[pos] if pos else 'no one'}"
        case "draw_bills":
            text = f"Draw {order['count']} bills as {catalog.TITLES[order['position']]}"
        case "propose_budget":
            parts = [f"{name(int(s))} {a} MP" for s, a in
                     sorted((order.get("allocations") or {}).items())]
            text = "Budget: " + (", ".join(parts) or "nothing for anyone")
            if order.get("from_pocket"):
                text += f", adding {order['from_pocket']} MP from my pocket"
        case "seize_chamber":
            text = "Seize the Chamber" if order.get("seize") else "Let the budget stay defeated"
        case "location":
            text = "Exile" if order["place"] == "exile" else \
                f"Location: {catalog.LOCATION_NAMES[order['place']]}"
        case "assassinate":
            text = (f"Send {card(order['card'])} against {name(order['target'])} at the "
                    f"{catalog.LOCATION_NAMES[order['location']]}")
        case "bank":
            text = f"{order['action'].title()} {order['amount']} MP"
        case "resign":
            text = "Resign the Presidency"
        case "return_from_exile":
            text = "Return from exile"
        case "safe_passage":
            text = f"{order['decision'].title()} {name(order['seat'])} on return"
        case "brother_in_law":
            text = f"Brother-in-Law takes {catalog.TITLES[order['position']]} if vacant"
        case "decline":
            text = "Decline my nomination"
        case _:
            from junta.games.coup_forms import describe

            text = describe(state, order) or ORDER_KINDS.get(kind, ORDER_KINDS["pay"]).label
    if order.get("condition"):
        parsed = parse_order(order)
        text += f" if {describe_condition(state, parsed.condition)}"
    return text
