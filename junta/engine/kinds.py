"""The registry of order kinds: one object for each thing a player may order.

Each kind is one object (`order_kinds/`, a module for each phase: `anytime`, `nominations`,
`votes`, `turn`, `locations`, `coup`, `aftermath`) holding its facts (label, the phases it may be
given in, the adjudication step it acts at (`steps.py`), whether a player gives one
unconditional order of it a phase, its arguments (name, label, type), its map shape), its check,
its sentence and the players it deals with openly. Validation (`orders.py`), a seat's legal
options (`options.py`), the bots, the Status instructions, the pages, the GM panel and the API
all read this registry. Adding an order kind means one `OrderKindSpec` subclass in the
module of its phase, listed in `KINDS` below, its rule paragraph (named in its `rules`), its
`offers` (what a seat may order of it now, run in the order of `options.OFFER_STEPS`), the bots'
use of it (`bots/`, the module of its group) and the phase step that carries it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .order_kinds import aftermath, anytime, coup, locations, nominations, turn, votes
from .order_kinds.base import (
    ANY_PHASE,
    COUP_PHASES,
    OFF_MAP,
    REBEL_OR_COUP,
    VOTING_PHASES,
    Arg,
    ArgType,
    MapForm,
    MapShape,
    OrderKindSpec,
    word,
)
from .state import GameState

if TYPE_CHECKING:
    from .orders import Order

__all__ = ["ANY_PHASE", "COUP_PHASES", "KINDS", "OFF_MAP", "ORDER_KINDS", "REBEL_OR_COUP",
           "SINGLES", "VOTING_PHASES", "Arg", "ArgType", "MapForm", "MapShape", "OrderKindSpec",
           "arranged", "describe", "describe_order", "fallback_group", "takes_the_place_of",
           "word"]

KINDS: tuple[OrderKindSpec, ...] = (
    # any time (docs/rules.md §any-time)
    anytime.Pay(), anytime.GiveCard(), anytime.Trade(), anytime.PlayCard(), anytime.Discard(),
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
ORDER_KINDS: dict[str, OrderKindSpec] = {k.name: k for k in KINDS}
SINGLES = frozenset(k.name for k in KINDS if k.single)


def describe(state: GameState, kind: str, args: Mapping[str, Any]) -> str:
    """A sentence for an order without its condition ("Pay Maria 3 MP")."""
    spec = ORDER_KINDS.get(kind)
    if spec is None:
        return str(kind).replace("_", " ")
    return spec.describe(state, args)


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


def fallback_group(order: Any) -> tuple[str, str] | None:
    """The orders among which the first whose condition holds is carried out and the rest are
    not (the kinds `first_that_holds`; the draws, for one position): None for an order that
    stands beside the others of its kind."""
    spec = ORDER_KINDS.get(order.kind)
    return None if spec is None else spec.fallback_group(order)


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
