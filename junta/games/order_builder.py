"""The order forms: for each order a player may give now, its fields with legal choices.

Built from the engine's order model and the player's view of the state: players pick from
lists (players, cards in hand, positions, zones), never type names. Choices are filtered with
the engine's own checks (a card the engine would refuse now is not offered; `unavailable` says
why). `read` turns a submitted form back into the engine's JSON order; the engine validates it,
and `place_errors` puts each of its messages next to the field that causes it.
"""

from __future__ import annotations

import contextlib
import string
from dataclasses import dataclass, field, replace
from typing import Any

from django.http import QueryDict
from django.utils.text import slugify

from junta.engine import catalog, steps
from junta.engine.card_plays import TARGETED, check_play
from junta.engine.orders import (
    CONDITION_KINDS,
    COUP_PHASES,
    ORDER_KINDS,
    UNIT_CARDS,
    Condition,
    Order,
    OrderError,
    action_step,
    card_step,
    condition_step,
    parse_order,
    validate_condition,
    validate_order,
)
from junta.engine.phases.locations import SECRET_POLICE, THEFTS, check_assassination
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
    help: str = ""
    conditions: tuple[str, ...] = ()  # a condition's detail: the condition kinds that use it
    # set by `forms` for the page: the element's id, what was submitted, the messages about it
    html_id: str = ""
    value: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Builder:
    kind: str
    label: str
    help: str
    fields: list[Field]
    conditions: list[tuple[str, str]]  # (condition kind, its description) offered
    refused: list[str]  # why other conditions are not offered
    key: str = ""  # the form's name when one kind has several forms ("place:Marine")
    # set by `forms` for the page: the condition's fields, messages about the whole order
    condition_fields: list[Field] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    html_id: str = ""
    bound: bool = False  # re-shown with what the player submitted

    def __post_init__(self) -> None:
        self.key = self.key or self.kind


def _players(state: GameState, seat: int, include_self: bool = False) -> list[tuple[str, str]]:
    return [(str(p.seat), p.name) for p in state.players
            if p.active and (include_self or p.seat != seat)]


def _hand(state: GameState, seat: int, pred=lambda c: True) -> list[tuple[str, str]]:
    return [(str(cid), catalog.card(cid).name) for cid in state.players[seat].hand
            if pred(catalog.card(cid))]


def _refusals(state: GameState, seat: int, kind: str, args: dict) -> list[str]:
    """The engine's messages for a trial order (empty: the engine would accept it)."""
    return validate_order(state, seat, Order(kind, args))


LOCATION_CHOICES = [(k, v) for k, v in catalog.LOCATION_NAMES.items()]
TRADE_HELP = ("A trade happens only if your partner orders the same trade from his side: "
              "what you give he gets, what you get he gives, the same cards and the same MP. "
              "If either side cannot deliver when the orders are carried out, nothing changes "
              "hands.")


def builders(state: GameState, seat: int) -> list[Builder]:
    """Every kind of order this player may give in the current phase, with its fields."""
    return _build(state, seat)[0]


def unavailable(state: GameState, seat: int) -> list[str]:
    """Why orders and cards the player might look for are not offered now (the Bank closed,
    a card out of its timing), in the engine's words where it has them."""
    return _build(state, seat)[1]


