"""The coup, phase by phase: the Rebel-Only step, Foreign Intervention, the Police Response,
Coup Phases 1-6 (incoming fire, movement, combat), the vote and control of the city, and the
Aftermath. Each test quotes the rule it checks: docs/rules.md (§rebel-only, §coup and its
paragraphs, §aftermath), docs/rulings.md (the `§ruling-` paragraphs of §rulings-coup), the
published game's own words that those paragraphs restate ("Rules") or the card texts
("Card").

Standard cabinet (helpers.standard_cabinet): Carlos President, Maria Internal Security, Bill,
Dona and Ernesto the 1st, 2nd and 3rd Brigades, Fidel Admiral, Gloria Air Force, Hector War,
Ines Foreign Minister, Jorge Farm & Labor.
"""

from __future__ import annotations

from junta.engine import Condition, Order, legal_options, validate_order
from junta.engine import catalog as cat
from junta.engine.combat import battles
from junta.engine.context import Context
from junta.engine.orders import validate_orders
from junta.engine.phases.coup import begin
from junta.engine.state import BIL
from junta.engine.units import FOREIGN_TABLE, new_unit, stack_moves

from .coup_states import aftermath_state, coup_state, final_state, units
from .helpers import give, in_phase, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def at(place: str) -> Order:
    return o("location", place=place)


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


class Dice:
    """A die that rolls what the test says, for combat checked roll by roll."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)
        self.used = 0

    def die(self) -> int:
        self.used += 1
        return self.rolls.pop(0)

    def below(self, n: int) -> int:
        return 0


def battle_state(phase_no: int = 2):
    """A coup in progress with an empty map, for battles set up unit by unit."""
    state, _ = coup_state()
    state.coup["units"] = []
    state.coup["phase"] = phase_no
    return state


def put(state, kind: str, owner, zone: int, *, entered: int = -1, position=None,
        from_zone=None) -> dict:
    u = new_unit(state.coup, kind, owner, zone, position=position, phase=entered)
    u["from_zone"] = from_zone if from_zone is not None else zone
    return u


def fight(state, rolls: list[int], attacks=None, permissions=None, retreat_to=None):
    dice = Dice(rolls)
    ctx = Context(state, {}, dice)
    battles(ctx, state.coup["phase"], attacks or {}, permissions or {}, retreat_to or {})
    return ctx.events, dice


# --- the Rebel-Only step --------------------------------------------------------------------

def test_rebel_action_puts_every_position_s_units_on_the_map():
    """Rules: "Controls 4 Palace Guards"; "Controls 4 Policemen, who are stationed in 4
    Precincts"; "Controls 5 Soldiers and 1 Tank, stationed at the 1st Army Brigade Barracks";
    "The starting location of the Bodyguard is dependent on the location chosen by the Minister
    of War: Bank (8-Bank)"; §units: "every position's units stand at their starting zones";
    §farm-labor: "controls a Labor Rioter" (unarmed, in zone 22).
    (§president, §generals, §admiral, §air-force, §war)."""
    state, events = coup_state()
    assert len(units(state, CARLOS, 1, "Palace Guard")) == 4
    assert sorted(u["zone"] for u in units(state, MARIA, kind="Police")) == [10, 11, 12, 14]
    assert len(units(state, BILL, 15, "Soldier")) == 5 and units(state, BILL, 15, "Tank")
    assert len(units(state, DONA, 16)) == 6
    assert len(units(state, ERNESTO, 24)) == 6 and not units(state, ERNESTO, 17)
    assert units(state, HECTOR, 8, "Bodyguard")  # the Minister of War went to the Bank
    assert units(state, JORGE, 22, "Labor Rioter")[0]["armed"] is False
    waiting = {u["kind"] for u in state.coup["units"] if u["zone"] is None}
    assert waiting == {"Marine", "Paratrooper"}
    assert "Ernesto takes Rebel action" in texts(events)


def test_after_a_forced_budget_the_police_start_in_the_chamber():
    """§internal-security: "Controls 4 Police, one in each precinct (all in the Chamber after
    a forced budget)"."""
    state, _ = coup_state(chamber_seized=True, coup_excuse=True)
    assert len(units(state, MARIA, 2, "Police")) == 4


def test_a_unit_card_in_the_rebel_only_step_is_rebel_action_with_its_own_excuse():
    """Rules: "A Coup Excuse can be provided by: A card that grants a Coup Excuse"; "Any
    player taking military action in this phase immediately becomes a REBEL"; card
    "Demonstrators: Coup Excuse; deploy Demonstrators (Mob). 2 Mob in zone 5".
    (§ruling-unit-cards, §ruling-rebel-action)."""
    state = in_phase("locations")
    card = give(state, DONA, "Demonstrators")
    after, events = run(state, {DONA: [at("club"), o("play_card", card=card)]})
    assert after.coup_excuse and after.players[DONA].rebel and after.first_rebel == DONA
    assert len(units(after, DONA, 5, "Mob")) == 2
    assert after.coup["agitator_zones"] == [5]
    assert card in after.political_discard


