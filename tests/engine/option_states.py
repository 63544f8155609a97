"""States in which each order option is offered, shared by the options' tests
(tests/engine/test_options.py) and the Orders page's (tests/web/test_orders_page.py,
tests/e2e/test_orders_browser.py).

The standard cabinet of `helpers.in_phase`: seat 0 Carlos is President, 1 Maria Minister of
Internal Security, 2 Bill, 3 Dona and 4 Ernesto the Generals, 5 Fidel Admiral, 6 Gloria Air
Force Commander, 7 Hector Minister of War, 8 Ines Foreign Minister, 9 Jorge Farm & Labor
Secretary.
"""

from __future__ import annotations

from junta.engine import GameState
from junta.engine import catalog as cat

from .helpers import give, in_phase, in_play

PRESIDENT, SECURITY, GENERAL_1, GENERAL_2, GENERAL_3, ADMIRAL, AIR_FORCE, WAR, FOREIGN, FARM = \
    range(10)


def nomination() -> GameState:
    s = in_phase("nomination")
    s.positions[cat.PRESIDENT] = None
    return s


def election() -> GameState:
    """A President to elect after a resignation; the Farm & Labor Secretary holds a Vote
    card."""
    s = in_phase("election")
    s.election = {"reason": "resignation", "candidates": [GENERAL_1, ADMIRAL], "round": 1}
    give(s, FARM, "Ballot Stuffers")
    return s


def budget_vote() -> GameState:
    """The Farm & Labor Secretary (5 votes) has Church influence in play and a Vote card; the
    Admiral holds Power Failure."""
    s = in_phase("budget_vote")
    in_play(s, FARM, "Church")
    give(s, FARM, "Ballot Stuffers")
    give(s, ADMIRAL, "Power Failure")
    return s


def cabinet() -> GameState:
    s = in_phase("cabinet")
    give(s, GENERAL_2, "The President's Competence Questioned")
    return s


def budget_draw() -> GameState:
    return in_phase("budget_draw")


def budget_proposal() -> GameState:
    s = in_phase("budget_proposal")
    s.budget = {"held": [3, 2, 2, 1], "all_drawn": [3, 2, 2, 1], "holder": PRESIDENT,
                "proposer": PRESIDENT}
    s.players[PRESIDENT].pocket = 4
    give(s, FOREIGN, "Foreign Aid Audit")
    return s


def internal_security() -> GameState:
    return in_phase("internal_security")


def locations() -> GameState:
    """Cards in hand for every kind of play; the Farm & Labor Secretary in exile asking to
    return; money to pay, bank and trade."""
    s = in_phase("locations")
    give(s, GENERAL_3, "Professional Assassin")
    give(s, GENERAL_3, "Informant")
    give(s, GENERAL_3, "Church")
    give(s, GENERAL_3, "Burglar")
    in_play(s, ADMIRAL, "Bankers")
    give(s, ADMIRAL, "Bank Holiday")
    give(s, AIR_FORCE, "Amnesty")
    give(s, AIR_FORCE, "Secret Political Donation")
    give(s, WAR, "Spy in Switzerland")
    in_play(s, WAR, "Monarchists")
    give(s, WAR, "Monarchist Assassin")
    for p in s.players:
        p.pocket, p.bank = 5, 3
    s.players[FARM].status = "exiled"
    s.positions[cat.FARM_LABOR] = None
    s.pending_returns = [FARM]
    return s


def exile() -> GameState:
    s = in_phase("locations")
    s.players[FARM].status = "exiled"
    s.positions[cat.FARM_LABOR] = None
    return s


STATES = {f.__name__: f for f in (nomination, election, budget_vote, cabinet, budget_draw,
                                  budget_proposal, internal_security, locations, exile)}