def _build(state: GameState, seat: int) -> tuple[list[Builder], list[str]]:
    if state.finished:
        return [], []
    p = state.players[seat]
    phase = state.phase
    commands = state.commanded_positions(seat)
    out: list[Builder] = []
    notes: list[str] = []

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
        else:
            notes.append("Your return is already before the Minister of Internal Security.")
        return out, notes
    if not p.active:
        return out, notes
    others = _players(state, seat)
    everyone = _players(state, seat, include_self=True)
    if phase == "nomination":
        add("nominate", "Nominate a player for the Presidency.",
            [Field("candidate", "Candidate", "select", everyone)])
        add("second", "Second or support a nomination.",
            [Field("candidate", "Candidate", "select", everyone)])
        add("decline", "Decline any nomination of you.", [])
    if phase in ("election", "special_motion", "budget_vote") and sources(state, seat):
        _vote(state, seat, add, notes)
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
        held = sorted(state.budget.get("held", []), reverse=True)
        bills = (f"You hold {sum(held)} MP in bills ({', '.join(map(str, held))})."
                 if held else "You hold no bills.")
        fields = [Field(f"alloc:{s}", name, "number", minimum=0, maximum=99, required=False)
                  for s, name in everyone]
        fields.append(Field("from_pocket", "Add from your pocket", "number", minimum=0,
                            maximum=p.pocket, required=False,
                            help=f"You have {p.pocket} MP in your pocket."))
        for i, bill in enumerate(held):
            fields.append(Field(
                f"bill:{i}:{bill}", f"Bill {i + 1}: {bill} MP goes to", "select",
                [("", "as the plan decides"), *everyone], required=False,
                help="Optional: a bill you hand to a player counts toward his total; the "
                     "other bills make up the totals with as little from your pocket as "
                     "possible." if i == 0 else ""))
        add("propose_budget", f"Give each player a total; what you do not allocate you keep. "
            f"{bills}", fields)
    if phase == "internal_security" and catalog.INTERNAL_SECURITY in commands:
        add("seize_chamber", "Seize the Chamber (the budget passes at gunpoint, the Bank closes "
            "for lunch) or let it stay defeated.",
            [Field("seize", "Decision", "select", [("no", "Let the budget stay defeated"),
                                                   ("yes", "Seize the Chamber")])])
    if phase == "locations":
        add("location", "Where you spend the day.",
            [Field("place", "Location", "select", [*LOCATION_CHOICES, ("exile", "Exile")])])
        _assassinate(state, seat, others, add, notes)
    if phase == "locations" or (phase == "aftermath" and p.location == "bank"
                                and state.turn_flags.get("bank_after_lunch")):
        closed = _refusals(state, seat, "bank", {"action": "deposit", "amount": 1})
        if closed:
            notes.append(f"Banking: {closed[0]}")
        else:
            add("bank", "Only from the Bank location, and only when the Bank is open." if
                phase == "locations" else "The Bank reopens after lunch: your deposit or "
                "withdrawal is carried out after the post-coup execution, if you survive it.",
                [Field("bank_action", "Action", "select", [("deposit", "Deposit"),
                                                            ("withdraw", "Withdraw")]),
                 Field("amount", "MP", "number", minimum=1, maximum=max(p.pocket, p.bank, 1),
                       help=f"Pocket {p.pocket} MP, Bank {p.bank} MP.")])
    if phase in ("locations", "aftermath", *COUP_PHASES):
        from junta.games import coup_forms

        coup_forms.add_builders(state, seat, add)
    # any time
    if p.pocket and others:
        add("pay", "Pay money from your pocket.",
            [Field("to", "To", "select", others),
             Field("amount", "MP", "number", minimum=1, maximum=p.pocket,
                   help=f"You have {p.pocket} MP in your pocket.")])
    if p.hand and others:
        first = p.hand[0]
        takers = [(v, n) for v, n in others
                  if not _refusals(state, seat, "give_card", {"to": int(v), "card": first})]
        if takers:
            add("give_card", "Give a card (not to a player at the hand limit).",
                [Field("to", "To", "select", takers), Field("card", "Card", "select",
                                                             _hand(state, seat))])
        else:
            notes.append(f"Giving a card: every other player is at the hand limit of "
                         f"{catalog.HAND_LIMIT} cards.")
    if others:
        fields = [Field("with", "With", "select", others)]
        if p.hand:
            fields.append(Field("give_cards", "Cards you give", "multiselect",
                                _hand(state, seat), required=False))
        fields.append(Field("get_cards", "Cards you get", "multiselect",
                            _wanted_cards(state, seat), required=False,
                            help="Your partner's hand is secret, so every card that is not in "
                                 "your hand or in play is listed: your partner must order the "
                                 "same trade, giving these very cards."))
        fields += [Field("give_money", "MP you give", "number", minimum=0, maximum=p.pocket,
                         required=False, help=f"You have {p.pocket} MP in your pocket."),
                   Field("get_money", "MP you get", "number", minimum=0, maximum=999,
                         required=False)]
        add("trade", TRADE_HELP, fields)
    _card_plays(state, seat, add, notes, out)
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
    return out, notes


