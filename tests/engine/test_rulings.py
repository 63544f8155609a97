"""The GameMaster's rulings (`junta.engine.rulings`) and the invariants they keep
(`junta.engine.invariants`), docs/rulings.md §rulings-gm.

A ruling takes a state and returns a new one, or refuses with a message for the GM. Whatever a
ruling does, the result keeps the rules' invariants: the money in the game stays the same, each
political card lies in exactly one place, no pocket or bank goes negative, the dead hold nothing,
units stand on the city's zones. The random test at the end gives every ruling arguments drawn
from states of bot campaigns: a ruling the rules allow must be carried out, and no result may
break an invariant, so a ruling that loses money or a card fails here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from junta.engine import (
    BIL,
    RulingError,
    add_unit,
    budget_by_fiat,
    card_place,
    change_problems,
    digest,
    move_card,
    move_money,
    name_character,
    remove_unit,
    set_location,
    state_problems,
)
from junta.engine import catalog as cat

from .coup_states import coup_state
from .helpers import campaign_states, give, in_phase, in_play

CARLOS, MARIA, BILL = 0, 1, 2


def located(state):  # noqa: ANN001, ANN201 - a GameState
    """`state` as after the turn's Locations step: every living player somewhere (Home)."""
    for p in state.players:
        if p.alive:
            p.location = "home"
    return state


# --- money ------------------------------------------------------------------------------------

def test_money_moves_between_pockets_banks_and_out_of_play_and_is_conserved():
    state = in_phase("locations")
    state.players[CARLOS].pocket = 7
    total = state.bills_total()
    done = move_money(state, "pocket:0", "bank:1", 5)
    assert (done.state.players[CARLOS].pocket, done.state.players[MARIA].bank) == (2, 5)
    assert done.state.bills_total() == total
    assert done.summary == "5 MP from Carlos's pocket to Maria's Swiss bank account"
    assert done.facts == {"source": "pocket:0", "target": "bank:1", "amount": 5}
    out = move_money(done.state, "bank:1", "out", 3)
    assert out.state.spent == state.spent + 3
    back = move_money(out.state, "out", "pocket:2", 3)
    assert back.state.players[BILL].pocket == state.players[BILL].pocket + 3


def test_a_ruling_never_changes_the_state_it_rules_on():
    state = located(in_phase("locations"))
    state.players[CARLOS].pocket = 7
    before = digest(state)
    move_money(state, "pocket:0", "pocket:1", 4)
    move_card(state, state.political_deck[-1], "hand:1")
    set_location(state, MARIA, "bank")
    assert digest(state) == before


@pytest.mark.parametrize("source, target, amount, message", [
    ("pocket:0", "pocket:1", 8, "Carlos's pocket holds 7 MP, not 8 MP."),
    ("pocket:0", "pocket:0", 1, "The money would go where it already is."),
    ("pocket:0", "bank:0", 0, "Move a whole number of MP, 1 or more."),
    ("pocket:0", "bank:0", True, "Move a whole number of MP, 1 or more."),
    ("out", "pocket:1", 1, "Only 0 MP is out of play."),
    ("pocket:0", "pocket:12", 1, "There is no seat 12 in this campaign."),
    ("purse:0", "pocket:1", 1, "'purse:0' is not a pocket, a bank account or out of play."),
])
def test_money_that_is_not_there_cannot_move(source, target, amount, message):
    state = in_phase("locations")
    state.players[CARLOS].pocket = 7
    state.spent = 0
    with pytest.raises(RulingError) as refused:
        move_money(state, source, target, amount)
    assert str(refused.value) == message


def test_the_dead_keep_no_pocket_money_but_their_bank_account():
    """docs/rules.md §death: the dead lose their cards and pocket money; the Swiss bank
    account survives."""
    state = in_phase("locations")
    state.players[CARLOS].pocket = 4
    state.players[MARIA].status = "dead"
    with pytest.raises(RulingError, match="Maria is dead: the dead keep no pocket money"):
        move_money(state, "pocket:0", "pocket:1", 2)
    assert move_money(state, "pocket:0", "bank:1", 2).state.players[MARIA].bank == 2


