"""Rule tests for the Cabinet Appointment phase: card draws, the hand limit and the Cabinet.

Each test quotes the rule it checks from docs/rules.md (§cabinet: §draw-cards, §hand-limit,
§appointment, §brother-in-law; §missed-orders) or docs/rulings.md (the `§ruling-` paragraphs),
or the published game's own words that those paragraphs restate ("Rules"). The standard
cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of Internal
Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel Admiral, 6 Gloria Air Force
Commander, 7 Hector Minister of War, 8 Ines Foreign Minister, 9 Jorge Farm & Labor Secretary.
"""

from __future__ import annotations

import pytest

from junta.engine import BIL, Order, validate_order
from junta.engine import catalog as cat
from junta.engine.phases.cabinet import check_cabinet, random_cabinet
from junta.engine.rng import Rng

from .helpers import game, give, in_phase, in_play, run

CARLOS, MARIA, BILL, DONA, ERNESTO, FIDEL, GLORIA, HECTOR, INES, JORGE = range(10)
G1, G2, G3 = cat.GENERAL_1, cat.GENERAL_2, cat.GENERAL_3
IS, ADMIRAL, AIR, WAR = cat.INTERNAL_SECURITY, cat.ADMIRAL, cat.AIR_FORCE, cat.WAR
FOREIGN, FARM = cat.FOREIGN, cat.FARM_LABOR
# cards that are none of vote, influence or a card the hand-limit tests play
PLAIN = ["Private Eye", "Informant", "Wiretap", "Crooked Accountant", "Spy in Switzerland",
         "Double Agent", "Border Incident", "Annual Street Festival"]


def o(kind: str, **args) -> Order:
    return Order(kind, args)


def standard(state) -> dict[str, int | None]:
    return {p: state.positions[p] for p in cat.CABINET}


def cabinet(state, **changes) -> dict[str, int | None]:
    """The standard cabinet with some positions given to others."""
    return {**standard(state), **changes}


def exiled(*seats: int, players: int = 10):
    state = in_phase("cabinet", players=players)
    for seat in seats:
        state.players[seat].status = "exiled"
    return state


def next_turn(state):
    """Resolve the Locations phase with no orders: the next turn's Cabinet phase opens."""
    assert state.phase == "locations"
    after, events = run(state, {})
    assert after.phase == "cabinet"
    return after, events


def hand_of(state, seat: int, count: int) -> list[int]:
    return [give(state, seat, name) for name in PLAIN[:count]]


# --- card draws -----------------------------------------------------------------------------

def test_on_the_first_turn_every_player_draws_four_cards():
    """Rules: "If this is the first Turn of the game, all players receive 4 cards"."""
    state = game()
    state, _ = run(state, {CARLOS: [o("nominate", candidate=BILL)]})
    after, events = run(state, {s: [o("vote", choice=BILL)] for s in range(10)})
    assert after.turn == 1 and after.phase == "cabinet"
    assert [len(p.hand) for p in after.players] == [4] * 10
    drawn = [e for e in events if e.kind == "cards_drawn"]
    assert [e.audience for e in drawn] == [(s,) for s in range(10)]
    assert len(after.political_deck) == 88 - 40


def test_later_turns_draw_two_and_returning_dead_draw_four():
    """Rules: "Otherwise... Players returning from death receive 4 cards. All other players
    receive 2 cards"."""
    state = in_phase("locations", turn=3)
    state.players[DONA].status = "dead"
    state.players[DONA].fresh = True
    state.positions[G2] = None
    after, events = next_turn(state)
    assert after.turn == 4
    assert after.players[DONA].status == "alive" and after.players[DONA].life == 2
    assert [len(p.hand) for p in after.players] == [2, 2, 2, 4, 2, 2, 2, 2, 2, 2]
    assert any(e.kind == "respawn" and e.data["seat"] == DONA for e in events)


def test_draws_go_over_the_hand_limit_until_the_deadline():
    """Rules: "All other players receive 2 cards (even if this puts them over the Max Hand
    Limit - see below)"."""
    state = in_phase("locations", turn=2)
    hand_of(state, BILL, 6)
    after, _ = next_turn(state)
    assert len(after.players[BILL].hand) == 8


