"""A seat's legal options now: every order the player may give in the current phase, each
argument's allowed values, and the conditions allowed with it.

`legal_options(state, seat)` is the one list of what may be ordered. The Orders page builds its
forms from it, the GM gives orders for a player through it, the bots choose among it, the API
lists it. Only choices the engine accepts are offered; what a player might look for and cannot
order now (a card out of its timing, the Bank closed) comes with a note saying why.

`build(state, seat, option, values, condition)` turns the chosen values into the engine's
`Order`; `values_of(state, option, order)` is its inverse, for changing an order in place.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from . import catalog, steps
from .card_plays import TARGETED, check_play, has_influence, playable_now
from .enums import PhaseKind, Status, Step
from .kinds import COUP_PHASES, ORDER_KINDS, VOTING_PHASES
from .labels import (
    FORCE_LABELS,
    FOREIGN_KINDS,
    FOREIGN_NAMES,
    count_units,
    coup_units,
    moves_reason,
    plural,
    unit_label,
    zone_name,
    zones_with_occupants,
)
from .order_kinds.anytime import MAX_ASKED
from .order_kinds.coup import AIRSTRIKES
from .orders import (
    CONDITION_KINDS,
    UNIT_CARDS,
    Condition,
    Order,
    action_step,
    card_step,
    condition_step,
    validate_order,
)
from .phases.cabinet import eligible_seats, random_cabinet
from .phases.locations import SECRET_POLICE, THEFTS, check_assassination
from .problems import Problem
from .rng import Rng
from .state import BIL, GameState
from .units import (
    AGITATORS,
    BODYGUARD_ZONES,
    BRIBES,
    CARD_UNITS,
    EMBASSIES,
    FOREIGN_FORCES,
    PLACED_ON_RIVER,
    RIVER_ZONES,
    distance,
)
from .voting import source_label, sources

__all__ = ["ArgOption", "Choice", "ConditionOption", "OrderOption", "Options", "Shape",
           "build", "condition_detail", "legal_options", "option_for", "values_of"]


class Shape(StrEnum):
    """How an argument is chosen."""
    ONE = "one"  # one value among the choices (a blank choice, when offered, is None)
    SOME = "some"  # any of the choices (a list; may be empty unless required)
    NUMBER = "number"  # a whole number from minimum to maximum
    TABLE = "table"  # for each key (a row) one value: among the choices, or a number
    RANKING = "ranking"  # up to `maximum` distinct choices in order, the first required


@dataclass(frozen=True)
class Choice:
    value: Any  # the engine's value: a seat, a zone, a card number, "home", True
    label: str


@dataclass(frozen=True)
class ArgOption:
    name: str  # the engine's argument ("to", "amount", "allocations")
    label: str
    shape: Shape
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    help: str = ""
    keys: tuple[Choice, ...] = ()  # TABLE: the rows (a key value and its label)
    blank: str | None = None  # ONE and TABLE cells: the label of the blank choice (None)
    default: Any = None  # the value the form starts with (None: the first choice or blank)
    depends_on: str | None = None  # ONE/SOME: the argument whose value narrows the choices
    choices_for: Mapping[Any, tuple[Any, ...]] = field(default_factory=dict)
    combined: bool = False  # legal only in combination (a Cabinet, a budget): not each value

    def values(self) -> list[Any]:
        return [c.value for c in self.choices]

    def allowed(self, chosen: Mapping[str, Any]) -> list[Any]:
        """The values allowed once the other arguments are chosen (`depends_on`)."""
        if self.depends_on is None:
            return self.values()
        narrowed = self.choices_for.get(chosen.get(self.depends_on), ())
        return [v for v in self.values() if v in narrowed]

    def start(self, chosen: Mapping[str, Any] | None = None) -> Any:
        """The value a form starts with."""
        if self.default is not None:
            return self.default
        if self.shape is Shape.ONE:
            if self.blank is not None:
                return None
            allowed = self.allowed(chosen or {})
            return allowed[0] if allowed else None
        if self.shape is Shape.SOME:
            return []
        if self.shape is Shape.NUMBER:
            return self.minimum if self.required else None
        if self.shape is Shape.RANKING:
            return [self.choices[0].value] if self.choices else []
        return {}


@dataclass(frozen=True)
class ConditionOption:
    kind: str
    label: str  # "a player is at a location"
    args: tuple[ArgOption, ...]  # its details (seat, location...)


@dataclass(frozen=True)
class OrderOption:
    key: str  # unique among a seat's options: "pay", "bank:deposit", "play_card:17"
    kind: str
    label: str
    help: str
    args: tuple[ArgOption, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)  # arguments the option sets itself
    conditions: tuple[ConditionOption, ...] = ()
    refused_conditions: tuple[str, ...] = ()  # why the other conditions are not offered

    def arg(self, name: str) -> ArgOption | None:
        return next((a for a in self.args if a.name == name), None)

    def defaults(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a in self.args:
            out[a.name] = a.start(out)
        return out

    def condition(self, kind: str) -> ConditionOption | None:
        return next((c for c in self.conditions if c.kind == kind), None)


@dataclass(frozen=True)
class Options:
    seat: int
    orders: tuple[OrderOption, ...]
    notes: tuple[str, ...]  # what is not offered now, and why

    def get(self, key: str) -> OrderOption | None:
        return next((o for o in self.orders if o.key == key), None)

    def of_kind(self, kind: str) -> list[OrderOption]:
        return [o for o in self.orders if o.kind == kind]

    @property
    def kinds(self) -> set[str]:
        return {o.kind for o in self.orders}


# --- a seat's options --------------------------------------------------------------------------

def legal_options(state: GameState, seat: int) -> Options:
    """Every order this player may give now, with the values the engine accepts.
    (docs/rules.md §orders)."""
    b = _Builder(state, seat)
    b.build()
    return Options(seat, tuple(b.out), tuple(b.notes))


def _one(name: str, label: str, choices: Iterable[tuple[Any, str]], **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.ONE, tuple(Choice(v, t) for v, t in choices), **kw)


def _some(name: str, label: str, choices: Iterable[tuple[Any, str]], **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.SOME, tuple(Choice(v, t) for v, t in choices), **kw)


def _number(name: str, label: str, minimum: int, maximum: int, **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.NUMBER, minimum=minimum, maximum=maximum, **kw)


LOCATION_CHOICES = list(catalog.LOCATION_NAMES.items())
TRADE_HELP = ("A trade happens only if your partner orders the same trade from his side: "
              "what you give he gets, what you get he gives, the same cards and the same MP. "
              "If either side cannot deliver when the orders are carried out, nothing changes "
              "hands.")
YES_NO = [(True, "Yes"), (False, "No")]
SIDE_CHOICES = [("junta", "Pro-Junta"), ("president", "Pro-President")]


class _Builder:
    def __init__(self, state: GameState, seat: int) -> None:
        self.s = state
        self.seat = seat
        self.p = state.players[seat]
        self.out: list[OrderOption] = []
        self.notes: list[str] = []
        self._details: dict[str, ArgOption] | None = None  # the state's condition details
        # by the step an order acts at
        self._conditions: dict[str, tuple[tuple[ConditionOption, ...], tuple[str, ...]]] = {}

    # -- helpers --
    def add(self, kind: str, help_text: str, args: Iterable[ArgOption] = (), key: str = "",
            label: str = "", fixed: Mapping[str, Any] | None = None) -> None:
        if self.s.phase not in ORDER_KINDS[kind].phases:
            return
        act = action_step(Order(kind, dict(fixed or {})), self.s.phase)
        cached = self._conditions.get(act)
        if cached is None:
            if self._details is None:
                self._details = _condition_details(self.s)
            cached = condition_options(self.s, kind, fixed, self.seat, self._details)
            self._conditions[act] = cached
        offered, refused = cached
        self.out.append(OrderOption(key or kind, kind, label or ORDER_KINDS[kind].label,
                                    help_text, tuple(args), dict(fixed or {}), offered,
                                    refused))

    def refusals(self, kind: str, args: dict[str, Any]) -> list[Problem]:
        """The engine's messages for a trial order (empty: the engine would accept it)."""
        return validate_order(self.s, self.seat, Order(kind, args))

    def players(self, include_self: bool = False) -> list[tuple[int, str]]:
        return [(p.seat, p.name) for p in self.s.players
                if p.active and (include_self or p.seat != self.seat)]

    def hand(self, pred: Callable[[catalog.Card], bool] = lambda c: True
             ) -> list[tuple[int, str]]:
        return [(cid, catalog.card(cid).name) for cid in self.p.hand
                if pred(catalog.card(cid))]

    # -- the phase --
    def build(self) -> None:
        s, seat, p = self.s, self.seat, self.p
        if s.finished:
            return
        if p.status == Status.EXILED:
            if seat not in s.pending_returns or s.phase in COUP_PHASES:
                self.add("return_from_exile", "Ask the Minister of Internal Security for "
                         "safe passage.")
            else:
                self.notes.append("Your return is already before the Minister of Internal "
                                  "Security.")
            return
        if not p.active:
            return
        phase = s.phase
        if phase == PhaseKind.NOMINATION:
            self.nominations()
        if phase in VOTING_PHASES and sources(s, seat):
            self.vote()
        if phase == PhaseKind.CABINET and seat == s.president:
            self.cabinet()
        if phase == PhaseKind.BUDGET_DRAW:
            self.budget_draw()
        if phase == PhaseKind.BUDGET_PROPOSAL and seat == s.budget.get("proposer", s.president):
            self.proposal()
        if phase == PhaseKind.INTERNAL_SECURITY and \
                catalog.INTERNAL_SECURITY in s.commanded_positions(seat):
            self.add("seize_chamber", "Seize the Chamber (the budget passes at gunpoint, the "
                     "Bank closes for lunch) or let it stay defeated.",
                     [_one("seize", "Decision", [(False, "Let the budget stay defeated"),
                                                 (True, "Seize the Chamber")])])
        if phase == PhaseKind.LOCATIONS:
            self.add("location", "Where you spend the day.",
                     [_one("place", "Location", [*LOCATION_CHOICES, ("exile", "Exile")])])
            self.assassinate()
        if phase == PhaseKind.LOCATIONS or (phase == PhaseKind.AFTERMATH and p.location == "bank"
                                            and s.turn_flags.get("bank_after_lunch")):
            self.bank()
        if phase == PhaseKind.LOCATIONS:
            if seat != s.president:
                self.rebel_only()
                self.unit_cards()
        elif phase in COUP_PHASES:
            self.coup_phase()
            self.unit_cards()
        elif phase == PhaseKind.AFTERMATH:
            self.aftermath()
        self.any_time()

    def nominations(self) -> None:
        everyone = self.players(include_self=True)
        self.add("nominate", "Nominate a player for the Presidency.",
                 [_one("candidate", "Candidate", everyone)])
        self.add("second", "Second or support a nomination.",
                 [_one("candidate", "Candidate", everyone)])
        self.add("decline", "Decline any nomination of you.")

    def vote(self) -> None:
        s, seat = self.s, self.seat
        if s.phase == PhaseKind.ELECTION:
            cands = (s.election or {}).get("candidates") or s.active_seats()
            choices: list[tuple[Any, str]] = [(c, s.name(c)) for c in cands
                                              if s.players[c].active]
        else:
            choices = [("yes", "Yes"), ("no", "No")]
        choices.append(("abstain", "Abstain"))
        args = [_one("choice", "Your vote", choices)]
        own = sources(s, seat)
        vote_cards = []
        for cid, name in self.hand(lambda c: c.category == "vote"):
            refused = self.refusals("vote", {"choice": "abstain", "cards": [cid]})
            if refused:
                self.notes.append(f"{name}: {refused[0]}")
            else:
                vote_cards.append((cid, name))
        if vote_cards:
            args.append(_some("cards", "Vote cards to play", vote_cards, required=False,
                              help="A Vote card played is discarded."))
        if len(own) + len(vote_cards) > 1:
            rows = [(source, f"{source_label(source)} ({votes})")
                    for source, votes in own.items()]
            rows += [(f"card:{cid}", f"{name}, if played") for cid, name in vote_cards]
            args.append(ArgOption(
                "split", "Split your votes", Shape.TABLE,
                tuple(Choice(v, t) for v, t in choices),
                keys=tuple(Choice(k, t) for k, t in rows), blank="as my vote", required=False,
                combined=True,  # a Vote card's row counts only when the card is played
                help="Optional: any source of votes may go another way than your vote."))
        self.add("vote", "All your votes go to your choice unless you split them.", args)

    def cabinet(self) -> None:
        s, seat = self.s, self.seat
        holders: list[tuple[Any, str]] = [(x, s.name(x)) for x in eligible_seats(s)]
        holders.append((BIL, "your Brother-in-Law"))
        self.add("appoint", "Every living player in the country needs a position; at most two "
                 "each, never two Generals; your Brother-in-Law may take one. The form starts "
                 "with the Cabinet as it stands.",
                 [ArgOption("positions", "The Cabinet", Shape.TABLE,
                            tuple(Choice(v, t) for v, t in holders),
                            keys=tuple(Choice(k, catalog.TITLES[k]) for k in catalog.CABINET),
                            blank="vacant", default=standing_cabinet(s), combined=True)])
        del seat

    def budget_draw(self) -> None:
        commands = self.s.commanded_positions(self.seat)
        if catalog.WAR in commands:
            self.add("new_weapons", "New Weapons: a General, the Admiral, the Air Force "
                     "Commander or no one.",
                     [_one("position", "Assign to", [(k, catalog.TITLES[k]) for k in
                                                     catalog.NEW_WEAPONS_TARGETS],
                           blank="no one")])
        mine = [(k, catalog.TITLES[k]) for k in (catalog.FOREIGN, catalog.FARM_LABOR)
                if k in commands]
        if mine:
            self.add("draw_bills", "Draw 1 to 6 bills; with no order the number is random.",
                     [_one("position", "As", mine), _number("count", "Bills", 1, 6)])

    def proposal(self) -> None:
        s, p = self.s, self.p
        held = sorted(s.budget.get("held", []), reverse=True)
        bills = (f"You hold {sum(held)} MP in bills ({', '.join(map(str, held))})."
                 if held else "You hold no bills.")
        everyone = self.players(include_self=True)
        args = [ArgOption("allocations", "Totals", Shape.TABLE,
                          keys=tuple(Choice(x, n) for x, n in everyone), minimum=0,
                          maximum=sum(held) + p.pocket, required=False, combined=True,
                          help="The MP each player receives; a player left empty gets "
                               "nothing."),
                _number("from_pocket", "Add from your pocket", 0, p.pocket, required=False,
                        help=f"You have {p.pocket} MP in your pocket.", combined=True)]
        if held:
            args.append(ArgOption(
                "bills", "Which bill goes to whom", Shape.TABLE,
                tuple(Choice(x, n) for x, n in everyone),
                keys=tuple(Choice(i, f"Bill {i + 1}: {bill} MP goes to")
                           for i, bill in enumerate(held)),
                blank="as the plan decides", required=False, combined=True,
                help="Optional: a bill you hand to a player counts toward his total; the "
                     "other bills make up the totals with as little from your pocket as "
                     "possible."))
        self.add("propose_budget", f"Give each player a total; what you do not allocate you "
                 f"keep. {bills}", args)

    def assassinate(self) -> None:
        """The assassins the engine would send now: the Secret Police for the Minister,
        assassin cards and Secret Police Overtime from the hand."""
        s, seat = self.s, self.seat
        others = self.players()
        if not others:
            return
        trial = {"target": others[0][0], "location": "home"}
        candidates: list[tuple[Any, str]] = self.hand(
            lambda c: (c.category == "assassin" and c.name not in THEFTS)
            or c.name == "Secret Police Overtime")
        if catalog.INTERNAL_SECURITY in s.commanded_positions(seat):
            candidates.insert(0, (SECRET_POLICE, "the Secret Police"))
        assassins = []
        for value, name in candidates:
            refused = check_assassination(s, seat, {**trial, "card": value})
            if refused:
                self.notes.append(f"{name}: {refused[0]}")
            else:
                assassins.append((value, name))
        if not assassins:
            return
        police_bank = s.secret_police_bank_turn == s.turn - 1 and s.turn > 1
        where = {value: tuple(loc for loc in catalog.LOCATIONS
                              if not check_assassination(s, seat, {**trial, "card": value,
                                                                   "location": loc}))
                 for value, _ in assassins}
        self.add("assassinate", "Name the assassin, the target and the location to strike." + (
            " The Secret Police (and Secret Police Overtime) went to the Bank last turn: they "
            "may not go there again this turn." if police_bank else ""),
            [_one("card", "Assassin", assassins), _one("target", "Target", others),
             _one("location", "Location", LOCATION_CHOICES, depends_on="card",
                  choices_for=where)])

    def bank(self) -> None:
        s, p = self.s, self.p
        closed = self.refusals("bank", {"action": "deposit", "amount": 1})
        closed = [m for m in closed if m.arg != "amount"]  # an empty pocket closes no Bank
        if closed:
            self.notes.append(f"Banking: {closed[0]}")
            return
        after_lunch = s.phase == PhaseKind.AFTERMATH
        note = ("The Bank reopens after lunch: it is carried out after the post-coup "
                "execution, if you survive it." if after_lunch else
                "Only from the Bank location, and only when the Bank is open.")
        for action, have, where in (("deposit", p.pocket, "pocket"),
                                    ("withdraw", p.bank, "Bank account")):
            verb = "Deposit money in the Bank" if action == "deposit" else \
                "Withdraw money from the Bank"
            if have < 1:
                self.notes.append(f"{verb}: your {where} is empty.")
                continue
            self.add("bank", f"{note} You have {p.pocket} MP in your pocket and {p.bank} MP "
                     "in the Bank.", [_number("amount", "MP", 1, have)], key=f"bank:{action}",
                     label=verb, fixed={"action": action})

    # -- any time --
    def any_time(self) -> None:
        s, seat, p = self.s, self.seat, self.p
        others = self.players()
        # "The resigning President may not transfer his Pocket money in any way during the
        # course of the Election."
        resigning = s.phase == PhaseKind.ELECTION and (s.election or {}).get("resigned") == seat
        if resigning and p.pocket:
            self.notes.append("Paying or giving money: as the resigning President you may not "
                              "transfer your pocket money during the election.")
        if p.pocket and others and not resigning:
            self.add("pay", "Pay money from your pocket.",
                     [_one("to", "To", others),
                      _number("amount", "MP", 1, p.pocket,
                              help=f"You have {p.pocket} MP in your pocket.")])
        if p.hand and others:
            takers = [(x, n) for x, n in others
                      if not self.refusals("give_card", {"to": x, "card": p.hand[0]})]
            if takers:
                self.add("give_card", "Give a card (not to a player at the hand limit).",
                         [_one("to", "To", takers), _one("card", "Card", self.hand())])
            else:
                self.notes.append(f"Giving a card: every other player is at the hand limit "
                                  f"of {catalog.HAND_LIMIT} cards.")
        if others:
            # what changes hands: any of these, so long as something does (`combined`)
            args = [_one("with", "With", others)]
            if p.hand:
                args.append(_some("give_cards", "Cards you give", self.hand(), required=False,
                                  combined=True))
            args.append(_some("get_cards", "Cards you get", wanted_cards(s, seat),
                              required=False, combined=True,
                              help="Your partner's hand is secret, so every card that is not "
                                   "in your hand or in play is listed: your partner must order "
                                   "the same trade, giving these very cards."))
            if not resigning and p.pocket:
                args.append(_number("give_money", "MP you give", 0, p.pocket, required=False,
                                    help=f"You have {p.pocket} MP in your pocket.",
                                    combined=True))
            args.append(_number("get_money", "MP you get", 0, MAX_ASKED, required=False,
                                combined=True))
            self.add("trade", TRADE_HELP, args)
        self.card_plays()
        discardable = self.hand() + [(c, f"{catalog.card(c).name} (in play)")
                                     for c in p.influence]
        if discardable:
            self.add("discard", "Discard a card (the hand limit is 6, Influence in play "
                     "counts).", [_one("card", "Card", discardable)])
        if seat == s.president and s.phase not in (PhaseKind.NOMINATION, PhaseKind.ELECTION) and \
                s.coup is None:
            self.add("resign", "Resign the Presidency: the Chamber elects a successor at once.")
        if seat == s.president:
            self.add("brother_in_law", "If several positions fall vacant, your Brother-in-Law "
                     "takes this one.",
                     [_one("position", "Position", [(k, catalog.TITLES[k])
                                                    for k in catalog.CABINET])])
        if catalog.INTERNAL_SECURITY in s.commanded_positions(seat) and s.pending_returns:
            self.add("safe_passage", "Decide on an exile asking to return.",
                     [_one("seat", "Exile", [(x, s.name(x)) for x in s.pending_returns]),
                      _one("decision", "Decision", [("grant", "Grant safe passage"),
                                                    ("execute", "Execute")])])

    def card_plays(self) -> None:
        """Card plays the engine accepts now. Unit and Bribe cards have a form each (added with
        the coup's options); a card that needs a target, or that acts at a step of its own
        (re-votes, assassination-time cards), has a form of its own with the targets the engine
        accepts; the other cards share one form. Every card not offered gets a note."""
        s, seat, p = self.s, self.seat, self.p
        offered = {o.key for o in self.out}
        general: list[tuple[int, str]] = []
        own_forms: list[tuple[int, list[tuple[int, str]]]] = []
        for cid in p.hand:
            c = catalog.card(cid)
            if c.name in UNIT_CARDS:
                if f"play_card:{cid}" not in offered:
                    self.notes.append(_card_note(c.name, _unit_card_reason(s, seat, cid)))
                continue
            if c.category == "vote":
                if s.phase not in ORDER_KINDS["vote"].phases:
                    self.notes.append(f"{c.name}: a Vote card, played with your vote in a vote "
                                      "of the Chamber.")
                continue
            if (c.category == "assassin" and c.name not in (*THEFTS, "Monarchist Assassin")) \
                    or c.name == "Secret Police Overtime":
                if s.phase != PhaseKind.LOCATIONS:
                    self.notes.append(f"{c.name}: sent with an assassination order in the "
                                      "Locations phase.")
                continue
            refused = check_play(s, seat, Order("play_card", {"card": cid}))
            if c.name in TARGETED:
                # the form chooses the target: a missing one is no reason to refuse the card
                refused = [m for m in refused if m != f"{c.name} needs another player as its "
                           "target."]
            if refused:
                self.notes.append(_card_note(c.name, refused[0]))
                continue
            targets = [(t, label) for t, label in _target_choices(s, seat)
                       if not check_play(s, seat, Order("play_card", {"card": cid,
                                                                      "target": t}))
                       ] if c.name in TARGETED else []
            if c.name in TARGETED and not targets:
                self.notes.append(f"{c.name}: there is no player it can be played on now.")
                continue
            if c.name in TARGETED or card_step(c, s.phase) != Step.ANY_TIME:
                own_forms.append((cid, targets))
            else:
                general.append((cid, c.name))
        if general:
            self.add("play_card", "Play a card from your hand; Influence cards go into play in "
                     "front of you.", [_one("card", "Card", general)])
        for cid, targets in own_forms:
            c = catalog.card(cid)
            args = [_one("target", "Target", targets)] if c.name in TARGETED else []
            self.add("play_card", c.effect, args, key=f"play_card:{cid}",
                     label=f"Play {c.name}", fixed={"card": cid})

    # -- the coup --
    def rebel_only(self) -> None:
        """"Players wishing to initiate a Coup must order a movement of troops, or a
        bombardment of some kind during this phase" (with a Coup Excuse, or from HQ); it makes
        them Rebels."""
        s, seat = self.s, self.seat
        commands = s.commanded_positions(seat)
        if not commands:
            return
        units = coup_units(s)
        mine = [u for u in units if u["owner"] == seat and u["kind"] != "Bodyguard"]
        extra: list[tuple[int, str]] = []
        if catalog.WAR in commands:  # the Bodyguard starts by the Minister's location
            extra = [(z, f"{zone_name(z)}: your Bodyguard, if you are at "
                         f"{catalog.LOCATION_NAMES[loc]}")
                     for loc, z in BODYGUARD_ZONES.items() if loc in catalog.LOCATION_NAMES]
        warning = (" Rebel action needs a Coup Excuse or your presence at HQ, and makes you a "
                   "Rebel for good.")
        stacks = _stacks(mine)
        if stacks or extra:
            args, reach = _move_args(stacks, extra)
            self.add("rebel_move", f"Move a stack from where it starts to a zone next to it; "
                     f"you may move {moves_reason(s, seat)}. {reach}{warning}", args)
        self.strikes(units, warning)
        for kind, position in (("Paratrooper", catalog.AIR_FORCE), ("Marine", catalog.ADMIRAL)):
            if position in commands:
                self.place(kind, 1, warning)

    def strikes(self, units: list[dict[str, Any]], extra: str = "") -> None:
        s, seat = self.s, self.seat
        foes = _foes(seat, units)
        if not foes:
            return
        commands = s.commanded_positions(seat)
        coup = s.coup or {"airstrikes_used": 0, "foreign": {"chosen": [],
                                                             "airstrikes_used": 0}}
        origins: list[tuple[str, str]] = []
        if catalog.AIR_FORCE in commands and coup["airstrikes_used"] < AIRSTRIKES:
            left = AIRSTRIKES - coup["airstrikes_used"]
            origins.append(("air_force", f"the Air Force ({left} of {AIRSTRIKES} left)"))
        if s.phase in COUP_PHASES and catalog.FOREIGN in commands:
            foreign = coup["foreign"]
            total = FOREIGN_FORCES["airstrikes"][1]
            if "airstrikes" in foreign["chosen"] and foreign["airstrikes_used"] < total:
                origins.append(("foreign", f"the foreign Air Strikes "
                                           f"({total - foreign['airstrikes_used']} of {total} "
                                           "left)"))
            elif _may_choose(s, "airstrikes"):
                origins.append(("foreign", "the foreign Air Strikes (calls them in as one of "
                                           "your Foreign Intervention forces)"))
        target_args = _strike_args(s, foes)
        if origins:
            self.add("airstrike", "An Airstrike rolls 6 dice at one player's units in one "
                     "zone, before any movement; a 6 destroys a unit. One Airstrike per source "
                     "each phase." + extra, [_one("source", "Airstrike from", origins),
                                             *target_args])
        if catalog.ADMIRAL in commands:
            self.add("gunboat", "The Gunboat shells one player's units in one zone with 3 "
                     "dice, before any movement, once a phase." + extra, target_args)

    def place(self, kind: str, count: int, extra: str = "") -> None:
        """An option to land waiting units of one kind; `count` 0 for a foreign force not yet
        called in (landing it calls it in)."""
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
            extra = " Landing them calls them in as one of your Foreign Intervention forces." \
                + extra
        verb = "lands" if count == 1 else "land"
        self.add("place", f"{what}{verb} in {where} with this phase's movement." + extra,
                 [_one("zone", "Zone", [(z, zone_name(z)) for z in zones])],
                 key=f"place:{kind}", label=label, fixed={"unit": kind})

    def coup_phase(self) -> None:
        s, seat = self.s, self.seat
        coup = s.coup
        if coup is None:
            return
        units = coup["units"]
        commands = s.commanded_positions(seat)
        mine = [u for u in units if u["owner"] == seat]
        on_map = [u for u in mine if u["zone"] is not None]
        others = self.players()
        self.strikes(units)
        foreign = coup["foreign"]
        left = foreign["allowed"] - len(foreign["chosen"])
        if catalog.FOREIGN in commands and left > 0:
            free = [(f, FORCE_LABELS[f]) for f in FOREIGN_FORCES if f not in foreign["chosen"]]
            self.add("intervene", f"The die showed {foreign['roll']}: you may call in {left} "
                     f"more Foreign Intervention force{'s' if left != 1 else ''}, each once a "
                     "coup. They arrive with this phase's incoming fire; the units then wait "
                     "to be landed.", [_some("forces", "Forces", free)])
        waiting: dict[str, int] = {}
        for u in mine:
            if u["zone"] is None:
                waiting[u["kind"]] = waiting.get(u["kind"], 0) + 1
        for kind, count in sorted(waiting.items()):
            self.place(kind, count)
        if catalog.FOREIGN in commands:
            for force in ("helicopter", "paratroopers", "commandos"):
                kind = FOREIGN_FORCES[force][0]
                if kind not in waiting and _may_choose(s, force):
                    self.place(kind, 0)
        stacks = _stacks(on_map)
        # units another player may hand over before the moves bring their move along
        # (docs/rules.md §transfers): a move may start where they stand
        handed = [(z, f"{zone_name(z)}: units handed over to you before the moves")
                  for z in sorted({u["zone"] for u in units if u["zone"] is not None
                                   and u["owner"] not in (None, seat)} - set(stacks))]
        if stacks or handed and others:
            args, reach = _move_args(stacks, handed if others else ())
            args.append(_some("units", "Only these units (leave empty to move the whole stack)",
                              [(u["id"], unit_label(u)) for u in on_map], required=False,
                              depends_on="from_zone",
                              choices_for={z: tuple(u["id"] for u in us)
                                           for z, us in stacks.items()}))
            self.add("move", f"You may move {moves_reason(s, seat)} this phase; a Helicopter "
                     f"alone flies up to two zones and does not count. {reach}", args)
        if s.phase == PhaseKind.COUP and coup["phase"] == 1 and coup.get("agitator_zones") and \
                catalog.INTERNAL_SECURITY in commands:
            police = [u for u in on_map if u["kind"] == "Police"]
            self.add("police_response", "Rush any or all Police to a zone where Mob, Striker "
                     "or Rioter units were deployed in the Rebel-Only step. This does not count "
                     "as your stack move.",
                     [_one("zone", "Zone", zones_with_occupants(
                         s, units, sorted(coup["agitator_zones"]))),
                      _some("units", "Only these Police (leave empty for all)",
                            [(u["id"], unit_label(u)) for u in police], required=False)])
        kinds_held = sorted({u["kind"] for u in mine})
        if len(kinds_held) > 1:
            self.add("casualties", "Your units hit by strikes or in battle fall weakest first "
                     "(unarmed, then armed, then 2-dice units). Name the kinds to lose last "
                     "instead, the first named the very last; it holds for this phase.",
                     [ArgOption("last", "Lose last, then", Shape.RANKING,
                                tuple(Choice(k, k) for k in kinds_held),
                                maximum=min(3, len(kinds_held)))])
        if mine and others:
            self.add("transfer", "Hand units over to another player. Unmoved units handed "
                     "over before the moves bring their move along; units handed over after "
                     "moving do not move again this phase.",
                     [_some("units", "Units", [(u["id"], unit_label(u)) for u in mine]),
                      _one("to", "To", others),
                      _one("after_moves", "When", [(False, "before the moves"),
                                                   (True, "after the moves")])])
        if on_map:
            embassies = " or ".join(zone_name(z) for z in EMBASSIES)
            self.add("flee", f"Flee the country: it works only if one of your units stands in "
                     f"an embassy ({embassies}) after this phase's moves. You lose your "
                     "positions.")
            exiles = [(x.seat, x.name) for x in s.players if x.status == Status.EXILED]
            if exiles:
                self.add("embassy_passage", "Let an exile come home through an embassy where "
                         "you hold a unit after the moves (he must also order his return).",
                         [_one("seat", "Exile", exiles)])
        if mine and others:
            fighting = [z for z in sorted(catalog.zones()) if z not in EMBASSIES]
            zones = zones_with_occupants(s, units, fighting)
            self.add("attack", "Attack a player's units in a zone after the moves (Rebels and "
                     "Loyalists who meet fight anyway). Embassies are no-combat zones.",
                     [_one("zone", "Zone", zones), _one("target", "Player", others)])
            self.add("retreat", "If your units in a zone must retreat after a battle, where "
                     "they go (a zone next to it); otherwise they go back where they came "
                     "from.",
                     [_one("zone", "Retreat from", zones),
                      _one("to_zone", "Retreat to", [(z, zone_name(z))
                                                     for z in sorted(catalog.zones())],
                           depends_on="zone",
                           choices_for={z: tuple(sorted(catalog.zones()[z].adjacent))
                                        for z in fighting})])
            self.add("permit_retreat", "Whether a player's retreating units may enter zones "
                     "you hold. Unless you say so, Rebels deny Loyalists and Loyalists deny "
                     "Rebels.", [_one("seat", "Player", others),
                                 _one("allow", "Allow the retreat", YES_NO)])
        if s.phase == PhaseKind.COUP_FINAL:
            sides = SIDE_CHOICES[1:] if seat == s.president else SIDE_CHOICES
            self.add("coup_side", "Vote Pro-Junta or Pro-President. A control point counts "
                     "Pro-Junta only if every unit in it belongs to a Pro-Junta voter; empty or "
                     "shared points count Pro-President. The side with 3 of the 5 control "
                     "points wins; no vote abstains." + (
                         " The President cannot vote Pro-Junta."
                         if seat == s.president else ""),
                     [_one("side", "Your vote", sides)])

    def unit_cards(self) -> None:
        """Event cards that put units on the map and the Bribe cards, each with the zones it
        may use: in the Rebel-Only step (before anyone moves) and during the coup."""
        s, seat, p = self.s, self.seat, self.p
        units = coup_units(s)
        rebel_step = s.phase == PhaseKind.LOCATIONS
        for cid in p.hand:
            card = catalog.card(cid)
            if card.name not in UNIT_CARDS or not playable_now(s, card):
                continue
            if card.name in BRIBES:
                how, value = BRIBES[card.name]
                targets = [u for u in units if u["zone"] is not None and u["owner"] != seat and (
                    u["kind"] in AGITATORS | {"Labor Rioter"} if how == "agitators"
                    else u.get(how) == value)]
                if not targets or p.pocket < 1:
                    continue
                zones = sorted({u["zone"] for u in targets})
                help_text = (f"Name a zone: for each unit there the card can buy you pay 1 MP "
                             f"and roll a die; on 4-6 the unit is yours for the rest of the "
                             f"coup. You have {p.pocket} MP.")
                zone_arg = _one("zone", "Zone", zones_with_occupants(s, targets, zones))
            else:
                spec = CARD_UNITS[card.name]
                if spec.requires and not has_influence(s, seat, spec.requires) or \
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
                zone_arg = _one("zone", "Where", [(z, zone_name(z)) for z in spec.zones])
            self.add("play_card", help_text, [zone_arg], key=f"play_card:{cid}",
                     label=f"Play {card.name}", fixed={"card": cid})

    def aftermath(self) -> None:
        s, seat, p = self.s, self.seat, self.p
        coup = s.coup or {}
        result = coup.get("result")
        living = [(x.seat, x.name) for x in s.players if x.status == Status.ALIVE]
        if result == "junta" and p.rebel:
            first = s.first_rebel
            tie = f" The First Rebel, {s.name(first)}, breaks ties." if first is not None \
                else ""
            self.add("junta_vote", "The Junta elects the President: any living player, the "
                     "sitting President included." + tie, [_one("candidate", "Candidate", living)])
        if result == "president" and seat == s.president:
            rebels = [(x.seat, x.name) for x in s.players
                      if x.status == Status.ALIVE and x.rebel and x.seat != seat]
            if rebels:
                self.add("execute", "You won the coup: you may send one Rebel to the firing "
                         "squad (Loyalists are immune). His pocket money comes to you. No order: "
                         "you benevolently execute no one.", [_one("target", "Rebel", rebels)])
        elif result == "junta":
            targets = [(v, n) for v, n in living if v != seat]
            self.add("execute", "Should you be elected President by the Junta, you may execute "
                     "ANY one player and take his pocket money; the order counts only if you "
                     "are elected. No order: you benevolently execute no one.",
                     [_one("target", "Player", targets)])