# --- cards ------------------------------------------------------------------------------------

def test_a_card_moves_from_the_draw_pile_to_a_hand_and_lies_in_one_place():
    state = in_phase("cabinet")
    top = state.political_deck[-1]
    done = move_card(state, top, "hand:1")
    assert card_place(done.state, top) == "hand:1"
    assert top not in done.state.political_deck
    assert done.facts["origin"] == "deck" and done.facts["target"] == "hand:1"
    back = move_card(done.state, top, "deck_bottom")
    assert back.state.political_deck[0] == top
    assert move_card(back.state, top, "deck_top").state.political_deck[-1] == top


def test_only_influence_cards_lie_in_play():
    """docs/rules.md §hand-limit: Influence cards are played before their holder."""
    state = in_phase("cabinet")
    vote = give(state, BILL, "Ghost Voters")
    with pytest.raises(RulingError, match="Only Influence cards lie in play before a player"):
        move_card(state, vote, "influence:2")
    church = give(state, BILL, "Church")
    assert card_place(move_card(state, church, "influence:2").state, church) == "influence:2"


def test_no_card_goes_to_a_hand_at_the_limit_or_to_the_dead():
    """docs/rules.md §hand-limit: "Hand plus Influence in play" is at most six cards."""
    state = in_phase("locations")
    for name in ("Ghost Voters", "Middle Class", "Peasant Vote", "Ballot Stuffers", "Dock Workers"):
        give(state, BILL, name)
    in_play(state, BILL, "Church")
    assert state.cards_held(BILL) == cat.HAND_LIMIT
    card = state.political_deck[-1]
    with pytest.raises(RulingError, match="Bill already holds 6 cards"):
        move_card(state, card, "hand:2")
    # within the same player's cards the limit does not stop a move
    church = state.players[BILL].influence[0]
    assert card_place(move_card(state, church, "hand:2").state, church) == "hand:2"
    state.players[MARIA].status = "dead"
    with pytest.raises(RulingError, match="Maria is dead: the dead hold no cards."):
        move_card(state, card, "hand:1")


@pytest.mark.parametrize("card_id, target, message", [
    (-1, "discard", "There is no such political card."),
    (len(cat.cards()), "discard", "There is no such political card."),
    (0, "table", "'table' is not a place for a card."),
    (0, "hand:x", "Name the player who gets the card."),
])
def test_a_card_move_names_a_real_card_and_place(card_id, target, message):
    with pytest.raises(RulingError) as refused:
        move_card(in_phase("cabinet"), card_id, target)
    assert str(refused.value) == message


# --- locations, names -------------------------------------------------------------------------

def test_a_location_ruling_that_changes_nothing_is_refused():
    """A ruling must change something: as a money move to where the money already is, a
    location set to the one already held is refused (and the GM's players' open order forms
    stay current)."""
    state = located(in_phase("locations"))
    state.players[MARIA].location = "bank"
    with pytest.raises(RulingError, match="Maria is at Bank already: nothing would change."):
        set_location(state, MARIA, "bank")
    state.players[MARIA].location = None
    with pytest.raises(RulingError, match="Maria has no location already: nothing would"):
        set_location(state, MARIA, None)


def test_a_location_is_set_for_the_living_only():
    state = located(in_phase("locations"))
    clubbed = set_location(state, MARIA, "club").state
    assert clubbed.players[MARIA].location == "club"
    assert set_location(clubbed, MARIA, None).state.players[MARIA].location is None
    with pytest.raises(RulingError, match="'castle' is not a location"):
        set_location(state, MARIA, "castle")
    state.players[MARIA].status = "dead"
    with pytest.raises(RulingError, match="Maria is dead: only the living have a location."):
        set_location(state, MARIA, "home")


def test_no_location_is_set_before_the_turn_s_locations_are_chosen():
    """docs/rules.md §location: until the Locations phase is carried out nobody has a location
    this turn, and the location orders would replace one the GM set."""
    state = in_phase("locations")
    with pytest.raises(RulingError, match="Nobody has a location yet this turn: locations are "
                                          "chosen when the Locations phase is carried out"):
        set_location(state, MARIA, "bank")