def test_at_the_deadline_the_newest_cards_are_discarded_down_to_six():
    """Rules: "No player can hold more than 6 cards at once... If a player ever has more than
    6 cards they must immediately Pass, Play or Discard down to 6." §hand-limit: "at every
    deadline the newest cards in hand are discarded until six remain".
    (§hand-limit, §ruling-hand-limit)."""
    state = in_phase("locations", turn=2)
    old = hand_of(state, BILL, 6)
    opened, _ = next_turn(state)
    new = opened.players[BILL].hand[6:]
    after, events = run(opened, {CARLOS: [o("appoint", positions=standard(opened))]})
    assert after.players[BILL].hand == old
    assert all(c in after.political_discard for c in new)
    told = [e for e in events if e.kind == "hand_limit"]
    assert len(told) == 2 and all(e.audience == (BILL,) for e in told)


def test_influence_in_play_counts_towards_the_hand_limit():
    """Rules: "It is important to note that Influence Cards in play count towards the
    maximum hand limit"."""
    state = in_phase("locations", turn=2)
    church = in_play(state, BILL, "Church")
    students = in_play(state, BILL, "Students")
    old = hand_of(state, BILL, 4)
    opened, _ = next_turn(state)
    assert opened.cards_held(BILL) == 8
    after, _ = run(opened, {CARLOS: [o("appoint", positions=standard(opened))]})
    assert after.players[BILL].influence == [church, students]
    assert after.players[BILL].hand == old


def test_a_player_over_the_limit_may_choose_what_to_discard():
    """Rules: "they must immediately Pass, Play or Discard down to 6"."""
    state = in_phase("locations", turn=2)
    old = hand_of(state, BILL, 6)
    opened, _ = next_turn(state)
    new = opened.players[BILL].hand[6:]
    after, _ = run(opened, {BILL: [o("discard", card=old[0]), o("give_card", to=DONA,
                                                                  card=old[1])],
                            CARLOS: [o("appoint", positions=standard(opened))]})
    assert after.players[BILL].hand == old[2:] + new
    assert old[1] in after.players[DONA].hand


def test_no_card_may_be_passed_to_a_player_at_the_limit_influence_counting():
    """Rules: "Note: You cannot pass cards to someone who is already at the Max Hand
    Limit." "Influence Cards in play count towards the maximum hand limit"."""
    state = in_phase("cabinet")
    in_play(state, DONA, "Church")
    hand_of(state, DONA, 5)
    card = give(state, BILL, "Black Marketeers")
    assert validate_order(state, BILL, o("give_card", to=DONA, card=card)) == [
        "Dona already holds 6 cards: no card may be passed to a player at the hand limit."]
    state.players[DONA].hand.pop()
    assert validate_order(state, BILL, o("give_card", to=DONA, card=card)) == []


def test_a_gift_that_would_pass_the_limit_when_it_resolves_fails():
    """Rules: "You cannot pass cards to someone who is already at the Max Hand Limit"."""
    state = in_phase("cabinet")
    hand_of(state, DONA, 5)
    first = give(state, BILL, "Black Marketeers")
    second = give(state, BILL, "Ghost Voters")
    after, events = run(state, {BILL: [o("give_card", to=DONA, card=first),
                                       o("give_card", to=DONA, card=second)],
                                CARLOS: [o("appoint", positions=standard(state))]})
    assert after.cards_held(DONA) == 6 and first in after.players[DONA].hand
    assert second in after.players[BILL].hand
    failed = [e for e in events if e.kind == "gift_failed"]
    assert len(failed) == 1 and failed[0].audience == (BILL, DONA)


# --- the appointment ------------------------------------------------------------------------

def test_a_legal_cabinet_is_appointed_and_public():
    """Rules: "Once cards have been drawn, the President must appoint a Cabinet... when all
    10 players are alive and in-country, they will each have one position"."""
    state = in_phase("cabinet")
    rotated = {pos: 1 + (i + 1) % 9 for i, pos in enumerate(cat.CABINET)}
    assert check_cabinet(state, rotated) == []
    after, events = run(state, {CARLOS: [o("appoint", positions=rotated)]})
    assert {p: after.positions[p] for p in cat.CABINET} == rotated
    line = [e for e in events if e.kind == "cabinet"][0]
    assert line.audience == "public" and "Foreign Minister: Jorge" in line.text
    assert after.phase == "budget_draw"


def test_only_the_president_appoints():
    """Rules: "the President must appoint a Cabinet"."""
    state = in_phase("cabinet")
    assert validate_order(state, BILL, o("appoint", positions=standard(state))) == [
        "Only the President appoints the Cabinet."]


