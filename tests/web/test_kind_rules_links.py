"""The rules and the orders point at each other: the Rules page says under each section which
kinds of order it governs (each kind's `rules` in the engine: docs/rules.md and
docs/rulings.md), by the labels the Orders page gives them; the Orders page links each order
form to the section its kind comes from, as the Status page links its instructions
(`/rules/#<section>`), and every such link lands on a heading of the Rules page.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from junta.engine import ORDER_KINDS, GameState, legal_options
from junta.games.campaigns import start_campaign
from junta.games.order_forms import form_prefix
from tests.engine.option_states import (
    FOREIGN,
    GENERAL_3,
    PRESIDENT,
    budget_vote,
    cabinet,
    locations,
)
from tests.web.campaigns import install
from tests.web.map_helpers import GENERAL_1, coup_campaign, users_by_seat

HEADING = re.compile(r'<h([1-6]) id="([^"]+)">.*?</h\1>(<p class="rules-orders">(.*?)</p>)?',
                     re.S)
RULES_LINK = re.compile(r'<a class="rules-link" href="([^"#]*)#([^"]+)">Rules §([^<]+)</a>')


def rules_page(client) -> str:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def orders_lines(page: str) -> dict[str, list[str]]:
    """Each heading's id and the order labels of the line under it ([] for none)."""
    return {m.group(2): unescape(m.group(4)).removeprefix("Orders: ").split(", ")
            if m.group(3) else [] for m in HEADING.finditer(page)}


def page_ids(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page))


@pytest.mark.django_db
def test_the_rules_page_lists_each_kind_under_its_sections(client):
    """Under its main section first (the kinds whose main section it is lead the line), then
    under each other one; a section that governs no kind has no line."""
    lines = orders_lines(rules_page(client))
    for kind in ORDER_KINDS.values():
        main, *others = kind.rules
        assert main in lines, f"{kind.name}: no heading #{main}"
        mains = [k.label for k in ORDER_KINDS.values() if k.rules[0] == main]
        assert lines[main][:len(mains)] == mains, (main, lines[main])
        for section in others:
            assert kind.label in lines[section], (kind.name, section, lines[section])
    governing = {s for k in ORDER_KINDS.values() for s in k.rules}
    assert {s for s, labels in lines.items() if labels} == governing
    assert lines["any-time"][:2] == ["Pay money", "Give a card"]  # as the issue wrote it


def orders_page(client, user, game) -> str:
    client.force_login(user)
    response = client.get(reverse("game_orders", args=[game.id]))
    assert response.status_code == 200
    return response.content.decode()


def form_blocks(page: str) -> dict[str, str]:
    """Each order form of the page by its id, up to the next form."""
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'<details class="builder[^"]*" id="([^"]+)"', page)]
    ends = [s for s, _ in starts[1:]] + [len(page)]
    return {html_id: page[start:end] for (start, html_id), end in zip(starts, ends, strict=True)}


def assert_forms_link_their_rules(page: str, state: GameState, seat: int, anchors: set[str]):
    blocks = form_blocks(page)
    options = legal_options(state, seat).orders
    assert options and len(blocks) == len(options)
    for option in options:
        links = RULES_LINK.findall(blocks[form_prefix(option.key)])
        main = ORDER_KINDS[option.kind].rules[0]
        assert links[:1] == [(reverse("rules"), main, main)], (option.key, links)
    for _path, section, _text in RULES_LINK.findall(page):
        assert section in anchors, section


@pytest.mark.django_db
@pytest.mark.parametrize(("make", "seat"), [(locations, GENERAL_3), (cabinet, PRESIDENT),
                                            (budget_vote, FOREIGN)])
def test_each_order_form_links_to_its_rule(campaign, client, make, seat):
    """Every form of the Orders page, in a phase's worth of kinds, links to its kind's main
    section, and the Rules page has that heading."""


    game, _users = campaign()
    start_campaign(game.id, game.gm)
    state = make()
    install(game, state)
    page = orders_page(client, users_by_seat(game)[seat], game)
    assert_forms_link_their_rules(page, state, seat, page_ids(rules_page(client)))


@pytest.mark.django_db
def test_the_coup_forms_link_to_their_rules(campaign, client):
    game, by_seat, state = coup_campaign(campaign)
    page = orders_page(client, by_seat[GENERAL_1], game)
    assert_forms_link_their_rules(page, state, GENERAL_1, page_ids(rules_page(client)))
    assert 'href="/rules/#movement">Rules §movement</a>' in page


@pytest.mark.django_db
def test_the_api_gives_each_option_its_rules(campaign, client):
    """A bot reads the same sections from the options: each option's kind's, the main one
    first, each a heading of the Rules page."""


    game, _users = campaign()
    start_campaign(game.id, game.gm)
    install(game, locations())
    client.force_login(users_by_seat(game)[GENERAL_3])
    response = client.get(f"/api/v1/campaigns/{game.id}/options")
    assert response.status_code == 200
    options = response.json()["orders"]
    anchors = page_ids(rules_page(client))
    assert options
    for option in options:
        assert option["rules"] == list(ORDER_KINDS[option["kind"]].rules)
        assert set(option["rules"]) <= anchors
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["OptionOut"]
    assert "rules" in schema["properties"]
