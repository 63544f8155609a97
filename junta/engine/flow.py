"""The phase table: which phase follows which, who owes orders, turns and the end of the game.

"Each Turn is divided into 5 Phases": Cabinet Appointment, Draw Budget / New Weapons, Budget
Proposal, Budget Voting, Locations. Before turn 1: nominations, then the election. Inserted when
needed: the Minister's decision after a failed budget, an election after a resignation or a
President's death, the vote on the President's competence, re-votes. The flow sits above the
phases (phases/), whose steps it runs between two phases (an election's winner takes office, a
coup begins); the end of the game itself is `Context.finish`, which a phase calls too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import catalog, steps
from .enums import PhaseKind, Status, Step
from .phases import budget, coup, election, locations
from .state import BIL, GameState
from .state_shapes import Election, ElectionReason
from .voting import sources
from .words import Card, Items, Position, Term, gettext_noop, words

if TYPE_CHECKING:
    from .context import Context

DAYS: dict[PhaseKind, int] = {PhaseKind.NOMINATION: 1, PhaseKind.ELECTION: 2}  # others: one day
COUP_KINDS = (PhaseKind.COUP, PhaseKind.COUP_FINAL, PhaseKind.AFTERMATH)
START_TURN = "start_turn"  # not a phase: what follows the last phase of a turn
# The phases nobody can hold with the country empty: the budget's and the Chamber's (a
# campaign whose country is empty ends before them, docs/rulings.md §ruling-empty-country).
NEEDS_A_GOVERNMENT = (PhaseKind.SPECIAL_MOTION, PhaseKind.BUDGET_DRAW,
                      PhaseKind.BUDGET_PROPOSAL, PhaseKind.BUDGET_VOTE,
                      PhaseKind.INTERNAL_SECURITY)


@dataclass(frozen=True)
class PhaseInfo:
    kind: PhaseKind
    turn: int
    number: int
    title: str
    steps: tuple[Step, ...]
    days: int


def current_phase(state: GameState) -> PhaseInfo:
    kind = PhaseKind.FINISHED if state.finished else state.phase
    days = DAYS.get(kind, 1)
    held = state.election
    if kind == PhaseKind.ELECTION and held is not None and held["round"] > 1:
        days = 1  # "ties re-voted in a further day"
    if kind == PhaseKind.ELECTION and (held is None or held["reason"] != "initial"):
        days = 1  # "A Presidential Election must then be held immediately"
    title = steps.PHASE_TITLES.get(kind, kind)
    if kind == PhaseKind.COUP and state.coup:
        title = coup_phase_title(state.coup["phase"])
    return PhaseInfo(kind, state.turn, state.phase_number, title, steps.steps(kind), days)


def coup_phase_title(number: int) -> str:
    """The title of the coup's phase `number` (the coup's state counts them): "Coup Phase 3"."""
    return f"Coup Phase {number}"


def is_finished(state: GameState) -> bool:
    return state.finished


def campaign_running(state: GameState) -> bool:
    """True once the first President is elected and turn 1 has begun."""
    return state.turn >= 1 or state.finished


def why_no_orders(state: GameState, seat: int) -> str | None:
    """Why the player at `seat` may give no orders, mark none final and send no note to the GM
    this phase, or None when he may: "A dead player cannot act until the next turn begins"
    (docs/rules.md §death). An exile still orders (he may bank, return, play a card); the
    engine's options say what."""
    player = state.players[seat]
    if player.status == Status.DEAD:
        return (f"{player.name} is dead and cannot act until the next turn begins (Rules "
                "§death): no orders, no final mark and no note to the GM until then.")
    return None


def owes_orders(state: GameState) -> list[int]:
    """Seats whose orders this phase waits for (the phase closes early when all are final).
    It may rest on secrets (who is at the Bank after lunch): only its own seat's place in it is
    shown to a player; the others see `public_owes_orders`."""
    return _owing(state, secrets=True)


def public_owes_orders(state: GameState) -> list[int]:
    """Who owes orders as everyone may know it: the seats whose owing rests on nothing secret
    (docs/rules.md §secrets: a location is private until it is revealed). After lunch the
    players at the Bank may bank, but who they are is secret, so only the President shows."""
    return _owing(state, secrets=False)


