"""Rule tests for the Locations, Assassinations, Banking and Rebel-Only phase.

Each test quotes the rule sentence it checks, from docs/rules.md (§locations and its
paragraphs, §secrets) or docs/rulings.md (§rulings-locations), or the published game's own
words that those paragraphs restate ("rules"). The standard cabinet of `helpers.in_phase`:
seat 0 Carlos is President, 1 Maria Minister of Internal Security, 2 Bill 1st General, 3 Dona
2nd General, 4 Ernesto 3rd General, 5 Fidel Admiral, 6 Gloria Air Force, 7 Hector War, 8 Ines
Foreign, 9 Jorge Farm & Labor.
"""

from __future__ import annotations

import itertools

import pytest

from junta.engine import BIL, Condition, Order, validate_order, validate_orders
from junta.engine import catalog as cat
from junta.engine import resolve as resolve_all
from junta.engine.phases.locations import SECRET_POLICE
from junta.engine.rng import Rng

from .helpers import give, in_phase, in_play, run, texts

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)


def o(kind: str, condition: Condition | None = None, **args) -> Order:
    return Order(kind, args, condition)


def at(place: str) -> Order:
    return o("location", place=place)


def kill_order(card: int | str, target: int, location: str, **kw) -> Order:
    return o("assassinate", card=card, target=target, location=location, **kw)


def rig_dice(state, *ranges: range) -> None:
    """Move the state's generator so its next dice fall in the given ranges, in order."""
    for counter in range(20000):
        rng = Rng(state.seed, counter)
        if all(rng.die() in r for r in ranges):
            state.rng_counter = counter
            return
    raise AssertionError("no such dice")


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def locations_game(**pockets: int):
    state = in_phase("locations")
    for seat, amount in pockets.items():
        state.players[int(seat.lstrip("s"))].pocket = amount
    return state


# --- the five locations ----------------------------------------------------------------------

def test_the_five_locations_and_exile_are_the_only_choices():
    """Rules: "All players must choose one location from a possible five: Home, HQ, Bank,
    Club, Mistress" ("During the Location Phase a player may choose to go into Exile instead").
    (§location)."""
    state = in_phase("locations")
    for place in ("home", "hq", "bank", "club", "mistress", "exile"):
        assert validate_order(state, BILL, at(place)) == []
    errors = validate_order(state, BILL, at("beach"))
    assert errors and "Home, HQ, Bank, Club, Mistress" in errors[0]


def test_one_location_only():
    """Rules: "All players must choose one location from a possible five"."""
    state = in_phase("locations")
    errors = validate_orders(state, BILL, [at("club"), at("bank")])
    assert any("give one" in e for e in errors)


def test_missed_location_order_means_home():
    """§missed-orders: "Home as location". A burglar finds a player who gave no
    location order at home ("You cannot be Burgled if you are at Home")."""
    state = locations_game(s2=5)
    burglar = give(state, DONA, "Burglar")
    after, events = run(state, {DONA: [o("play_card", card=burglar, target=BILL)]})
    assert after.players[BILL].last_location == "home"
    assert after.players[BILL].pocket == 5
    assert all(p.last_location == "home" for p in after.players if p.seat != DONA)


def test_chosen_location_is_told_only_to_its_player():
    """§secrets: "Private to you: ... your location"."""
    state = in_phase("locations")
    _, events = run(state, {BILL: [at("mistress")]})
    mine = [e for e in of_kind(events, "my_location") if e.data.get("location") == "mistress"]
    assert len(mine) == 1 and mine[0].audience == (BILL,)
    assert "Mistress" not in texts(events, DONA)


# --- assassins -------------------------------------------------------------------------------

def test_professional_assassin_kills_at_the_right_location_and_costs_2():
    """Card: "Pay 2 MP; kills if the named location is right." Rules: "Any Assassination
    attempt that went to the correct location of its target ... is a successful
    assassination"."""
    state = locations_game(s3=5)
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {BILL: [at("club")], DONA: [kill_order(pro, BILL, "club")]})
    assert after.players[BILL].life == 2  # killed, and back as a new character next turn
    assert of_kind(events, "death")[0].data == {"victim": BILL, "location": "club",
                                                "how": "assassinated"}
    assert after.players[DONA].pocket == 3
    assert pro in after.political_discard


def test_assassin_cost_must_be_covered():
    """Card: "Pay 2 MP; kills if the named location is right." An attacker who cannot pay
    sends nobody."""
    state = locations_game(s3=1)
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {BILL: [at("club")], DONA: [kill_order(pro, BILL, "club")]})
    assert after.players[BILL].life == 1
    assert pro in after.players[DONA].hand
    assert "could not pay" in texts(events, DONA)


def test_bankers_and_monarchists_pay_1_mp_of_assassin_costs_a_turn():
    """Card, Bankers and Monarchists: "Also provides 1 MP per turn usable only to pay
    Assassin/Bribe costs" (§ruling-discounts)."""
    state = locations_game(s3=0)
    pro = give(state, DONA, "Professional Assassin")
    in_play(state, DONA, "Bankers")
    in_play(state, DONA, "Monarchists")
    after, _ = run(state, {DONA: [kill_order(pro, BILL, "home")]})
    assert after.players[BILL].life == 2 and after.spent == 0
    state = locations_game(s3=0, s2=3)
    pro = give(state, DONA, "Professional Assassin")
    bribe = give(state, BILL, "Bribe the Assassin")
    in_play(state, DONA, "Bankers")
    after, events = run(state, {DONA: [kill_order(pro, BILL, "home")],
                                BILL: [o("play_card", card=bribe)]})
    assert after.players[BILL].life == 1 and pro in after.players[DONA].hand
    assert after.players[BILL].pocket == 3  # the bribe was never needed
    assert "could not pay" in texts(events, DONA)