# --- pieces ------------------------------------------------------------------------------------

def standing_cabinet(state: GameState) -> dict[str, Any]:
    """The Cabinet as it stands, for the appointment form to start from: each position with
    its holder while he may still hold it, else vacant. When that is not a legal Cabinet (a
    player without a position), a legal one made from it: positionless players fill vacant
    places first, and as a last resort the engine's own lot (docs/rules.md §appointment)."""
    from .phases.cabinet import check_cabinet

    eligible = eligible_seats(state)
    current: dict[str, Any] = {}
    for pos in catalog.CABINET:
        holder = state.positions.get(pos)
        current[pos] = holder if holder in eligible or (
            holder == BIL and state.president is not None) else None
    if not check_cabinet(state, current):
        return current
    filled = dict(current)
    for seat in eligible:
        if seat in filled.values():
            continue
        for pos in catalog.CABINET:
            trial = {**filled, pos: seat}
            if filled[pos] is None and not _counts_broken(trial, pos, seat):
                filled[pos] = seat
                break
    if not check_cabinet(state, filled):
        return filled
    return random_cabinet(state, Rng(f"{state.seed}:cabinet:{state.turn}"))


def _counts_broken(positions: Mapping[str, Any], pos: str, seat: int) -> bool:
    held = [p for p, h in positions.items() if h == seat]
    return len(held) > 2 or sum(p in catalog.GENERALS for p in held) > 1


