"""Combat statistics and dice counts of the coup engine (docs/rules.md §units, §combat).

For 1, 5 and 10 armed units, with and without New Weapons, the number of hits over 100,000
seeded volleys matches the exact binomial distribution within 3 standard errors in every
bucket; likewise airstrike and gunboat.

Rules, "Combat": "For each armed unit, one die is rolled. For each unarmed unit, 1/2 die is
rolled (round down). For each Tank, Bodyguard, and Palace Guard (when in the palace) two dice
are rolled. For each 6 that is rolled, one casualty is inflicted upon the enemy. Each unit with
New Weapons inflicts one casualty for each 5 OR 6 that is rolled."

Every volley here goes through the engine's own code: `combat.roll_hits` for ground units and
`combat.bombard` for Airstrikes and the Gunboat, each drawing from the game's seeded generator
through a `Context`. For k hits out of n dice, each hitting with probability p, the expected
count over N volleys is N * C(n, k) p^k (1-p)^(n-k), computed exactly with fractions; every
bucket must lie within 3 * sqrt(N pk (1 - pk)) of it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from junta.engine import GameState, new_game
from junta.engine import catalog as cat
from junta.engine.combat import bombard, roll_hits
from junta.engine.context import Context
from junta.engine.rng import Rng
from junta.engine.units import deploy, dice, has_new_weapons, new_unit

from .helpers import NAMES, standard_cabinet

VOLLEYS = 100_000
SIX = Fraction(1, 6)  # a hit on a 6
FIVE_OR_SIX = Fraction(1, 3)  # a hit on a 5 or 6 with New Weapons
BILL, FIDEL, GLORIA = 2, 5, 6  # standard cabinet: 1st General, Admiral, Air Force Commander
BARRACKS_1, PLAZA, PALACE = 15, 5, 1


def setup(seed: str) -> tuple[GameState, Context]:
    """A 10-player game with the standard cabinet and an empty coup map. The generator starts
    at counter 0 of the seed, so the dice streams (and these fixed-seed results) do not shift
    when `new_game` draws more or fewer random numbers."""
    state = new_game(seed, NAMES)
    standard_cabinet(state)
    state.rng_counter = 0
    state.coup = {"units": [], "next_unit": 1, "phase": 1}
    return state, Context(state, {}, state.rng())


def pmf(n: int, k: int, p: Fraction) -> Fraction:
    return Fraction(math.comb(n, k)) * p**k * (1 - p) ** (n - k)


def assert_binomial(counts: list[int], n: int, p: Fraction, label: str) -> None:
    """Each bucket k = 0..n within 3 standard errors of N * C(n, k) p^k (1-p)^(n-k)."""
    assert sum(counts) == VOLLEYS
    assert sum(pmf(n, k, p) for k in range(n + 1)) == 1
    for k in range(n + 1):
        pk = pmf(n, k, p)
        expected = VOLLEYS * pk
        se = math.sqrt(VOLLEYS * pk * (1 - pk))
        assert abs(counts[k] - expected) <= 3 * se, (
            f"{label}: {counts[k]} volleys with {k} hits, expected {float(expected):.2f} "
            f"(3 SE = {3 * se:.2f}); all buckets {counts}")


# --- ground units: roll_hits ------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 5, 10])
@pytest.mark.parametrize("weapons", ["none", "assigned", "flag"])
def test_armed_units_hits_are_binomial(n: int, weapons: str) -> None:
    """Rules: "For each armed unit, one die is rolled... For each 6 that is rolled, one
    casualty is inflicted upon the enemy. Each unit with New Weapons inflicts one casualty for
    each 5 OR 6 that is rolled." So n armed Soldiers score Binomial(n, 1/6) hits, or
    Binomial(n, 1/3) with New Weapons: "New Weapons allows all ground-based, position-derived
    forces of the assignee to hit on a 5 or a 6, instead of the normal 6."

    "none": New Weapons went to another General; "assigned": to this General's position
    (`state.new_weapons`); "flag": units that carry New Weapons themselves (foreign forces
    "(With New Weapons)")."""
    state, ctx = setup(f"combat-stats-{n}-{weapons}")
    state.new_weapons = cat.GENERAL_1 if weapons == "assigned" else cat.GENERAL_2
    soldiers = [new_unit(state.coup, "Soldier", BILL, BARRACKS_1, position=cat.GENERAL_1,
                         new_weapons=weapons == "flag", phase=1) for _ in range(n)]
    armed_better = weapons != "none"
    assert all(has_new_weapons(state, u) == armed_better for u in soldiers)
    need = 5 if armed_better else 6
    counts = [0] * (n + 1)
    for _ in range(VOLLEYS):
        hits, rolls = roll_hits(ctx, soldiers, BARRACKS_1)
        assert len(rolls) == n
        assert hits == sum(1 for r in rolls if r >= need)
        counts[hits] += 1
    assert_binomial(counts, n, FIVE_OR_SIX if armed_better else SIX,
                    f"{n} Soldiers, New Weapons {weapons}")


# --- bombardment: combat.bombard --------------------------------------------------------------

@pytest.mark.parametrize(("weapon", "attacker", "position", "count"), [
    ("An Airstrike", GLORIA, cat.AIR_FORCE, 6),
    ("The Gunboat's shelling", FIDEL, cat.ADMIRAL, 3),
])
def test_bombardment_hits_are_binomial_without_new_weapons(weapon: str, attacker: int,
                                                           position: str, count: int) -> None:
    """Rules: "Airstrikes will roll 6 dice, and Gunboat shelling will roll 3 dice"; "For each
    6 that is rolled, one casualty is inflicted"; "New Weapons will not work on Airstrikes or
    Gunboat-strikes". So with New Weapons assigned to the striker's own position, hits are
    still Binomial(6, 1/6) for an Airstrike and Binomial(3, 1/6) for the Gunboat.

    Each volley calls `combat.bombard` itself on Bill's stack of count + 2 Soldiers in the
    Plaza (so every hit destroys a unit), reads the dice from the public "bombardment" event's
    `rolls`, and checks `destroyed` equals the number of 6s; the stack is restored after each
    strike."""
    state, ctx = setup(f"bombard-stats-{count}")
    state.new_weapons = position
    for _ in range(count + 2):
        new_unit(state.coup, "Soldier", BILL, PLAZA, position=cat.GENERAL_1, phase=0)
    stack = list(state.coup["units"])
    counts = [0] * (count + 1)
    for _ in range(VOLLEYS):
        state.coup["units"] = list(stack)
        ctx.events.clear()
        bombard(ctx, attacker, PLAZA, BILL, count, weapon)
        (event,) = ctx.events
        assert event.kind == "bombardment"
        rolls = event.data["rolls"]
        assert len(rolls) == count
        assert all(1 <= r <= 6 for r in rolls)
        hits = rolls.count(6)
        assert event.data["destroyed"] == hits
        assert len(state.coup["units"]) == count + 2 - hits
        counts[hits] += 1
    assert_binomial(counts, count, SIX, weapon)


# --- dice counts ------------------------------------------------------------------------------

def test_tank_rolls_two_dice() -> None:
    """Rules: "For each Tank, Bodyguard, and Palace Guard (when in the palace) two dice are
    rolled." A Tank rolls 2 dice wherever it fights."""
    state, ctx = setup("tank")
    for zone in (BARRACKS_1, PLAZA, PALACE):
        tank = new_unit(state.coup, "Tank", BILL, zone, position=cat.GENERAL_1, phase=1)
        assert dice(tank, zone) == 2
        for _ in range(50):
            hits, rolls = roll_hits(ctx, [tank], zone)
            assert len(rolls) == 2
            assert hits == rolls.count(6)