def test_amateur_assassin_needs_4_to_6_on_its_die():
    """Card: "Pay 1 MP; if the named location is right, roll 1d6: 1-3 miss, 4-6 kill."."""
    for dice, dies in ((range(1, 2), False), (range(3, 4), False), (range(4, 5), True),
                       (range(6, 7), True)):
        state = locations_game(s3=1)
        rig_dice(state, dice)
        amateur = give(state, DONA, "Amateur Assassin")
        after, events = run(state, {BILL: [at("bank")],
                                    DONA: [kill_order(amateur, BILL, "bank")]})
        assert (after.players[BILL].life == 2) is dies
        assert after.players[DONA].pocket == 0  # paid either way
        if not dies:
            assert "fails" in texts(events, BILL)


def test_amateur_assassin_at_the_wrong_location_fails_whatever_the_die():
    """Card: "if the named location is right, roll 1d6"."""
    state = locations_game(s3=1)
    rig_dice(state, range(4, 7))
    amateur = give(state, DONA, "Amateur Assassin")
    after, _ = run(state, {BILL: [at("bank")], DONA: [kill_order(amateur, BILL, "club")]})
    assert after.players[BILL].life == 1


def test_foreign_assassin_not_by_president_or_minister_of_internal_security():
    """Card: "Cannot be played by the President or the Minister of Internal Security"."""
    for seat in (CARLOS, MARIA):
        state = locations_game(s0=5, s1=5)
        foreign = give(state, seat, "Foreign Assassin")
        errors = validate_order(state, seat, kill_order(foreign, BILL, "home"))
        assert errors and "cannot be played by the President or the Minister" in errors[0]
    state = locations_game(s3=5)
    foreign = give(state, DONA, "Foreign Assassin")
    assert validate_order(state, DONA, kill_order(foreign, BILL, "home")) == []
    after, _ = run(state, {DONA: [kill_order(foreign, BILL, "home")]})
    assert after.players[BILL].life == 2 and after.players[DONA].pocket == 4


def test_foreign_assassin_refused_to_a_president_commanding_internal_security():
    """Card: "Cannot be played by the President or the Minister of Internal Security" (the
    President exercises a position held by his Brother-in-Law)."""
    state = locations_game(s3=5)
    state.positions[cat.INTERNAL_SECURITY] = BIL
    state.positions[cat.FOREIGN] = MARIA
    give(state, CARLOS, "Foreign Assassin")
    cid = state.players[CARLOS].hand[0]
    assert validate_order(state, CARLOS, kill_order(cid, BILL, "home"))


def test_psychotic_assassin_rolls_first():
    """Card: "Roll 1d6 first: 1-3 the attempt proceeds; 4-5 nothing happens; 6 roll again, on
    4+ the assassin kills YOU." (§ruling-psychotic-assassin)."""
    cases = [((range(1, 2),), True, False), ((range(3, 4),), True, False),
             ((range(4, 5),), False, False), ((range(5, 6),), False, False),
             ((range(6, 7), range(1, 4)), False, False), ((range(6, 7), range(4, 7)), False, True)]
    for dice, target_dies, attacker_dies in cases:
        state = locations_game(s3=4, s2=3)
        rig_dice(state, *dice)
        psycho = give(state, DONA, "Psychotic Assassin")
        after, events = run(state, {BILL: [at("club")],
                                    DONA: [kill_order(psycho, BILL, "club")]})
        assert (after.players[BILL].life == 2) is target_dies, dice
        assert (after.players[DONA].life == 2) is attacker_dies, dice
        if attacker_dies:
            assert "his own Psychotic Assassin" in texts(events)
            assert after.players[DONA].bank == 0 and after.spent >= 4  # his pocket is lost


def test_monarchist_assassin_requires_monarchists_influence():
    """Card: "Requires Monarchists influence. Either make an attempt, or play defensively to
    cancel one attempt on you."."""
    state = locations_game()
    mon = give(state, DONA, "Monarchist Assassin")
    errors = validate_order(state, DONA, kill_order(mon, BILL, "home"))
    assert errors and "Monarchists" in errors[0]
    in_play(state, DONA, "Monarchists")
    assert validate_order(state, DONA, kill_order(mon, BILL, "home")) == []
    after, _ = run(state, {DONA: [kill_order(mon, BILL, "home")]})
    assert after.players[BILL].life == 2


def test_an_attempt_no_longer_allowed_at_the_assassination_step_is_told_not_dropped():
    """Card "Monarchist Assassin: Requires Monarchists influence"; Coalition Breaks Up, played
    at the any-time step before the assassins go, takes the Monarchists away: the attempt is
    not made, and its player is told why (§ruling-no-silent-orders). The target hears nothing:
    an attempt not made is not an attempt."""
    state = locations_game(s3=5)
    in_play(state, DONA, "Monarchists")
    monarchist = give(state, DONA, "Monarchist Assassin")
    coalition = give(state, ERNESTO, "Coalition Breaks Up")
    attempt = kill_order(monarchist, BILL, "home")
    assert validate_order(state, DONA, attempt) == []
    after, events = run(state, {DONA: [attempt],
                                ERNESTO: [o("play_card", card=coalition, target=DONA)]})
    assert after.players[BILL].alive and monarchist in after.players[DONA].hand
    dropped = of_kind(events, "attempt_dropped")
    assert [(e.audience, e.text) for e in dropped] == [((DONA,), (
        "Your attempt on Bill was not made: The Monarchist Assassin requires Monarchists "
        "influence in play."))]
    assert not any(BILL in e.audience for e in events if e.kind.startswith("attempt"))