def wanted_cards(state: GameState, seat: int) -> list[tuple[str, str]]:
    """The cards a trade may ask for, by name: every political card with a copy that is not
    in my hand and not in play in front of anyone (those are public)."""
    known = set(state.players[seat].hand)
    for p in state.players:
        known |= set(p.influence)
    names = sorted({c.name for c in catalog.cards() if c.id not in known})
    return [(name, name) for name in names]


def _target_choices(state: GameState, seat: int) -> list[tuple[int, str]]:
    return [(x.seat, x.name if x.active else f"{x.name} (in exile)") for x in state.players
            if x.seat != seat and (x.active or x.status == Status.EXILED)]


def _card_note(name: str, message: str) -> str:
    """ "Bank Holiday cannot be played...", "Helicopter: no unit it could bribe..." """
    return message if message.startswith(name) else f"{name}: {message}"


def _unit_card_reason(state: GameState, seat: int, cid: int) -> str:
    """Why a card that puts units on the map (or bribes them) is not offered now."""
    c = catalog.card(cid)
    spec = CARD_UNITS.get(c.name)
    zone = spec.zones[0] if spec is not None and spec.zones else next(iter(catalog.zones()))
    refused = check_play(state, seat, Order("play_card", {"card": cid, "zone": zone}))
    if refused:
        return refused[0]
    if c.name in BRIBES:
        return "no unit it could bribe is on the map."
    return "it cannot be played now."


