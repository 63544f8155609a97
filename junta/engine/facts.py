"""What the steps of one resolution have settled so far, read by conditional orders
(`conditions.holds`) and by the flow to the next phase. Facts live only for one resolution:
they are not part of the saved state. A slotted dataclass, so a misspelt fact name raises
AttributeError instead of silently reading as missing."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class VoteResult:
    """The outcome of a vote count: "elected" or "tied" for an election, "passes" or "fails"
    for the budget and the competence motion; the margin between the first two choices."""
    outcome: str
    margin: int
    yes: int | None = None  # the budget vote only: votes for
    no: int | None = None  # the budget vote only: votes against


@dataclass(slots=True)
class Facts:
    # --- the Locations phase (phases/locations.py) ---------------------------------------------
    # locations step: where each player not in exile spends the day (seat -> location)
    locations: dict[int, str] = field(default_factory=dict)
    # locations step and coup flights: the players who went into exile, in order
    exiled: list[int] = field(default_factory=list)
    # any time after the locations step: cards played on a condition about another player's
    # location or exile, (seat, card name); assassination orders tied to them are dropped
    informed_plays: list[tuple[int, str]] = field(default_factory=list)
    # assassinations step: Psychotic Assassins whose player rolls to die by his own hand
    psychotic: list[int] = field(default_factory=list)
    # banking steps (locations and aftermath): the players who deposited or withdrew money
    banked: list[int] = field(default_factory=list)
    # rebel-only step: somebody took Rebel action, so a coup begins after the phase
    coup: bool = False

    # --- deaths, flights and offices (context.py, phases/*.py) -------------------------------
    # Context.kill: every player who died this resolution, in order
    killed: list[int] = field(default_factory=list)
    # deaths, exiles, flights and take_office: Cabinet positions left vacant (never President)
    vacated: list[str] = field(default_factory=list)
    # Context.kill and exile in the locations step: the President died or fled (not read)
    president_died: bool = False
    # any-time trades: the trade orders settled, as a match of the partner's too (by id)
    settled_trades: set[int] = field(default_factory=set)
    # any-time resign order: the President who resigned
    resigned: int | None = None

    # --- cards (card_plays.py, phases/*.py) ----------------------------------------------------
    # every card play that took effect: (seat, card name)
    cards_played: list[tuple[int, str]] = field(default_factory=list)

    # --- votes (phases/votes.py, election.py, budget.py) --------------------------------------
    # votes.count: each voter's choice (a candidate's seat, "yes", "no" or "abstain")
    votes_cast: dict[int, int | str] = field(default_factory=dict)
    # votes.count: the Vote cards used, (owner, card id), returned to hand by a Recount
    vote_cards_used: list[tuple[int, int]] = field(default_factory=list)
    # each vote count (election, motion, budget): its outcome and margin
    vote_result: VoteResult | None = None
    # votes.annul_with_cards: the card that annulled the vote, (seat, card name)
    annulled_by: tuple[int, str] | None = None

    # --- elections (phases/election.py, aftermath.py) ------------------------------------------
    # election count: the totals per candidate (not read)
    election_totals: dict[int | str, int] = field(default_factory=dict)
    # election count or the Junta's vote in the aftermath: the winner, None while undecided
    elected: int | None = None
    # election count: the tied leaders when nobody is elected (not read)
    election_tied: list[int] = field(default_factory=list)
    # election revote: the card (Summer Recess or Recount) that annulled the election (not read)
    election_annulled: str | None = None
    # competence motion count: whether the motion to remove the President passed
    motion_passed: bool = False

    # --- Cabinet and budget (phases/cabinet.py, budget.py) -------------------------------------
    # appointment step: the Cabinet has been appointed
    appointed: bool = False
    # budget draws: positions whose bill count was drawn at random (no order) (not read)
    random_draws: list[str] = field(default_factory=list)
    # budget vote count: whether the budget passed
    budget_passed: bool = False
    # budget revote: the card (Summer Recess or Recount) that annulled the budget vote
    budget_annulled: str | None = None
    # budget revote: the seat who played Alternative Budget and will propose the next one
    alternative_budget: int | None = None

    # --- the coup (phases/coup.py, aftermath.py) -----------------------------------------------
    # rebel-only step: (seat, zone) where each of its moves ended (not read)
    rebel_moves: list[tuple[int, int]] = field(default_factory=list)
    # coup vote: "junta" or "president", the side that won the coup (not read)
    coup_result: str | None = None
    # execution step: the player sent to the firing squad (not read)
    executed: int | None = None