def test_monarchist_assassin_played_defensively_cancels_an_attempt():
    """Card: "Either make an attempt, or play defensively to cancel one attempt on you".
    (§ruling-foiled-attempts)."""
    state = locations_game(s3=5)
    pro = give(state, DONA, "Professional Assassin")
    mon = give(state, BILL, "Monarchist Assassin")
    in_play(state, BILL, "Monarchists")
    after, events = run(state, {BILL: [at("club"), o("play_card", card=mon)],
                                DONA: [kill_order(pro, BILL, "club")]})
    assert after.players[BILL].life == 1
    assert mon in after.political_discard
    assert "foiled by Monarchist Assassin" in texts(events, DONA)


def test_secret_police_hit_automatically_without_a_card_or_die():
    """Rules: "The Secret Police automatically hit, if the correct location in guessed by the
    Minister of Internal Security"."""
    state = locations_game(s2=3)
    counter = state.rng_counter
    after, events = run(state, {BILL: [at("mistress")],
                                MARIA: [kill_order(SECRET_POLICE, BILL, "mistress")]})
    assert after.players[BILL].life == 2
    assert after.players[MARIA].pocket == 3  # the victim's pocket
    assert after.rng_counter == counter  # no die was rolled


def test_only_the_minister_of_internal_security_sends_the_secret_police():
    """Rules: "Controls the Secret Police, which he may use to order one assassination
    attempt per turn" (the Minister of Internal Security)."""
    state = locations_game()
    errors = validate_order(state, DONA, kill_order(SECRET_POLICE, BILL, "home"))
    assert errors == ["Only the Minister of Internal Security commands the Secret Police."]


def test_secret_police_may_not_go_to_the_bank_two_turns_in_a_row():
    """Rules: "though they may not be sent to the Bank two turns in a row"."""
    state = in_phase("locations", turn=1)
    after, _ = run(state, {MARIA: [kill_order(SECRET_POLICE, BILL, "bank")]})
    assert after.secret_police_bank_turn == 1
    after.phase = "locations"  # turn 2, straight to its Locations phase
    errors = validate_order(after, MARIA, kill_order(SECRET_POLICE, BILL, "bank"))
    assert errors == ["The Secret Police may not be sent to the Bank two turns in a row."]
    assert validate_order(after, MARIA, kill_order(SECRET_POLICE, BILL, "club")) == []
    later = in_phase("locations", turn=3)
    later.secret_police_bank_turn = 1
    assert validate_order(later, MARIA, kill_order(SECRET_POLICE, BILL, "bank")) == []


def test_secret_police_one_attempt_a_turn():
    """Rules: "Controls the Secret Police, which he may use to order one assassination
    attempt per turn" (§internal-security, §ruling-secret-police)."""
    state = locations_game()
    both = [kill_order(SECRET_POLICE, BILL, "club"), kill_order(SECRET_POLICE, DONA, "bank")]
    assert validate_orders(state, MARIA, both) == [
        "The Secret Police make one attempt a turn: give them one unconditional order."]
    after, events = run(state, {BILL: [at("club")], DONA: [at("bank")], MARIA: both})
    assert after.players[BILL].life == 2
    assert after.players[DONA].life == 1
    dropped = of_kind(events, "attempt_dropped")
    assert len(dropped) == 1 and dropped[0].audience == (MARIA,)


def test_secret_police_one_attempt_the_first_whose_condition_holds():
    """Rules: "which he may use to order one assassination attempt per turn" (a conditional
    attempt whose condition fails leaves the Secret Police free)."""
    state = locations_game()
    club = Condition("location", {"seat": MARIA, "location": "club"})
    orders = [o("assassinate", club, card=SECRET_POLICE, target=BILL, location="club"),
              kill_order(SECRET_POLICE, DONA, "bank")]
    assert validate_orders(state, MARIA, orders) == []
    after, _ = run(state, {BILL: [at("club")], DONA: [at("bank")], MARIA: orders})
    assert after.players[BILL].life == 1 and after.players[DONA].life == 2


def test_secret_police_overtime_is_an_extra_automatic_attempt_and_costs_2():
    """Card: "pay 2 MP: one extra assassination attempt by the Secret Police on your behalf:
    name target and location; it hits automatically if the location is right"."""
    state = locations_game(s3=2, s2=1)
    overtime = give(state, DONA, "Secret Police Overtime")
    counter = state.rng_counter
    after, _ = run(state, {BILL: [at("hq")], DONA: [kill_order(overtime, BILL, "hq")]})
    assert after.players[BILL].life == 2
    assert after.players[DONA].pocket == 1  # paid 2, took Bill's 1
    assert after.rng_counter == counter


def test_secret_police_overtime_bank_restriction():
    """Card: "(the Bank restriction of the Secret Police applies)" (§ruling-secret-police)."""
    state = in_phase("locations", turn=2)
    state.secret_police_bank_turn = 1
    state.players[DONA].pocket = 2
    overtime = give(state, DONA, "Secret Police Overtime")
    errors = validate_order(state, DONA, kill_order(overtime, BILL, "bank"))
    assert errors == ["The Secret Police may not be sent to the Bank two turns in a row."]
    state = in_phase("locations", turn=1)
    state.players[DONA].pocket = 2
    overtime = give(state, DONA, "Secret Police Overtime")
    after, _ = run(state, {DONA: [kill_order(overtime, BILL, "bank")]})
    assert after.secret_police_bank_turn == 1


def test_wrong_location_fails_and_only_attacker_and_target_are_told():
    """§secrets: "A failed assassination attempt is told to its target and to the attacker
    only." Rules: only an attempt "that went to the correct location of its target" kills."""
    state = locations_game(s3=5)
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {BILL: [at("home")], DONA: [kill_order(pro, BILL, "club")]})
    assert after.players[BILL].life == 1
    failed = of_kind(events, "attempt_failed")
    assert len(failed) == 1 and failed[0].audience == (BILL, DONA)
    for viewer in (CARLOS, MARIA, ERNESTO, None):
        assert "Professional Assassin" not in texts(events, viewer)
    assert not after.coup_excuse