def _owing(state: GameState, secrets: bool) -> list[int]:
    if state.finished:
        return []
    kind = state.phase
    active = state.active_seats()
    if kind in (PhaseKind.NOMINATION, PhaseKind.LOCATIONS):
        return active
    if kind in (PhaseKind.ELECTION, PhaseKind.SPECIAL_MOTION, PhaseKind.BUDGET_VOTE):
        return [s for s in active if sources(state, s)]
    if kind == PhaseKind.CABINET:
        return [state.president] if state.president is not None else []
    if kind == PhaseKind.BUDGET_DRAW:
        owed = {state.commander(p) for p in (catalog.WAR, catalog.FOREIGN, catalog.FARM_LABOR)}
        return sorted(s for s in owed if s is not None)
    if kind == PhaseKind.BUDGET_PROPOSAL:
        proposer = state.budget.get("proposer", state.president)
        return [proposer] if proposer is not None else []
    if kind == PhaseKind.INTERNAL_SECURITY:
        minister = state.commander(catalog.INTERNAL_SECURITY)
        return [minister] if minister is not None else []
    if kind in COUP_KINDS[:2]:
        return coup.owes(state)
    if kind == PhaseKind.AFTERMATH:
        if state.coup is not None and state.coup["result"] == "junta":
            return active  # the Junta votes; everyone orders "if I am elected"
        bankers = [s for s in active if secrets and state.turn_flags.get("bank_after_lunch")
                   and state.players[s].location == "bank"]
        return sorted({*bankers, *([state.president] if state.president in active else [])})
    return []


# --- after a phase resolves -----------------------------------------------------------------

def advance(ctx: Context) -> None:
    """Close the phase and open the next one. A President gone (killed, exiled) is replaced by an
    election at once; one gone during a coup when the Aftermath is over (docs/rulings.md
    §ruling-president-gone, §ruling-president-fled)."""
    s = ctx.state
    phase = s.phase
    _president_gone(ctx)
    _brother_in_law(ctx)
    if s.coup is not None:
        coup.refresh_commanders(s)
    enforce_hand_limit(ctx)
    if s.finished:  # the game ended during the phase (the budget could not be drawn)
        return
    natural = _natural_next(ctx, phase)
    if s.finished:
        return
    if country_empty(s):
        _empty_country(ctx, phase, natural)
        return
    resigned = ctx.facts.resigned
    if resigned is not None and natural != PhaseKind.ELECTION:
        _call_election(ctx, "resignation", natural, resigned=resigned)
    elif s.president is None and natural not in (PhaseKind.ELECTION, PhaseKind.NOMINATION) \
            and phase not in COUP_KINDS[:2]:  # gone in a coup: elected after the Aftermath
        _call_election(ctx, "vacancy", natural)
    else:
        _enter(ctx, natural)


