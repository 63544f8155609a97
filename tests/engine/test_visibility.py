"""Leak tests for `visibility.view_for` and event audiences (docs/rules.md §secrets).

Every secret is filled with a unique marker (pockets 900001.., banks 800001.., a distinctive
card in each hand, marked locations, marked budget bills, the seed...). A player's view holds
his own markers and nobody else's; a spectator sees none; the GM sees all; at game end
everything is revealed. Non-interference tests change one person's secrets and check that
nobody else's view changes at all. Events from whole campaigns never reach the wrong people.
"""

from __future__ import annotations

import json

import pytest

from junta.engine import GameState, new_game, resolve, view_for
from junta.engine import catalog as cat
from junta.engine.bots import play_phase
from junta.engine.rng import Rng

from .helpers import NAMES, give, in_phase, in_play

SEED_MARKER = "seedmarker-q7x"
BIL_MARKER = "bilprefmarker-z3"
HAND_MARKERS = ["Spy in Switzerland", "Psychotic Assassin", "Ghost Voters", "Black Marketeers",
                "Mole in the Treasury", "Crooked Accountant", "Double Agent", "Summer Recess",
                "Ballot Stuffers", "Private Eye"]
PUBLIC_INFLUENCE = "Landowners"  # in play in front of seat 3: everyone sees it
PRESIDENT, FM, FL = 0, 8, 9  # the standard cabinet: foreign is seat 8, farm & labor seat 9
VIEWERS: list[int | str | None] = [*range(10), None, "gm"]


def dumps(viewer, state: GameState) -> str:
    return json.dumps(view_for(state, viewer))


def seat_markers(seat: int) -> list[str]:
    return [str(900001 + seat), str(800001 + seat), HAND_MARKERS[seat],
            f"locmarker-{seat}", f"lastmarker-{seat}"]


def marked_state(players: int = 10) -> tuple[GameState, dict[int, list[str]]]:
    """A Budget Proposal phase with every secret marked; the markers each seat may see."""
    state = in_phase("budget_proposal", players, seed=SEED_MARKER)
    assert state.commander(cat.FOREIGN) == FM and state.commander(cat.FARM_LABOR) == FL
    for p in state.players:
        p.pocket = 900001 + p.seat
        p.bank = 800001 + p.seat
        give(state, p.seat, HAND_MARKERS[p.seat])
        p.location = f"locmarker-{p.seat}"
        p.last_location = f"lastmarker-{p.seat}"
    in_play(state, 3, PUBLIC_INFLUENCE)
    drawn = {cat.FOREIGN: [710001, 710002], cat.FARM_LABOR: [720001],
             cat.PRESIDENT: [730001, 730002]}
    held = drawn[cat.FOREIGN] + drawn[cat.FARM_LABOR] + drawn[cat.PRESIDENT]
    state.budget = {"drawn": drawn, "all_drawn": list(held), "held": list(held),
                    "holder": PRESIDENT, "proposer": PRESIDENT, "outcome": None,
                    "proposal": {"allocations": {"3": 5}, "from_pocket": 760001,
                                 "bills": {"3": [740001]}, "top_up": {"3": 750001}}}
    state.turn_flags = {"bil_preference": BIL_MARKER, "mole": [4]}
    state.secret_police_bank_turn = 1
    markers = {p.seat: seat_markers(p.seat) for p in state.players}
    markers[FM] += ["710001", "710002"]
    markers[FL] += ["720001"]
    markers[PRESIDENT] += [str(b) for b in held] + ["740001", "750001", "760001"]
    return state, markers


def gm_only() -> list[str]:
    return [SEED_MARKER, BIL_MARKER, '"extra_bills"', '"money_deck"', '"political_deck"',
            '"political_discard"', '"rng_counter"']


