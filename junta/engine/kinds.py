"""The registry of order kinds: one object for each thing a player may order.

Each kind is one object (`order_kinds/`, a module for each phase: `anytime`, `transfers`,
`nominations`, `votes`, `turn`, `locations`, `coup`, `aftermath`) holding its facts (label, the
phases it may be given in, the adjudication step it acts at (`steps.py`) and its step for one
order, whether a player gives one unconditional order of it a phase, its arguments (name, label,
type), its map shape), its offers, its check, its share in what a player's whole set spends, its
sentence, the players it deals with openly, and, for a kind that acts alone (the any-time
orders), its effect and the words that tell its owner and those players why it could not be
carried out. Validation (`orders.py`, `order_sets.py`), a seat's legal options (`options.py`),
the adjudication (`resolve.py`, `anytime.py`), the bots, the Status instructions, the pages,
the map, the GM panel and the API all read this registry.

Adding an order kind that acts alone (a new card play) means one `OrderKindSpec` subclass in
the module of its phase, listed in `KINDS` below and its offers in `OFFER_STEPS`, with its rule
paragraph (named in its `rules`) and its tests; `registered` adds one for a while (a test's
kind: tests/engine/throwaway_kind.py). A kind weighed together with the others of its step (a
ballot, a move, an attack) is carried out by that step's handler (`resolve.HANDLERS`,
phases/); the bots use a kind they know (`bots/`, the module of its group).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .conditions import describe_condition
from .order import Arg, ArgType
from .order_kinds import aftermath, anytime, coup, locations, nominations, transfers, turn, votes
from .order_kinds.base import (
    OFF_MAP,
    Kind,
    MapForm,
    MapShape,
    OrderKindSpec,
    word,
)
from .state import GameState
from .steps import ANY_PHASE, COUP_PHASES, REBEL_OR_COUP, VOTING_PHASES

if TYPE_CHECKING:
    from .order import Order

__all__ = ["ANY_PHASE", "COUP_PHASES", "KINDS", "OFFER_STEPS", "OFF_MAP", "ORDER_KINDS",
           "REBEL_OR_COUP", "VOTING_PHASES", "Arg", "ArgType", "Kind", "MapForm", "MapShape",
           "OrderKindSpec",
           "arranged", "describe", "describe_order", "fallback_group", "generation",
           "offer_steps", "registered", "takes_the_place_of", "word"]

KINDS: tuple[Kind, ...] = (
    # any time (docs/rules.md §any-time)
    transfers.Pay(), transfers.GiveCard(), transfers.Trade(), anytime.PlayCard(), anytime.Discard(),
    anytime.Resign(), anytime.ReturnFromExile(), anytime.SafePassage(), anytime.BrotherInLaw(),
    # before turn 1
    nominations.Nominate(), nominations.Second(), nominations.Decline(),
    # votes
    votes.Vote(),
    # the turn
    turn.Appoint(), turn.NewWeapons(), turn.DrawBills(), turn.ProposeBudget(),
    turn.SeizeChamber(),
    locations.Location(), locations.Assassinate(), locations.Bank(), locations.RebelMove(),
    # the coup (in the Locations phase these act at the Rebel-Only step)
    coup.Airstrike(), coup.Gunboat(), coup.Intervene(), coup.Transfer(), coup.Place(),
    coup.Move(), coup.PoliceResponse(), coup.Flee(), coup.EmbassyPassage(), coup.Casualties(),
    coup.Attack(), coup.Retreat(), coup.PermitRetreat(), coup.CoupSide(),
    # the Coup Aftermath
    aftermath.JuntaVote(), aftermath.Execute(),
)
# The registry: the kinds above and any registered since (`registered`), by name.
ORDER_KINDS: dict[str, Kind] = {k.name: k for k in KINDS}

# The order in which the kinds offer their options (`options.legal_options`): the order of a
# seat's options, which the bots' random choices (and so every campaign's digest) depend on. A
# step is (kind, group): `group` names the part of a kind offered at two places (a unit card with
# the coup's orders, the other cards with the any-time orders). Each kind's `offers` says in
# which phases, for whom. A kind registered since offers its options last.
OFFER_STEPS: list[tuple[str, str]] = [
    # before turn 1, the votes, the turn (docs/rules.md §first-election, §votes, §appointment,
    # §budget-draw, §budget-proposal, §seize)
    ("nominate", ""), ("second", ""), ("decline", ""),
    ("vote", ""),
    ("appoint", ""),
    ("new_weapons", ""), ("draw_bills", ""),
    ("propose_budget", ""),
    ("seize_chamber", ""),
    # the Locations phase, and banking after lunch (§locations, §banking, §after-lunch)
    ("location", ""), ("assassinate", ""), ("bank", ""),
    # the Rebel-Only step, then the coup (§rebel-only, §coup)
    ("rebel_move", ""), ("airstrike", ""), ("gunboat", ""), ("intervene", ""), ("place", ""),
    ("move", ""), ("police_response", ""), ("casualties", ""), ("transfer", ""), ("flee", ""),
    ("embassy_passage", ""), ("attack", ""), ("retreat", ""), ("permit_retreat", ""),
    ("coup_side", ""),
    ("play_card", "units"),
    # the Coup Aftermath (§aftermath)
    ("junta_vote", ""), ("execute", ""),
    # any time (§any-time)
    ("pay", ""), ("give_card", ""), ("trade", ""), ("play_card", "hand"), ("discard", ""),
    ("resign", ""), ("brother_in_law", ""), ("safe_passage", ""),
    # an exile's one order (§exile)
    ("return_from_exile", ""),
]
_generation = [0]  # how many times the registry changed: the key of what is derived from it


def generation() -> int:
    """A number that changes whenever a kind is registered or removed: what is derived from the
    registry and kept (`options`' steps of a phase) is kept under it."""
    return _generation[0]


def offer_steps(exiled: bool) -> tuple[tuple[Kind, str], ...]:
    """The kinds in the order they offer their options, each with its group; an exile's are
    the kinds an exile may give (docs/rules.md §exile)."""
    steps = [(ORDER_KINDS[kind], group) for kind, group in OFFER_STEPS]
    return tuple((k, g) for k, g in steps if k.exiles_give == exiled)


@contextmanager
def registered(kind: Kind) -> Iterator[Kind]:
    """A kind in the registry while the block runs, offering its options after the others:
    validation, the options, the sentences, the adjudication (a kind that `acts_alone` at its
    step) and the map all read it from the registry, so that a new kind is one object (a test's
    kind, or a variant's)."""
    if kind.name in ORDER_KINDS:
        raise ValueError(f"an order kind named {kind.name!r} is registered already")
    ORDER_KINDS[kind.name] = kind
    OFFER_STEPS.append((kind.name, ""))
    _generation[0] += 1
    try:
        yield kind
    finally:
        del ORDER_KINDS[kind.name]
        OFFER_STEPS.remove((kind.name, ""))
        _generation[0] += 1


def describe(state: GameState, kind: str, args: Mapping[str, object]) -> str:
    """A sentence for an order without its condition ("Pay Maria 3 MP")."""
    spec = ORDER_KINDS.get(kind)
    if spec is None:
        return str(kind).replace("_", " ")
    return spec.describe(state, args)


def takes_the_place_of(new: Order, old: Order) -> bool:
    """Whether a new order replaces an old one rather than standing beside it: an
    unconditional order of a kind given once a phase (a location, a ballot, the Cabinet, the
    bank) replaces the unconditional one given before; a draw replaces the draw for the same
    position (each kind's `replaces`). Orders with conditions stand side by side
    (docs/rules.md §orders)."""
    if new.kind != old.kind or new.condition is not None or old.condition is not None:
        return False
    spec = ORDER_KINDS.get(new.kind)
    return spec is not None and spec.replaces(new, old)


def fallback_group(order: Order) -> tuple[str, str] | None:
    """The orders among which the first whose condition holds is carried out and the rest are
    not (the kinds `first_that_holds`; the draws, for one position): None for an order that
    stands beside the others of its kind."""
    spec = ORDER_KINDS.get(order.kind)
    return None if spec is None else spec.fallback_group(order)


def arranged(orders: list[Order]) -> list[Order]:
    """The orders with each conditional one placed before the unconditional order of its group
    (`fallback_group`) given earlier: of a group the first order whose condition holds is
    carried out, so an order with a condition after the one without could never be; before
    it, it is tried first and the one without is the fallback (docs/rules.md §conditions).
    Nothing else moves; a set already in that order comes back as it was."""
    out: list[Order] = []
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


def describe_order(state: GameState, order: Order) -> str:
    """A sentence for an order with its condition ("Pay Maria 3 MP if Bill is
    assassinated")."""
    text = describe(state, order.kind, order.args)
    if order.condition is not None:
        text += f" if {describe_condition(state, order.condition)}"
    return text