def _natural_next(ctx: Context, phase: PhaseKind) -> str:
    """The phase that follows `phase` (`START_TURN`: the next turn)."""
    s = ctx.state
    f = ctx.facts
    if phase == PhaseKind.NOMINATION:
        return PhaseKind.ELECTION
    if phase == PhaseKind.ELECTION:
        winner = f.elected
        if winner is None:
            s.election = _next_round(s.election)
            return PhaseKind.ELECTION
        election.take_office(ctx, winner)
        reason = s.election["reason"] if s.election else None
        resume = s.resume_phase
        s.election, s.resume_phase = None, None
        if reason == "initial":
            return START_TURN
        return resume or START_TURN
    if phase == PhaseKind.CABINET:
        return PhaseKind.SPECIAL_MOTION if s.motion else PhaseKind.BUDGET_DRAW
    if phase == PhaseKind.SPECIAL_MOTION:
        passed = f.motion_passed
        s.motion = None
        if passed:
            s.election = {"reason": "competence", "round": 1, "candidates": None}
            s.resume_phase = PhaseKind.BUDGET_DRAW
            s.positions[catalog.PRESIDENT] = s.president  # the old President serves till then
            return PhaseKind.ELECTION
        return PhaseKind.BUDGET_DRAW
    if phase == PhaseKind.BUDGET_DRAW:
        return PhaseKind.BUDGET_PROPOSAL
    if phase == PhaseKind.BUDGET_PROPOSAL:
        return PhaseKind.BUDGET_VOTE
    if phase == PhaseKind.BUDGET_VOTE:
        if f.budget_annulled:
            return PhaseKind.BUDGET_VOTE
        if f.alternative_budget is not None:
            return PhaseKind.BUDGET_PROPOSAL
        if f.budget_passed:
            return PhaseKind.LOCATIONS
        if s.commander(catalog.INTERNAL_SECURITY) is None:
            budget.seize_decision(ctx)  # nobody to decide: the budget stays defeated
            return PhaseKind.LOCATIONS
        return PhaseKind.INTERNAL_SECURITY
    if phase == PhaseKind.INTERNAL_SECURITY:
        return PhaseKind.LOCATIONS
    if phase == PhaseKind.LOCATIONS:
        if s.bank_status == "closed_for_lunch":
            locations.after_lunch(ctx, f.coup)
        if f.coup:
            coup.begin(ctx)
            return PhaseKind.COUP
        return START_TURN
    if phase == PhaseKind.COUP:
        ctx.coup["phase"] += 1
        return PhaseKind.COUP_FINAL if ctx.coup["phase"] == 6 else PhaseKind.COUP
    if phase == PhaseKind.COUP_FINAL:
        if s.bank_status == "closed_for_lunch":
            s.bank_status = "open"
            s.turn_flags["bank_after_lunch"] = True
            ctx.public("bank_reopens", words(gettext_noop(
                "The Bank reopens after lunch: those who chose the Bank may bank in the Coup "
                "Aftermath, after the execution.")))
        return PhaseKind.AFTERMATH
    if phase == PhaseKind.AFTERMATH:
        s.coup = None  # "Units created by cards and Foreign Intervention forces leave the map"
        return START_TURN
    raise ValueError(f"unknown phase {phase}")


def _next_round(held: Election | None) -> Election:
    """The election held again after a tie. (An election always stands in the Election phase:
    the nominations, a resignation, a vacancy or the competence motion called it; were it
    missing, the next round would be a vacancy's, which reads like none.)"""
    if held is None:
        return {"reason": "vacancy", "round": 2, "candidates": None}
    return {**held, "round": held["round"] + 1}


def country_empty(state: GameState) -> bool:
    """Nobody left in the country to vote, to be elected or to govern: every living player in
    exile (the others dead) and none of the exiles asking to return (docs/rulings.md
    §ruling-empty-country)."""
    return campaign_running(state) and not state.finished and not state.active_seats() \
        and not state.pending_returns


def _empty_country(ctx: Context, phase: PhaseKind, natural: str) -> None:
    """With nobody in the country no election is held (nobody votes, nobody can be elected):
    the Presidency stays vacant and the campaign goes on where the election would have resumed
    it, usually the next turn, whose dead families return; if the country is still empty when
    a budget or a vote is due, the game ends (docs/rules.md §empty-country; docs/rulings.md
    §ruling-empty-country)."""
    s = ctx.state
    due = natural == PhaseKind.ELECTION or ctx.facts.resigned is not None or \
        s.president is None and phase not in COUP_KINDS[:2]
    if natural == PhaseKind.ELECTION:
        natural = s.resume_phase or START_TURN
        s.election, s.resume_phase = None, None
    if natural in NEEDS_A_GOVERNMENT:
        ctx.finish(empty=True)
        return
    if due:
        ctx.public("no_election", words(gettext_noop(
            "Nobody is left in the country: no President can be elected and the Presidency "
            "stays vacant. An exile who asks to return comes home safely; if none does, the "
            "game ends when the next budget is due.")))
    _enter(ctx, natural)


def ends_at_this_deadline(state: GameState) -> bool:
    """True when the country is empty and the next phase is one nobody can hold: unless an
    exile asks to return in this phase, the game ends at its deadline (docs/rulings.md
    §ruling-empty-country)."""
    return country_empty(state) and state.phase in (PhaseKind.CABINET, PhaseKind.BUDGET_DRAW,
                                                    PhaseKind.BUDGET_PROPOSAL,
                                                    PhaseKind.BUDGET_VOTE,
                                                    PhaseKind.SPECIAL_MOTION)


def _call_election(ctx: Context, reason: ElectionReason, resume: str,
                   resigned: int | None = None) -> None:
    s = ctx.state
    s.election = {"reason": reason, "round": 1, "candidates": None}
    if resigned is not None:
        s.election["resigned"] = resigned
    s.resume_phase = resume
    s.phase = PhaseKind.ELECTION