def _vote(state: GameState, seat: int, add, notes: list[str]) -> None:
    if state.phase == "election":
        cands = (state.election or {}).get("candidates") or state.active_seats()
        choices = [(str(c), state.name(c)) for c in cands if state.players[c].active]
    else:
        choices = [("yes", "Yes"), ("no", "No")]
    choices.append(("abstain", "Abstain"))
    fields = [Field("choice", "Your vote", "select", choices)]
    own = sources(state, seat)
    vote_cards = []
    for cid, name in _hand(state, seat, lambda c: c.category == "vote"):
        refused = _refusals(state, seat, "vote", {"choice": "abstain", "cards": [int(cid)]})
        if refused:
            notes.append(f"{name}: {refused[0]}")
        else:
            vote_cards.append((cid, name))
    if vote_cards:
        fields.append(Field("cards", "Vote cards to play", "multiselect", vote_cards,
                            required=False, help="A Vote card played is discarded."))
    if len(own) + len(vote_cards) > 1:
        split = [("", "as my vote"), *choices]
        for source, votes in own.items():
            fields.append(Field(f"split:{source}", f"{source_label(source)} ({votes})",
                                "select", split, required=False))
        for cid, name in vote_cards:
            fields.append(Field(f"split:card:{cid}", f"{name}, if played", "select", split,
                                required=False))
    add("vote", "All your votes go to your choice unless you split them.", fields)


def _assassinate(state: GameState, seat: int, others: list[tuple[str, str]], add,
                 notes: list[str]) -> None:
    """The assassins the engine would send now: the Secret Police for the Minister, assassin
    cards and Secret Police Overtime from the hand."""
    if not others:
        return
    trial = {"target": int(others[0][0]), "location": "home"}
    candidates = _hand(state, seat, lambda c: (c.category == "assassin" and c.name not in
                                               THEFTS) or c.name == "Secret Police Overtime")
    if catalog.INTERNAL_SECURITY in state.commanded_positions(seat):
        candidates.insert(0, (SECRET_POLICE, "the Secret Police"))
    assassins = []
    for value, name in candidates:
        card = value if value == SECRET_POLICE else int(value)
        refused = check_assassination(state, seat, {**trial, "card": card})
        if refused:
            notes.append(f"{name}: {refused[0]}")
        else:
            assassins.append((value, name))
    if not assassins:
        return
    police_bank = state.secret_police_bank_turn == state.turn - 1 and state.turn > 1
    add("assassinate", "Name the assassin, the target and the location to strike." + (
        " The Secret Police (and Secret Police Overtime) went to the Bank last turn: they may "
        "not go there again this turn." if police_bank else ""),
        [Field("card", "Assassin", "select", assassins),
         Field("target", "Target", "select", others),
         Field("location", "Location", "select", LOCATION_CHOICES)])


def _wanted_cards(state: GameState, seat: int) -> list[tuple[str, str]]:
    """The cards a trade may ask for, by name: every political card with a copy that is not
    in my hand and not in play in front of anyone (those are public)."""
    known = set(state.players[seat].hand)
    for p in state.players:
        known |= set(p.influence)
    names = sorted({c.name for c in catalog.cards() if c.id not in known})
    return [(name, name) for name in names]


def _target_choices(state: GameState, seat: int) -> list[tuple[int, str]]:
    return [(x.seat, x.name if x.active else f"{x.name} (in exile)") for x in state.players
            if x.seat != seat and (x.active or x.status == "exiled")]


