"""The conditions an order may wait for: each kind, the step that settles it and the phases it
exists in, its sentence, whether it holds from the facts the resolution has settled so far,
and which conditions exclude each other.

Below the kinds and the validation (`orders.validate_condition`) that read it."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

from . import catalog
from .card_steps import card_step
from .enums import PhaseKind, Step
from .order import Condition
from .state import GameState
from .steps import ANY_PHASE, VOTING_PHASES

if TYPE_CHECKING:
    from .context import Context


class ConditionArgs(TypedDict, total=False):
    """What a condition names, each kind the details its sentence in `CONDITION_KINDS` shows
    (a vote result its margin too). Read typed by `details`; the JSON form is the plain dict
    (`Condition.args`), not validated here (`orders.validate_condition` refuses what is
    wrong)."""
    seat: int
    card: str  # a card's name ("card_played")
    location: str  # a location's key ("location")
    choice: int | str  # a ballot's choice: yes, no, abstain or a candidate's seat ("voted")
    result: str  # "passes" or "fails"; none: the vote ends either way ("vote_result")
    margin_at_most: int  # "vote_result": by this many votes or fewer
    position: str  # a Cabinet position's key ("appointed")


def details(condition: Condition) -> ConditionArgs:
    """A condition's details, read as its TypedDict (costs nothing, validates nothing)."""
    return cast(ConditionArgs, condition.args)


# Each kind of condition, the step at which it becomes known, and the phases it exists in.
CONDITION_KINDS: dict[str, tuple[Step, frozenset[PhaseKind], str]] = {
    "card_played": (Step.ANY_TIME, ANY_PHASE, "{seat} plays {card}"),
    "location": (Step.LOCATIONS, frozenset({PhaseKind.LOCATIONS}), "{seat} is at {location}"),
    "exiled": (Step.LOCATIONS, frozenset({PhaseKind.LOCATIONS}), "{seat} goes into exile"),
    "killed": (Step.ASSASSINATIONS, frozenset({PhaseKind.LOCATIONS}), "{seat} is assassinated"),
    "survives": (Step.ASSASSINATIONS, frozenset({PhaseKind.LOCATIONS}), "{seat} survives"),
    "banks": (Step.BANKING, frozenset({PhaseKind.LOCATIONS}), "{seat} deposits or withdraws"),
    "coup_excuse": (Step.COUP_EXCUSE, frozenset({PhaseKind.LOCATIONS}), "there is a Coup Excuse"),
    "voted": (Step.VOTE_COUNT, VOTING_PHASES, "{seat} votes {choice}"),
    "vote_result": (Step.VOTE_COUNT, VOTING_PHASES, "the vote {result}"),
    "elected": (Step.VOTE_COUNT, frozenset({PhaseKind.ELECTION, PhaseKind.AFTERMATH}),
                "{seat} is elected"),
    "appointed": (Step.APPOINTMENT, frozenset({PhaseKind.CABINET}),
                  "{seat} is appointed {position}"),
}


def condition_step(condition: Condition, phase: str | None = None) -> Step:
    """The step that settles a condition; for a card played, the step the card acts at."""
    name = details(condition).get("card")
    if condition.kind == "card_played" and isinstance(name, str) and catalog.cards_named(name):
        return card_step(catalog.card(catalog.cards_named(name)[0]), phase)
    if condition.kind == "elected" and phase == PhaseKind.AFTERMATH:
        return Step.JUNTA_VOTE
    return CONDITION_KINDS[condition.kind][0]


def describe_condition(state: GameState, condition: Condition) -> str:
    a = details(condition)
    words: dict[str, object] = dict(condition.args)
    seat = a.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(state.players):
        words["seat"] = state.name(seat)
    if "location" in a:
        words["location"] = catalog.LOCATION_NAMES.get(a["location"], a["location"])
    if "position" in a:
        words["position"] = catalog.TITLES.get(a["position"], a["position"])
    if condition.kind == "vote_result":
        result = a.get("result")
        words["result"] = ({"passes": "passes", "fails": "fails"}.get(result, "ends")
                           if isinstance(result, str) else "ends")
        if a.get("margin_at_most") is not None:
            words["result"] = f"{words['result']} by {a['margin_at_most']} votes or fewer"
    template = CONDITION_KINDS[condition.kind][2]
    try:
        return template.format(**{"seat": "", "choice": "", "location": "", "card": "",
                                  "position": "", "result": "", **words})
    except (KeyError, IndexError):
        return condition.kind


def holds(ctx: Context, c: Condition) -> bool:
    f = ctx.facts
    a = details(c)
    seat = a.get("seat")  # None for a condition about no one
    match c.kind:
        case "card_played":
            return any(p == seat and name == a.get("card")
                       for p, name in f.cards_played)
        case "location":
            return (None if seat is None else f.locations.get(seat)) == a.get("location")
        case "exiled":
            return seat in f.exiled
        case "killed":
            return seat in f.killed
        case "survives":
            return seat not in f.killed
        case "banks":
            return seat in f.banked
        case "coup_excuse":
            return bool(ctx.state.coup_excuse)
        case "voted":
            return (None if seat is None else f.votes_cast.get(seat)) == a.get("choice")
        case "vote_result":
            result = f.vote_result
            if result is None:
                return False
            wanted = a.get("result")
            if wanted and result.outcome != wanted:
                return False
            margin = a.get("margin_at_most")
            return margin is None or bool(result.margin <= margin)
        case "elected":
            return bool(f.elected == seat)
        case "appointed":
            position = a.get("position")
            return (None if position is None else ctx.state.positions.get(position)) == seat \
                and f.appointed
    return False


def branch(c: Condition | None) -> tuple[tuple[object, ...], object] | None:
    """The question a condition answers and the answer it waits for, when another answer to
    the same question rules it out: ("whereabouts", seat) is answered by one location or exile,
    ("fate", seat) by killed or survives, ("ballot", seat) by one choice, ("result",) by passes
    or fails, ("elected",) by one seat, ("appointed", position) by one seat. None for a
    condition that no other condition excludes (a card played, a deposit, a Coup Excuse, a vote
    result "either way")."""
    if c is None:
        return None
    a = details(c)
    seat = a.get("seat")
    match c.kind:
        case "location":
            return ("whereabouts", seat), a.get("location")
        case "exiled":
            return ("whereabouts", seat), "exile"
        case "killed" | "survives":
            return ("fate", seat), c.kind
        case "voted":
            return ("ballot", seat), a.get("choice")
        case "vote_result" if a.get("result"):
            return ("result",), a.get("result")
        case "elected":
            return ("elected",), seat
        case "appointed":
            return ("appointed", a.get("position")), seat
    return None


def exclusive(a: Condition | None, b: Condition | None) -> bool:
    """Whether two conditions can never both hold: the same question, different answers
    ("Bill is at the Bank" and "Bill is at Home"; "the vote passes" and "the vote fails").
    (docs/rulings.md §ruling-exclusive-conditions)."""
    first, second = branch(a), branch(b)
    return first is not None and second is not None and first[0] == second[0] \
        and first[1] != second[1]