def _enter(ctx: Context, kind: str) -> None:
    s = ctx.state
    if kind == START_TURN:
        start_turn(ctx)
        return
    if kind == PhaseKind.BUDGET_DRAW and len(s.money_deck) < 4:
        ctx.finish()
        return
    s.phase = PhaseKind(kind)


def start_turn(ctx: Context) -> None:
    """A new turn: "At the beginning of this phase, all dead players respawn"; "If this is the
    first Turn of the game, all players receive 4 cards... Players returning from death receive
    4 cards. All other players receive 2 cards".
    (docs/rules.md §respawn, §draw-cards; docs/rulings.md §ruling-exiles: exiles draw nothing)."""
    s = ctx.state
    if s.turn >= 1 and len(s.money_deck) < 4:
        ctx.finish()
        return
    s.turn += 1
    s.phase = PhaseKind.CABINET
    s.coup = None
    s.bank_status = "open"
    s.coup_excuse = False
    s.budget_failed = False
    s.chamber_seized = False
    s.turn_flags = {}
    s.budget = {}
    s.new_weapons = None
    ctx.public("turn", words(gettext_noop("Turn {turn} begins."), turn=s.turn), turn=s.turn)
    for p in s.players:
        p.last_location = p.location
        p.location = None
        if p.status == Status.DEAD:
            p.status = Status.ALIVE
            p.life += 1
            p.fresh = True
            ctx.public("respawn", words(gettext_noop(
                "The {seat} family returns to public life with a new character."), seat=p.name),
                seat=p.seat)
    for p in s.players:
        if p.status != Status.ALIVE:
            continue
        count = 4 if p.fresh else 2
        drawn = ctx.draw_political(p.seat, count)
        p.fresh = False
        names = Items(tuple(Card(c) for c in drawn), Term(gettext_noop("nothing")))
        ctx.tell(p.seat, "cards_drawn", words(gettext_noop("You draw {n} cards: {cards}."),
                                              n=len(drawn), cards=names),
                 cards=drawn)
    ctx.public("cards_dealt", words(gettext_noop("Every player draws political cards.")))


def _president_gone(ctx: Context) -> None:
    """With no President, the positions his Brother-in-Law held fall vacant (docs/rulings.md
    §ruling-president-gone)."""
    s = ctx.state
    if s.president is None:
        for pos in catalog.CABINET:
            if s.positions.get(pos) == BIL:
                s.positions[pos] = None


def _brother_in_law(ctx: Context) -> None:
    """"If more than one player is dead, the President may only give one of the positions to
    his Brother-in-Law, and he may choose which position to retain."
    (docs/rules.md §brother-in-law)"""
    s = ctx.state
    vacated = [p for p in ctx.facts.vacated if s.positions.get(p) is None]
    if not vacated or s.president is None:
        return
    if any(s.positions.get(p) == BIL for p in catalog.CABINET):
        return
    preferred = s.turn_flags.get("bil_preference")
    choice = preferred if preferred in vacated else \
        next(p for p in catalog.CABINET if p in vacated)
    s.positions[choice] = BIL
    ctx.public("brother_in_law", words(gettext_noop(
        "The President's Brother-in-Law takes over as {position}."), position=Position(choice)),
        position=choice)


def enforce_hand_limit(ctx: Context) -> None:
    """"No player can hold more than 6 cards at once... Influence Cards in play count";
    at a deadline the newest cards in hand are discarded until six remain (docs/rules.md
    §hand-limit, §ruling-hand-limit)."""
    s = ctx.state
    for p in s.players:
        while s.cards_held(p.seat) > catalog.HAND_LIMIT:
            if p.hand:
                cid = p.hand[-1]
                ctx.discard(p.seat, cid)
                ctx.tell(p.seat, "hand_limit", words(gettext_noop(
                    "Over the hand limit: {card} is discarded."), card=Card(cid)))
            else:
                cid = p.influence[-1]
                ctx.discard(p.seat, cid)
                ctx.public("hand_limit", words(gettext_noop(
                    "{seat} is over the hand limit and discards {card} influence."),
                    seat=p.name, card=Card(cid)))
