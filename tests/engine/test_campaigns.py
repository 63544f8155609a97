"""Whole random campaigns: hundreds of games played by the random bots, with the invariants of
the rules checked after every phase, plus determinism and replay.

After each resolved phase the state and the change are checked against the rules' invariants,
`junta/engine/invariants.py` (the same that every GM ruling must keep): money conserved
(`bills_total()`: deck, pockets, banks, budget bills in transit, spent costs) and never
negative; hands within the limit of 6 (hand + Influence in play) at every deadline, except right
after a fresh Cabinet phase opens ("even if this puts them over the Max Hand Limit"); a legal
Cabinet whenever a Cabinet phase has resolved; each of the 88 political cards exactly once in
the deck, the discard, a hand or in play; positions held by active players (or the
Brother-in-Law, at most one, under a President); the dead keep no cards and no pocket money;
the coup's units, control and result, and the turn after it. Here besides: the phase number
advances by one, and the game ends within a bounded number of phases, with the richest bank
account winning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from junta.engine import (
    GameState,
    Order,
    PhaseKind,
    change_problems,
    digest,
    new_game,
    parse_orders,
    resolve,
    state_problems,
    validate_order,
)
from junta.engine import catalog as cat
from junta.engine.bots import play_phase
from junta.engine.rng import Rng

from .helpers import NAMES

REPO = Path(__file__).resolve().parents[2]
GAMES = 200
BATCHES = 8
# Each turn draws at least 4 bills from a deck of at most 110, so a campaign has at most 28
# turns; a turn is 5 phases plus inserted elections, motions and annulled votes. Bots finish
# in about 60-80 phases; this bound only catches a campaign that stalls.
MAX_PHASES = 400
ALL_CARDS = list(range(88))


def campaign_seed(i: int) -> tuple[str, int, str]:
    """Game seed, number of players (6 to 10) and the bots' seed of campaign `i`."""
    return f"campaign-{i}", 6 + i % 5, f"bots-{i * 7919}"


def card_ids(state: GameState) -> list[int]:
    ids = list(state.political_deck) + list(state.political_discard)
    for p in state.players:
        ids += p.hand + p.influence
    return sorted(ids)


def invariant_errors(before: GameState, after: GameState) -> list[str]:
    """Every broken invariant after resolving `before` into `after`: the rules' invariants
    (`junta.engine.invariants`, shared with the GM's rulings) and the phase number's step."""
    seen(before, after)
    errors = change_problems(before, after)
    if after.phase_number != before.phase_number + 1:
        errors.append("the phase number did not advance by one")
    return errors


SEEN: Counter = Counter()  # what the campaigns went through: coups, results


def seen(before: GameState, after: GameState) -> None:
    if after.coup is not None:
        SEEN["coup phases"] += 1
    if before.phase == PhaseKind.LOCATIONS and after.coup is not None:
        SEEN["coups"] += 1
    if before.phase == PhaseKind.COUP_FINAL and after.coup is not None:
        SEEN[f"won by {after.coup['result']}"] += 1


def with_matched_trades(state: GameState, orders: dict[int, list[Order]], rng: Rng
                        ) -> dict[int, list[Order]]:
    """The bots' orders, plus the other side of about half their trades: random bots alone
    almost never order the same trade from both sides, so trades would never happen."""
    for seat in sorted(orders):
        for order in list(orders[seat]):
            partner = order.args.get("with")
            if order.kind != "trade" or rng.below(2) or partner not in orders:
                continue
            a = order.args
            mirror = Order("trade", {"with": seat, "give_money": a.get("get_money", 0),
                                     "give_cards": list(a.get("get_cards", [])),
                                     "get_money": a.get("give_money", 0),
                                     "get_cards": list(a.get("give_cards", []))})
            if not validate_order(state, partner, mirror):
                orders[partner].append(mirror)
    return orders


def play_campaign(i: int) -> tuple[GameState, int]:
    """Play campaign `i` to its end, checking every invariant; the final state and phases."""
    seed, players, bot_seed = campaign_seed(i)
    state = new_game(seed, NAMES[:players])
    total = state.bills_total()
    assert total == sum(state.money_deck)
    assert len(state.money_deck) == cat.KNOWN_BILLS + state.extra_bills
    assert card_ids(state) == ALL_CARDS
    assert state_problems(state) == []
    rng, trades = Rng(bot_seed), Rng(f"trades-{bot_seed}")
    for number in range(MAX_PHASES):
        if state.finished:
            return state, number
        after = resolve(state, with_matched_trades(state, play_phase(state, rng), trades)).state
        errors = invariant_errors(state, after)
        assert not errors, (f"campaign {seed!r} ({players} players, bots {bot_seed!r}), phase "
                            f"{state.phase_number} ({state.phase}, turn {state.turn}): {errors}")
        state = after
    raise AssertionError(f"campaign {seed!r} did not end within {MAX_PHASES} phases "
                         f"(turn {state.turn}, phase {state.phase})")


