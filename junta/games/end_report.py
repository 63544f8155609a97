"""The end report of a finished campaign: the final ranking, each family's story over time, the
money deck's depletion and the budget votes, all computed from the stored phase results.

It exists only once the game is over, when everything is revealed (docs/rules.md §secrets:
"When the game ends, everything is revealed"): `build` refuses a campaign that is not finished,
so nothing here can leak a secret of a running one. Every result's state, events and orders are
read once, in one query (`.values()`), whatever the campaign's length; with the families'
lives (the heirs) and their players' names that is three queries in all. `tell` makes the
report of those rows and touches no database. The charts are drawn by `junta.games.charts`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from junta.engine import (
    PHASE_TITLES,
    Catalog,
    Order,
    OrderError,
    PhaseKind,
    attempt_of,
    is_assassination,
    parse_order,
    played_card,
)
from junta.games.models import Character, Game, PhaseResult, Player
from junta.games.rollbacks import undone
from junta.games.wording import stored_event_text

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
# what a Budget Vote phase's result says of the budget (docs/rules.md §budget-vote)
BUDGET_OUTCOMES = {"budget_passed": "passed", "budget_failed": "defeated",
                   "annulled": "annulled, voted again", "alternative_budget": "replaced"}


class NotFinished(Exception):
    """The campaign is not over: it has no end report (and nothing of it may be shown)."""


def ordinal(n: int) -> str:
    return ORDINALS.get(n if n < 20 else n % 10, f"{n}th") if n % 100 not in (11, 12, 13) \
        else f"{n}th"


@dataclass
class Ranked:
    """One family's place in the final ranking: by Swiss bank only, pocket money left out."""
    place: int
    label: str  # "1st", or "1st=" when tied
    seat: int
    name: str
    bank: int
    pocket: int
    status: str
    player: str = ""  # the person who held the seat at the end


class VoteLine(TypedDict):
    """A family's votes in one vote: the phase's title, what it voted for, how many votes."""
    turn: int
    phase: str
    choice: str
    votes: int


class CoupLine(TypedDict):
    turn: int
    side: str  # "junta", "president" or "abstained"
    outcome: str  # "the coup succeeded", "the coup failed", or ""


class Attempt(TypedDict):
    """An assassination attempt: who ordered it, against whom, whether the target died."""
    turn: int
    by: str
    target: str
    killed: bool


class DeathLine(TypedDict):
    turn: int
    text: str | None
    how: str | None


class BudgetLine(TypedDict):
    """A Budget Vote: its turn (and the vote's number when voted again), the votes for,
    against and abstaining, and how it ended."""
    turn: int
    label: str
    yes: int
    no: int
    abstain: int
    outcome: str


# A stored phase result as `.values()` reads it: the state, events and orders are JSON (Any
# values, as Django's JSONField gives them).
Row = dict[str, Any]


@dataclass
class Story:
    """One family's campaign, phase by phase (`turn` is the turn each line happened in)."""
    seat: int
    name: str
    player: str = ""
    place: str = ""  # "1st", "2nd=" ...
    lives: list[str] = field(default_factory=list)  # the characters, first to last
    positions: list[tuple[int, list[str]]] = field(default_factory=list)  # (turn, titles)
    bank: list[tuple[int, int]] = field(default_factory=list)  # (turn, bank at its end)
    cards: list[tuple[int, str]] = field(default_factory=list)
    votes: list[VoteLine] = field(default_factory=list)
    coups: list[CoupLine] = field(default_factory=list)
    attempts_made: list[Attempt] = field(default_factory=list)
    attempts_suffered: list[Attempt] = field(default_factory=list)
    deaths: list[DeathLine] = field(default_factory=list)

    @property
    def votes_total(self) -> int:
        return sum(v["votes"] for v in self.votes)

    @property
    def heirs(self) -> list[str]:
        return self.lives[1:]

    @property
    def final_bank(self) -> int:
        return self.bank[-1][1] if self.bank else 0

    @property
    def coups_joined(self) -> int:
        return sum(1 for c in self.coups if c["side"] == "junta")

    @property
    def ballots(self) -> list[tuple[str, int, int]]:
        """(kind of vote, ballots, votes) in the order each kind first came: the votes in
        brief."""
        out: dict[str, list[int]] = {}
        for v in self.votes:
            line = out.setdefault(v["phase"], [0, 0])
            line[0] += 1
            line[1] += v["votes"]
        return [(phase, n, votes) for phase, (n, votes) in out.items()]


