"""The same orders as last time on the Orders page (docs/rules.md §repeat-orders), and the
likely order of a phase shown unfolded (docs/rules.md §orders).

§repeat-orders: the page "lists them, and those left out with why (a target dead since, a
pocket too small, a zone no longer in reach, a payment, gift, trade or card play, which are
deals of their day and are not repeated), and saves nothing until you confirm. The orders you
have already given this phase stay as they are: the repeated ones are added after them".

Each test does what the browser does: it opens the page, follows the link it draws, reads the
confirmation's form as drawn and posts it (`tests.web.browser_forms`)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from junta.engine import GameState
from junta.engine.repeat import NOT_REPEATED
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase
from junta.games.models import Order as OrderRow
from junta.games.order_intake import STALE_ORDERS, STALE_REPEAT
from tests.engine.helpers import in_phase
from tests.engine.option_states import ADMIRAL, FARM, GENERAL_3, WAR, budget_vote, locations
from tests.web.browser_forms import form_with, submit
from tests.web.campaigns import with_last_time

SECRET = "mistress"  # where only another player's assassin of last time was sent


def started_with_last_time(campaign, before: GameState, given: dict[int, list[dict]],
                           now: GameState) -> tuple[Game, Phase, dict]:
    """A campaign of ten started, its phase `before` with the orders `given`, then `now`
    open (`tests.web.campaigns.with_last_time`)."""
    game, _ = campaign()
    start_campaign(game.id, game.gm)
    return game, *with_last_time(game, before, given, now)


def panel(page: str) -> str:
    """The section of the same orders as last time, as drawn."""
    found = re.search(r'<section aria-labelledby="repeat-h" id="repeat-panel">.*?</section>',
                      page, re.S)
    assert found, "no list of the orders of last time on the page"
    return found.group(0)


def tapped(client, url: str) -> str:
    """The page opened, its "Same orders as last time" link followed: the list drawn."""
    page = client.get(url).content.decode()
    link = re.search(r'<a class="button button-secondary" href="([^"]+)">Same orders as last '
                     r'time</a>', page)
    assert link, "no Same orders as last time link"
    href = link.group(1).split("#")[0]
    response = client.get(url + href)
    assert response.status_code == 200
    return response.content.decode()


def saved(phase: Phase, user) -> list[dict] | None:
    row = OrderRow.objects.filter(phase=phase, player__user=user).first()
    return None if row is None else row.payload


ASSASSIN = "Professional Assassin"


@pytest.mark.django_db
def test_a_locations_turn_listed_then_saved_on_confirm_without_what_no_longer_holds(
        campaign, client):
    """The location, a bank order on a condition and a withdrawal come back; the assassin sent
    against a player dead since, a deposit beyond the pocket and a payment are left out with
    the engine's words; nothing is saved until Save these orders."""
    before, now = locations(), locations()
    card = next(c for c in before.players[GENERAL_3].hand if _name(c) == ASSASSIN)
    now.players[WAR].status = "dead"
    now.players[GENERAL_3].pocket = 2
    at_bank = {"kind": "location", "seat": GENERAL_3, "location": "bank"}
    mine = [{"kind": "location", "place": "bank"},
            {"kind": "bank", "action": "withdraw", "amount": 2, "condition": at_bank},
            {"kind": "assassinate", "card": card, "target": WAR, "location": "home"},
            {"kind": "bank", "action": "deposit", "amount": 5},
            {"kind": "pay", "to": ADMIRAL, "amount": 1}]
    game, phase, users = started_with_last_time(campaign, before, {GENERAL_3: mine}, now)
    client.force_login(users[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    page = tapped(client, url)
    assert saved(phase, users[GENERAL_3]) is None  # nothing saved by the list
    shown = panel(page)
    kept = re.search(r'<ol class="orders" start="1"[^>]*>(.*?)</ol>', shown, re.S).group(1)
    assert kept.count("<li>") == 2
    assert "Location: Bank" in kept and "Withdraw 2 MP if" in kept
    left = re.search(r'<ul class="unavailable"[^>]*>(.*?)</ul>', shown, re.S).group(1)
    assert "is dead: not in reach." in left
    assert "You have 2 MP in your pocket; you cannot deposit 5." in left
    assert NOT_REPEATED in left.replace("&#x27;", "'")
    response = submit(client, url, form_with(page, "action", "repeat"))
    assert response.status_code == 302
    assert saved(phase, users[GENERAL_3]) == mine[:2]
    after = client.get(url).content.decode()
    assert "2 orders of last time added" in after and "data-page-alert" in after


def _name(card: int) -> str:
    from junta.engine import Catalog
    return Catalog.card(card).name


@pytest.mark.django_db
def test_a_budget_vote_repeats_and_the_ballot_opens_unfolded(campaign, client):
    game, phase, users = started_with_last_time(
        campaign, budget_vote(), {ADMIRAL: [{"kind": "vote", "choice": "no"}]}, budget_vote())
    client.force_login(users[ADMIRAL])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert '<details class="builder" id="order-vote" open>' in page
    assert re.findall(r'<details class="builder" id="[^"]+" open>', page) == [
        '<details class="builder" id="order-vote" open>']
    listed = tapped(client, url)
    assert "Vote no" in panel(listed)
    assert submit(client, url, form_with(listed, "action", "repeat")).status_code == 302
    assert saved(phase, users[ADMIRAL]) == [{"kind": "vote", "choice": "no"}]


@pytest.mark.django_db
def test_the_location_opens_unfolded_until_it_is_given(campaign, client):
    """Open on the page's first drawing; once a location is in, every form is folded."""
    game, _, users = started_with_last_time(campaign, locations(), {}, locations())
    client.force_login(users[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    page = client.get(url).content.decode()
    assert re.findall(r'<details class="builder" id="[^"]+" open>', page) == [
        '<details class="builder" id="order-location" open>']
    assert 'id="repeat-panel"' not in page  # no orders last time: no link
    form = form_with(page, "option", "location").set("order-location-place", "club")
    assert submit(client, url, form).status_code == 302
    assert re.findall(r'<details class="builder"[^>]* open>', client.get(url).content.decode()
                      ) == []


@pytest.mark.django_db
def test_orders_given_this_phase_stay_and_the_repeated_ones_come_after(campaign, client):
    """A location given today stands (last time's is left out, saying so); a withdrawal of last
    time is added after it."""
    mine = [{"kind": "location", "place": "club"},
            {"kind": "bank", "action": "withdraw", "amount": 1}]
    game, phase, users = started_with_last_time(campaign, locations(), {GENERAL_3: mine},
                                                locations())
    client.force_login(users[GENERAL_3])
    url = reverse("game_orders", args=[game.id])
    form = form_with(client.get(url).content.decode(), "option", "location")
    assert submit(client, url, form.set("order-location-place", "home")).status_code == 302
    page = tapped(client, url)
    shown = panel(page)
    assert '<ol class="orders" start="2"' in shown
    assert "You already gave this phase&#x27;s order: Location: Home." in shown
    assert submit(client, url, form_with(page, "action", "repeat")).status_code == 302
    assert saved(phase, users[GENERAL_3]) == [{"kind": "location", "place": "home"}, mine[1]]


def club_last_time(campaign, client) -> tuple[Game, Phase, object, str]:
    """The General of the 3rd Brigade went to the Club last time, and opens the Orders page."""
    mine = [{"kind": "location", "place": "club"}]
    game, phase, users = started_with_last_time(campaign, locations(), {GENERAL_3: mine},
                                                locations())
    client.force_login(users[GENERAL_3])
    return game, phase, users[GENERAL_3], reverse("game_orders", args=[game.id])


@pytest.mark.django_db
def test_a_confirmation_after_the_orders_changed_is_refused_and_listed_anew(campaign, client):
    """Drawn, then the orders changed in another window: Save is refused with a message,
    nothing is added, the order given meanwhile stays, and the list is drawn as it stands."""
    game, phase, user, url = club_last_time(campaign, client)
    listed = tapped(client, url)
    form = form_with(client.get(url).content.decode(), "option", "location")
    assert submit(client, url, form.set("order-location-place", "hq")).status_code == 302
    response = submit(client, url, form_with(listed, "action", "repeat"))
    assert response.status_code == 400
    page = response.content.decode()
    assert STALE_ORDERS.split(" (")[0] in page and "Not saved." in page
    assert "You already gave this phase&#x27;s order: Location: HQ." in panel(page)
    assert saved(phase, user) == [{"kind": "location", "place": "hq"}]


@pytest.mark.django_db
def test_a_confirmation_after_the_game_changed_is_refused(campaign, client):
    game, phase, user, url = club_last_time(campaign, client)
    listed = tapped(client, url)
    game.refresh_from_db()
    game.state_version += 1  # a GM ruling meanwhile
    game.save()
    response = submit(client, url, form_with(listed, "action", "repeat"))
    assert response.status_code == 400
    assert "The game has changed since this form was opened" in response.content.decode()
    assert saved(phase, user) is None


@pytest.mark.django_db
def test_a_tampered_or_outdated_list_is_refused(campaign, client):
    game, phase, user, url = club_last_time(campaign, client)
    form = form_with(tapped(client, url), "action", "repeat")
    form.control("last_time").value = "1:0000"
    response = submit(client, url, form)
    assert response.status_code == 400
    assert STALE_REPEAT.split(":")[0] in response.content.decode()
    assert saved(phase, user) is None


@pytest.mark.django_db
def test_the_list_holds_only_my_own_orders(campaign, client):
    """Another player's orders of last time never appear: not in my list, and a player who gave
    none is offered no list at all."""
    before = locations()
    card = next(c for c in before.players[GENERAL_3].hand if _name(c) == ASSASSIN)
    theirs = [{"kind": "location", "place": "hq"},
              {"kind": "assassinate", "card": card, "target": WAR, "location": SECRET}]
    mine = [{"kind": "location", "place": "club"}]
    game, _, users = started_with_last_time(campaign, before, {GENERAL_3: theirs, ADMIRAL: mine},
                                    locations())
    client.force_login(users[ADMIRAL])
    url = reverse("game_orders", args=[game.id])
    shown = panel(tapped(client, url))
    assert "Location: Club" in shown
    assert "HQ" not in shown and "Mistress" not in shown and ASSASSIN not in shown
    client.force_login(users[FARM])
    assert 'id="repeat-panel"' not in client.get(url).content.decode()


@pytest.mark.django_db
def test_a_phase_that_repeats_nothing_offers_no_list(campaign, client):
    """The orders of another kind of phase are not last time's: a budget vote after a
    Locations phase offers no list."""
    game, _, users = started_with_last_time(
        campaign, locations(), {ADMIRAL: [{"kind": "location", "place": "club"}]},
        in_phase("budget_vote"))
    client.force_login(users[ADMIRAL])
    page = client.get(reverse("game_orders", args=[game.id]) + "?repeat=1").content.decode()
    assert 'id="repeat-panel"' not in page


@pytest.mark.django_db
def test_a_coup_phase_repeats_the_moves_that_still_hold(campaign, client):
    """Coup Phase 2 after Coup Phase 1, in which the Rebel moved his stack on and named a zone
    he has since left: the move from where his units stand comes back; the other, in the words
    validation gives, is left out."""
    from tests.engine.coup_states import ERNESTO, coup_state
    from tests.engine.helpers import run

    before, _ = coup_state()
    now, _ = run(before, {})
    assert now.phase == "coup" and now.coup["phase"] == 2
    moves = [{"kind": "move", "from_zone": 24, "to_zone": 10},
             {"kind": "move", "from_zone": 17, "to_zone": 24}]
    game, phase, users = started_with_last_time(campaign, before, {ERNESTO: moves}, now)
    client.force_login(users[ERNESTO])
    url = reverse("game_orders", args=[game.id])
    page = tapped(client, url)
    left = re.search(r'<ul class="unavailable"[^>]*>(.*?)</ul>', panel(page), re.S).group(1)
    assert "No units stand in" in left and "to move." in left
    assert submit(client, url, form_with(page, "action", "repeat")).status_code == 302
    assert saved(phase, users[ERNESTO]) == moves[:1]