def check_ending(state: GameState) -> None:
    assert state.finished and state.phase == "finished"
    assert len(state.money_deck) < 4
    best = max(p.bank for p in state.players)
    assert state.winners and state.winners == [p.seat for p in state.players if p.bank == best]
    with pytest.raises(ValueError):
        resolve(state, {})


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_campaigns(batch):
    per_batch = GAMES // BATCHES
    lengths = []
    for i in range(batch * per_batch, (batch + 1) * per_batch):
        final, phases = play_campaign(i)
        check_ending(final)
        assert final.turn >= 1
        lengths.append(phases)
    assert max(lengths) < MAX_PHASES


def test_the_campaigns_went_through_coups():
    """The random-bot soak test starts coups (§rebel-only): the 200 campaigns above saw coups
    won by both sides (this test runs after them, in file order)."""
    if SEEN["coups"] == 0:
        for i in range(10):
            play_campaign(i)
    assert SEEN["coups"] >= 10
    assert SEEN["won by junta"] and SEEN["won by president"]


def test_campaign_seeds_cover_every_table_size():
    assert {campaign_seed(i)[1] for i in range(GAMES)} == {6, 7, 8, 9, 10}
    assert len({campaign_seed(i)[0] for i in range(GAMES)}) == GAMES


# --- determinism ----------------------------------------------------------------------------

def trace(seed: str, players: int, bot_seed: str, json_round_trip: bool = False):
    """(digest, events) after every phase of one campaign; with `json_round_trip` the state
    passes through `json.dumps`/`from_dict` before every phase."""
    state = new_game(seed, NAMES[:players])
    rng = Rng(bot_seed)
    out = []
    while not state.finished:
        if json_round_trip:
            text = json.dumps(state.to_dict())
            copy = GameState.from_dict(json.loads(text))
            assert digest(copy) == digest(state)
            assert copy.to_dict() == json.loads(text)
            state = copy
        r = resolve(state, play_phase(state, rng))
        out.append((digest(r.state), [e.to_dict() for e in r.events]))
        state = r.state
    return out


def test_same_seed_same_campaign():
    first = trace("determinism", 8, "bots-d")
    assert first == trace("determinism", 8, "bots-d")
    assert len(first) > 10


def test_json_round_trip_does_not_change_the_campaign():
    assert trace("round-trip", 7, "bots-r", json_round_trip=True) == \
        trace("round-trip", 7, "bots-r")


def test_another_seed_another_campaign():
    assert trace("seed-a", 6, "bots")[-1][0] != trace("seed-b", 6, "bots")[-1][0]


def test_resolve_is_a_function_of_state_and_orders():
    """Same state and orders: same digest and events; the input state is left unchanged."""
    state = new_game("pure", NAMES[:9])
    rng = Rng("bots-pure")
    while not state.finished:
        before = digest(state)
        orders = play_phase(state, rng)
        a = resolve(state, orders)
        assert digest(state) == before
        b = resolve(GameState.from_dict(state.to_dict()), orders)
        assert digest(a.state) == digest(b.state)
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
        json.dumps([e.to_dict() for e in a.events])
        state = a.state


_CHILD = """
import sys
sys.path.insert(0, {repo!r})
from junta.engine import digest, new_game, resolve
from junta.engine.bots import play_phase
from junta.engine.rng import Rng
state = new_game("hash-seed", ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"])
rng = Rng("bots-h")
out = []
while not state.finished:
    state = resolve(state, play_phase(state, rng)).state
    out.append(digest(state))
print(",".join(out))
"""


def test_campaign_does_not_depend_on_the_hash_seed():
    """A campaign lasts months across processes: string hashing must not change it."""
    code = _CHILD.format(repo=str(REPO))
    results = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=120, check=True)
        results.append(done.stdout.strip())
    assert results[0] == results[1]
    assert len(results[0].split(",")) > 10


# --- replay ---------------------------------------------------------------------------------

def record(seed: str, players: int, bot_seed: str) -> list[dict]:
    """What the web app stores for each phase: the state before (as JSON), the orders (as
    JSON), and the digest and events after."""
    state = new_game(seed, NAMES[:players])
    rng = Rng(bot_seed)
    stored = []
    while not state.finished:
        orders = play_phase(state, rng)
        r = resolve(state, orders)
        stored.append({
            "state": json.dumps(state.to_dict()),
            "orders": json.dumps({str(s): [o.to_dict() for o in os_] for s, os_ in
                                  orders.items()}),
            "digest": digest(r.state),
            "events": json.dumps([e.to_dict() for e in r.events]),
        })
        state = r.state
    return stored


@pytest.mark.parametrize("players", [6, 10])
def test_replay_of_stored_phases(players):
    stored = record(f"replay-{players}", players, f"bots-replay-{players}")
    assert len(stored) > 10
    previous = None
    for row in stored:
        state = GameState.from_dict(json.loads(row["state"]))
        if previous is not None:
            assert digest(state) == previous  # each phase starts where the last one ended
        orders = {int(s): parse_orders(items) for s, items in json.loads(row["orders"]).items()}
        r = resolve(state, orders)
        assert digest(r.state) == row["digest"]
        assert json.loads(json.dumps([e.to_dict() for e in r.events])) == \
            json.loads(row["events"])
        previous = row["digest"]