def test_the_president_cannot_play_a_unit_card_in_the_rebel_only_step():
    """Rules: "The President therefore, cannot take action in this phase"."""
    state = in_phase("locations")
    card = give(state, CARLOS, "Demonstrators")
    assert validate_order(state, CARLOS, o("play_card", card=card)) == [
        "The President cannot take Rebel action."]


def test_a_bombardment_starts_a_coup():
    """Rules: "Players wishing to initiate a Coup must order a movement of troops, or a
    bombardment of some kind during this phase"."""
    state = in_phase("locations")
    state.coup_excuse = True
    after, events = run(state, {GLORIA: [o("airstrike", zone=1, target=CARLOS)]})
    assert after.players[GLORIA].rebel and after.phase == "coup"
    strike = of_kind(events, "bombardment")[0]
    assert len(strike.data["rolls"]) == 6 and strike.data["zone"] == 1
    assert after.coup["airstrikes_used"] == 1


def test_no_combat_in_the_rebel_only_step():
    """§ruling-rebel-action: "There is no combat in the Rebel-Only step: units that meet fight
    in Coup Phase 1"."""
    state = in_phase("locations")
    state.coup_excuse = True
    after, events = run(state, {BILL: [o("rebel_move", from_zone=15, to_zone=13)]})
    assert not of_kind(events, "combat")
    assert len(units(after, BILL, 13)) == 6


# --- Foreign Intervention -------------------------------------------------------------------

def test_the_foreign_intervention_die_follows_the_rules_table():
    """Rules: "Roll of 1-2 results in: No Foreign Intervention Forces available; Roll of 3
    results in: 1...; 4: 2...; 5: 3...; Roll of 6 results in: 4 Foreign Intervention Forces
    available" (§foreign-intervention)."""
    assert FOREIGN_TABLE == {1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4}
    state, events = coup_state()
    roll = state.coup["foreign"]["roll"]
    assert 1 <= roll <= 6 and state.coup["foreign"]["allowed"] == FOREIGN_TABLE[roll]
    announced = of_kind(events, "foreign_intervention")[0]
    assert announced.audience == "public" and announced.data["roll"] == roll
    for seed in range(30):  # every face comes up over a few coups
        ctx = Context(state.copy(), {}, state.copy().rng())
        ctx.rng.counter = seed
        begin(ctx)
        assert ctx.state.coup["foreign"]["allowed"] == FOREIGN_TABLE[
            ctx.state.coup["foreign"]["roll"]]


def test_the_foreign_minister_chooses_each_force_once_and_all_four_on_a_six():
    """Rules: "The Foreign Minister may choose each of the following Forces once, and once
    only during any coup. Thus, if he is given 4 Intervention Forces, he must choose each of
    these: Air Strikes (4), Helicopter (1) (With New Weapons), Paratroopers (1) (With New
    Weapons), Commandos(Marines) (3) (With New Weapons)".
    (§foreign-intervention, §ruling-foreign-intervention)."""
    state, _ = coup_state()
    state.coup["foreign"].update({"roll": 4, "allowed": 2})
    assert validate_order(state, INES, o("intervene", forces=["helicopter", "commandos",
                                                              "airstrikes"])) == [
        "The die allows 2 Foreign Intervention forces; you may choose 2 more."]
    assert validate_order(state, BILL, o("intervene", forces=["helicopter"])) == [
        "Only the Foreign Minister calls in Foreign Intervention forces."]
    state.coup["foreign"].update({"roll": 6, "allowed": 4})
    after, _ = run(state, {INES: [o("intervene", forces=["airstrikes", "helicopter",
                                                          "paratroopers", "commandos"])]})
    foreign = after.coup["foreign"]
    assert sorted(foreign["chosen"]) == ["airstrikes", "commandos", "helicopter",
                                         "paratroopers"]
    mine = units(after, INES)
    assert sorted(u["kind"] for u in mine) == ["Commando"] * 3 + ["Foreign Paratrooper",
                                                                  "Helicopter"]
    assert all(u["new_weapons"] and u["zone"] is None for u in mine)
    assert validate_order(after, INES, o("intervene", forces=["helicopter"])) == [
        "You have already called in the helicopter.",
        "The die allows 4 Foreign Intervention forces; you may choose 0 more."]
    assert validate_order(after, INES, o("place", unit="Commando", zone=1)) == [
        "Commandos land in a river zone; Presidential Palace is not on the river."]
    placed, _ = run(after, {INES: [o("place", unit="Commando", zone=4),
                                   o("airstrike", source="foreign", zone=24,
                                     target=ERNESTO)]})
    assert len(units(placed, INES, 4, "Commando")) == 3
    assert placed.coup["foreign"]["airstrikes_used"] == 1


# --- the Police Response --------------------------------------------------------------------