def test_a_successful_assassination_is_public_but_the_killer_is_not():
    """§secrets: "Public: ... successful assassinations (victim and location)".
    (§ruling-assassination-step: the killer is told to the victim only)."""
    state = locations_game(s3=5)
    pro = give(state, DONA, "Professional Assassin")
    _, events = run(state, {BILL: [at("club")], DONA: [kill_order(pro, BILL, "club")]})
    death = of_kind(events, "death")[0]
    assert death.audience == "public" and "Bill" in death.text and "Club" in death.text
    assert "Dona" not in texts(events, ERNESTO)
    assert "Dona" in texts(events, BILL)


def test_assassination_needs_another_living_player_and_a_location():
    """Rules: "Players wishing to attempt an assassination must specify the assassin to be
    used, the player to be targeted, and the location at which to target them"."""
    state = locations_game(s3=5)
    pro = give(state, DONA, "Professional Assassin")
    assert validate_order(state, DONA, o("assassinate", card=pro, target=BILL))
    assert validate_order(state, DONA, o("assassinate", card=pro, location="home"))
    assert validate_order(state, DONA, kill_order(pro, DONA, "home"))
    errors = validate_order(state, DONA, kill_order(cat.card_named("Amateur Assassin").id,
                                                    BILL, "home"))
    assert "That assassin is not in your hand." in errors


# --- simultaneous step -----------------------------------------------------------------------

def test_a_player_killed_in_the_step_still_has_his_own_attempt_carried_out():
    """§assassinations: "All attempts of the step are simultaneous: a player killed in it
    still makes his own attempt"."""
    state = locations_game(s3=2, s2=2)
    dona_pro = give(state, DONA, "Professional Assassin")
    bill_pro = give(state, BILL, "Professional Assassin")
    after, _ = run(state, {
        BILL: [at("club"), kill_order(bill_pro, ERNESTO, "home")],
        DONA: [kill_order(dona_pro, BILL, "club")],
    })
    assert after.players[BILL].life == 2
    assert after.players[ERNESTO].life == 2


def test_two_assassins_kill_each_other():
    """§assassinations: "All attempts of the step are simultaneous: a player killed in it
    still makes his own attempt"."""
    state = locations_game(s3=2, s2=2)
    dona_pro = give(state, DONA, "Professional Assassin")
    bill_pro = give(state, BILL, "Professional Assassin")
    after, _ = run(state, {BILL: [at("club"), kill_order(bill_pro, DONA, "bank")],
                           DONA: [at("bank"), kill_order(dona_pro, BILL, "club")]})
    assert after.players[BILL].life == 2 and after.players[DONA].life == 2


# --- a kill ----------------------------------------------------------------------------------

def test_a_kill_discards_hand_and_influence_and_gives_the_pocket_to_the_killer():
    """Rules: "All cards in hand and in play are immediately lost, and any money in hand is
    given to the Player who assassinated the target"."""
    state = locations_game(s3=2, s2=7)
    state.players[BILL].bank = 11
    pro = give(state, DONA, "Professional Assassin")
    spy = give(state, BILL, "Spy in Switzerland")
    church = in_play(state, BILL, "Church")
    after, events = run(state, {BILL: [at("home")], DONA: [kill_order(pro, BILL, "home")]})
    assert spy in after.political_discard and church in after.political_discard
    assert spy not in after.players[BILL].hand and church not in after.players[BILL].influence
    assert after.players[DONA].pocket == 7
    assert after.players[BILL].bank == 11  # "the bank account survives death"
    assert "You were killed by Dona" in texts(events, BILL)


@pytest.mark.parametrize("a, b, c", list(itertools.permutations((BILL, DONA, ERNESTO))))
def test_pockets_of_one_step_go_to_the_killers_whatever_the_seats(a, b, c):
    """Rules: "any money in hand is given to the Player who assassinated the target";
    §assassinations: "All attempts of the step are simultaneous". A kills B while C kills A:
    B's pocket goes to A, who dies in the same step, and on with A's own to C
    (§ruling-pockets-together), whoever sits first."""
    state = locations_game()
    for seat, pocket in ((a, 7), (b, 3), (c, 2)):
        state.players[seat].pocket = pocket
    a_pro = give(state, a, "Professional Assassin")
    c_pro = give(state, c, "Professional Assassin")
    spent = state.spent
    total = state.bills_total()
    after, events = run(state, {a: [at("club"), kill_order(a_pro, b, "hq")],
                                b: [at("hq")],
                                c: [at("bank"), kill_order(c_pro, a, "club")]})
    assert after.players[a].life == 2 and after.players[b].life == 2
    assert after.players[c].pocket == 5 + 3  # A's 7 less his assassin's 2, and B's 3
    assert after.spent == spent + 4  # only the two assassins' costs
    assert after.bills_total() == total
    taken = of_kind(events, "pocket_taken")
    assert [e.audience for e in taken] == [(c,)] and taken[0].data["amount"] == 8


def test_two_killers_of_each_other_leave_their_pockets_to_nobody():
    """Rules: "any money in hand is given to the Player who assassinated the target"
    (§ruling-pockets-together: when the killers kill each other in one step, nobody living
    inherits: the money leaves play)."""
    state = locations_game(s2=5, s3=5)
    dona_pro = give(state, DONA, "Professional Assassin")
    bill_pro = give(state, BILL, "Professional Assassin")
    spent = state.spent
    after, events = run(state, {BILL: [at("club"), kill_order(bill_pro, DONA, "bank")],
                                DONA: [at("bank"), kill_order(dona_pro, BILL, "club")]})
    assert after.players[BILL].pocket == 0 and after.players[DONA].pocket == 0
    assert after.spent == spent + 4 + 3 + 3
    assert not of_kind(events, "pocket_taken")


