"""Who is in: the Status page shows, for each family whose turn to order everyone can see, its
orders for the current phase as "none", "in" or "final" (docs/rules.md §secrets: "the list of
who owes orders names only those whose turn to order everyone can see (after lunch, the
President; who else is at the Bank stays private)"), and says when everyone who owes orders is
final that the results come at the next sweep (§timing: "A phase ends early once every player
who owes orders has marked them final")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from junta.engine import Status, public_owes_orders
from junta.games import order_intake
from junta.games.campaigns import start_campaign
from junta.games.models import Phase, Player
from tests.web.after_lunch import FARM, PRESIDENT, after_lunch
from tests.web.campaigns import install, open_phase, queries_for, state_of, version

pytestmark = pytest.mark.django_db



def status(client, user, game) -> str:  # noqa: ANN001 - the test client
    client.force_login(user)
    response = client.get(reverse("game_status", args=[game.id]))
    assert response.status_code == 200
    return response.content.decode()


def who_is_in(page: str) -> dict[str, str]:
    """The "Who is in" table of a Status page: family name -> none / in / final ({} when the
    page has none)."""
    section = re.search(r'<section aria-labelledby="in-orders-h">(.*?)</section>', page, re.S)
    if section is None:
        return {}
    rows = re.findall(r'<th scope="row">([^<]+)</th><td><span [^>]*data-orders="(\w+)"',
                      section.group(1))
    return dict(rows)


def user_at(game, seat: int):  # noqa: ANN001, ANN201 - a Game, a User
    return Player.objects.get(game=game, seat=seat).user


def test_every_public_owing_family_shows_none_in_or_final(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    state = state_of(phase)
    assert public_owes_orders(state) == list(range(10))  # nominations: everyone, publicly
    order_intake.submit_orders(phase.id, user_at(game, 1), [{"kind": "decline"}],
                          state_version=version(game))
    order_intake.submit_orders(phase.id, user_at(game, 2), [{"kind": "decline"}],
                          state_version=version(game), final=True)
    table = who_is_in(status(client, user_at(game, 0), game))
    assert table == {state.name(s): "final" if s == 2 else "in" if s == 1 else "none"
                     for s in range(10)}
    # the same for the GameMaster: the table is public
    assert who_is_in(status(client, game.gm, game)) == table


def test_a_saved_order_raises_the_revision_so_a_kept_status_page_is_drawn_again(
        campaign, client):
    """Status is a kept page (junta/games/page_cache.py): an Order row is among what it is drawn
    from (`revisions.connect` watches Order), so a player's orders going in show at once."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    name = state_of(phase).name(3)
    assert who_is_in(status(client, user_at(game, 0), game))[name] == "none"
    order_intake.submit_orders(phase.id, user_at(game, 3), [{"kind": "decline"}],
                          state_version=version(game))
    assert who_is_in(status(client, user_at(game, 0), game))[name] == "in"
    order_intake.set_final(phase.id, user_at(game, 3))
    assert who_is_in(status(client, user_at(game, 0), game))[name] == "final"


def test_the_table_takes_one_query_whatever_the_number_of_orders_in(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    client.force_login(user_at(game, 0))
    url = reverse("game_status", args=[game.id])
    empty = queries_for(client, url)
    for seat in range(1, 10):
        order_intake.submit_orders(phase.id, user_at(game, seat), [{"kind": "decline"}],
                              state_version=version(game), final=seat % 2 == 0)
    assert queries_for(client, url) == empty
    assert set(who_is_in(client.get(url).content.decode()).values()) == {"none", "in", "final"}


def test_a_secret_owing_seat_is_never_shown_whatever_its_orders(campaign, client):
    """After lunch, whoever is at the Bank owes orders, but who they are is secret: the table
    names the President only, to every viewer, the banker himself included, whether the
    banker's orders are in, final or not given."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, after_lunch())
    state = state_of(phase)
    assert sorted(phase.owing_seats) == [PRESIDENT, FARM]
    banker, president = state.name(FARM), state.name(PRESIDENT)
    viewers = [user_at(game, s) for s in (PRESIDENT, 1, FARM)] + [game.gm]

    def check(expected_president: str) -> list[str]:
        pages = []
        for viewer in viewers:
            page = status(client, viewer, game)
            assert who_is_in(page) == {president: expected_president}, viewer
            assert banker not in re.search(
                r'<section aria-labelledby="in-orders-h">(.*?)</section>', page, re.S).group(1)
            pages.append(page)
        return pages

    check("none")
    order_intake.submit_orders(phase.id, user_at(game, FARM), [], state_version=version(game))
    check("none")
    order_intake.set_final(phase.id, user_at(game, FARM))
    pages = check("none")
    assert not any("at the next sweep" in page for page in pages)
    order_intake.set_final(phase.id, user_at(game, PRESIDENT))
    pages = check("final")
    # everyone who owes orders is final, and the phase closes at the next sweep; but saying so
    # would tell that the secret banker is final too: the page waits for the close
    assert not any("at the next sweep" in page for page in pages)


def test_public_all_final_is_not_the_end_while_a_secret_seat_is_not_final(campaign, client):
    """The phase closes early only once every seat that owes orders is final (`owing_seats`,
    the banker included); the page never says so before."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, after_lunch())
    order_intake.set_final(phase.id, user_at(game, PRESIDENT))
    page = status(client, user_at(game, 1), game)
    assert who_is_in(page) == {state_of(phase).name(PRESIDENT): "final"}
    assert "at the next sweep" not in page
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.OPEN


def test_the_dead_and_exiles_are_listed_as_public_owes_orders_says(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    s = state_of(open_phase(game))
    s.players[4].status = Status.DEAD
    s.players[6].status = Status.EXILED
    phase = install(game, s)
    state = state_of(phase)
    public = public_owes_orders(state)
    assert 4 not in public and 6 not in public
    table = who_is_in(status(client, user_at(game, 0), game))
    assert set(table) == {state.name(seat) for seat in public}
    assert state.name(4) not in table and state.name(6) not in table


def test_no_table_once_the_phase_is_closed(campaign, client):
    game, users = campaign(review=True)
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    phase.status = Phase.Status.DRAFTED
    phase.save(update_fields=["status"])
    assert who_is_in(status(client, user_at(game, 0), game)) == {}
