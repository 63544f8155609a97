"""Votes in the Chamber of Deputies: who has how many, ballots, counting.

"Farm & Labor Secretary: Entitled to 5 votes"; every other position 1; Influence cards in play
with their combinations; one-shot Vote cards "only when named in the order". "Influence Card
votes and multiple positions may cast votes contrary to the vote of the primary position": a
ballot gives one choice and may split any source off. The first election gives each player
exactly one vote (docs/rules.md §first-election); later ones count Chamber votes (§votes).
Below the ballot's order kind (order_kinds/votes.py) and the counts (phases/).
"""

from __future__ import annotations

from typing import Annotated, NotRequired, TypedDict, cast

from . import catalog
from .enums import PhaseKind
from .order import ArgType, As, Order
from .problems import Problem
from .state import GameState
from .words import gettext_noop

ABSTAIN = "abstain"


class BallotArgs(TypedDict):
    """A ballot (order_kinds/votes.py's `Vote`): yes, no or abstain, or a candidate's seat; the
    Vote cards played with it; the sources of votes split off, each with its own choice (a
    Vote card's as "card:<number>")."""
    choice: Annotated[int | str, As("Your vote", ArgType.BALLOT)]
    cards: NotRequired[Annotated[list[int], As("Vote cards to play", ArgType.CARDS)]]
    split: NotRequired[Annotated[dict[str, int | str], As("Split your votes", ArgType.TABLE)]]


def ballot_of(order: Order) -> BallotArgs:
    """A ballot's arguments (not validated: `check_ballot` says what is wrong with them)."""
    return cast(BallotArgs, order.args)


def influence_votes(state: GameState, seat: int, card_id: int) -> int:
    """Votes of one Influence card in front of `seat`, with its combination bonus."""
    owner = state.players[seat]
    return _combined_votes(state, seat, card_id, {catalog.card(i).name for i in owner.influence})


def _combined_votes(state: GameState, seat: int, card_id: int, names: set[str]) -> int:
    """`influence_votes`, given the names of the Influence cards in front of `seat`."""
    c = catalog.card(card_id)
    if c.name == "Christian Democrats" and "Church" in names:
        return c.bonus_votes or c.votes
    if c.name == "Socialists" and ("Labor Unions" in names or "Peasants" in names
                                   or catalog.FARM_LABOR in state.commanded_positions(seat)):
        return c.bonus_votes or c.votes
    if c.name == "University" and "Students" in names:
        return c.bonus_votes or c.votes
    return c.votes


def reform_controller(state: GameState) -> int | None:
    return state.turn_flags.get("demand_for_reform")


def sources(state: GameState, seat: int) -> dict[str, int]:
    """Every source of votes this player may cast now, except one-shot Vote cards."""
    p = state.players[seat]
    if not p.active:
        return {}
    if state.phase == PhaseKind.ELECTION and state.election is not None \
            and state.election["reason"] == "initial":
        return {"family": 1}
    out: dict[str, int] = {}
    for pos in state.commanded_positions(seat):
        out[f"position:{pos}"] = catalog.POSITION_VOTES[pos]
    reformer = reform_controller(state)
    for other in state.players:
        # another player's cards come to this one only through the Demand for Reform
        if not other.influence or (other.seat != seat and reformer != seat):
            continue
        names = {catalog.card(i).name for i in other.influence}
        for cid in other.influence:
            votes = _combined_votes(state, other.seat, cid, names)
            controlled = reformer is not None and reformer != other.seat and votes <= 5
            holder = reformer if controlled else other.seat
            if holder == seat:
                out[f"influence:{cid}"] = votes
    if seat in state.turn_flags.get("church_desecrated", []):
        out["event:church_desecrated"] = 5
    return out


def vote_card_value(state: GameState, seat: int, card_id: int) -> int:
    """What a Vote card adds to a ballot that names it, doubled by Electoral Fraud (docs/rules.md
    §vote-cards)."""
    c = catalog.card(card_id)
    fraud = any(catalog.card(i).name == "Electoral Fraud" for i in state.players[seat].influence)
    return c.votes * (2 if fraud else 1)


def _choice_ok(state: GameState, choice: int | str | None) -> bool:
    if state.phase == PhaseKind.ELECTION:
        if choice == ABSTAIN:
            return True
        candidates = (state.election and state.election["candidates"]) or state.active_seats()
        return isinstance(choice, int) and not isinstance(choice, bool) and choice in candidates
    return choice in ("yes", "no", ABSTAIN)