def test_the_victims_position_goes_to_the_brother_in_law():
    """Rules: "The position occupied by the assassinated player is given to the President
    ('s Brother-in-Law)"."""
    state = locations_game(s3=2)
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {DONA: [kill_order(pro, ERNESTO, "home")]})
    assert after.positions[cat.GENERAL_3] == BIL
    assert cat.GENERAL_3 in after.commanded_positions(CARLOS)
    assert "Brother-in-Law takes over as Generalissimo of the 3rd Army Brigade" in texts(events)


def test_only_one_position_for_the_brother_in_law_and_the_president_chooses():
    """Rules: "If more than one player is dead, the President may only give one of the
    positions to his Brother-in-Law, and he may choose which position to retain"."""
    for preference, kept in ((None, cat.GENERAL_1), (cat.WAR, cat.WAR)):
        state = locations_game(s3=2)
        state.players[MARIA].pocket = 0
        pro = give(state, DONA, "Professional Assassin")
        orders = {DONA: [kill_order(pro, HECTOR, "home")],
                  MARIA: [kill_order(SECRET_POLICE, BILL, "home")]}
        if preference:
            orders[CARLOS] = [o("brother_in_law", position=preference)]
        after, _ = run(state, orders)
        assert list(after.positions.values()).count(BIL) == 1
        assert after.positions[kept] == BIL
        other = cat.WAR if kept == cat.GENERAL_1 else cat.GENERAL_1
        assert after.positions[other] is None


def test_only_the_president_directs_his_brother_in_law():
    """§brother-in-law: "when several fall vacant together the President chooses which one
    the Brother-in-Law keeps"."""
    state = in_phase("locations")
    assert validate_order(state, DONA, o("brother_in_law", position=cat.WAR)) == [
        "Only the President directs his Brother-in-Law."]


def test_a_successful_assassination_is_a_coup_excuse():
    """Rules: "A Coup Excuse can be provided by: ... A successful assassination of any
    player" (§coup-excuse)."""
    state = locations_game(s3=2)
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {DONA: [kill_order(pro, BILL, "home")],
                                ERNESTO: [o("rebel_move", from_zone=17, to_zone=24)]})
    assert "There is a Coup Excuse this turn." in texts(events)
    assert after.players[ERNESTO].rebel


def test_the_dead_do_not_act_again_this_phase():
    """Rules: "The assassinated player is now dead, and cannot take any actions until the
    beginning of the next turn"."""
    state = locations_game(s3=2, s2=5)
    state.coup_excuse = True
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {BILL: [at("bank"), o("bank", action="deposit", amount=5),
                                       o("rebel_move", from_zone=15, to_zone=13)],
                                DONA: [kill_order(pro, BILL, "bank")]})
    assert after.players[BILL].bank == 0
    assert after.players[DONA].pocket == 5  # Dona paid 2 and took Bill's 5
    assert not after.players[BILL].rebel and not after.rebel_orders


# --- thefts and bribes -----------------------------------------------------------------------

def test_burglar_takes_up_to_2_unless_the_target_is_at_home():
    """Rules: "Home (You cannot be Burgled if you are at Home)". Card: "if the target did
    NOT choose Home this turn, you take up to 2 MP from the target's pocket"."""
    for place, taken in (("club", 2), ("home", 0)):
        state = locations_game(s2=5)
        burglar = give(state, DONA, "Burglar")
        after, events = run(state, {BILL: [at(place)],
                                    DONA: [o("play_card", card=burglar, target=BILL)]})
        assert after.players[BILL].pocket == 5 - taken
        assert after.players[DONA].pocket == taken
        assert burglar in after.political_discard
        assert texts(events, BILL) and "burglar" not in texts(events, ERNESTO).lower()
    state = locations_game(s2=1)
    burglar = give(state, DONA, "Burglar")
    after, _ = run(state, {BILL: [at("bank")], DONA: [o("play_card", card=burglar, target=BILL)]})
    assert after.players[DONA].pocket == 1 and after.players[BILL].pocket == 0


def test_bank_robber_takes_up_to_3_banked_unless_the_target_is_at_the_bank():
    """Rules: "Bank (Allows you to deposit or withdraw money from the Bank, safe from Bank
    Robber)". Card: "if the target did NOT choose Bank this turn, you take up to 3 MP of the
    target's banked money into your pocket"."""
    for place, taken in (("club", 3), ("bank", 0)):
        state = locations_game()
        state.players[BILL].bank = 10
        robber = give(state, DONA, "Bank Robber")
        after, _ = run(state, {BILL: [at(place)],
                               DONA: [o("play_card", card=robber, target=BILL)]})
        assert after.players[BILL].bank == 10 - taken
        assert after.players[DONA].pocket == taken


def test_character_assassin_strips_influence_of_a_target_at_the_mistress():
    """Rules: "Mistress (Vulnerable to Character Assassin)". Card: "if the target chose
    Mistress this turn, a scandal breaks: the target discards every Influence card in play.
    Nobody dies. Location wrong: no effect."."""
    for place, scandal in (("mistress", True), ("club", False)):
        state = locations_game()
        church = in_play(state, BILL, "Church")
        press = in_play(state, BILL, "Press")
        ca = give(state, DONA, "Character Assassin")
        after, events = run(state, {BILL: [at(place)],
                                    DONA: [o("play_card", card=ca, target=BILL)]})
        assert after.players[BILL].life == 1
        if scandal:
            assert after.players[BILL].influence == []
            assert church in after.political_discard and press in after.political_discard
            assert "Scandal!" in texts(events, ERNESTO)
        else:
            assert after.players[BILL].influence == [church, press]


