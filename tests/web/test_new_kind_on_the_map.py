"""A new kind of order reaches a player with no page changed: a kind written in the tests alone
(`tests/engine/throwaway_kind.Rally`, "spend a card on a rally in a zone"), once registered, is
offered on the Map page with the engine's sentence for each zone, saved by the Orders page's own
form as the map posts it, drawn on the map and carried out at the deadline, its news on the
Events page (docs/rules.md §orders)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from junta.engine import Order, describe_order
from junta.engine import catalog as cat
from junta.engine.kinds import registered
from junta.games import adjudication
from junta.games.campaigns import start_campaign
from junta.games.models import Order as OrderRow
from junta.games.order_forms import token
from tests.engine.helpers import give, in_phase
from tests.engine.throwaway_kind import NAME, Rally
from tests.web.campaigns import install, open_phase, version
from tests.web.map_helpers import embedded, users_by_seat

SEAT, ZONE = 3, 13


@pytest.mark.django_db
def test_a_registered_kind_is_given_on_the_map_drawn_and_carried_out(campaign, client):
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    state = in_phase("cabinet")
    cid = give(state, SEAT, "Press Scandal")
    install(game, state)
    client.force_login(users_by_seat(game)[SEAT])
    url = reverse("game_map", args=[game.id])
    with registered(Rally()):
        data = embedded(client.get(url).content.decode())
        assert data is not None
        option = next(o for o in data["options"] if o["key"] == f"{NAME}:{cid}")
        assert option["shape"] == "zone"
        action = next(a for a in option["actions"] if a["at"] == token(ZONE))
        sentence = describe_order(state, Order(NAME, {"card": cid, "zone": ZONE}))
        assert action["text"].startswith(sentence), action["text"]
        # the map posts the Orders page's own form and comes back to the map
        post = {"action": "add", "option": option["key"], "state_version": version(game),
                "from": "map", **{f"{option['prefix']}-{k}": v
                                  for k, v in action["values"].items()}}
        response = client.post(reverse("game_orders", args=[game.id]), post)
        assert response.status_code == 302 and response["Location"] == url
        page = client.get(url).content.decode()
        assert f'<g class="cm-order" data-order="1" data-kind="{NAME}">' in page
        assert f"Order 1: {sentence}" in page
        saved = OrderRow.objects.get(phase__game=game, player__seat=SEAT).payload
        assert [(o["kind"], o["card"], o["zone"]) for o in saved] == [(NAME, cid, ZONE)]
        # carried out at the deadline
        phase = open_phase(game)
        adjudication.adjudicate_phase(phase.id, force=True)
        events = client.get(reverse("game_events", args=[game.id])).content.decode()
        assert f"holds a rally in {cat.zones()[ZONE].name}." in events
