"""Rule tests for talk (docs/rules.md §talk): who may speak and send private messages.

"The dead may talk, in speeches and in private (a dead player cannot act until his heir comes
back)." "An exile may not trade or deal with anyone: he may read his conversations, but sends
nothing until he returns, and may not make speeches. He may still write to the GameMaster."
"""

from __future__ import annotations

from junta.engine import PhaseKind, Status, may_write_to_gm, why_no_talk

from .helpers import in_phase

CARLOS, MARIA, BILL = range(3)


def test_the_living_talk() -> None:
    state = in_phase(PhaseKind.BUDGET_DRAW)
    assert why_no_talk(state, CARLOS) is None


def test_the_dead_may_talk() -> None:
    """ "The dead may talk, in speeches and in private." """
    state = in_phase(PhaseKind.BUDGET_DRAW)
    state.players[MARIA].status = Status.DEAD
    assert why_no_talk(state, MARIA) is None


def test_an_exile_sends_nothing_to_the_players_but_may_write_to_the_gm() -> None:
    """ "An exile may not trade or deal with anyone ... He may still write to the
    GameMaster." """
    state = in_phase(PhaseKind.BUDGET_DRAW)
    state.players[BILL].status = Status.EXILED
    reason = why_no_talk(state, BILL)
    assert reason is not None and "exile" in reason and "GameMaster" in reason
    assert state.players[BILL].name in reason
    assert may_write_to_gm(state, BILL)
    assert why_no_talk(state, CARLOS) is None  # the others are not touched


def test_only_a_seat_of_the_campaign_writes_to_the_gm() -> None:
    state = in_phase(PhaseKind.BUDGET_DRAW)
    assert not may_write_to_gm(state, len(state.players))