def test_a_character_is_renamed_and_must_have_a_name():
    state = in_phase("cabinet")
    assert name_character(state, BILL, "  Paco ").state.players[BILL].name == "Paco"
    with pytest.raises(RulingError, match="Give the character a name."):
        name_character(state, BILL, "   ")


# --- units ------------------------------------------------------------------------------------

def test_units_come_and_go_only_during_a_coup_and_on_the_city_zones():
    """docs/rulings.md §ruling-map: units stand on the city's 28 zones during a coup."""
    with pytest.raises(RulingError, match="There is no coup under way"):
        add_unit(in_phase("locations"), "Mob", None, 3)
    state, _ = coup_state()
    added = add_unit(state, "Mob", MARIA, 3, armed=False)
    unit = added.facts["unit"]
    assert any(u["id"] == unit and u["zone"] == 3 and not u["armed"]
               for u in added.state.coup["units"])
    with pytest.raises(RulingError, match="There is no zone 99 in the city"):
        add_unit(state, "Mob", MARIA, 99)
    with pytest.raises(RulingError, match="' ' is not a kind of unit in the rules: choose one "
                                          "of Palace Guard, Police, Soldier"):
        add_unit(state, " ", MARIA, 3)
    removed = remove_unit(added.state, unit)
    assert all(u["id"] != unit for u in removed.state.coup["units"])
    with pytest.raises(RulingError, match=f"There is no unit {unit} on the map."):
        remove_unit(removed.state, unit)


def test_a_unit_removed_does_not_come_back():
    """Units destroyed in a coup do not come back (`invariants.change_problems`)."""
    state, _ = coup_state()
    gone = state.coup["units"][0]
    after = remove_unit(state, gone["id"]).state
    assert change_problems(after, state) == [f"units destroyed in the coup come back: "
                                             f"{gone['id']}"]


# --- the budget -------------------------------------------------------------------------------

def test_a_budget_by_fiat_replaces_the_proposal_only_at_the_vote():
    """docs/rulings.md §ruling-feasibility: a budget paid out of the budget bills alone."""
    with pytest.raises(RulingError, match="in the Budget Vote phase"):
        budget_by_fiat(in_phase("budget_proposal"), {1: 1})
    state = in_phase("budget_vote")
    state.budget = {"held": [3, 2, 1], "proposer": CARLOS, "set_aside": 0}
    done = budget_by_fiat(state, {1: 3, 2: 2})
    assert done.state.budget["proposal"]["allocations"] == {"1": 3, "2": 2}
    assert done.state.budget["proposal"]["fiat"] is True
    with pytest.raises(RulingError, match="cannot pay these amounts exactly"):
        budget_by_fiat(state, {1: 4, 2: 3})


# --- the invariants themselves ----------------------------------------------------------------

def broken(change) -> list[str]:
    state = in_phase("locations")
    change(state)
    return state_problems(state)


def test_a_sound_state_keeps_every_invariant():
    assert state_problems(in_phase("locations")) == []


@pytest.mark.parametrize("change, problem", [
    (lambda s: setattr(s.players[0], "pocket", -1), "Carlos has -1 MP in pocket"),
    (lambda s: s.players[1].hand.append(s.political_deck[-1]), "is in 2 places"),
    (lambda s: s.political_deck.pop(), "in no place"),
    (lambda s: s.money_deck.append(5), "a bill is not of 1, 2 or 3 MP"),
    (lambda s: (setattr(s.players[1], "status", "dead"), setattr(s.players[1], "pocket", 2)),
     "Maria is dead and keeps cards or pocket money"),
    (lambda s: s.positions.update({cat.PRESIDENT: BIL}),
     "the Brother-in-Law holds the El Presidente without a President"),
    (lambda s: setattr(s.players[4], "status", "exiled"),
     "the Generalissimo of the 3rd Army Brigade is held by Ernesto, who is exiled"),
    (lambda s: s.players[2].hand.extend(s.political_deck[-7:]) or s.political_deck.__delitem__(
        slice(-7, None)), "Bill holds 7 cards, over the limit of 6"),
])
def test_each_invariant_names_what_breaks_it(change, problem):
    assert any(problem in p for p in broken(change)), broken(change)