def test_palace_guard_rolls_two_dice_only_in_the_palace() -> None:
    """Rules: "For each Tank, Bodyguard, and Palace Guard (when in the palace) two dice are
    rolled." A Palace Guard rolls 2 dice in the Palace (zone 1) and 1 die anywhere else."""
    state, ctx = setup("palace-guard")
    for zone in sorted(cat.zones()):
        guard = new_unit(state.coup, "Palace Guard", 0, zone, position=cat.PRESIDENT, phase=1)
        want = 2 if zone == PALACE else 1
        assert dice(guard, zone) == want
        _, rolls = roll_hits(ctx, [guard], zone)
        assert len(rolls) == want, cat.zones()[zone].name
    guards = state.coup["units"][:4]
    _, rolls = roll_hits(ctx, guards, PALACE)
    assert len(rolls) == 8
    _, rolls = roll_hits(ctx, guards, PLAZA)
    assert len(rolls) == 4


@pytest.mark.parametrize("kind", ["Mob", "Rioter", "Striker", "Labor Rioter"])
def test_unarmed_units_roll_half_a_die_each_rounded_down(kind: str) -> None:
    """Rules: "For each unarmed unit, 1/2 die is rolled (round down)"; §units: "unarmed
    units ... roll half a die each, rounded down for the group" (n units roll n // 2 dice).
    Unarmed units hit on a 6 only."""
    state, ctx = setup(f"unarmed-{kind}")
    for n in range(12):
        state.coup["units"] = []
        mob = [new_unit(state.coup, kind, BILL, PLAZA, phase=1) for _ in range(n)]
        assert not any(u["armed"] for u in mob)
        for _ in range(20):
            hits, rolls = roll_hits(ctx, mob, PLAZA)
            assert len(rolls) == n // 2, f"{n} {kind} units"
            assert hits == rolls.count(6)
    # Alongside armed units the unarmed still pool their half dice: 3 Mob + 1 Soldier = 2 dice.
    group = [new_unit(state.coup, kind, BILL, PLAZA, phase=1) for _ in range(3)]
    group.append(new_unit(state.coup, "Soldier", BILL, PLAZA, position=cat.GENERAL_1))
    _, rolls = roll_hits(ctx, group, PLAZA)
    assert len(rolls) == 2