def test_markers_are_distinct_from_public_text():
    """§secrets: "Everything is secret unless listed here as public." (The markers
    of the secrets must not occur in a view that holds no secret at all.)"""
    state, _ = marked_state()
    for p in state.players:  # the same state without a single secret in it
        p.pocket = p.bank = 0
        p.hand = []
        p.location = p.last_location = None
    state.budget = {}
    public = dumps(None, state).lower()
    for seat in range(10):
        for marker in seat_markers(seat):
            assert marker.lower() not in public


@pytest.mark.parametrize("viewer", range(10))
def test_a_player_sees_his_secrets_and_no_one_elses(viewer):
    """§secrets: "Private to you: your hand, pocket and Bank account, your location, your
    orders until they are carried out, the bills you drew as a minister (the President sees
    them too), the President's full draw and what he keeps"; "Public: ... the Influence cards
    in play"."""
    state, markers = marked_state()
    text = dumps(viewer, state)
    for marker in markers[viewer]:
        assert marker in text, f"seat {viewer} cannot see his own {marker}"
    for seat, theirs in markers.items():
        for marker in set(theirs) - set(markers[viewer]):
            assert marker not in text, f"seat {viewer} sees seat {seat}'s {marker}"
    for marker in gm_only():
        assert marker not in text, f"seat {viewer} sees {marker}"
    assert PUBLIC_INFLUENCE in text
    assert view_for(state, viewer)["me"]["seat"] == viewer


def test_a_spectator_sees_no_secret():
    """§secrets: "Everything is secret unless listed here as public"; "Public: ... the
    proposed budget's total for each player, ... the Influence cards in play"."""
    state, markers = marked_state()
    text = dumps(None, state)
    for marker in {m for ms in markers.values() for m in ms} | set(gm_only()):
        assert marker not in text
    assert "me" not in view_for(state, None)
    assert PUBLIC_INFLUENCE in text
    assert '"allocations": {"3": 5}' in text  # the proposed totals are public


def test_the_gm_sees_everything():
    """§secrets: "The GameMaster sees everything throughout"; §money-deck: the number of
    extra bills is hidden, and "The extras are revealed at the end"."""
    state, markers = marked_state()
    text = dumps("gm", state)
    for marker in {m for ms in markers.values() for m in ms} | set(gm_only()):
        assert marker in text
    assert view_for(state, "gm")["extra_bills"] == state.extra_bills


def test_everything_is_revealed_at_game_end():
    """§secrets: "When the game ends, everything is revealed: every hand, pocket and account,
    every order, every draw and the number of hidden extra bills"."""
    state, markers = marked_state()
    state.finished = True
    state.phase = "finished"
    state.winners = [9]
    for viewer in VIEWERS:
        text = dumps(viewer, state)
        for marker in {m for ms in markers.values() for m in ms} | set(gm_only()):
            assert marker in text, f"{marker} is not revealed to {viewer!r} at the end"


def test_alternative_budget_keeps_the_presidents_draw_and_the_new_proposal_apart():
    """After an Alternative Budget its player holds all the bills but the President's smallest;
    the President's full draw stays his, the new proposal (pocket top-up) the player's.
    §secrets: "Private to you: ... the bills you drew as a minister (the President sees them
    too), the President's full draw and what he keeps"."""
    state, _ = marked_state()
    alt = 5
    state.budget = {
        "drawn": {cat.FOREIGN: [710001], cat.FARM_LABOR: [720001],
                  cat.PRESIDENT: [730001, 730002]},
        "all_drawn": [710001, 720001, 730001, 730002], "held": [720001, 730001, 730002],
        "holder": alt, "proposer": alt, "alternative_used": True, "outcome": None,
        "proposal": {"allocations": {"2": 3}, "from_pocket": 760001, "bills": {"2": [740001]},
                     "top_up": {"2": 750001}}}
    alt_view = dumps(alt, state)
    for marker in ("720001", "730001", "730002", "740001", "750001", "760001"):
        assert marker in alt_view
    assert "710001" not in alt_view  # the bill the President kept
    president = dumps(PRESIDENT, state)
    assert all(m in president for m in ("710001", "720001", "730001", "730002"))
    assert not any(m in president for m in ("740001", "750001", "760001"))
    assert "710001" in dumps(FM, state) and "720001" not in dumps(FM, state)
    assert "720001" in dumps(FL, state) and "710001" not in dumps(FL, state)
    for viewer in (1, 2, 3, None):
        text = dumps(viewer, state)
        assert not any(m in text for m in ("710001", "720001", "730001", "740001", "750001",
                                           "760001"))