def test_the_police_respond_to_agitators_in_coup_phase_1_without_using_the_move():
    """Rules: "If during the Rebel-Only move, any Mob, Striker, or Rioter units are deployed,
    the Minister of Internal Security may respond in the First Coup Phase by moving any or all
    Police units to an area in which these units were deployed. This movement does not count
    as the Minister's move for the First Coup Phase" (§police-response)."""
    state = in_phase("locations")
    card = give(state, DONA, "Demonstrators")
    state, _ = run(state, {DONA: [o("play_card", card=card)]})
    assert validate_order(state, MARIA, o("police_response", zone=9)) == [
        "The Police may respond only where Mob, Striker or Rioter units were deployed in the "
        "Rebel-Only phase."]
    police = [u["id"] for u in units(state, MARIA, kind="Police") if u["zone"] != 14]
    after, events = run(state, {MARIA: [o("police_response", zone=5, units=police),
                                        o("move", from_zone=14, to_zone=13)]})
    moves = [e.text for e in of_kind(events, "move") if e.data["seat"] == MARIA]
    assert moves == ["Maria's 3 Police rush to Plaza de Armas in the Police Response.",
                     "Maria's 1 Police moves from Police Precinct West to University City."]
    assert validate_order(after, MARIA, o("police_response", zone=5)) == [
        "The Police Response is made in the first Coup Phase only."]


# --- movement -------------------------------------------------------------------------------

def test_stack_moves_per_position():
    """Rules: "Each player may move one stack... The Minister of War may move two stacks per
    coup phase, and any player with more than one position may move one stack (or two if one
    position is the Minister of War) per position per coup phase. The President may move two
    stacks per phase, should his Brother-in-Law be in control of a position"."""
    state, _ = coup_state()
    assert stack_moves(state, ERNESTO) == 1 and stack_moves(state, HECTOR) == 2
    assert stack_moves(state, CARLOS) == 1
    state.positions[cat.FOREIGN] = BIL
    assert stack_moves(state, CARLOS) == 2
    state.positions[cat.FOREIGN] = FIDEL
    assert stack_moves(state, FIDEL) == 2
    state.positions[cat.FOREIGN] = INES
    state.positions[cat.WAR] = FIDEL
    assert stack_moves(state, FIDEL) == 3
    moves = [o("move", from_zone=24, to_zone=18), o("move", from_zone=24, to_zone=10)]
    assert validate_orders(state, ERNESTO, moves) == [
        "You may move 1 stack a phase; you ordered 2."]


def test_a_stack_moves_one_zone_and_swapping_stacks_pass_each_other():
    """§movement: "every player moves one stack (any of his units in one zone) to an adjacent
    zone"; "Moves are simultaneous: stacks that swap zones pass each other without
    fighting"."""
    state, _ = coup_state()
    assert validate_order(state, ERNESTO, o("move", from_zone=24, to_zone=1)) == [
        "Presidential Palace is not next to North Suburb."]
    for u in units(state, MARIA, 10):
        u["zone"] = 24
    for u in units(state, ERNESTO, 24):
        u["zone"] = 10
    after, events = run(state, {ERNESTO: [o("move", from_zone=10, to_zone=24)],
                                MARIA: [o("move", from_zone=24, to_zone=10)]})
    assert len(units(after, ERNESTO, 24)) == 6 and len(units(after, MARIA, 10)) == 1
    assert not of_kind(events, "combat")


def test_incoming_fire_comes_before_movement():
    """Rules: "Coup Phases 1-5: 1. Incoming Fire (Airstrikes, Gunboat shelling) is
    adjudicated 2. All troop movement is adjudicated 3. All inter-troop combat is
    adjudicated" (§incoming-fire, §ruling-coup-adjudication)."""
    state, _ = coup_state()
    after, events = run(state, {GLORIA: [o("airstrike", zone=24, target=ERNESTO)],
                                ERNESTO: [o("move", from_zone=24, to_zone=18)]})
    kinds = [e.kind for e in events]
    assert kinds.index("bombardment") < kinds.index("move")
    strike = of_kind(events, "bombardment")[0]
    assert strike.data["zone"] == 24  # the brigade was still there when the bombs fell
    assert len(units(after, ERNESTO, 18)) == 6 - strike.data["destroyed"]


def test_one_airstrike_a_phase_three_in_all_and_the_gunboat_rolls_three_dice():
    """Rules: "Controls 3 Airstrikes... Only one Airstrike may be used per Coup Phase";
    "Airstrikes will roll 6 dice, and Gunboat shelling will roll 3 dice"; the Gunboat shells
    "once per Coup Phase" (§air-force, §admiral)."""
    state, _ = coup_state()
    two = [o("airstrike", zone=24, target=ERNESTO), o("airstrike", zone=24, target=ERNESTO)]
    assert validate_orders(state, GLORIA, two) == [
        "Only one Airstrike may be used per Coup Phase: give one airstrike order for each "
        "source."]
    state.coup["airstrikes_used"] = 3
    assert validate_order(state, GLORIA, two[0]) == [
        "All three Airstrikes have been used in this coup."]
    after, events = run(state, {FIDEL: [o("gunboat", zone=24, target=ERNESTO)]})
    assert len(of_kind(events, "bombardment")[0].data["rolls"]) == 3
    assert validate_orders(state, FIDEL, [o("gunboat", zone=24, target=ERNESTO)] * 2)