def test_bribe_the_assassin_pays_2_and_foils_the_attempt():
    """Card: "Pay 2 MP when an assassin targets you: the attempt on you fails.".
    (§ruling-foiled-attempts)."""
    state = locations_game(s3=2, s2=3)
    pro = give(state, DONA, "Professional Assassin")
    bribe = give(state, BILL, "Bribe the Assassin")
    after, events = run(state, {BILL: [at("club"), o("play_card", card=bribe)],
                                DONA: [kill_order(pro, BILL, "club")]})
    assert after.players[BILL].life == 1
    assert after.players[BILL].pocket == 1
    assert bribe in after.political_discard
    foiled = of_kind(events, "attempt_foiled")
    assert len(foiled) == 1 and foiled[0].audience == (BILL, DONA)
    assert not after.coup_excuse


def test_an_unaffordable_bribe_does_not_foil():
    """Card: "Pay 2 MP when an assassin targets you: the attempt on you fails." (no payment,
    no foiling) (§ruling-foiled-attempts)."""
    state = locations_game(s3=2, s2=1)
    pro = give(state, DONA, "Professional Assassin")
    bribe = give(state, BILL, "Bribe the Assassin")
    after, _ = run(state, {BILL: [at("club"), o("play_card", card=bribe)],
                           DONA: [kill_order(pro, BILL, "club")]})
    assert after.players[BILL].life == 2


# --- banking ---------------------------------------------------------------------------------

def test_deposit_and_withdraw_at_the_bank():
    """Rules: "Players wishing to deposit or withdraw money from the Bank must have chosen the
    Bank as their location and may now do so" (§banking)."""
    state = locations_game(s2=6, s3=1)
    state.players[DONA].bank = 4
    after, events = run(state, {BILL: [at("bank"), o("bank", action="deposit", amount=5)],
                                DONA: [at("bank"), o("bank", action="withdraw", amount=3)]})
    assert (after.players[BILL].pocket, after.players[BILL].bank) == (1, 5)
    assert (after.players[DONA].pocket, after.players[DONA].bank) == (4, 1)
    banking = of_kind(events, "banking")
    assert {e.audience for e in banking} == {(BILL,), (DONA,)}


def test_no_banking_away_from_the_bank():
    """Rules: "Players wishing to deposit or withdraw money from the Bank must have chosen the
    Bank as their location"."""
    state = locations_game(s2=6)
    after, events = run(state, {BILL: [at("club"), o("bank", action="deposit", amount=5)]})
    assert (after.players[BILL].pocket, after.players[BILL].bank) == (6, 0)
    told = of_kind(events, "banking_failed")
    assert len(told) == 1 and told[0].audience == (BILL,) and "not at the Bank" in told[0].text


def test_no_withdrawal_beyond_the_account():
    """Rules: "Players ... may now do so" (withdraw what is in the Bank)."""
    state = locations_game()
    state.players[BILL].bank = 2
    errors = validate_order(state, BILL, o("bank", action="withdraw", amount=3))
    assert errors == ["You have 2 MP in the Bank; you cannot withdraw 3."]


def test_no_deposit_beyond_the_pocket():
    """Rules: "Orders that together take more from your pocket than it holds (payments, money
    given in trades, deposits ...) ... are refused"; "A deposit or a withdrawal is carried out
    whole or not at all: one larger than the pocket or the account is refused when given"
    (§order-sets, §banking). One deposit alone is refused too, as the Orders page offers
    deposits only up to the pocket."""
    state = locations_game(s2=3)
    errors = validate_order(state, BILL, o("bank", action="deposit", amount=5))
    assert errors == ["You have 3 MP in your pocket; you cannot deposit 5."]
    assert [e.arg for e in errors] == ["amount"]
    assert validate_order(state, BILL, o("bank", action="deposit", amount=3)) == []


def test_a_deposit_the_pocket_no_longer_covers_fails_whole_and_is_told():
    """Ruling: "one that the pocket or the account can no longer cover at the banking step (a
    Burglar or a Bank Robber that day, a payment made earlier in the phase, a GameMaster's
    ruling since the order was given) fails, and its player is told what the pocket or the
    account held" (§ruling-dead-do-not-bank, §ruling-no-silent-orders): never cut down."""
    state = locations_game(s2=5, s3=0)
    burglar = give(state, DONA, "Burglar")
    after, events = run(state, {
        BILL: [at("bank"), o("bank", action="deposit", amount=5)],
        DONA: [o("play_card", card=burglar, target=BILL)]})
    assert (after.players[BILL].pocket, after.players[BILL].bank) == (3, 0)  # nothing trimmed
    failed = of_kind(events, "banking_failed")
    assert [e.audience for e in failed] == [(BILL,)]
    assert failed[0].text.startswith("Your deposit of 5 MP was not carried out: your pocket "
                                     "held 3 MP at the banking step, not 5 MP.")
    assert not of_kind(events, "banking")


def test_a_deposit_made_impossible_by_a_ruling_is_not_trimmed():
    """Ruling: a deposit the pocket no longer covers because "a GameMaster's ruling since the
    order was given" emptied it fails whole and its player is told (§ruling-dead-do-not-bank,
    §ruling-no-silent-orders)."""
    from junta.engine.rulings import move_money
    state = locations_game(s2=5)
    deposit = o("bank", action="deposit", amount=5)
    assert validate_orders(state, BILL, [at("bank"), deposit]) == []
    ruled = move_money(state, f"pocket:{BILL}", "out", 2).state
    r = resolve_all(ruled, {BILL: [at("bank"), deposit]})
    assert (r.state.players[BILL].pocket, r.state.players[BILL].bank) == (3, 0)
    told = [e for e in r.events if e.audience == (BILL,) and "deposit" in e.text]
    assert [e.text for e in told] == ["An order of yours was not carried out: You have 3 MP "
                                      "in your pocket; you cannot deposit 5."]
    assert [(x.seat, x.done, x.told) for x in r.outcomes if x.order is deposit] == [
        (BILL, False, (BILL,))]