def _card_plays(state: GameState, seat: int, add, notes: list[str], out: list[Builder]
                ) -> None:
    """Card plays the engine accepts now. Unit and Bribe cards have a form each from
    coup_forms (already added to `out`); a card that needs a target, or that acts at a step of
    its own (re-votes, assassination-time cards), has a form of its own with the targets the
    engine accepts; the other cards share one form. Every card not offered gets a note."""
    p = state.players[seat]
    offered = {b.key for b in out}
    general: list[tuple[str, str]] = []
    own_forms: list[tuple[int, list[tuple[int, str]]]] = []
    for cid in p.hand:
        c = catalog.card(cid)
        if c.name in UNIT_CARDS:
            if f"play_card:{cid}" not in offered:
                notes.append(_card_note(c.name, _unit_card_reason(state, seat, cid)))
            continue
        if c.category == "vote":
            if state.phase not in ORDER_KINDS["vote"].phases:
                notes.append(f"{c.name}: a Vote card, played with your vote in a vote of the "
                             "Chamber.")
            continue
        if (c.category == "assassin" and c.name not in (*THEFTS, "Monarchist Assassin")) or \
                c.name == "Secret Police Overtime":
            if state.phase != "locations":
                notes.append(f"{c.name}: sent with an assassination order in the Locations "
                             "phase.")
            continue
        refused = check_play(state, seat, Order("play_card", {"card": cid}))
        if c.name in TARGETED:
            # the form chooses the target: a missing one is no reason to refuse the card
            refused = [m for m in refused if m != f"{c.name} needs another player as its "
                       "target."]
        if refused:
            notes.append(_card_note(c.name, refused[0]))
            continue
        targets = [(t, label) for t, label in _target_choices(state, seat)
                   if not check_play(state, seat, Order("play_card", {"card": cid,
                                                                      "target": t}))
                   ] if c.name in TARGETED else []
        if c.name in TARGETED and not targets:
            notes.append(f"{c.name}: there is no player it can be played on now.")
            continue
        if c.name in TARGETED or card_step(c, state.phase) != "any_time":
            own_forms.append((cid, targets))
        else:
            general.append((str(cid), c.name))
    if general:
        add("play_card", "Play a card from your hand; Influence cards go into play in front "
            "of you.", [Field("card", "Card", "select", general)])
    for cid, targets in own_forms:
        c = catalog.card(cid)
        fields = [Field("card", "Card", "select", [(str(cid), c.name)])]
        if c.name in TARGETED:
            fields.append(Field("target", "Target", "select",
                                [(str(t), label) for t, label in targets]))
        add("play_card", c.effect, fields, key=f"play_card:{cid}", label=f"Play {c.name}",
            args={"card": cid})


def _card_note(name: str, message: str) -> str:
    """ "Bank Holiday cannot be played...", "Helicopter: no unit it could bribe..." """
    return message if message.startswith(name) else f"{name}: {message}"


def _unit_card_reason(state: GameState, seat: int, cid: int) -> str:
    """Why a card that puts units on the map (or bribes them) has no form now."""
    from junta.engine.units import BRIBES, CARD_UNITS

    c = catalog.card(cid)
    spec = CARD_UNITS.get(c.name)
    zone = spec.zones[0] if spec is not None and spec.zones else next(iter(catalog.zones()))
    refused = check_play(state, seat, Order("play_card", {"card": cid, "zone": zone}))
    if refused:
        return refused[0]
    if c.name in BRIBES:
        return "no unit it could bribe is on the map."
    return "it cannot be played now."


def _condition_options(state: GameState, kind: str, args: dict | None = None
                       ) -> tuple[list[tuple[str, str]], list[str]]:
    phase = state.phase
    act = action_step(Order(kind, dict(args or {})), phase)
    act_index = steps.index(phase, act)
    offered, refused = [], []
    for cond, (_, phases, _template) in CONDITION_KINDS.items():
        step = condition_step(Condition(cond, {}), phase)
        cond_index = steps.index(phase, step)
        if phase not in phases or cond_index < 0:
            continue
        label = _condition_label(cond)
        if cond_index < act_index or (act == "any_time" and cond_index > act_index):
            offered.append((cond, label))
        else:
            refused.append(f"\u201c{label}\u201d is settled at {steps.describe(phase, step)}, "
                           f"not before this order ({steps.describe(phase, act)}).")
    if act == "assassinations" and any(c in ("location", "exiled") for c, _ in offered):
        refused.append("\u201ca player is at a location\u201d and \u201ca player goes into "
                       "exile\u201d may only name you: assassins are dispatched as locations "
                       "are chosen, so an assassination-time order cannot wait for another "
                       "player's.")
    return offered, refused


def _condition_label(kind: str) -> str:
    return CONDITION_KINDS[kind][2].format(seat="a player", choice="a way",
                                           location="a location", card="a card",
                                           position="a position", result="ends")


# A condition's details: the placeholder in the engine's template and the form field for it.
CONDITION_DETAILS = {"seat": "cond_seat", "location": "cond_location", "choice": "cond_choice",
                     "result": "cond_result", "card": "cond_card", "position": "cond_position"}