def test_coup_orders_not_carried_out_are_told():
    """Rules: "Only one Airstrike may be used per Coup Phase"; two on conditions that both
    hold fly once, and the second's player is told (§ruling-no-silent-orders). A hand-over to a
    player who fled earlier that phase, or of units all lost since, fails and both sides are
    told, as for a gift (§any-time); a Police Response with no Police left is told."""
    state, _ = coup_state()
    if_at_hq = Condition("card_played", {"seat": GLORIA, "card": "Wiretap"})
    wiretap = give(state, GLORIA, "Wiretap")
    strikes = [o("airstrike", zone=24, target=ERNESTO),
               o("airstrike", if_at_hq, zone=24, target=ERNESTO)]
    after, events = run(state, {GLORIA: [*strikes, o("play_card", card=wiretap,
                                                     target=ERNESTO)]})
    assert after.coup["airstrikes_used"] == 1
    told = of_kind(events, "strike_failed")
    assert [e.audience for e in told] == [(GLORIA,)] and "one Airstrike" in told[0].text
    state, _ = coup_state()
    soldier = units(state, ERNESTO, 24, "Soldier")[0]["id"]
    state.coup["units"] = [u for u in state.coup["units"] if u["id"] != soldier]
    after, events = run(state, {ERNESTO: [o("transfer", units=[soldier], to=DONA)]})
    told = of_kind(events, "transfer_failed")
    assert [e.audience for e in told] == [(DONA, ERNESTO)]


def test_paratroopers_land_anywhere_and_marines_on_the_river():
    """Rules: "The Marine may be deployed to any River-bordering zone"; "a Paratrooper, which
    can be deployed to any zone in the Republic, during any Coup Phase" (§placement)."""
    state, _ = coup_state()
    assert validate_order(state, FIDEL, o("place", unit="Marine", zone=1)) == [
        "Marines land in a river zone; Presidential Palace is not on the river."]
    assert validate_order(state, FIDEL, o("place", unit="Paratrooper", zone=1)) == [
        "You have no Paratrooper waiting to be placed."]
    after, _ = run(state, {FIDEL: [o("place", unit="Marine", zone=4)],
                           GLORIA: [o("place", unit="Paratrooper", zone=1)]})
    assert units(after, FIDEL, 4, "Marine") and units(after, GLORIA, 1, "Paratrooper")
    assert units(after, GLORIA, 1)[0]["entered"] == 1


def test_the_helicopter_flies_two_zones_besides_the_stack_move():
    """Card "Helicopter: you gain 1 Helicopter unit (armed) placed in any zone; each phase it
    may move up to 2 zones"."""
    state, _ = coup_state()
    card = give(state, ERNESTO, "Helicopter")
    after, _ = run(state, {ERNESTO: [o("play_card", card=card, zone=13)]})
    heli = units(after, ERNESTO, 13, "Helicopter")[0]
    far = o("move", from_zone=13, to_zone=1, units=[heli["id"]])
    assert validate_order(after, ERNESTO, far) == [
        "The Helicopter flies up to two zones; Presidential Palace is farther from University "
        "City."]
    fly = o("move", from_zone=13, to_zone=2, units=[heli["id"]])
    march = o("move", from_zone=24, to_zone=18)
    assert validate_orders(after, ERNESTO, [fly, march]) == []
    later, _ = run(after, {ERNESTO: [fly, march]})
    assert units(later, ERNESTO, 2, "Helicopter") and len(units(later, ERNESTO, 18)) == 6


def test_a_stack_of_helicopters_alone_flies_without_naming_them():
    """Card "Helicopter: ... each phase it may move up to 2 zones"; §ruling-stack-moves: its own
    flight "is not a stack move", whether the Helicopter is named or is the whole stack in its
    zone."""
    state, _ = coup_state()
    card = give(state, ERNESTO, "Helicopter")
    after, _ = run(state, {ERNESTO: [o("play_card", card=card, zone=13)]})
    fly = o("move", from_zone=13, to_zone=2)  # no units named: the stack is the Helicopter
    march = o("move", from_zone=24, to_zone=18)
    assert validate_orders(after, ERNESTO, [fly, march]) == []
    later, _ = run(after, {ERNESTO: [fly, march]})
    assert units(later, ERNESTO, 2, "Helicopter") and len(units(later, ERNESTO, 18)) == 6


def test_a_unit_handed_over_unmoved_brings_its_move_a_moved_one_does_not():
    """Rules: "Transfer of a unit that has already moved does not grant it any additional
    movement for the phase, though transfer of an unmoved unit transfers that unit's movement
    to the new controller for the phase" (§transfers)."""
    state, _ = coup_state()
    state.players[BILL].rebel = True  # Ernesto's ally: no fight when the soldier changes hands
    tank = units(state, ERNESTO, 24, "Tank")[0]["id"]
    soldier = units(state, ERNESTO, 24, "Soldier")[0]["id"]
    after, _ = run(state, {
        ERNESTO: [o("transfer", units=[tank], to=DONA),
                  o("move", from_zone=24, to_zone=18),
                  o("transfer", units=[soldier], to=BILL, after_moves=True)],
        DONA: [o("move", from_zone=24, to_zone=13)],
        BILL: [o("move", from_zone=18, to_zone=17)],
    })
    moved = {u["id"]: u for u in after.coup["units"]}
    assert moved[tank]["owner"] == DONA and moved[tank]["zone"] == 13
    assert moved[soldier]["owner"] == BILL and moved[soldier]["zone"] == 18


