"""Votes as tables, as a phase's report draws them.

Every vote cast is public (docs/rules.md §secrets: "every vote cast (who, how, with how many
votes and which cards)"). The engine's "votes_cast" event carries its record: one entry per
source of votes of each voter who did not abstain ({"seat", "source" (in words), "votes",
"choice": "yes", "no" or a candidate's seat}). A report draws each as a table, its rows built
from that record, and folds in the line that says how the vote went."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from junta.engine import PUBLIC, Catalog, Event
from junta.games.wording import event_text

VOTES_CAST = "votes_cast"
# The public lines that say how a vote went, when they follow it.
VOTE_OUTCOMES = frozenset({"president", "lot", "motion_result", "budget_passed", "budget_failed",
                           "alternative_budget", "annulled", "power_failure"})
FIRST_ELECTION_SOURCE = "your family"  # the engine's words for the one vote of §first-election


@dataclass
class VoteRow:
    voter: str
    votes: int
    choice: str
    source: str


@dataclass
class VoteTable:
    caption: str
    rows: list[VoteRow]
    totals: list[tuple[str, int]]  # each choice and its votes, most votes first
    outcome: str = ""  # the line that says how the vote went, when the report has one


def _choice(choice: object, names: dict[int, str]) -> str:
    if isinstance(choice, int) and not isinstance(choice, bool):
        return names.get(choice, f"seat {choice + 1}")
    return str(choice).capitalize()


def _source(label: str) -> str:
    """Where votes come from, in words: a position, an Influence or Vote card, the family's
    one vote in the first election, an event."""
    if label == FIRST_ELECTION_SOURCE:
        return "the family's one vote"
    if label in Catalog.TITLES.values():
        return f"{label} (position)"
    if label == "Church Desecrated":
        return f"{label} (event)"
    return f"{label} (card)"


def vote_table(event: Event, names: dict[int, str], caption: str) -> VoteTable:
    """One vote's table from its event's record (never from its text)."""
    rows: list[VoteRow] = []
    totals: dict[str, int] = {}
    for entry in event.data.get("record") or []:
        choice = _choice(entry.get("choice"), names)
        votes = int(entry.get("votes") or 0)
        seat = entry.get("seat")
        rows.append(VoteRow(names.get(seat, f"seat {int(seat) + 1}") if seat is not None
                            else "?", votes, choice, _source(str(entry.get("source", "")))))
        totals[choice] = totals.get(choice, 0) + votes
    return VoteTable(caption, rows, sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))


# A report's public lines, grouped: ("lines", [text, ...]) or ("vote", VoteTable)
Block = tuple[Literal["lines"], list[str]] | tuple[Literal["vote"], VoteTable]


def public_blocks(events: list[Event], names: dict[int, str], title: str
                  ) -> list[Block]:
    """A report's public lines in order, grouped: ("lines", [text, ...]) or ("vote",
    VoteTable), each vote followed by the line that says how it went folded into its table."""
    blocks: list[Block] = []
    table: VoteTable | None = None
    lines: list[str] | None = None  # the lines block open at the end of `blocks`
    count = 0
    for event in events:
        if event.audience != PUBLIC:
            continue
        if event.kind == VOTES_CAST:
            count += 1
            table = vote_table(event, names, f"Votes cast: {title}" + (
                f", vote {count}" if count > 1 else ""))
            blocks.append(("vote", table))
            lines = None
            continue
        if table is not None and not table.outcome and event.kind in VOTE_OUTCOMES:
            table.outcome = event_text(event)
            continue
        if lines is None:
            lines = []
            blocks.append(("lines", lines))
        lines.append(event_text(event))
    return blocks