CONDITION_BLANK = {
    "cond_seat": "Choose the player the condition is about.",
    "cond_location": "Choose the location the condition is about.",
    "cond_choice": "Choose the vote the condition is about.",
    "cond_card": "Choose the card the condition is about.",
    "cond_position": "Choose the position the condition is about.",
}


def condition_needs(kind: str) -> tuple[str, ...]:
    """The form fields a kind of condition needs ("location": cond_seat, cond_location)."""
    if kind not in CONDITION_KINDS:
        return ()
    names = [n for _, n, _, _ in string.Formatter().parse(CONDITION_KINDS[kind][2]) if n]
    out = [CONDITION_DETAILS[n] for n in names]
    if kind == "vote_result":
        out.append("cond_margin")
    return tuple(out)


def condition_fields(state: GameState) -> list[Field]:
    """The fields that complete a condition (which player, which location, which result),
    each knowing the kinds of condition that use it."""
    def uses(name: str) -> tuple[str, ...]:
        return tuple(k for k in CONDITION_KINDS if name in condition_needs(k))

    people = [(str(p.seat), p.name) for p in state.players if p.status != "dead"]
    if state.phase == "election":
        cands = (state.election or {}).get("candidates") or state.active_seats()
        votes = [(str(c), f"for {state.name(c)}") for c in cands]
    else:
        votes = [("yes", "yes"), ("no", "no")]
    votes.append(("abstain", "abstains"))
    fields = [
        Field("cond_seat", "Player", "select", [("", "choose a player"), *people]),
        Field("cond_location", "Location", "select", [("", "choose a location"),
                                                      *LOCATION_CHOICES]),
        Field("cond_choice", "Vote", "select", [("", "choose a vote"), *votes]),
        Field("cond_result", "Result", "select", [("", "either way"), ("passes", "passes"),
                                                  ("fails", "fails")], required=False),
        Field("cond_margin", "By at most (votes)", "number", minimum=0, maximum=999,
              required=False, help="Leave empty for any margin."),
        Field("cond_card", "Card", "select", [("", "choose a card"), *sorted(
            {(c.name, c.name) for c in catalog.cards()})]),
        Field("cond_position", "Position", "select", [("", "choose a position"), *[
            (k, catalog.TITLES[k]) for k in catalog.CABINET]]),
    ]
    return [replace(f, conditions=uses(f.name)) for f in fields]


def forms(state: GameState, seat: int, *, data: QueryDict | None = None, failed: str = "",
          field_errors: dict[str, list[str]] | None = None,
          form_errors: list[str] | None = None) -> tuple[list[Builder], list[str]]:
    """The builders for the page, each field with its element id; the form `failed` (a key)
    re-shown with what was submitted in `data` and the messages next to their fields. Also
    the notes on what is not offered (see `unavailable`)."""
    built, notes = _build(state, seat)
    details = condition_fields(state)
    clash = {f.name for b in built for f in b.fields} & PAGE_FIELDS
    if clash:
        raise ValueError(f"order form fields named like the page's own: {sorted(clash)}")
    out = []
    for b in built:
        bound = data is not None and b.key == failed
        prefix = "order-" + slugify(b.key.replace(":", "-").replace("_", "-"))

        def bind(f: Field, bound: bool = bound, prefix: str = prefix) -> Field:
            value: list[str] = []
            if bound:
                value = data.getlist(f.name) if f.kind == "multiselect" else \
                    [data.get(f.name, "")]
            errors = list((field_errors or {}).get(f.name, [])) if bound else []
            html_id = f"{prefix}-{slugify(f.name.replace(':', '-').replace('_', '-'))}"
            return replace(f, html_id=html_id, value=value, errors=errors)

        conds: list[Field] = []
        if b.conditions:
            kind = Field("condition", "Condition", "select", [("", "always"), *b.conditions],
                         required=False)
            conds = [bind(kind), *[bind(f) for f in details]]
        out.append(replace(b, fields=[bind(f) for f in b.fields], condition_fields=conds,
                           errors=list(form_errors or []) if bound else [], html_id=prefix,
                           bound=bound))
    return out, notes


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


@dataclass
class Reading:
    """A submitted form read: the builder it belongs to, the engine order or the problem and
    the field the problem is about ("" for the whole form)."""
    builder: Builder | None
    order: dict | None
    problem: str = ""
    field: str = ""