# --- non-interference: change a secret, nobody else's view changes ----------------------------

def views(state: GameState) -> dict:
    return {viewer: dumps(viewer, state) for viewer in VIEWERS}


def assert_only_changed_for(before: dict, after: dict, allowed: set) -> None:
    for viewer in VIEWERS:
        if viewer in allowed or viewer == "gm":
            continue
        assert before[viewer] == after[viewer], f"{viewer!r}'s view changed"
    assert before["gm"] != after["gm"]


@pytest.mark.parametrize("seat", [0, 4, 8, 9])
def test_a_players_secrets_do_not_reach_anyone_else(seat):
    """§secrets: "Private to you: your hand, pocket and Bank account, your location"."""
    state, _ = marked_state()
    before = views(state)
    p = state.players[seat]
    p.pocket, p.bank = 3, 17
    p.location, p.last_location = "club", "mistress"
    swap = next(c for c in state.political_deck
                if cat.card(c).category == cat.card(p.hand[0]).category)
    state.political_deck.remove(swap)
    state.political_deck.append(p.hand[0])
    p.hand[0] = swap
    after = views(state)
    assert_only_changed_for(before, after, {seat})
    assert before[seat] != after[seat]


def test_hidden_game_secrets_reach_the_gm_only():
    """§secrets: "Everything is secret unless listed here as public"; "The GameMaster sees
    everything throughout"; §money-deck: the number of extra bills is hidden, and "The extras
    are revealed at the end"."""
    state, _ = marked_state()
    before = views(state)
    state.seed = "another-seed"
    state.rng_counter += 99
    state.money_deck.reverse()
    state.extra_bills += 3
    state.money_deck += [1, 2, 3]  # the bills drawn so far (public) stay the same
    state.political_deck.reverse()
    moved = state.political_deck.pop()
    state.political_discard.append(moved)
    state.turn_flags = {"bil_preference": cat.ADMIRAL, "mole": [6],
                        "influence_discount_used": {"3:1": True}}
    state.secret_police_bank_turn = None
    assert_only_changed_for(before, views(state), set())


def test_a_ministers_draw_reaches_him_and_the_president_only():
    """§secrets: "Private to you: ... the bills you drew as a minister (the President sees
    them too)"; "Public: ... how many bills each minister drew"."""
    state, _ = marked_state()
    before = views(state)
    drawn = state.budget["drawn"]
    drawn[cat.FOREIGN] = [3, 1]
    state.budget["held"] = state.budget["all_drawn"] = \
        drawn[cat.FOREIGN] + drawn[cat.FARM_LABOR] + drawn[cat.PRESIDENT]
    assert_only_changed_for(before, views(state), {FM, PRESIDENT})


def test_the_presidents_proposal_details_reach_him_only():
    """§secrets: "Private to you: ... the President's full draw and what he keeps"; "Public:
    ... the proposed budget's total for each player" (the totals are not changed here, only
    the bills, the pocket money added and the top-ups)."""
    state, _ = marked_state()
    before = views(state)
    state.budget["proposal"].update({"from_pocket": 2, "bills": {"3": [3, 2]},
                                     "top_up": {"3": 0}})
    assert_only_changed_for(before, views(state), {PRESIDENT})


# --- views and events along whole campaigns ----------------------------------------------------

NEVER_PUBLIC = frozenset({"cards_drawn", "my_draw", "budget_bills", "skim", "my_location",
                          "banking", "donation", "intelligence", "payment", "gift", "trade",
                          "killed_by", "attempt_succeeded", "attempt_failed", "order_dropped",
                          "burglary", "robbery", "pocket_taken"})