def test_each_living_in_country_player_needs_a_position():
    """Rules: "Each living, non-exiled player MUST be given at least one position"."""
    state = in_phase("cabinet")
    assert check_cabinet(state, cabinet(state, **{G1: MARIA})) == [
        "Bill must be given at least one position."]


def test_no_player_gets_more_than_two_positions():
    """Rules: "The President may not appoint any one player to more than 2 positions"."""
    state = in_phase("cabinet", players=6)
    positions = {IS: MARIA, ADMIRAL: MARIA, AIR: MARIA, G1: BILL, WAR: BILL, G2: DONA,
                 FOREIGN: DONA, G3: ERNESTO, FARM: ERNESTO}
    assert check_cabinet(state, positions) == [
        "Maria would hold 3 positions; the limit is two.",
        "Fidel must be given at least one position."]


def test_no_player_gets_two_general_positions():
    """Rules: "nor may he give any player two General positions"."""
    state = exiled(ERNESTO)
    assert check_cabinet(state, cabinet(state, **{G1: BILL, G2: BILL, G3: DONA})) == [
        "Bill cannot hold two General positions."]
    assert check_cabinet(state, cabinet(state, **{G3: BILL})) == [
        "Bill cannot hold two General positions."]
    assert check_cabinet(state, cabinet(state, **{G3: FIDEL})) == []


def test_the_president_holds_no_second_position_except_through_his_brother_in_law():
    """Rules: "The President may himself not be given any second position, except by use of
    the President's Brother in Law"."""
    state = exiled(ERNESTO)
    assert check_cabinet(state, cabinet(state, **{G3: CARLOS})) == [
        "You may not take the Generalissimo of the 3rd Army Brigade yourself: the President "
        "holds a second position only through his Brother-in-Law."]
    assert check_cabinet(state, cabinet(state, **{G3: BIL})) == []
    after, _ = run(state, {CARLOS: [o("appoint", positions=cabinet(state, **{G3: BIL}))]})
    assert after.positions[G3] == BIL
    assert G3 in after.commanded_positions(CARLOS)


def test_the_brother_in_law_holds_at_most_one_position():
    """§brother-in-law: "He holds at most one position at a time"."""
    state = exiled(ERNESTO, FIDEL)
    assert check_cabinet(state, cabinet(state, **{G3: BIL, ADMIRAL: BIL})) == [
        "Your Brother-in-Law can hold only one position."]
    assert check_cabinet(state, cabinet(state, **{G3: BIL, ADMIRAL: BILL})) == []


def test_exiles_and_the_dead_hold_no_position():
    """Rules: "Each living, non-exiled player MUST be given at least one position"; an exile's
    "position is open to the President's Brother-in-Law, until the beginning of the next
    turn, in which it must be given out normally"."""
    state = exiled(ERNESTO)
    assert check_cabinet(state, standard(state)) == [
        "Ernesto is exiled and cannot hold a position."]
    state.players[ERNESTO].status = "dead"
    assert check_cabinet(state, standard(state)) == [
        "Ernesto is dead and cannot hold a position."]


def test_every_position_that_can_be_filled_is_filled():
    """Rules: "the President must appoint a Cabinet". §appointment: "Every position a player
    or the Brother-in-Law can take must be filled"."""
    state = exiled(ERNESTO)
    assert check_cabinet(state, cabinet(state, **{G3: None})) == [
        "The Generalissimo of the 3rd Army Brigade must be filled: a player or your "
        "Brother-in-Law can still take it."]


def test_positions_go_to_players_of_the_game():
    """Rules: "the President must appoint a Cabinet"."""
    state = in_phase("cabinet")
    assert check_cabinet(state, cabinet(state, **{G3: 42})) == [
        "The Generalissimo of the 3rd Army Brigade must go to a player or your "
        "Brother-in-Law."]
    assert check_cabinet(state, {**standard(state), "king": BILL}) == [
        "Only the nine Cabinet positions can be appointed."]