@dataclass
class Report:
    game_id: int
    turns: list[int]
    ranking: list[Ranked]
    stories: list[Story]
    deck: list[tuple[int, int]]  # (turn, bills left in the money deck at its end)
    budgets: list[BudgetLine]
    extra_bills: int | None
    winners: list[str]
    presidents: list[tuple[int, str]] = field(default_factory=list)  # (turn, family) as it came
    coups: list[tuple[int, str]] = field(default_factory=list)  # (turn, "succeeded"/"failed")
    attempts: int = 0  # assassinations attempted
    fatal: int = 0  # of which the target died
    # (turn, the number of its first phase): where the replay of each turn begins
    turn_starts: list[tuple[int, int]] = field(default_factory=list)
    deaths: int = 0  # of every cause

    @property
    def budgets_passed(self) -> int:
        return sum(1 for b in self.budgets if b["outcome"] == "passed")

    @property
    def budgets_defeated(self) -> int:
        return sum(1 for b in self.budgets if b["outcome"] == "defeated")


# players: a stored state's "players" (JSON)
def ranking(players: list[dict[str, Any]]) -> list[Ranked]:
    """The families by Swiss bank, richest first; equal banks share a place ("1st=") and the
    next place skips as many as shared it (1st=, 1st=, 3rd)."""
    order = sorted(players, key=lambda p: (-int(p.get("bank") or 0), p["seat"]))
    banks = [int(p.get("bank") or 0) for p in order]
    out = []
    for i, p in enumerate(order):
        bank = banks[i]
        place = banks.index(bank) + 1
        tied = banks.count(bank) > 1
        out.append(Ranked(place, ordinal(place) + ("=" if tied else ""), p["seat"], p["name"],
                          bank, int(p.get("pocket") or 0), str(p.get("status") or "")))
    return out


def _rows(game: Game) -> list[Row]:
    """Every published result that counts, oldest first: one query."""
    rows = (PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
            .exclude(undone()).order_by("phase__number")
            .values("phase__number", "phase__turn", "phase__kind", "state_after", "events",
                    "orders_used"))
    return [dict(row) for row in rows]


# orders: a seat's stored orders (JSON)
def _readable(orders: list[dict[str, Any]] | None) -> list[Order]:
    """A seat's orders as its phase used them, each read by the engine (one it cannot read is
    left out of the stories)."""
    out = []
    for data in orders or []:
        try:
            out.append(parse_order(dict(data)))
        except (OrderError, TypeError, ValueError):
            continue
    return out


def build(game: Game) -> Report:
    """The end report of `game` (NotFinished unless it is over)."""
    if game.status != Game.Status.FINISHED:
        raise NotFinished(game.pk)
    rows = _rows(game)
    if not rows:
        raise NotFinished(game.pk)
    lives = [(seat, name) for seat, name in Character.objects.filter(
        player__game=game, player__seat__isnull=False).order_by("player__seat", "life", "id")
        .values_list("player__seat", "name") if seat is not None]
    people = {p.seat: p.user.public_name for p in game.players.filter(
        membership=Player.Membership.ACTIVE, seat__isnull=False).select_related("user")
        if p.seat is not None}
    return tell(game.pk, rows, lives, people)