def _stacks(units: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    stacks: dict[int, list[dict[str, Any]]] = {}
    for u in units:
        if u["zone"] is not None:
            stacks.setdefault(u["zone"], []).append(u)
    return dict(sorted(stacks.items()))


def _reach(zone: int, units: list[dict[str, Any]]) -> list[int]:
    """Zones a stack in `zone` may move to: next door; up to two zones for a Helicopter."""
    if units and all(u["kind"] == "Helicopter" for u in units):
        return [z for z in catalog.zones() if z != zone and distance(zone, z) <= 2]
    return sorted(catalog.zones()[zone].adjacent)


def _move_args(stacks: dict[int, list[dict[str, Any]]], extra_from: Iterable[tuple[int, str]] = ()
               ) -> tuple[list[ArgOption], str]:
    from_choices = [(z, f"{zone_name(z)}: {count_units(us)}") for z, us in stacks.items()]
    from_choices += list(extra_from)
    reach = {z: _reach(z, us) for z, us in stacks.items()}
    for value, _ in extra_from:
        reach[value] = _reach(value, [])
    targets = sorted({t for zs in reach.values() for t in zs})
    lines = "; ".join(f"from {zone_name(z)} to {', '.join(zone_name(t) for t in zs)}"
                      for z, zs in reach.items())
    args = [_one("from_zone", "From", from_choices),
            _one("to_zone", "To (a zone next to it)", [(z, zone_name(z)) for z in targets],
                 depends_on="from_zone", choices_for={z: tuple(zs) for z, zs in reach.items()})]
    return args, f"You can reach: {lines}."


def _foes(seat: int, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Other players' units on the map outside the embassies: what a strike can hit."""
    return [u for u in units if u["zone"] is not None and u["owner"] is not None
            and u["owner"] != seat and u["zone"] not in EMBASSIES]


def _strike_args(state: GameState, foes: list[dict[str, Any]]) -> list[ArgOption]:
    zones = sorted({u["zone"] for u in foes})
    owners = sorted({u["owner"] for u in foes})
    return [_one("zone", "Zone to strike", zones_with_occupants(state, foes, zones)),
            _one("target", "Whose units", [(o, state.name(o)) for o in owners])]


def _may_choose(state: GameState, force: str) -> bool:
    foreign = (state.coup or {}).get("foreign") or {"chosen": [], "allowed": 0}
    return force not in foreign["chosen"] and len(foreign["chosen"]) < foreign["allowed"]


# --- conditions --------------------------------------------------------------------------------

def condition_options(state: GameState, kind: str, fixed: Mapping[str, Any] | None = None,
                      seat: int | None = None, details: dict[str, ArgOption] | None = None
                      ) -> tuple[tuple[ConditionOption, ...], tuple[str, ...]]:
    """The conditions an order of `kind` given by `seat` may wait for (settled at an earlier
    step than its own), each with its details; and why the others are not offered. An
    assassination-step order may wait only for the player's own location or exile
    (docs/rulings.md §ruling-assassination-conditions: "Locations are designated and Assassins
    are dispatched" is one step). `details`: the
    state's condition details, when the caller has them."""
    phase = state.phase
    act = action_step(Order(kind, dict(fixed or {})), phase)
    details = dict(details or _condition_details(state))
    cards = _cards_in_time(phase, act)
    details["card"] = _card_detail(phase, act)
    own = details
    if act == Step.ASSASSINATIONS and seat is not None:
        own = {**details, "seat": _one("seat", "Player", [(seat, state.name(seat))])}
    offered: list[ConditionOption] = []
    refused: list[str] = []
    for cond, step in _condition_steps(phase):
        if cond == "card_played" and not cards:
            continue
        label = condition_label(cond)
        if _before(phase, step, act):
            names = own if cond in ("location", "exiled") else details
            offered.append(ConditionOption(cond, label, tuple(
                names[name] for name in condition_detail(cond))))
        else:
            refused.append(f"\u201c{label}\u201d is settled at {steps.describe(phase, step)}, "
                           f"not before this order ({steps.describe(phase, act)}).")
    if act == Step.ASSASSINATIONS and any(c.kind in ("location", "exiled") for c in offered):
        refused.append("\u201ca player is at a location\u201d and \u201ca player goes into "
                       "exile\u201d may only name you: assassins are dispatched as locations "
                       "are chosen, so an assassination-time order cannot wait for another "
                       "player's.")
    return tuple(offered), tuple(refused)


def _before(phase: str, step: str, act: str) -> bool:
    """Whether a condition settled at `step` may govern an order acting at `act` (the rule of
    `orders.validate_condition`)."""
    cond_index, act_index = steps.index(phase, step), steps.index(phase, act)
    return cond_index >= 0 and (cond_index < act_index or (
        act == Step.ANY_TIME and cond_index > act_index))


@cache
def _condition_steps(phase: str) -> tuple[tuple[str, str], ...]:
    """The kinds of condition that exist in a phase, with the step that settles each."""
    out = []
    for cond, (_, phases, _template) in CONDITION_KINDS.items():
        step = condition_step(Condition(cond, {}), phase)
        if phase in phases and steps.index(phase, step) >= 0:
            out.append((cond, step))
    return tuple(out)


@cache
def _card_detail(phase: str, act: str) -> ArgOption:
    return _one("card", "Card", [(n, n) for n in _cards_in_time(phase, act)])


@cache
def _fixed_details() -> dict[str, ArgOption]:
    """The condition details that do not depend on the state."""
    return {
        "location": _one("location", "Location", LOCATION_CHOICES),
        "result": _one("result", "Result", [("passes", "passes"), ("fails", "fails")],
                       blank="either way", required=False),
        "margin_at_most": _number("margin_at_most", "By at most (votes)", 0, 999,
                                  required=False, help="Leave empty for any margin."),
        "card": _one("card", "Card", list(_card_names())),
        "position": _one("position", "Position", [(k, catalog.TITLES[k])
                                                  for k in catalog.CABINET]),
    }


@cache
def _cards_in_time(phase: str, act: str) -> tuple[str, ...]:
    """The cards whose play is settled before an order acting at `act`: a card played is
    settled at the card's own step."""
    return tuple(n for n, _ in _card_names() if _before(
        phase, condition_step(Condition("card_played", {"card": n}), phase), act))


def condition_label(kind: str) -> str:
    return CONDITION_KINDS[kind][2].format(seat="a player", choice="a way",
                                           location="a location", card="a card",
                                           position="a position", result="ends")


def condition_detail(kind: str) -> tuple[str, ...]:
    """The details a kind of condition names: ("seat", "location") for "location"."""
    if kind not in CONDITION_KINDS:
        return ()
    names = [n for _, n, _, _ in string.Formatter().parse(CONDITION_KINDS[kind][2]) if n]
    if kind == "vote_result":
        names.append("margin_at_most")
    return tuple(names)


@cache
def _card_names() -> tuple[tuple[str, str], ...]:
    return tuple((n, n) for n in sorted({c.name for c in catalog.cards()}))


def _condition_details(state: GameState) -> dict[str, ArgOption]:
    people = [(p.seat, p.name) for p in state.players if p.status != Status.DEAD]
    if state.phase == PhaseKind.ELECTION:
        cands = (state.election or {}).get("candidates") or state.active_seats()
        votes: list[tuple[Any, str]] = [(c, f"for {state.name(c)}") for c in cands]
    else:
        votes = [("yes", "yes"), ("no", "no")]
    votes.append(("abstain", "abstains"))
    return {**_fixed_details(), "seat": _one("seat", "Player", people),
            "choice": _one("choice", "Vote", votes)}


# --- from chosen values to an order, and back -------------------------------------------------

def build(state: GameState, seat: int, option: OrderOption, values: Mapping[str, Any],
          condition: tuple[str, Mapping[str, Any]] | None = None) -> Order:
    """The engine's order for an option with these values (as its arguments describe them:
    a TABLE as a dict by key, a RANKING as a list); a blank value leaves the argument out.
    `condition` is (kind, details). The engine validates the result."""
    args: dict[str, Any] = dict(option.fixed)
    for a in option.args:
        value = values.get(a.name)
        if a.shape is Shape.TABLE:
            rows = {k: v for k, v in (value or {}).items() if v not in (None, "")}
            if option.kind == "appoint":
                args["positions"] = {k.value: (value or {}).get(k.value) for k in a.keys}
            elif a.name == "allocations":
                args["allocations"] = {str(k): v for k, v in rows.items() if v}
            elif a.name == "bills":
                held = sorted(state.budget.get("held", []), reverse=True)
                bills: dict[str, list[int]] = {}
                for index, to in sorted(rows.items()):
                    if isinstance(index, int) and 0 <= index < len(held):
                        bills.setdefault(str(to), []).append(held[index])
                if bills:
                    args["bills"] = bills
            elif rows:
                args[a.name] = rows
        elif a.shape is Shape.RANKING:
            args[a.name] = [v for v in value or [] if v not in (None, "")]
        elif a.shape is Shape.SOME:
            if value or a.required:
                args[a.name] = list(value or [])
        elif a.shape is Shape.NUMBER:
            if value is not None:
                args[a.name] = value
            elif a.name in ("give_money", "get_money", "from_pocket"):
                args[a.name] = 0
        elif value is not None or a.blank is not None:
            args[a.name] = value
    if option.kind == "trade":
        args["give_cards"] = own_copies(state, seat, args.get("give_cards") or [])
        args["get_cards"] = asked_copies(state, seat, args.get("with"),
                                         args.get("get_cards") or [])
    cond = None
    if condition is not None:
        kind, details = condition
        cond = Condition(kind, {k: v for k, v in details.items()
                                if k in condition_detail(kind) and v not in (None, "")})
    return Order(option.kind, args, cond)


def values_of(state: GameState, option: OrderOption, order: Order) -> dict[str, Any]:
    """The values an option's form starts with to change `order` in place (the inverse of
    `build`)."""
    out = option.defaults()
    a = order.args
    for arg in option.args:
        if arg.name not in a and option.kind != "propose_budget":
            continue
        value = a.get(arg.name)
        if option.kind == "propose_budget" and arg.name == "allocations":
            out[arg.name] = {int(k): v for k, v in (value or {}).items()}
        elif option.kind == "propose_budget" and arg.name == "bills":
            held = sorted(state.budget.get("held", []), reverse=True)
            rows: dict[int, Any] = {}
            for to, denoms in (value or {}).items():
                for d in denoms:
                    index = next((i for i, b in enumerate(held) if b == d and i not in rows),
                                 None)
                    if index is not None:
                        rows[index] = int(to)
            out[arg.name] = rows
        elif option.kind == "trade" and arg.name == "get_cards":
            out[arg.name] = [catalog.card(c).name for c in value or []]
        elif value is not None:
            out[arg.name] = value
    return out


def option_for(options: Options, order: Order) -> OrderOption | None:
    """The option an existing order was given through (to change it in place): the one of its
    kind whose fixed arguments it has and whose lists offer its values; the most specific when
    several do (a card with a form of its own, rather than the form shared by other cards)."""
    def offers(option: OrderOption) -> bool:
        if any(order.args.get(k) != v for k, v in option.fixed.items()):
            return False
        for arg in option.args:
            value = order.args.get(arg.name)
            if arg.shape is Shape.ONE and arg.depends_on is None and value is not None \
                    and arg.choices and value not in arg.values():
                return False
        return True

    matching = [o for o in options.of_kind(order.kind) if offers(o)]
    return max(matching, key=lambda o: len(o.fixed), default=None)


def own_copies(state: GameState, seat: int, cards: list[int]) -> list[int]:
    """The cards I give in a trade, as the lowest-numbered copies in my hand of each name:
    the copies a partner asking for them by name is matched with (see `asked_copies`)."""
    names = [catalog.card(c).name for c in cards if isinstance(c, int)]
    hand = sorted(state.players[seat].hand)
    out: list[int] = []
    for name in dict.fromkeys(names):
        out += [c for c in hand if catalog.card(c).name == name][:names.count(name)]
    return sorted(out)


def asked_copies(state: GameState, seat: int, partner: Any, names: list[Any]) -> list[int]:
    """The cards I ask for in a trade, named by the player: the copy the partner would give
    (his lowest-numbered copy of the name, as `own_copies` picks on his side), else a copy
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