def campaign_states(seed: str, players: int):
    """(state, events of the phase that produced it) along one bot campaign."""
    state = new_game(seed, NAMES[:players])
    rng = Rng(f"bots-{seed}")
    yield state, []
    while not state.finished:
        r = resolve(state, play_phase(state, rng))
        state = r.state
        yield state, r.events


@pytest.mark.parametrize("seed, players", [("views-a", 6), ("views-b", 8), ("views-c", 10)])
def test_views_along_a_campaign(seed, players):
    """§secrets: "Everything is secret unless listed here as public": beyond his own
    secrets ("Private to you: your hand, pocket and Bank account, ..."),
    every player sees the same public view as a spectator, at every phase of a campaign."""
    for state, _ in campaign_states(seed, players):
        spectator = view_for(state, None)
        assert state.finished == ("full" in spectator)
        for seat in range(players):
            view = view_for(state, seat)
            me = view.pop("me")
            assert me["seat"] == seat
            assert [c["id"] for c in me["hand"]] == state.players[seat].hand
            assert (me["pocket"], me["bank"]) == (state.players[seat].pocket,
                                                  state.players[seat].bank)
            assert view == spectator  # beyond "me", every player sees the same public view
        json.dumps(view_for(state, "gm"))


@pytest.mark.parametrize("seed, players", [("events-a", 6), ("events-b", 7), ("events-c", 9),
                                           ("events-d", 10)])
def test_private_events_reach_their_audience_only(seed, players):
    """§secrets: "Private to you: your hand, pocket and Bank account, your location, ... the
    bills you drew as a minister (the President sees them too), the President's full draw and
    what he keeps, what your Intelligence cards learn"; "A failed assassination attempt is told
    to its target and to the attacker only"; "The GameMaster sees everything throughout"."""
    kinds = set()
    for _, events in campaign_states(seed, players):
        for e in events:
            json.dumps(e.to_dict())
            assert e.visible_to("gm")
            if e.audience == "public":
                assert e.kind not in NEVER_PUBLIC, e.text
                assert e.visible_to(None) and all(e.visible_to(s) for s in range(players))
                continue
            kinds.add(e.kind)
            assert not e.visible_to(None), e.text
            if e.audience == "gm":
                assert not any(e.visible_to(s) for s in range(players))
                continue
            assert e.audience and list(e.audience) == sorted(set(e.audience))
            assert all(0 <= s < players for s in e.audience)
            for s in range(players):
                assert e.visible_to(s) == (s in e.audience), (s, e)
            if e.kind in ("cards_drawn", "my_draw", "my_location", "skim", "banking",
                          "killed_by", "donation"):
                assert len(e.audience) == 1, e
    assert {"cards_drawn", "my_location", "budget_bills"} <= kinds


def test_event_audiences():
    """§secrets: "Everything is secret unless listed here as public"; "The GameMaster sees
    everything throughout" (a private event reaches its audience and the GM, a public one
    everyone)."""
    from junta.engine.events import Event
    private = Event("x", "secret", (2, 5))
    assert [s for s in range(10) if private.visible_to(s)] == [2, 5]
    assert not private.visible_to(None) and private.visible_to("gm")
    gm = Event("x", "gm only", "gm")
    assert not any(gm.visible_to(s) for s in [*range(10), None]) and gm.visible_to("gm")
    public = Event("x", "news")
    assert all(public.visible_to(s) for s in [*range(10), None, "gm"])
    assert Event.from_dict(json.loads(json.dumps(private.to_dict()))) == private


@pytest.mark.parametrize("viewer", [-1, 10, 99])
def test_no_view_for_a_seat_nobody_holds(viewer):
    """§brother-in-law: "The Brother-in-Law is not a player". The Brother-in-Law (-1) must
    not wrap round to the last player's secrets (§secrets: "Private to you")."""
    state, _ = marked_state()
    with pytest.raises(ValueError):
        view_for(state, viewer)