def tell(game_id: int, rows: list[Row], lives: list[tuple[int, str]],
         people: dict[int, str]) -> Report:
    """The report of a finished campaign's published results, oldest first (each a dict of
    "phase__number", "phase__turn", "phase__kind", "state_after", "events", "orders_used"),
    with its families' lives as (seat, character name), first to last, and the names of the
    people who held the seats at the end. A family is named in each line by the character it
    had then (an heir's attack is his, not his father's); the ranking and the stories' titles
    by the last."""
    final = rows[-1]["state_after"]
    players = final["players"]
    names: dict[int, str] = {}  # each family's character at the row being read
    stories = {p["seat"]: Story(p["seat"], p["name"], player=people.get(p["seat"], ""))
               for p in players}
    for seat, life in lives:
        if seat in stories and life not in stories[seat].lives:
            stories[seat].lives.append(life)

    def name(seat: object) -> str:
        if isinstance(seat, int) or (isinstance(seat, str) and seat.isdigit()):
            return names.get(int(seat), f"seat {seat}")
        return str(seat)

    last_of_turn: dict[int, dict[str, Any]] = {}  # the stored state (JSON)
    held: dict[int, dict[int, list[str]]] = {}
    budgets: list[BudgetLine] = []
    presidents: list[tuple[int, str]] = []
    coups: list[tuple[int, str]] = []
    president: object = None  # the stored state's president (a seat)
    attempts = fatal = deaths = 0
    turn_starts: dict[int, int] = {}
    for row in rows:
        turn, kind, state = row["phase__turn"], row["phase__kind"], row["state_after"]
        last_of_turn[turn] = state
        turn_starts.setdefault(turn, row["phase__number"])
        names.update({p["seat"]: p["name"] for p in state["players"]})  # as then called
        now = (state.get("positions") or {}).get("president")
        if now != president and isinstance(now, int) and now >= 0:
            presidents.append((turn, name(now)))
        president = now
        if turn:
            for pos in Catalog.POSITIONS:
                holder = (state.get("positions") or {}).get(pos)
                titles = held.setdefault(holder, {}).setdefault(turn, []) \
                    if isinstance(holder, int) and holder >= 0 else None
                if titles is not None and Catalog.TITLES[pos] not in titles:
                    titles.append(Catalog.TITLES[pos])
        hands = {p["seat"]: set(p.get("hand") or []) for p in state["players"]}
        for seat_key, orders in (row["orders_used"] or {}).items():
            seat = int(seat_key)
            if seat not in stories:
                continue
            for order in _readable(orders):
                card = played_card(order)
                if card is not None and card not in hands.get(seat, set()):
                    stories[seat].cards.append((turn, Catalog.card(card).name))
                elif is_assassination(order):
                    target = attempt_of(order).get("target")
                    died = any(e.get("kind") == "death" and
                               (e.get("data") or {}).get("victim") == target
                               for e in row["events"] or [])
                    line: Attempt = {"turn": turn, "by": name(seat), "target": name(target),
                                     "killed": died}
                    attempts += 1
                    fatal += died
                    stories[seat].attempts_made.append(line)
                    if isinstance(target, int) and target in stories:
                        stories[target].attempts_suffered.append(line)
        sides: dict[int, str] = {}
        outcome = None
        tally = {"yes": 0, "no": 0, "abstain": 0}
        outcome_of_vote = ""
        for event in row["events"] or []:
            data = event.get("data") or {}
            ekind = event.get("kind")
            if ekind == "votes_cast":
                tally = dict.fromkeys(tally, 0)  # a vote run again (Power Failure) counts last
                per_seat: dict[int, VoteLine] = {}
                for record in data.get("record") or []:
                    vote = per_seat.setdefault(record["seat"], {
                        "turn": turn, "phase": PHASE_TITLES.get(kind) or kind,
                        "choice": name(record.get("choice")), "votes": 0})
                    vote["votes"] += int(record.get("votes") or 0)
                    if kind == PhaseKind.BUDGET_VOTE:
                        choice = str(record.get("choice"))
                        tally[choice if choice in tally else "abstain"] += \
                            int(record.get("votes") or 0)
                for seat, vote in per_seat.items():
                    if seat in stories:
                        stories[seat].votes.append(vote)
            elif ekind == "coup_side" and isinstance(data.get("seat"), int):
                sides[data["seat"]] = data.get("side") or "abstained"
            elif ekind == "coup_result":
                outcome = data.get("result")
                coups.append((turn, "succeeded" if outcome == "junta" else "failed"))
            elif ekind == "death":
                deaths += 1
            if ekind == "death" and data.get("victim") in stories:
                stories[data["victim"]].deaths.append({"turn": turn,
                                                       "text": stored_event_text(event),
                                                       "how": data.get("how")})
            elif ekind in BUDGET_OUTCOMES:
                outcome_of_vote = BUDGET_OUTCOMES[ekind]
        if kind == PhaseKind.BUDGET_VOTE and any(v > 0 for v in tally.values()):
            again = sum(1 for b in budgets if b["turn"] == turn)
            budgets.append({"turn": turn, "label": f"{turn}" + (f" ({again + 1})" if again
                                                                 else ""),
                            "yes": tally["yes"], "no": tally["no"],
                            "abstain": tally["abstain"],
                            "outcome": outcome_of_vote or "no decision"})
        for seat, side in sides.items():
            if seat in stories:
                stories[seat].coups.append({
                    "turn": turn, "side": side,
                    "outcome": {"junta": "the coup succeeded",
                                "president": "the coup failed"}.get(outcome or "", "")})
    turns = sorted(t for t in last_of_turn if t)
    for turn in turns:
        for p in last_of_turn[turn]["players"]:
            if p["seat"] in stories:
                stories[p["seat"]].bank.append((turn, int(p.get("bank") or 0)))
    for seat, by_turn in held.items():
        if seat in stories:
            stories[seat].positions = sorted(by_turn.items())
    ranked = ranking(players)
    for r in ranked:
        r.player = stories[r.seat].player
        stories[r.seat].place = r.label
    return Report(
        game_id=game_id, turns=turns, ranking=ranked,
        stories=[stories[r.seat] for r in ranked],
        deck=[(t, len(last_of_turn[t].get("money_deck") or [])) for t in turns],
        budgets=budgets, extra_bills=final.get("extra_bills"),
        winners=[r.name for r in ranked if r.place == 1], presidents=presidents,
        coups=coups, attempts=attempts, fatal=fatal, deaths=deaths,
        turn_starts=sorted(turn_starts.items()))
