"""The bots' styles (`BOT_STYLES`): the cautious bot goes to the bank in the Locations phase and
deposits all it has in hand, pays nobody, sends no assassin and starts no coup; the random
bot gives orders with no strategy; each style's orders are legal, in every phase of whole
campaigns."""

from __future__ import annotations

import pytest

from junta.engine import BOT_STYLES, Rng, bot_orders, is_finished, resolve, validate_orders
from tests.engine.helpers import give, in_phase


def test_it_banks_all_its_money_and_spends_none():
    for n in range(20):
        state = in_phase("locations", players=6, seed=f"cautious-{n}")
        seat = 3
        state.players[seat].pocket = 7
        give(state, seat, "Professional Assassin")
        orders = bot_orders(state, seat, Rng(f"c-{n}"), style="cautious")
        kinds = [o.kind for o in orders]
        assert "pay" not in kinds and "assassinate" not in kinds and "rebel_move" not in kinds
        assert any(o.kind == "location" and o.args["place"] == "bank" for o in orders), orders
        deposits = [o for o in orders if o.kind == "bank" and o.args.get("amount") == 7]
        assert deposits, orders
        assert not validate_orders(state, seat, orders)


@pytest.mark.parametrize("style", sorted(BOT_STYLES))
def test_whole_campaigns_of_each_style_stay_legal(style):
    from tests.engine.helpers import game
    state = game(6, f"styles-{style}")
    rng = Rng(f"styles-{style}")
    given_any = 0
    for _ in range(60):
        if is_finished(state):
            break
        orders = {seat: bot_orders(state, seat, rng, style=style)
                  for seat in range(len(state.players))}
        for seat, given in orders.items():
            assert not validate_orders(state, seat, given), (style, state.phase, seat)
            given_any += len(given)
        state = resolve(state, orders, list(orders)).state
    assert given_any > 30 and state.turn >= 2