def test_bodyguard_always_has_new_weapons() -> None:
    """Rules, Minister of War: "Controls the Bodyguard, who always rolls 2 dice in combat, and
    always has New Weapons." Whoever holds New Weapons (nobody, or a General), the deployed
    Bodyguard rolls 2 dice and hits on a 5 or 6."""
    saw_five = False
    for holder in (None, cat.GENERAL_1, cat.ADMIRAL, cat.AIR_FORCE):
        state, ctx = setup(f"bodyguard-{holder}")
        state.coup = deploy(state)
        state.new_weapons = holder
        (guard,) = [u for u in state.coup["units"] if u["kind"] == "Bodyguard"]
        assert guard["owner"] == state.positions[cat.WAR]
        assert has_new_weapons(state, guard)
        for zone in (guard["zone"], PALACE, PLAZA):
            assert dice(guard, zone) == 2
        for _ in range(300):
            hits, rolls = roll_hits(ctx, [guard], guard["zone"])
            assert len(rolls) == 2
            assert hits == sum(1 for r in rolls if r >= 5)
            saw_five = saw_five or 5 in rolls
    assert saw_five  # the 5s really were counted as hits


def test_new_weapons_skip_forces_not_derived_from_the_position() -> None:
    """Rules: "New Weapons will also not extend to forces under the control of the assignee
    that are not derived from his position. Thus, a General with 5 Soldiers, a Tank, and 32
    rioters, who is given New Weapons will then have 5 Soldiers and a Tank with New Weapons,
    and 32 rioters without."

    Bill (1st General) has his deployed brigade and 32 Rioters (as a card puts them: no
    position). The whole stack fires together: 5 + 2 dice hit on 5-6, the rioters' 16 dice
    on 6 only. The hits are checked against an independent mirror of the rolling, drawn from
    a copy of the same generator state: armed units' dice first (one each, two for the Tank),
    then floor(32/2) dice for the rioters (§new-weapons, §ruling-new-weapons-stay)."""
    state, ctx = setup("new-weapons-example")
    state.coup = deploy(state)
    state.new_weapons = cat.GENERAL_1
    brigade = [u for u in state.coup["units"] if u["position"] == cat.GENERAL_1]
    assert sorted(u["kind"] for u in brigade) == ["Soldier"] * 5 + ["Tank"]
    assert all(u["owner"] == BILL and u["zone"] == BARRACKS_1 for u in brigade)
    rioters = [new_unit(state.coup, "Rioter", BILL, BARRACKS_1, temporary=True, phase=1)
               for _ in range(32)]
    assert all(has_new_weapons(state, u) for u in brigade)
    assert not any(has_new_weapons(state, u) for u in rioters)
    stack = rioters[:16] + brigade + rioters[16:]  # order of the list does not matter
    rioter_fives = 0
    for _ in range(500):
        mirror = Rng(ctx.rng.seed, ctx.rng.counter)
        armed = [mirror.die() for _ in range(5 + 2)]
        unarmed = [mirror.die() for _ in range(16)]
        hits, rolls = roll_hits(ctx, stack, BARRACKS_1)
        assert rolls == armed + unarmed
        assert hits == sum(1 for r in armed if r >= 5) + unarmed.count(6)
        assert ctx.rng.counter == mirror.counter
        rioter_fives += unarmed.count(5)
    assert rioter_fives > 0  # rioters did roll 5s, and they were not counted


def test_position_ground_forces_share_new_weapons() -> None:
    """Rules: "New Weapons will not work on Airstrikes or Gunboat-strikes, but will work on
    Marines, Paratroopers, Soldiers, and Tanks." The Admiral's Marine and the Air Force
    Commander's Paratrooper have New Weapons when their position holds them, and not
    otherwise."""
    state, _ = setup("position-forces")
    state.coup = deploy(state)
    for position, kind in ((cat.ADMIRAL, "Marine"), (cat.AIR_FORCE, "Paratrooper"),
                           (cat.GENERAL_1, "Soldier"), (cat.GENERAL_1, "Tank")):
        unit = next(u for u in state.coup["units"]
                    if u["kind"] == kind and u["position"] == position)
        state.new_weapons = position
        assert has_new_weapons(state, unit), kind
        state.new_weapons = cat.GENERAL_3
        assert not has_new_weapons(state, unit), kind