# --- combat ---------------------------------------------------------------------------------

def test_first_fire_kills_newcomers_before_they_fire_back():
    """Rules: "Any unit which was in an area before a unit upon which it is firing is said to
    have First Fire. Any units killed in the first volley by units with First Fire are removed
    before they can return fire" (§first-fire)."""
    state = battle_state()
    put(state, "Palace Guard", CARLOS, 9)
    put(state, "Soldier", ERNESTO, 9, entered=2, from_zone=10)
    events, dice = fight(state, [6])
    assert dice.used == 1  # the Soldier never fired
    assert not units(state, ERNESTO)
    assert "First Fire: Carlos fires at Ernesto: 6 (1 hit)" in events[0].text


def test_casualties_fall_at_the_end_of_each_volley():
    """Rules: "Each unit may fire once per volley, and casualties are removed at the end of
    each volley"."""
    state = battle_state()
    put(state, "Soldier", CARLOS, 9)
    put(state, "Soldier", ERNESTO, 9)
    fight(state, [6, 6])
    assert not units(state, CARLOS) and not units(state, ERNESTO)


def test_the_side_with_more_casualties_retreats_to_where_it_came_from():
    """Rules: "At the end of the three volleys, the player who has taken the least casualties
    remains in the area... Unless otherwise specified, retreating units will attempt to retreat
    to their area of origin" (§retreats)."""
    state = battle_state()
    for _ in range(3):
        put(state, "Soldier", CARLOS, 9)
        put(state, "Soldier", ERNESTO, 9, entered=2, from_zone=10)
    # First Fire: Carlos 1,1,1; volley 1: Ernesto 6,1,1 (Carlos loses 1); volley 2: Carlos
    # 1,1, Ernesto 1,1,1; volley 3: Carlos 1,1, Ernesto 1,1,1.
    events, _ = fight(state, [1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert len(units(state, ERNESTO, 9)) == 3
    assert len(units(state, CARLOS, 1)) == 2  # no origin: the first open adjacent zone
    assert "retreat" in [e.kind for e in events]


def test_a_tie_for_fewest_casualties_retreats_nobody():
    """Rules: "If more than one player is tied for the fewest casualties, none of them
    retreat" (§retreats)."""
    state = battle_state()
    for _ in range(2):
        put(state, "Soldier", CARLOS, 9)
        put(state, "Soldier", ERNESTO, 9)
    fight(state, [6, 1, 6, 1] + [1] * 4)
    assert len(units(state, CARLOS, 9)) == 1 and len(units(state, ERNESTO, 9)) == 1


def test_a_stack_with_nowhere_to_go_is_destroyed():
    """Rules: "If all adjacent areas are occupied and none will allow the retreating units
    entry, the retreating units are destroyed"; "Unless otherwise specified, Rebels will deny
    permission to retreat to Loyalists and vice versa" (§retreats)."""
    state = battle_state()
    put(state, "Soldier", CARLOS, 15)
    put(state, "Soldier", CARLOS, 15)
    put(state, "Soldier", ERNESTO, 15)
    put(state, "Soldier", ERNESTO, 15)
    put(state, "Soldier", ERNESTO, 13)  # the Barracks' two neighbours are the Rebel's
    put(state, "Soldier", ERNESTO, 26)
    events, _ = fight(state, [1, 1, 6, 1] + [1] * 6)
    assert not units(state, CARLOS)
    assert "find nowhere to retreat and are destroyed" in events[-1].text


def test_a_retreat_permission_lets_the_loser_through():
    """Rules: "Orders concerning retreats may be as specific as the player wishes"."""
    state = battle_state()
    put(state, "Soldier", CARLOS, 15)
    put(state, "Soldier", CARLOS, 15)
    put(state, "Soldier", ERNESTO, 15)
    put(state, "Soldier", ERNESTO, 15)
    put(state, "Soldier", GLORIA, 13)
    state.players[GLORIA].rebel = True
    put(state, "Soldier", ERNESTO, 26)
    fight(state, [1, 1, 6, 1] + [1] * 6, permissions={(GLORIA, CARLOS): True})
    assert len(units(state, CARLOS, 13)) == 1


def test_the_weakest_fall_first_unless_the_owner_orders_otherwise():
    """§casualties: "A player's units fall weakest first (unarmed, then armed, then two-dice
    units), unless he ordered which kinds fall last" (§ruling-targets)."""
    for order, survivor in ((None, "Tank"), (["Mob", "Tank"], "Mob")):
        state = battle_state()
        for kind in ("Tank", "Soldier", "Mob"):
            put(state, kind, CARLOS, 9)
        put(state, "Soldier", ERNESTO, 9)
        put(state, "Soldier", ERNESTO, 9)
        if order:
            state.coup["casualties_last"] = {str(CARLOS): order}
        # Carlos: Tank 1,1 + Soldier 1 (the lone Mob rolls no die); Ernesto 6, 6.
        fight(state, [1, 1, 1, 6, 6] + [1] * 10)
        assert [u["kind"] for u in units(state, CARLOS)] == [survivor]  # (it retreats)
    state, _ = coup_state()
    assert validate_order(state, CARLOS, o("casualties", last=["Palace Guard"])) == [
        "Your units on the map are all of one kind (or you have none): there is no order of "
        "casualties to choose."]
    put(state, "Tank", CARLOS, 1)
    assert validate_order(state, CARLOS, o("casualties", last=["Dragon"])) == [
        "Name up to three kinds of your units to lose last, each once."]
    after, _ = run(state, {CARLOS: [o("casualties", last=["Palace Guard"])]})
    assert after.coup["casualties_last"] == {str(CARLOS): ["Palace Guard"]}


def test_no_combat_in_an_embassy():
    """§incoming-fire: "Embassies are no-combat zones"."""
    state = battle_state()
    put(state, "Soldier", CARLOS, 19)
    put(state, "Soldier", ERNESTO, 19)
    events, dice = fight(state, [6] * 10, attacks={(ERNESTO, 19): [CARLOS]})
    assert dice.used == 0 and not events
    assert validate_order(state, ERNESTO, o("attack", zone=19, target=CARLOS)) == [
        "North American Embassy is an embassy: no combat there."]


def test_loyalists_meet_in_peace_unless_one_attacks():
    """§combat: "Units of opposing sides (Rebels against Loyalists) that share a zone after
    the moves fight, and so do units of players who ordered an attack on each other"."""
    state = battle_state()
    put(state, "Soldier", CARLOS, 9)
    put(state, "Soldier", BILL, 9)
    events, _ = fight(state, [1] * 6)
    assert not events
    events, _ = fight(state, [1, 6] + [1] * 4, attacks={(BILL, 9): [CARLOS]})
    assert events and not units(state, CARLOS, 9)


# --- cards in the coup ----------------------------------------------------------------------

def test_a_bribe_buys_units_on_a_four_or_better():
    """Card "Bribe the Palace Guard: Name a zone; for each Palace Guard unit there you pay 1
    MP and roll 1d6 (4-6 the unit comes under your control for the rest of the coup)".
    (§ruling-idle-bribe: the bribe stops when the pocket is empty)."""
    state, _ = coup_state()
    card = give(state, DONA, "Bribe the Palace Guard")
    state.players[DONA].pocket = 3
    after, events = run(state, {DONA: [o("play_card", card=card, zone=1)]})
    bribe = of_kind(events, "bribe")[0]
    assert len(bribe.data["rolls"]) == 3 and after.players[DONA].pocket == 0
    assert after.spent == state.spent + 3
    won = sum(1 for r in bribe.data["rolls"] if r >= 4)
    assert len(units(after, DONA, 1, "Palace Guard")) == won == bribe.data["won"]
    assert len(units(after, CARLOS, 1)) == 4 - won


def test_a_unit_card_or_a_bribe_names_only_a_zone_it_can_act_in():
    """Card "Demonstrators: ... 2 Mob in zone 5"; "Bribe the Palace Guard: Name a zone; for
    each Palace Guard unit there you pay 1 MP". A zone the card cannot use (another than the
    card's own, one with no unit the bribe can buy, since bribes come before any movement) is
    refused when ordered, as the Orders page never offers it (§ruling-no-silent-orders:
    accepted orders are offered orders), rather than ignored or failing at the deadline."""
    state, _ = coup_state()
    mob = give(state, DONA, "Demonstrators")
    assert validate_order(state, DONA, o("play_card", card=mob, zone=9)) == [
        "Demonstrators: choose where the units appear (Plaza de Armas)."]
    assert validate_order(state, DONA, o("play_card", card=mob, zone=5)) == []
    assert validate_order(state, DONA, o("play_card", card=mob)) == []
    bribe = give(state, DONA, "Bribe the Palace Guard")
    state.players[DONA].pocket = 3
    assert validate_order(state, DONA, o("play_card", card=bribe, zone=9)) == [
        "Bribe the Palace Guard finds no unit it can buy in Cathedral."]
    assert validate_order(state, DONA, o("play_card", card=bribe, zone=1)) == []


def test_coup_orders_name_units_that_are_there():
    """§incoming-fire: "The orders for such an action must include the area to be struck, as
    well as the player whose units are to be attacked"; §movement: "every player moves one
    stack (any of his units in one zone)"; §retreats, §casualties: orders about one's own
    units. Orders about units that are not there (a strike on an empty zone, a move from a zone
    where no unit stands, a retreat or its permission from a player with no units, a retreat
    from an embassy, casualties among kinds one does not have) are refused when ordered, as
    the Orders page never offers them (§ruling-no-silent-orders), rather than vanishing at the
    deadline. A move may start where another player's units stand: handed over before the
    moves they bring their move along (§transfers), and the page offers it."""
    state, _ = coup_state()
    gloria = state.commander(cat.AIR_FORCE)
    occupied = {u["zone"] for u in state.coup["units"] if u["zone"] is not None}
    empty = next(z for z in sorted(cat.zones()) if z not in occupied and z not in (19, 20))
    strike = o("airstrike", source="air_force", zone=empty, target=ERNESTO)
    assert validate_order(state, gloria, strike)[0].startswith("No other player's unit stands")
    assert validate_order(state, ERNESTO, o("move", from_zone=empty,
                                            to_zone=sorted(cat.zones()[empty].adjacent)[0])) \
        == [f"No units stand in {cat.zones()[empty].name} to move."]
    nobody = next(p.seat for p in state.players if p.active
                  and not units(state, p.seat))
    for order in (o("attack", zone=24, target=ERNESTO), o("retreat", zone=24, to_zone=18),
                  o("permit_retreat", seat=ERNESTO, allow=True)):
        assert validate_order(state, nobody, order) == ["You command no units in this coup."]
    assert validate_order(state, ERNESTO, o("retreat", zone=19, to_zone=18))[0].endswith(
        "is an embassy: no battle there, so no retreat.")
    options = legal_options(state, DONA)
    handed = options.get("move").arg("from_zone").values()
    assert 24 in handed and validate_order(state, DONA, o("move", from_zone=24, to_zone=18)) \
        == []


def test_flight_to_an_embassy_is_exile_and_the_exile_returns_through_one():
    """Rules: "A player may also flee the country during a Coup, but only if he can move one of
    his active units into an Embassy"; "A player may also return from Exile during a Coup, but
    only if either: He controls a unit in an embassy, or... Another player who controls a unit
    in an embassy grants the exile safe passage" (§embassies, §ruling-flight)."""
    state, _ = coup_state()
    for u in units(state, HECTOR):
        u["zone"] = 18
    after, events = run(state, {HECTOR: [o("move", from_zone=18, to_zone=19), o("flee")]})
    assert after.players[HECTOR].status == "exiled"
    assert after.positions[cat.WAR] in (None, BIL)
    assert all(u["owner"] != HECTOR for u in after.coup["units"])
    for u in units(after, ERNESTO):
        u["zone"] = 19
    back, _ = run(after, {HECTOR: [o("return_from_exile")],
                          ERNESTO: [o("embassy_passage", seat=HECTOR)]})
    assert back.players[HECTOR].status == "alive" and not back.positions_of(HECTOR)
    refused, _ = run(after, {HECTOR: [o("return_from_exile")]})
    assert refused.players[HECTOR].status == "exiled"


# --- Coup Phase 6 and the Aftermath ---------------------------------------------------------

def test_the_president_cannot_vote_pro_junta():
    """Rules: "Players must submit as an order a vote of either Pro-Junta or Pro-President. The
    President cannot vote Pro-Junta" (§control)."""
    state = final_state()
    assert validate_order(state, CARLOS, o("coup_side", side="junta")) == [
        "The President cannot vote Pro-Junta."]


def test_three_control_points_held_pro_junta_win_the_coup():
    """Rules: "The faction (Pro-President or Pro-Junta) which controls 3/5 or better of the pink
    Control Points at the end of the 6th Coup Phase will win the Coup"; "Any territory shared by
    players supporting both Pro-Junta and Pro-President defaults to Pro-President control, as do
    any unoccupied territories" (§control)."""
    state = final_state()
    state.coup["units"] = []
    put(state, "Soldier", ERNESTO, 2)
    put(state, "Soldier", ERNESTO, 3)
    put(state, "Soldier", GLORIA, 4)
    put(state, "Soldier", GLORIA, 8)
    put(state, "Police", MARIA, 8)  # shared with a Pro-President player
    votes = {ERNESTO: [o("coup_side", side="junta")], GLORIA: [o("coup_side", side="junta")],
             MARIA: [o("coup_side", side="president")]}
    after, events = run(state, votes)
    assert after.coup["control"] == {"1": "president", "2": "junta", "3": "junta",
                                     "4": "junta", "8": "president"}
    assert after.coup["result"] == "junta" and after.phase == "aftermath"
    assert "Maria votes Pro-President." in texts(events)
    assert "Bill abstains." in texts(events)
    for u in units(after, GLORIA, 4):
        u["zone"] = 6
    again, _ = run(state.copy(), {ERNESTO: votes[ERNESTO], MARIA: votes[MARIA]})
    assert again.coup["result"] == "president"  # Gloria did not vote: not Pro-Junta


def test_a_sitting_president_may_shoot_only_a_rebel():
    """Rules: "A sitting President, who has stayed in power through a coup may also send one
    player to the Firing Squad... but the choice is limited to players who are Rebels. Loyalist
    players are immune from execution by a sitting President"; an execution has "the effects be
    otherwise the same as an assassination" (pocket money to the executioner).
    (§firing-squad, §ruling-junta)."""
    state = aftermath_state("president")
    assert validate_order(state, CARLOS, o("execute", target=BILL)) == [
        "Loyalist players are immune from execution by a sitting President: choose a Rebel."]
    state.players[ERNESTO].pocket = 7
    after, events = run(state, {CARLOS: [o("execute", target=ERNESTO)]})
    assert of_kind(events, "death")[0].data["victim"] == ERNESTO
    assert after.players[ERNESTO].life == 2  # back with a new character as the turn begins
    assert after.players[CARLOS].pocket == 7
    assert "sent to the firing squad by El Presidente Carlos" in texts(events)
    assert after.phase == "cabinet" and after.coup is None


def test_no_execution_order_means_no_execution():
    """Rules: "If she does not specify an execution order as part of her Coup Aftermath orders
    she will be assumed to benevolently execute no one" (§firing-squad)."""
    after, events = run(aftermath_state("president"), {})
    assert all(p.status == "alive" for p in after.players)


def test_the_junta_elects_with_the_first_rebel_breaking_ties_and_the_winner_shoots():
    """Rules: "Players that are Rebels make up a Junta... and are each given one vote to decide
    the next President"; "the First Rebel has the tie-breaking vote"; "ALL players should
    submit as part of their Coup Aftermath orders, a conditional execution order should they be
    elected President"; "A newly elected President may execute ANY one player".
    (§junta, §ruling-junta)."""
    state = aftermath_state("junta")
    assert state.first_rebel == ERNESTO
    assert validate_order(state, BILL, o("junta_vote", candidate=BILL)) == [
        "Only Rebels sit in the Junta."]
    state.players[JORGE].status = "exiled"
    assert validate_order(state, GLORIA, o("junta_vote", candidate=JORGE)) == [
        "Choose a living player in the country."]
    fighting = final_state()
    fighting.players[JORGE].status = "exiled"
    assert validate_order(fighting, GLORIA, o("attack", zone=9, target=JORGE)) == [
        "Jorge is exiled and commands no units."]
    state.players[JORGE].status = "alive"
    orders = {ERNESTO: [o("junta_vote", candidate=GLORIA), o("execute", target=MARIA)],
              GLORIA: [o("junta_vote", candidate=ERNESTO), o("execute", target=BILL)]}
    after, events = run(state, orders)
    assert after.president == GLORIA
    assert [e.data["victim"] for e in of_kind(events, "death")] == [BILL]
    assert "breaks the tie for Gloria" in texts(events)


def test_banking_after_lunch_comes_after_the_execution():
    """Rules: "Should the Bank have been Closed for Lunch because of a forced Budget, it
    reopens during the Coup Aftermath (with resolution occurring after the Presidential
    execution.)... Any players who do so and are not executed will have their orders carried
    out" (§after-lunch, §ruling-after-lunch)."""
    state = final_state()
    state.bank_status = "closed_for_lunch"
    state.players[GLORIA].location = "bank"
    state.players[ERNESTO].location = "bank"
    assert validate_order(state, GLORIA, o("coup_side", side="junta")) == []
    state, events = run(state, {})
    assert state.phase == "aftermath" and state.bank_status == "open"
    assert "The Bank reopens after lunch" in texts(events)
    state.players[GLORIA].pocket = state.players[ERNESTO].pocket = state.players[BILL].pocket = 5
    assert validate_order(state, BILL, o("bank", action="deposit", amount=1)) == [
        "Only those who chose the Bank as their location bank after lunch."]
    after, events = run(state, {CARLOS: [o("execute", target=ERNESTO)],
                                ERNESTO: [o("bank", action="deposit", amount=5)],
                                GLORIA: [o("bank", action="deposit", amount=5)]})
    assert after.players[GLORIA].bank == 5
    assert after.players[ERNESTO].bank == 0 and after.players[CARLOS].pocket == 5
    assert of_kind(events, "death")


def test_the_next_coup_starts_with_every_unit_back_and_no_card_units():
    """§units: "Units destroyed in a coup are back at their starting zones for the next coup;
    units from cards and foreign forces leave the map when the coup ends"; Rules: "Following
    the resolution of the Coup Aftermath phase, the game returns to the beginning of a new
    Turn"."""
    state = aftermath_state("president")
    state.coup["units"] = state.coup["units"][:3]
    after, _ = run(state, {})
    assert after.coup is None and after.phase == "cabinet" and after.turn == state.turn + 1
    after.phase = "locations"
    again, _ = coup_state()
    assert len([u for u in again.coup["units"] if u["position"]]) == 4 + 4 + 18 + 4


def test_a_president_who_fled_is_replaced_by_the_chamber_after_the_aftermath():
    """§ruling-president-fled: "If the President fled, the coup goes on; the Chamber elects a
    President when the Aftermath is over"; Rules: "A Presidential Election must then be held
    immediately before continuing with the Turn"."""
    state = aftermath_state("president")
    state.positions[cat.PRESIDENT] = None
    state.players[CARLOS].status = "exiled"
    after, _ = run(state, {})
    assert after.phase == "election" and after.election["reason"] == "vacancy"
    assert after.coup is None


def test_no_resignation_during_a_coup():
    """Rules: "At any time, except during a Coup, the President may announce his
    resignation"."""
    state, _ = coup_state()
    assert validate_order(state, CARLOS, o("resign")) == [
        "The President may resign at any time except during a Coup."]