def check_ballot(state: GameState, seat: int, order: Order) -> list[Problem]:
    """Why this ballot cannot be cast: about its "choice", its Vote "cards" or its
    "split"; having no votes at all is about the voter, not the ballot (None).
    (docs/rules.md §votes, §vote-cards)."""
    errors = []
    a = ballot_of(order)
    choice = a.get("choice")
    if not _choice_ok(state, choice):
        if state.phase == PhaseKind.ELECTION:
            errors.append(Problem(gettext_noop(
                "Vote for one of the candidates, or abstain."), "choice"))
        else:
            errors.append(Problem(gettext_noop("Vote yes, no or abstain."), "choice"))
    own = sources(state, seat)
    if not own:
        errors.append(Problem(gettext_noop("You have no votes in this vote.")))
    cards = a.get("cards") or []
    if not isinstance(cards, list):
        return errors + [Problem(gettext_noop("Name the Vote cards to play as a list."), "cards")]
    initial = state.election is not None and state.election["reason"] == "initial" \
        and state.phase == PhaseKind.ELECTION
    hand = state.players[seat].hand
    for cid in cards:
        if cid not in hand:
            errors.append(Problem(gettext_noop(
                "A Vote card you named is not in your hand."), "cards"))
        elif catalog.card(cid).category != "vote":
            errors.append(Problem(f"{catalog.card(cid).name} is not a Vote card.", "cards"))
    if cards and initial:
        errors.append(Problem(gettext_noop(
            "In the first election every player has exactly one vote: no "
                              "cards."), "cards"))
    if cards and seat in state.turn_flags.get("press_scandal", []):
        errors.append(Problem(gettext_noop(
            "A Press Scandal bars you from voting with Vote cards this turn."),
                              "cards"))
    if len(set(cards)) != len(cards):
        errors.append(Problem(gettext_noop("Name each Vote card once."), "cards"))
    split = a.get("split") or {}
    if not isinstance(split, dict):
        return errors + [Problem(gettext_noop(
            "A split gives a choice for each source of votes."), "split")]
    for source, sub in split.items():
        if source not in own and not (source.startswith("card:") and
                                      source[5:].isdigit() and int(source[5:]) in cards):
            errors.append(Problem(f"You cannot cast the votes of {source_label(source)}.",
                                  "split"))
        if not _choice_ok(state, sub):
            errors.append(Problem(f"The split choice for {source_label(source)} is not "
                                  "allowed.", "split"))
    if state.phase == PhaseKind.SPECIAL_MOTION and state.motion is not None \
            and state.motion["president"] == seat:
        pass  # the President may vote on his own competence
    return errors


def source_label(source: str) -> str:
    kind, _, rest = source.partition(":")
    if kind == "position":
        return catalog.TITLES.get(rest, rest)
    if kind in ("influence", "card") and rest.isdigit():
        return catalog.card(int(rest)).name
    if kind == "event":
        return "Church Desecrated"
    return gettext_noop("your family")


class VoteRecord(TypedDict):
    """One source's votes in the public record of a count."""
    seat: int
    source: str  # its words: "the President", "Church Desecrated", "your family"...
    votes: int
    choice: int | str  # a candidate's seat, or "yes", "no"


def tally(state: GameState, ballots: dict[int, Order], count_cards: bool = True
          ) -> tuple[dict[int | str, int], list[VoteRecord], list[tuple[int, int]]]:
    """Count the ballots. Returns the totals per choice (a candidate's seat, "yes", "no"), the
    public record of every vote and the Vote cards used (owner, card) so the caller can discard
    or return them."""
    totals: dict[int | str, int] = {}
    record: list[VoteRecord] = []
    used: list[tuple[int, int]] = []
    for seat in sorted(ballots):
        order = ballots[seat]
        a = ballot_of(order)
        choice = a.get("choice", ABSTAIN)
        split = a.get("split") or {}
        parts = []
        for source, votes in sources(state, seat).items():
            sub = split.get(source, choice)
            parts.append((source, votes, sub))
        for cid in a.get("cards") or []:
            if cid not in state.players[seat].hand:
                continue
            used.append((seat, cid))
            if count_cards:
                sub = split.get(f"card:{cid}", choice)
                parts.append((f"card:{cid}", vote_card_value(state, seat, cid), sub))
        for source, votes, sub in parts:
            if sub == ABSTAIN:
                continue
            totals[sub] = totals.get(sub, 0) + votes
            record.append({"seat": seat, "source": source_label(source), "votes": votes,
                           "choice": sub})
    return totals, record, used