def read(state: GameState, seat: int, data: QueryDict) -> Reading:
    """The engine order a submitted builder form describes, or a message why not.

    The form's `kind` names a builder by its key ("place:Marine") or by its order kind; when
    several forms share the kind (a map posting `kind=place`), the first that reads wins, the
    form named by its key first."""
    key = data.get("kind", "")
    offered = builders(state, seat)
    exact = [b for b in offered if b.key == key]
    matching = exact + [b for b in offered if b.kind == key and b.key != key]
    if not matching:
        return Reading(None, None, "That order cannot be given now.")
    first: Reading | None = None
    for builder in matching:
        order, problem, name = _read_builder(state, seat, builder, data)
        if order is not None:
            return Reading(builder, order)
        first = first or Reading(builder, None, problem, name)
    return first


def read_order(state: GameState, seat: int, data: QueryDict) -> tuple[dict | None, str]:
    """The engine order a submitted form describes, or a message why not (see `read`)."""
    reading = read(state, seat, data)
    return reading.order, reading.problem


def check(state: GameState, seat: int, order: dict) -> list[str]:
    """The engine's messages about one order on its own (empty: it would accept it)."""
    try:
        return validate_order(state, seat, parse_order(order))
    except OrderError as error:
        return [str(error)]


def _read_builder(state: GameState, seat: int, builder: Builder, data: QueryDict
                  ) -> tuple[dict | None, str, str]:
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
                return None, f"{f.label}: choose among the options offered.", f.name
            value: Any = [_coerce_choice(v) for v in raw]
            if f.name == "units" and not f.required and not value:
                continue  # no units named: the whole stack (or every Police unit)
        elif f.kind == "number":
            raw_number = (data.get(f.name) or "").strip()
            value = _int(raw_number)
            if value is None and (f.required or raw_number):
                return None, f"{f.label}: give a whole number.", f.name
        else:
            raw = data.get(f.name, "")
            allowed = {c for c, _ in f.choices}
            if raw not in allowed:
                return None, f"{f.label}: choose one of the options offered.", f.name
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
        if f.name.startswith("bill:"):
            if value:
                order.setdefault("bills", {}).setdefault(value, []).append(
                    int(f.name.rsplit(":", 1)[1]))
            continue
        if f.name.startswith("position:"):
            order.setdefault("positions", {})[f.name[9:]] = _int(value)
            continue
        order[ENGINE_NAMES.get(f.name, f.name)] = _coerce(f.name, value)
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
    if kind == "trade":
        order["give_cards"] = _own_copies(state, seat, order.get("give_cards") or [])
        order["get_cards"] = _asked_copies(state, seat, order.get("with"),
                                           order.get("get_cards") or [])
    cond = data.get("condition", "")
    if cond:
        if cond not in dict(builder.conditions):
            return None, "That condition cannot be used with this order: see why below.", \
                "condition"
        condition, problem, name = _read_condition(state, cond, data)
        if condition is None:
            return None, problem, name
        order["condition"] = condition
    return order, "", ""


def _own_copies(state: GameState, seat: int, cards: list[int]) -> list[int]:
    """The cards I give in a trade, as the lowest-numbered copies in my hand of each name:
    the copies a partner asking for them by name is matched with (see `_asked_copies`)."""
    names = [catalog.card(c).name for c in cards]
    hand = sorted(state.players[seat].hand)
    out: list[int] = []
    for name in dict.fromkeys(names):
        out += [c for c in hand if catalog.card(c).name == name][:names.count(name)]
    return sorted(out)


def _asked_copies(state: GameState, seat: int, partner: Any, names: list[str]) -> list[int]:
    """The cards I ask for in a trade, named by the player: the copy the partner would give
    (his lowest-numbered copy of the name, as `_own_copies` picks on his side), else a copy
    that is in no one's hand or play in front of me. The choice is made on the server and
    shown only by name: the partner's hand stays secret."""
    held = sorted(state.players[partner].hand) if isinstance(partner, int) and \
        0 <= partner < len(state.players) and partner != seat else []
    public = set(state.players[seat].hand).union(*(p.influence for p in state.players))
    out: list[int] = []
    for name in names:
        theirs = [c for c in held if catalog.card(c).name == name and c not in out]
        free = [c for c in catalog.cards_named(str(name)) if c not in public and c not in out]
        if theirs or free:
            out.append((theirs or free)[0])
    return sorted(out)