def test_banking_waits_for_lunch_and_goes_ahead_when_no_coup_comes():
    """Rules: "The Bank becomes "Closed for Lunch," which means that no banking may occur until
    AFTER there has been an opportunity for a coup to resolve"; "If no Coup results in this
    phase, the Bank reopens (if it was Closed for Lunch). Players wishing to deposit or withdraw
    money from the Bank must have chosen the Bank as their location and may now do so".
    (§ruling-after-lunch)."""
    state = locations_game(s2=6)
    state.bank_status = "closed_for_lunch"
    deposit = o("bank", action="deposit", amount=5)
    assert validate_order(state, BILL, deposit) == []
    after, events = run(state, {BILL: [at("bank"), deposit]})
    assert after.players[BILL].bank == 5 and after.players[BILL].pocket == 1
    assert after.bank_status == "open" and "reopens after lunch" in texts(events)
    kinds = [e.kind for e in events]
    assert kinds.index("bank_reopens") < kinds.index("banking")


def test_a_coup_keeps_the_bank_closed_for_lunch_until_the_aftermath():
    """Rules: "Should the Bank have been "Closed for Lunch" because of a forced Budget, it
    reopens during the Coup Aftermath... Anyone who wishes to Bank must have chosen Bank as
    their location during the location phase, and must submit orders for banking during the
    Coup Aftermath phase" (§after-lunch, §ruling-after-lunch)."""
    state = locations_game(s2=6)
    state.bank_status = "closed_for_lunch"
    state.coup_excuse = True
    after, events = run(state, {BILL: [at("bank"), o("bank", action="deposit", amount=5)],
                                ERNESTO: [o("rebel_move", from_zone=17, to_zone=24)]})
    assert after.phase == "coup" and after.bank_status == "closed_for_lunch"
    assert after.players[BILL].bank == 0
    assert "Give your banking order again in the Coup Aftermath" in texts(events, BILL)
    assert validate_order(after, BILL, o("bank", action="deposit", amount=1)) == [
        "Deposit or withdraw is not an order of the Coup Phase."]


def test_no_banking_when_closed_for_the_rest_of_the_turn():
    """Rules: "If the Budget was defeated in the last Phase and the Minister did not seize the
    Chamber of Deputies, then the Bank remains closed until the next Turn and no Banking may
    be done"."""
    state = locations_game(s2=6)
    state.bank_status = "closed"
    errors = validate_order(state, BILL, o("bank", action="deposit", amount=5))
    assert errors == ["The Bank is closed for the rest of the turn."]
    after, _ = run(state, {BILL: [at("bank"), o("bank", action="deposit", amount=5)]})
    assert after.players[BILL].bank == 0
    assert after.bank_status == "open"  # "until the next Turn"


def test_bank_holiday_closes_the_bank_before_banking():
    """Card: "Requires Bankers influence: the Bank is closed this turn." (a Locations-phase
    card, resolved before banking)."""
    state = locations_game(s2=6)
    holiday = give(state, DONA, "Bank Holiday")
    errors = validate_order(state, DONA, o("play_card", card=holiday))
    assert errors == ["Bank Holiday requires Bankers influence in play in front of you."]
    in_play(state, DONA, "Bankers")
    after, events = run(state, {BILL: [at("bank"), o("bank", action="deposit", amount=5)],
                                DONA: [o("play_card", card=holiday)]})
    assert after.players[BILL].bank == 0 and after.players[BILL].pocket == 6
    assert "Bank Holiday" in texts(events, ERNESTO)
    assert "The Bank is closed" in texts(events, BILL)


def test_killed_players_do_not_bank():
    """Rules: "Living Players at the Bank May Deposit or Withdraw Money"; banking comes after
    assassinations ("Locations are designated and Assassins are dispatched", then "Banking
    Occurs") (§banking, §ruling-dead-do-not-bank)."""
    state = locations_game(s2=6, s3=2)
    state.players[BILL].bank = 3
    pro = give(state, DONA, "Professional Assassin")
    after, _ = run(state, {BILL: [at("bank"), o("bank", action="withdraw", amount=3)],
                           DONA: [kill_order(pro, BILL, "bank")]})
    assert after.players[BILL].bank == 3
    assert after.players[DONA].pocket == 6


# --- Rebel-Only moves ------------------------------------------------------------------------

def test_no_rebel_move_without_coup_excuse_or_hq():
    """Rules: "Such action cannot be taken unless: There is a Coup Excuse or... That player
    chose HQ as their location"."""
    state = in_phase("locations")
    after, events = run(state, {ERNESTO: [at("club"), o("rebel_move", from_zone=17,
                                                         to_zone=24)]})
    assert not after.players[ERNESTO].rebel and after.rebel_orders == []
    assert "no Coup Excuse" in texts(events, ERNESTO)


def test_a_player_at_hq_moves_without_a_coup_excuse_and_becomes_a_rebel():
    """Rules: "HQ (Allows you to move troops without a Coup Excuse)"; "Any player taking
    military action in this phase immediately becomes a REBEL"."""
    state = in_phase("locations")
    after, events = run(state, {ERNESTO: [at("hq"), o("rebel_move", from_zone=17,
                                                       to_zone=24)]})
    assert after.players[ERNESTO].rebel
    assert after.rebel_orders == [{"seat": ERNESTO, "from_zone": 17, "to_zone": 24}]
    assert after.first_rebel == ERNESTO
    assert "Ernesto" in texts(events, None)


