"""The GameMaster's rulings on offer now: which kinds of ruling a state admits, with which values.

`ruling_options(state)` is to the GM's rulings what `legal_options(state, seat)` is to a seat's
orders: one entry per kind of ruling available now (move money, move a card, set a location,
add or remove a unit, a budget by fiat, name a character), each argument with the values the
rulings accept (the engine's `ArgOption`s: a pot, a card and where it may go, a unit kind of the
rules' table, a zone...), and for each kind not available now the reason. The GM panel builds its
ruling forms from it and never decides on its own what a ruling may name.

`rule(state, kind, values)` carries a ruling out as the offer describes it: a value not offered
is refused with a message naming the argument (`RulingError.problems`, keyed like an order's
`Problem`s), then the ruling itself (`rulings.py`) checks what depends on the state and the
rules' invariants. Whatever is offered, `rule` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import reduce
from typing import Any

from . import catalog, rulings
from .enums import PhaseKind, Status
from .labels import unit_label, zone_name
from .options import ArgOption, Choice, Shape
from .problems import Problem
from .rulings import Ruling, RulingError
from .state import GameState

__all__ = ["RULING_KINDS", "Limit", "RulingOption", "RulingOptions", "TextArg",
           "narrowed_problems", "offer_problems", "rule", "ruling_options"]

# Each kind of ruling, in the order the GM panel lists them, with its name.
RULING_KINDS: dict[str, str] = {
    "money": "Move money", "card": "Move a card", "location": "Set a location",
    "unit_add": "Add a unit", "unit_remove": "Remove a unit", "fiat": "Budget by fiat",
    "name": "Name a character",
}


@dataclass(frozen=True)
class TextArg:
    """An argument the GM writes (a character's name): up to `max_length` characters."""
    name: str
    label: str
    max_length: int
    required: bool = True
    help: str = ""


@dataclass(frozen=True)
class Limit:
    """The most a NUMBER argument may be once another argument is chosen: the money a pot
    holds, for the amount taken from it."""
    arg: str
    depends_on: str
    maximum_for: Mapping[Any, int]


@dataclass(frozen=True)
class RulingOption:
    """One kind of ruling available now: its arguments and their allowed values. An argument
    that `depends_on` another lists every value it may take; `choices_for` narrows them to
    those allowed with the other's value (a card's places, a seat's other locations), as a
    `Limit` narrows a number."""
    kind: str  # a key of RULING_KINDS
    label: str
    help: str
    args: tuple[ArgOption, ...] = ()
    texts: tuple[TextArg, ...] = ()
    limits: tuple[Limit, ...] = ()

    def arg(self, name: str) -> ArgOption | None:
        return {a.name: a for a in self.args}.get(name)

    def defaults(self) -> dict[str, Any]:
        """The values a form starts with: each argument's `ArgOption.start`, in order (one may
        depend on those before it)."""
        return reduce(lambda out, a: {**out, a.name: a.start(out)}, self.args, {})


@dataclass(frozen=True)
class RulingOptions:
    rulings: tuple[RulingOption, ...]
    refused: Mapping[str, str] = field(default_factory=dict)  # kind -> why not now

    def get(self, kind: str) -> RulingOption | None:
        return next((r for r in self.rulings if r.kind == kind), None)

    def why_not(self, kind: str) -> str:
        """Why a kind of ruling is not available now ("" when it is)."""
        if self.get(kind) is not None:
            return ""
        return self.refused.get(kind, f"There is no ruling {kind!r}.")


# --- what is on offer --------------------------------------------------------------------------

def ruling_options(state: GameState) -> RulingOptions:
    """Every kind of GM ruling the state admits now, with the values the rulings accept, and
    why each other kind is not available (docs/rulings.md §ruling-gm)."""
    out: list[RulingOption] = []
    refused: dict[str, str] = {}
    for kind, offer in _OFFERS.items():
        made = offer(state)
        if isinstance(made, str):
            refused[kind] = made
        else:
            out.append(made)
    return RulingOptions(tuple(out), refused)


def _one(name: str, label: str, choices: list[tuple[Any, str]], **kw: Any) -> ArgOption:
    return ArgOption(name, label, Shape.ONE, tuple(Choice(v, t) for v, t in choices), **kw)


def _money(state: GameState) -> RulingOption | str:
    held = {rulings.OUT_OF_PLAY: state.spent}
    for p in state.players:
        held[f"pocket:{p.seat}"] = p.pocket
        held[f"bank:{p.seat}"] = p.bank
    pots = [f"{where}:{p.seat}" for p in state.players for where in ("pocket", "bank")]
    pots.append(rulings.OUT_OF_PLAY)
    sources = [key for key in pots if held[key] > 0]
    if not sources:
        return "No pocket, bank account or out-of-play sum holds any money."
    # the dead keep no pocket money (docs/rules.md §death): their bank accounts survive
    targets = [key for key in pots if not (key.startswith("pocket:") and state.players[
        int(key.partition(":")[2])].status == Status.DEAD)]

    def label(key: str) -> str:
        words = rulings.pot_label(state, key)
        return f"{words[:1].upper()}{words[1:]} ({held[key]} MP)"

    return RulingOption("money", RULING_KINDS["money"], "The money in the game stays the same.", (
        _one("source", "From", [(k, label(k)) for k in sources]),
        _one("target", "To", [(k, label(k)) for k in targets], depends_on="source",
             choices_for={s: tuple(t for t in targets if t != s) for s in sources}),
        ArgOption("amount", "Amount (MP)", Shape.NUMBER, minimum=1,
                  maximum=max(held[k] for k in sources),
                  help="At most what the pot it comes from holds."),
    ), limits=(Limit("amount", "source", {k: held[k] for k in sources}),))


def _card_targets(state: GameState) -> list[tuple[str, str]]:
    out = []
    for p in state.players:
        if p.status != Status.DEAD:  # the dead hold no cards
            out.append((f"hand:{p.seat}", f"{p.name}'s hand"))
            out.append((f"influence:{p.seat}", f"In play before {p.name} (Influence)"))
    return out + [("discard", "The discard pile"), ("deck_top", "Top of the draw pile"),
                  ("deck_bottom", "Bottom of the draw pile")]


def _card_allowed(state: GameState, card_id: int, origin: str, target: str) -> bool:
    """Whether `rulings.move_card` takes the card from `origin` to `target` (docs/rules.md
    §hand-limit: hand plus Influence in play is at most six cards)."""
    if target == origin or (target == "deck_top" and origin == "deck"
                            and state.political_deck[-1] == card_id):
        return False
    where, _, seat = target.partition(":")
    if where == "influence" and catalog.card(card_id).category != "influence":
        return False
    if where in ("hand", "influence") and origin.partition(":")[2] != seat:
        return state.cards_held(int(seat)) < catalog.HAND_LIMIT
    return True


def _card(state: GameState) -> RulingOption | str:
    places = {c.id: rulings.card_place(state, c.id) for c in catalog.cards()}
    cards = sorted((c for c in catalog.cards() if places[c.id] != "nowhere"),
                   key=lambda c: (c.name, c.id))
    targets = _card_targets(state)
    return RulingOption("card", RULING_KINDS["card"],
                        "Each card stays in exactly one place.", (
        _one("card", "Card", [(c.id, f"{c.name} (#{c.id}): "
                              f"{rulings.place_label(state, places[c.id])}") for c in cards]),
        _one("target", "Move it to", targets, depends_on="card", choices_for={
            c.id: tuple(t for t, _ in targets if _card_allowed(state, c.id, places[c.id], t))
            for c in cards}),
    ))


def _location(state: GameState) -> RulingOption | str:
    if not rulings.locations_chosen(state):
        return rulings.NO_LOCATIONS_YET
    living = [p for p in state.players if p.alive]
    every: tuple[str | None, ...] = (*catalog.LOCATIONS, None)
    return RulingOption("location", RULING_KINDS["location"],
                        "Where a player spends the rest of the turn.", (
        _one("seat", "Player", [(p.seat, f"{p.name} (seat {p.seat + 1}, at "
                                 f"{catalog.LOCATION_NAMES.get(p.location or '', 'no location')})")
                                for p in living]),
        _one("location", "Location", [(k, catalog.LOCATION_NAMES[k]) for k in catalog.LOCATIONS],
             blank="No location", depends_on="seat",
             choices_for={p.seat: tuple(w for w in every if w != p.location) for p in living}),
    ))


def _owner_choices(state: GameState) -> list[tuple[Any, str]]:
    return [(p.seat, f"{p.name} (seat {p.seat + 1})") for p in state.players if p.active]


def _unit_add(state: GameState) -> RulingOption | str:
    if state.coup is None:
        return rulings.NO_COUP
    return RulingOption("unit_add", RULING_KINDS["unit_add"],
                        "It leaves the map when the coup ends.", (
        _one("kind", "Kind of unit", [(k, k) for k in rulings.UNIT_KINDS],
             help="A kind of unit of the rules (docs/rules.md §units)."),
        _one("owner", "Commanded by", _owner_choices(state), blank="Nobody (holds and defends)"),
        _one("zone", "Zone", [(z, f"{z} {zone_name(z)}") for z in sorted(catalog.zones())]),
        _one("armed", "Armed", [(True, "Armed"), (False, "Unarmed")],
             blank="As the rules have it (Labor Rioters, Strikers, Rioters and Mobs unarmed)"),
    ))


def _unit_remove(state: GameState) -> RulingOption | str:
    if state.coup is None:
        return rulings.NO_COUP
    units = state.coup["units"]
    if not units:
        return "No unit is on the map."
    return RulingOption("unit_remove", RULING_KINDS["unit_remove"],
                        "Units destroyed in a coup do not come back.", (
        _one("unit", "Unit", [(u["id"], f"{unit_label(u)}, of "
                               f"{state.name(u['owner']) if u['owner'] is not None else 'nobody'}")
                              for u in units]),
    ))


def _fiat(state: GameState) -> RulingOption | str:
    if state.phase != PhaseKind.BUDGET_VOTE:
        return rulings.NO_FIAT
    bills = rulings.fiat_bills(state)
    proposal = state.budget.get("proposal")
    given = proposal["allocations"] if proposal else {}
    seats = [p for p in state.players if p.active]
    return RulingOption("fiat", RULING_KINDS["fiat"], (
        "Replaces the budget put to the vote with amounts paid from the budget bills alone "
        f"({', '.join(f'{b} MP' for b in sorted(bills, reverse=True)) or 'none'}). Pocket "
        "money the proposer set aside goes back to him; what is not allocated stays with the "
        "budget holder."), (
        ArgOption("allocations", "Amounts", Shape.TABLE,
                  keys=tuple(Choice(p.seat, f"{p.name} (MP)") for p in seats), minimum=0,
                  maximum=sum(bills), required=False, combined=True,
                  default={p.seat: int(given.get(str(p.seat), 0)) for p in seats}),
    ))


def _name(state: GameState) -> RulingOption | str:
    return RulingOption("name", RULING_KINDS["name"], "A new player takes the seat over.", (
        _one("seat", "Seat", [(p.seat, f"{p.name} (seat {p.seat + 1})")
                              for p in state.players]),
    ), (TextArg("name", "Character name", rulings.MAX_NAME),))


_OFFERS: dict[str, Callable[[GameState], RulingOption | str]] = {
    "money": _money, "card": _card, "location": _location, "unit_add": _unit_add,
    "unit_remove": _unit_remove, "fiat": _fiat, "name": _name,
}


# --- a ruling checked against the offer, then carried out --------------------------------------

def _shown(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number_problem(arg: ArgOption, value: Any, label: str) -> Problem | None:
    low = arg.minimum if arg.minimum is not None else 0
    if not _is_int(value) or value < low or (arg.maximum is not None and value > arg.maximum):
        top = f" to {arg.maximum}" if arg.maximum is not None else " or more"
        return Problem(f"{label}: give a whole number from {low}{top}.", arg.name)
    return None


def _arg_problems(arg: ArgOption, value: Any) -> list[Problem]:
    """What is wrong with `value` for `arg`, as offered."""
    if arg.shape is Shape.ONE:
        if value is None:
            if arg.blank is None and arg.required:
                return [Problem(f"{arg.label}: choose one of the options offered.", arg.name)]
            return []
        if value not in arg.values() or isinstance(value, bool) != any(
                isinstance(v, bool) for v in arg.values()):
            return [Problem(f"{arg.label}: {_shown(value)} is not among the options offered "
                            "now.", arg.name)]
        return []
    if arg.shape is Shape.NUMBER:
        problem = _number_problem(arg, value, arg.label)
        return [problem] if problem is not None else []
    if arg.shape is Shape.TABLE:
        if value is None and not arg.required:
            return []
        if not isinstance(value, Mapping):
            return [Problem(f"{arg.label}: give a value for each row.", arg.name)]
        keys = {k.value: k.label for k in arg.keys}
        out = []
        for key, cell in value.items():
            if key not in keys or isinstance(key, bool):
                out.append(Problem(f"{arg.label}: {_shown(key)} is not among the rows offered "
                                   "now.", arg.name))
            elif cell is not None:
                problem = _number_problem(arg, cell, keys[key])
                if problem is not None:
                    out.append(problem)
        return out
    return [Problem(f"{arg.label}: this kind of argument is not offered.", arg.name)]


def narrowed_problems(option: RulingOption, values: Mapping[str, Any]) -> list[Problem]:
    """The values offered in general but not with the value of the argument they depend on
    (`ArgOption.choices_for`, `Limit`), one message each, keyed by the argument."""
    out = []
    for arg in option.args:
        value = values.get(arg.name)
        if arg.depends_on is not None and \
                value not in arg.choices_for.get(values.get(arg.depends_on), ()):
            out.append(Problem(f"{arg.label}: {_shown(value)} is not offered with that "
                               f"{arg.depends_on}.", arg.name))
    for limit in option.limits:
        most = limit.maximum_for.get(values.get(limit.depends_on), 0)
        amount = values.get(limit.arg)
        if isinstance(amount, int) and amount > most:
            label = next((a.label for a in option.args if a.name == limit.arg), limit.arg)
            out.append(Problem(f"{label}: at most {most} with that {limit.depends_on}.",
                               limit.arg))
    return out


def offer_problems(option: RulingOption, values: Mapping[str, Any]) -> list[Problem]:
    """Every argument of `values` the offer does not allow, one message each, keyed by it."""
    known = {a.name for a in option.args} | {t.name for t in option.texts}
    out = [Problem(f"The ruling {option.label.lower()!r} has no argument {name!r}.")
           for name in values if name not in known]
    for arg in option.args:
        out += _arg_problems(arg, values.get(arg.name))
    for text in option.texts:
        value = values.get(text.name)
        if value is not None and not isinstance(value, str):
            out.append(Problem(f"{text.label}: write it as text.", text.name))
        elif text.required and not (value or "").strip():
            out.append(Problem(f"{text.label}: this is required.", text.name))
    return out


_CARRY_OUT: dict[str, Callable[[GameState, Mapping[str, Any]], Ruling]] = {
    "money": lambda s, v: rulings.move_money(s, v["source"], v["target"], v["amount"]),
    "card": lambda s, v: rulings.move_card(s, v["card"], v["target"]),
    "location": lambda s, v: rulings.set_location(s, v["seat"], v.get("location")),
    "unit_add": lambda s, v: rulings.add_unit(s, v["kind"], v.get("owner"), v["zone"],
                                              v.get("armed")),
    "unit_remove": lambda s, v: rulings.remove_unit(s, v["unit"]),
    "fiat": lambda s, v: rulings.budget_by_fiat(s, {
        k: n for k, n in (v.get("allocations") or {}).items() if n}),
    "name": lambda s, v: rulings.name_character(s, v["seat"], v["name"]),
}


def rule(state: GameState, kind: str, values: Mapping[str, Any]) -> Ruling:
    """Carry out the ruling `kind` with `values` (its arguments by name) on `state`, as
    `ruling_options(state)` offers it; a `RulingError` (its `problems` keyed by argument)
    otherwise. The state ruled on is never changed."""
    offer = _OFFERS.get(kind) if isinstance(kind, str) else None
    if offer is None:
        raise RulingError(f"There is no ruling {kind!r}.")
    option = offer(state)
    if isinstance(option, str):  # not available now, and why
        raise RulingError(option)
    problems = offer_problems(option, values)
    if problems:
        raise RulingError(" ".join(problems), problems=tuple(problems))
    done = _CARRY_OUT[kind](state, values)  # refused with its own message, keyed
    narrowed = narrowed_problems(option, values)
    if narrowed:  # the ruling took what the offer leaves out: the offer is the rule
        raise RulingError(" ".join(narrowed), problems=tuple(narrowed))
    return done