def test_six_players_hold_the_nine_positions_within_the_limits():
    """§about: "the GameMaster may start one with six to ten"; §appointment: "with fewer
    players in the country some hold two positions" (nobody more than two)."""
    state = in_phase("cabinet", players=6)
    legal = {IS: MARIA, ADMIRAL: MARIA, G1: BILL, AIR: BILL, G2: DONA, WAR: DONA,
             G3: ERNESTO, FOREIGN: ERNESTO, FARM: FIDEL}
    assert check_cabinet(state, legal) == []
    assert check_cabinet(state, {**legal, FARM: BIL}) == [
        "Fidel must be given at least one position."]
    assert check_cabinet(state, {**legal, FOREIGN: BIL}) == []
    assert check_cabinet(state, {**legal, FOREIGN: None}) == [
        "The Foreign Minister must be filled: a player or your Brother-in-Law can still take "
        "it."]
    assert check_cabinet(state, {**legal, G3: BILL, FARM: ERNESTO}) == [
        "Bill would hold 3 positions; the limit is two.",
        "Bill cannot hold two General positions.",
        "Fidel must be given at least one position."]
    after, _ = run(state, {CARLOS: [o("appoint", positions=legal)]})
    assert after.positions_of(MARIA) == [IS, ADMIRAL]
    assert after.commanded_positions(FIDEL) == [FARM]


def test_with_too_few_players_the_brother_in_law_fills_and_the_rest_stay_open():
    """§appointment: "the Brother-in-Law takes one that nobody else can, and any others stay
    empty until the next Cabinet Appointment"."""
    state = exiled(DONA, ERNESTO, players=6)  # Maria, Bill and Fidel: 6 seats and the BiL
    legal = {IS: MARIA, G1: MARIA, G2: BILL, ADMIRAL: BILL, G3: FIDEL, AIR: FIDEL, WAR: BIL,
             FOREIGN: None, FARM: None}
    assert check_cabinet(state, legal) == []
    errors = check_cabinet(state, {**legal, WAR: None})
    assert errors[0] == ("The Minister of War must be filled: a player or your "
                         "Brother-in-Law can still take it.")
    assert len(errors) == 3  # the Brother-in-Law could take any one of the three


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10])
def test_the_random_default_cabinet_is_legal(players):
    """§missed-orders: "a random legal Cabinet for the President"."""
    for i in range(60):
        state = in_phase("cabinet", players=players, seed=f"cab-{i}")
        for k in range(i % (players - 1)):
            state.players[players - 1 - k].status = "exiled"
        assert check_cabinet(state, random_cabinet(state, Rng(f"r-{players}-{i}"))) == []


def test_without_a_legal_appointment_the_cabinet_is_appointed_by_lot():
    """§missed-orders: a President who gives no legal appointment gets "a random legal
    Cabinet"."""
    state = in_phase("cabinet")
    bad = cabinet(state, **{G1: MARIA})
    after, events = run(state, {CARLOS: [o("appoint", positions=bad)]})
    dropped = [e for e in events if e.kind == "order_dropped"]
    assert dropped and dropped[0].audience == (CARLOS,)
    assert "Bill must be given at least one position." in dropped[0].text
    assert any(e.kind == "cabinet_default" for e in events)
    assert check_cabinet(state, {p: after.positions[p] for p in cat.CABINET}) == []
    missed, _ = run(state, {})
    assert check_cabinet(state, {p: missed.positions[p] for p in cat.CABINET}) == []


def test_without_a_president_there_is_no_brother_in_law_to_appoint():
    """§brother-in-law: "The Brother-in-Law is not a player: a position he holds is exercised
    by the President"; §missed-orders: "a random legal Cabinet" (§ruling-no-president: with the
    President gone, e.g. fled in a coup, the lot fills what players can hold and leaves the
    rest open)."""
    state = exiled(CARLOS, DONA, ERNESTO, players=6)  # Maria, Bill and Fidel remain
    state.positions[cat.PRESIDENT] = None
    legal = {IS: MARIA, G1: MARIA, G2: BILL, ADMIRAL: BILL, G3: FIDEL, AIR: FIDEL, WAR: None,
             FOREIGN: None, FARM: None}
    assert check_cabinet(state, legal) == []
    assert check_cabinet(state, {**legal, WAR: BIL}) == [
        "Without a President there is no Brother-in-Law to hold the Minister of War."]
    for i in range(30):
        chosen = random_cabinet(state, Rng(f"no-president-{i}"))
        assert BIL not in chosen.values()
        assert check_cabinet(state, chosen) == []
    after, _ = run(state, {})
    assert BIL not in after.positions.values()
    assert check_cabinet(state, {p: after.positions[p] for p in cat.CABINET}) == []