def test_a_coup_excuse_lets_anyone_but_the_president_move():
    """Rules: "Any Non-President Player May Initiate a Coup"; "The President therefore, cannot
    take action in this phase"."""
    state = in_phase("locations")
    state.coup_excuse = True
    errors = validate_order(state, CARLOS, o("rebel_move", from_zone=1, to_zone=2))
    assert errors == ["The President cannot take Rebel action."]
    after, _ = run(state, {ERNESTO: [at("club"), o("rebel_move", from_zone=17, to_zone=24)]})
    assert after.players[ERNESTO].rebel


def test_rebel_moves_must_be_to_adjacent_zones_and_need_units():
    """Rules: "Players wishing to initiate a Coup must order a movement of troops"; a stack
    moves "into an adjacent area"."""
    state = in_phase("locations")
    errors = validate_order(state, ERNESTO, o("rebel_move", from_zone=17, to_zone=1))
    assert errors == ["Presidential Palace is not next to 3rd Brigade Barracks."]
    state.positions[cat.GENERAL_3] = None
    errors = validate_order(state, ERNESTO, o("rebel_move", from_zone=17, to_zone=24))
    assert errors == ["You command no units."]


def test_once_a_rebel_always_a_rebel():
    """Rules: "Once a player is a Rebel, he cannot become a Loyalist again" (§rebels)."""
    state = in_phase("locations")
    after, _ = run(state, {ERNESTO: [at("hq"), o("rebel_move", from_zone=17, to_zone=24)]})
    assert after.players[ERNESTO].rebel
    after.phase = "locations"
    later, _ = run(after, {ERNESTO: [at("home")]})
    assert later.players[ERNESTO].rebel and later.first_rebel == ERNESTO


def test_first_rebel_is_the_first_to_submit():
    """Rules: "The first player to submit Rebel Only Movement Orders is considered the First
    Rebel" (§first-rebel)."""
    for submitted, first in (([JORGE, ERNESTO], JORGE), ([ERNESTO, JORGE], ERNESTO)):
        state = in_phase("locations")
        state.coup_excuse = True
        after, events = run(state, {ERNESTO: [o("rebel_move", from_zone=17, to_zone=24)],
                                    JORGE: [o("rebel_move", from_zone=22, to_zone=25)]},
                            submission_order=submitted)
        assert after.first_rebel == first
        assert of_kind(events, "rebels")[0].data["first_rebel"] == first


def test_each_coup_has_its_own_first_rebel():
    """Rules: "The first player to submit Rebel Only Movement Orders is considered the First
    Rebel. If the Rebels win the Coup, the First Rebel has the tie-breaking vote in the
    resulting Junta." (a later coup's First Rebel is the first to submit in it, even when an
    earlier First Rebel is still a Rebel)."""
    state = in_phase("locations")
    first, _ = run(state, {ERNESTO: [at("hq"), o("rebel_move", from_zone=17, to_zone=24)]},
                   submission_order=[ERNESTO])
    assert first.first_rebel == ERNESTO
    first.phase = "locations"
    first.coup_excuse = True
    later, events = run(first, {ERNESTO: [o("rebel_move", from_zone=24, to_zone=18)],
                                JORGE: [o("rebel_move", from_zone=22, to_zone=25)]},
                        submission_order=[JORGE, ERNESTO])
    announced = of_kind(events, "rebels")[0]
    assert later.first_rebel == JORGE == announced.data["first_rebel"]
    assert "Jorge is the First Rebel" in announced.text
    assert later.rebel_orders == [{"seat": ERNESTO, "from_zone": 24, "to_zone": 18},
                                  {"seat": JORGE, "from_zone": 22, "to_zone": 25}]
    assert later.players[ERNESTO].rebel and later.players[JORGE].rebel


def test_rebel_move_conditional_on_an_assassination():
    """Rules: "an order to "Move 3rd Army Brigade to N. Suburb if Bill is assassinated," is
    valid, because assassinations are adjudicated before troop movements"."""
    for killed in (True, False):
        state = locations_game(s3=2)
        pro = give(state, DONA, "Professional Assassin")
        move = o("rebel_move", Condition("killed", {"seat": BILL}), from_zone=17, to_zone=24)
        assert validate_order(state, ERNESTO, move) == []
        orders = {ERNESTO: [move], BILL: [at("club")]}
        if killed:
            orders[DONA] = [kill_order(pro, BILL, "club")]
        after, _ = run(state, orders)
        assert after.players[ERNESTO].rebel is killed


# --- death and the next turn -----------------------------------------------------------------

def test_the_dead_respawn_next_turn_with_4_cards_and_their_bank_account():
    """Rules: "At the beginning of this phase, all dead players "respawn."" and "Players
    returning from death receive 4 cards. All other players receive 2 cards". §assassinations: "The
    victim loses his cards and his pocket ...; his account survives"."""
    state = locations_game(s3=2, s2=5)
    state.players[BILL].bank = 9
    give(state, BILL, "Spy in Switzerland")
    give(state, ERNESTO, "Informant")
    pro = give(state, DONA, "Professional Assassin")
    after, events = run(state, {BILL: [at("club")], DONA: [kill_order(pro, BILL, "club")]})
    assert after.turn == 2 and after.phase == "cabinet"
    bill = after.players[BILL]
    assert bill.status == "alive" and bill.life == 2
    assert len(bill.hand) == 4 and bill.pocket == 0 and bill.bank == 9
    assert len(after.players[ERNESTO].hand) == 3  # Informant plus 2
    assert "returns to public life" in texts(events)


def test_the_dead_give_no_orders():
    """Rules: "though you won't be able to take any in-game actions until that time"."""
    state = in_phase("locations")
    state.players[BILL].status = "dead"
    assert validate_order(state, BILL, at("club")) == [
        "The dead give no orders: prepare your next character for the next turn."]
