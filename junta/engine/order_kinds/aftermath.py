"""The orders of the Coup Aftermath: the Junta's vote for a President and the execution
(phases/aftermath.py carries them out; banking after lunch is `locations.Bank`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypedDict

from ..enums import PhaseKind, Status, Step
from ..order import As, Order
from ..problems import Problem
from ..state import GameState
from ..units import coup_of
from ..words import gettext_noop
from .base import OrderKindSpec, T, seat_of
from .offering import living, one

if TYPE_CHECKING:
    from .offering import Builder


class CandidateArgs(TypedDict):
    candidate: Annotated[int, As("Candidate", T.SEAT)]


class TargetArgs(TypedDict):
    target: Annotated[int, As("Player", T.SEAT)]


class JuntaVote(OrderKindSpec[CandidateArgs]):
    """"the Rebels in the country elect the next President among all living players"
    (docs/rules.md §junta; docs/rulings.md §ruling-junta)."""
    name = "junta_vote"
    label = "Vote in the Junta"
    rules = ("junta", "ruling-junta")
    step = Step.JUNTA_VOTE
    phases = frozenset({PhaseKind.AFTERMATH})
    single = True
    likely = True
    template = "Junta vote for {candidate}"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"The Junta will have one day to elect a President. Any live player may be elected by
        the Junta, including the sitting President." (docs/rules.md §junta)"""
        coup = coup_of(state)
        candidate = seat_of(state, self.of(order).get("candidate"))
        if coup.get("result") != "junta":
            return [Problem(gettext_noop(
                "The Rebels did not win the coup: there is no Junta to vote in."))]
        if not state.players[seat].rebel:
            return [Problem(gettext_noop("Only Rebels sit in the Junta."))]
        if candidate is None or not state.players[candidate].active:
            return [Problem(gettext_noop("Choose a living player in the country."), "candidate")]
        return []

    def offers(self, b: Builder, group: str = "") -> None:
        s = b.s
        if s.phase != PhaseKind.AFTERMATH or (s.coup is None or s.coup["result"] != "junta") or \
                not b.p.rebel:
            return
        first = s.first_rebel
        tie = "" if first is None else f" The First Rebel, {s.name(first)}, breaks ties." \
            if s.players[first].active else f" The First Rebel, {s.name(first)}, is not in " \
            "the country: the lot breaks ties."  # docs/rulings.md §ruling-junta
        b.add("junta_vote", "The Junta elects the President: any living player, the "
              "sitting President included." + tie, [one("candidate", "Candidate", living(s))])


class Execute(OrderKindSpec[TargetArgs]):
    """The President "may send one Rebel to the firing squad"; a Junta's new President
    "may execute anyone" (docs/rules.md §firing-squad, §junta)."""
    name = "execute"
    label = "Send a player to the firing squad"
    rules = ("firing-squad", "junta", "ruling-junta")
    step = Step.EXECUTION
    phases = frozenset({PhaseKind.AFTERMATH})
    single = True
    template = "Send {target} to the firing squad"

    def check(self, state: GameState, seat: int, order: Order) -> list[Problem]:
        """"The President may send any one Rebel player to the Firing Squad"; "A newly elected
        President may execute ANY one player." Anyone but the President orders it "should they be
        elected President" (docs/rules.md §junta, §firing-squad)."""
        coup = coup_of(state)
        target = seat_of(state, self.of(order).get("target"))
        if target is None or target == seat:
            return [Problem(gettext_noop("Choose another player to execute."), "target")]
        if state.players[target].status != Status.ALIVE:
            return [Problem(f"{state.name(target)} is {state.players[target].status}: beyond the "
                            "firing squad.", "target")]
        if coup.get("result") == "president":
            if seat != state.president:
                return [Problem(gettext_noop(
                    "The President won the coup: only he may order an execution."))]
            if not state.players[target].rebel:
                return [Problem(gettext_noop(
                    "Loyalist players are immune from execution by a sitting "
                                "President: choose a Rebel."), "target")]
        return []

    def offers(self, b: Builder, group: str = "") -> None:
        s, seat = b.s, b.seat
        if s.phase != PhaseKind.AFTERMATH:
            return
        result = s.coup["result"] if s.coup else None
        if result == "president" and seat == s.president:
            rebels = [(x.seat, x.name) for x in s.players
                      if x.status == Status.ALIVE and x.rebel and x.seat != seat]
            if rebels:
                b.add("execute", "You won the coup: you may send one Rebel to the firing "
                      "squad (Loyalists are immune). His pocket money comes to you. No order: "
                      "you benevolently execute no one.", [one("target", "Rebel", rebels)])
        elif result == "junta":
            targets = [(v, n) for v, n in living(s) if v != seat]
            b.add("execute", "Should you be elected President by the Junta, you may execute "
                  "ANY one player and take his pocket money; the order counts only if you "
                  "are elected. No order: you benevolently execute no one.",
                  [one("target", "Player", targets)])