def _read_condition(state: GameState, kind: str, data: QueryDict
                    ) -> tuple[dict | None, str, str]:
    """The condition with only the details its kind needs; a blank one gets a message."""
    out: dict[str, Any] = {"kind": kind}
    fields = {f.name: f for f in condition_fields(state)}
    for name in condition_needs(kind):
        f = fields[name]
        raw = (data.get(name) or "").strip()
        if name == "cond_margin":
            if raw:
                if _int(raw) is None:
                    return None, f"{f.label}: give a whole number.", name
                out["margin_at_most"] = _int(raw)
            continue
        if raw not in {v for v, _ in f.choices}:
            return None, f"{f.label}: choose one of the options offered.", name
        if not raw:
            if f.required:
                return None, CONDITION_BLANK[name], name
            continue
        key = name.removeprefix("cond_")
        out[key] = _coerce_choice(raw) if key in ("seat", "choice") else raw
    return out, "", ""


def place_errors(state: GameState, seat: int, builder: Builder, data: QueryDict,
                 messages: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Put each of the engine's messages about a submitted form next to the field that causes
    it: the one field whose change (to another legal choice) makes the message go away. A
    message no single field answers stays with the whole form; a condition's message stays
    with the condition."""
    order = _read_builder(state, seat, builder, data)[0]
    conditional: set[str] = set()
    if order is not None and order.get("condition"):
        with contextlib.suppress(OrderError):
            conditional = set(validate_condition(state, parse_order(order), seat))
    cond_kind = data.get("condition", "")
    details = {f.name: f for f in condition_fields(state)}
    by_field: dict[str, list[str]] = {}
    whole: list[str] = []
    for message in messages:
        if message in conditional:
            candidates = [details[n] for n in condition_needs(cond_kind)]
            fallback = "condition"
        else:
            candidates, fallback = builder.fields, ""
        others = set(messages) - {message}
        culprits = [f.name for f in candidates if _answers(
            state, seat, builder, data, f, message, others, message in conditional)]
        target = culprits[0] if len(culprits) == 1 else fallback
        if target:
            by_field.setdefault(target, []).append(message)
        else:
            whole.append(message)
    return by_field, whole


def _answers(state: GameState, seat: int, builder: Builder, data: QueryDict, f: Field,
             message: str, others: set[str], conditional: bool) -> bool:
    """Whether another choice in this field alone makes the engine drop `message` without a
    new message in its place (a message that only changes its words, "Hector is at Bank"
    for "Hector is at Club", is not answered). For a message about the order itself, its
    condition is left out of the trial (the engine checks a condition only once the order is
    right)."""
    current = data.getlist(f.name)
    if f.kind == "multiselect":
        alternatives = [[], *[[v] for v, _ in f.choices]]
    elif f.kind == "number":
        numbers = {n for n in (f.minimum, f.maximum, 0, 1) if n is not None and
                   (f.minimum is None or n >= f.minimum) and (f.maximum is None or n <= f.maximum)}
        alternatives = [[str(n)] for n in sorted(numbers)] + ([[""]] if not f.required else [])
    else:
        alternatives = [[v] for v, _ in f.choices]
    for alternative in [a for a in alternatives if a != current][:80]:
        trial = data.copy()
        trial.setlist(f.name, alternative)
        order = _read_builder(state, seat, builder, trial)[0]
        if order is None:
            continue
        if not conditional:
            order.pop("condition", None)
        try:
            if set(validate_order(state, seat, parse_order(order))) <= others:
                return True
        except OrderError:
            continue
    return False


# The page's own fields, posted with every order form: no order field may take these names
# (a bank form's `action` once made the browser send `action=add` and `action=deposit`).
PAGE_FIELDS = frozenset({"action", "kind", "state_version", "index", "note_to_gm",
                         "csrfmiddlewaretoken"})
# Form fields whose engine argument has one of those names.
ENGINE_NAMES = {"bank_action": "action"}


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
            if isinstance(order.get("bills"), dict) and order["bills"]:
                text += " (bills: " + "; ".join(
                    f"{name(int(s)) if str(s).isdigit() else s} {', '.join(map(str, d))} MP"
                    for s, d in sorted(order["bills"].items())) + ")"
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