def test_money_that_appears_or_vanishes_breaks_the_change():
    state = in_phase("locations")
    after = state.copy()
    after.players[0].pocket += 3
    assert f"the money in the game goes from {state.bills_total()} MP to " \
           f"{state.bills_total() + 3} MP" in change_problems(state, after)


# --- every ruling on states of real campaigns -------------------------------------------------

def rulings_to_try(state, draw: random.Random) -> Iterator[tuple[str, Callable, bool]]:
    """(what, the ruling with its arguments, whether the rules allow it) for `state`."""
    living = [p for p in state.players if p.alive]
    active = [p for p in state.players if p.active]
    payer = draw.choice(living)
    payee = draw.choice(state.players)
    if payer.pocket:
        amount = draw.randint(1, payer.pocket)
        yield (f"{amount} MP of {payer.pocket} from {payer.name}'s pocket to a bank",
               lambda: move_money(state, f"pocket:{payer.seat}", f"bank:{payee.seat}", amount),
               True)
    yield (f"{payer.pocket + 1} MP from a pocket of {payer.pocket}",
           lambda: move_money(state, f"pocket:{payer.seat}", "out", payer.pocket + 1), False)
    if state.spent:
        yield ("money back from out of play", lambda: move_money(
            state, "out", f"bank:{payee.seat}", draw.randint(1, state.spent)), True)
    holders = [p for p in state.players if p.hand]
    if holders:
        card = draw.choice(draw.choice(holders).hand)
        yield ("a card from a hand to the discard pile",
               lambda: move_card(state, card, "discard"), True)
    room = [p for p in living if state.cards_held(p.seat) < cat.HAND_LIMIT]
    if room and state.political_deck:
        taker, card = draw.choice(room), draw.choice(state.political_deck)
        yield ("a card from the draw pile to a hand with room",
               lambda: move_card(state, card, f"hand:{taker.seat}"), True)
    full = [p for p in living if state.cards_held(p.seat) >= cat.HAND_LIMIT]
    if full and state.political_discard:
        taker, card = draw.choice(full), draw.choice(state.political_discard)
        yield ("a card to a full hand", lambda: move_card(state, card, f"hand:{taker.seat}"),
               False)
    who = draw.choice(living)
    where = draw.choice([w for w in (None, *cat.LOCATIONS) if w != who.location])
    chosen = any(p.location for p in living)  # docs/rules.md §location: from the Locations step
    yield ("a location", lambda: set_location(state, who.seat, where), chosen)
    yield ("the location held already",
           lambda: set_location(state, who.seat, who.location), False)
    yield ("a new name", lambda: name_character(state, who.seat, "Pancho Villa"), True)
    if state.coup is not None:
        owner = draw.choice([None, *(p.seat for p in active)])
        zone = draw.choice(sorted(cat.zones()))
        yield ("a unit added", lambda: add_unit(state, "Mob", owner, zone), True)
        if state.coup["units"]:
            unit = draw.choice(state.coup["units"])["id"]
            yield ("a unit removed", lambda: remove_unit(state, unit), True)
    else:
        yield ("a unit outside a coup", lambda: add_unit(state, "Mob", None, 1), False)


@pytest.mark.parametrize("seed", ["rulings-a", "rulings-b", "rulings-c"])
def test_every_ruling_the_rules_allow_is_carried_out_and_keeps_every_invariant(seed):
    draw = random.Random(seed)
    coups = 0
    for state in campaign_states(seed, 60):
        assert state_problems(state) == []
        coups += state.coup is not None
        for what, ruling, allowed in rulings_to_try(state, draw):
            before = digest(state)
            try:
                done = ruling()
            except RulingError as refused:
                assert not allowed, f"{what} in {state.phase}: refused: {refused}"
                continue
            assert allowed, f"{what} in {state.phase} was carried out"
            assert digest(state) == before, f"{what} changed the state it ruled on"
            assert change_problems(state, done.state) == [], what
            assert state_problems(done.state) == [], what
    assert coups, "the campaign never reached a coup: choose another seed"
