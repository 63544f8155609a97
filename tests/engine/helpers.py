"""Builders for engine scenarios: a game in a chosen phase with a chosen cabinet and hands."""

from __future__ import annotations

from junta.engine import GameState, Order, new_game, resolve
from junta.engine import catalog as cat
from junta.engine.bots import play_phase
from junta.engine.rng import Rng

NAMES = ["Carlos", "Maria", "Bill", "Dona", "Ernesto", "Fidel", "Gloria", "Hector", "Ines",
         "Jorge"]


def game(players: int = 10, seed: str = "test") -> GameState:
    return new_game(seed, NAMES[:players])


def standard_cabinet(state: GameState) -> None:
    """Seat 0 President, seats 1-9 the nine Cabinet positions in order (10 players)."""
    state.positions[cat.PRESIDENT] = 0
    for i, pos in enumerate(cat.CABINET, start=1):
        state.positions[pos] = i if i < len(state.players) else None


def in_phase(phase: str, players: int = 10, seed: str = "test", turn: int = 1) -> GameState:
    """A running game at turn `turn`, in `phase`, with the standard cabinet and empty hands."""
    state = game(players, seed)
    state.turn = turn
    state.phase = phase
    state.election = None
    standard_cabinet(state)
    for p in state.players:
        p.fresh = False
    return state


def give(state: GameState, seat: int, name: str) -> int:
    """Move a copy of the named card from wherever it is into the seat's hand; its id."""
    for cid in cat.cards_named(name):
        for pile in (state.political_deck, state.political_discard):
            if cid in pile:
                pile.remove(cid)
                state.players[seat].hand.append(cid)
                return cid
    raise LookupError(f"no free copy of {name}")


def in_play(state: GameState, seat: int, name: str) -> int:
    cid = give(state, seat, name)
    state.players[seat].hand.remove(cid)
    state.players[seat].influence.append(cid)
    return cid


def run(state: GameState, orders: dict[int, list[Order]] | None = None, **kw):
    """Resolve one phase; returns (new state, events)."""
    r = resolve(state, orders or {}, **kw)
    return r.state, r.events


def texts(events, viewer=None) -> str:
    return "\n".join(e.text for e in events if e.visible_to(viewer))


def play_until(state: GameState, phase: str, rng_seed: str = "bots", limit: int = 200):
    rng = Rng(rng_seed)
    for _ in range(limit):
        if state.phase == phase or state.finished:
            return state
        state = resolve(state, play_phase(state, rng)).state
    raise AssertionError(f"never reached {phase}")


def campaign_states(seed: str, phases: int) -> list[GameState]:
    """The state at the start of each of the first `phases` phases of a bot campaign from the
    Cabinet phase of turn 1 (coups included for most seeds)."""
    state = in_phase("cabinet", seed=seed)
    rng = Rng(seed)
    states = []
    for _ in range(phases):
        if state.finished:
            break
        states.append(state)
        state = resolve(state, play_phase(state, rng)).state
    return states
