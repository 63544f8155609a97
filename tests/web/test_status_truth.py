"""The Status page, the Orders page's header and the lobby tell one truth about the phase
(docs/rules.md §timing): while the GM has paused the campaign nothing counts down and orders wait
until he resumes it; while the GM reviews a drafted result nobody owes orders; once the deadline
has passed, the phase is adjudicated at the next sweep and nothing counts below zero."""

from __future__ import annotations

import shutil
import subprocess
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from junta.games import adjudication, order_intake
from junta.games.campaigns import CampaignError, start_campaign
from junta.games.models import Game, Phase, Player
from junta.gm import services
from tests.conftest import REPO
from tests.web.campaigns import open_phase, version

pytestmark = pytest.mark.django_db

OWE = "You owe orders"
REVIEW = "awaiting the GameMaster's review"


def page(client, user, name: str, game) -> str:  # noqa: ANN001 - the test client
    client.force_login(user)
    response = client.get(reverse(name, args=[game.id]) if name != "lobby" else reverse(name))
    assert response.status_code == 200
    return response.content.decode()


def seat_user(game, seat: int = 0):  # noqa: ANN001, ANN201 - a Game, a User
    return Player.objects.get(game=game, seat=seat).user


def test_a_running_phase_counts_down_and_says_who_owes(campaign, client):
    game, _ = campaign()
    start_campaign(game.id, game.gm)
    player = seat_user(game)
    status = page(client, player, "game_status", game)
    assert "data-countdown" in status and OWE in status and "paused" not in status
    orders = page(client, player, "game_orders", game)
    assert "data-countdown" in orders and "Mark my orders final" in orders
    assert OWE in page(client, player, "lobby", game)


def test_paused_means_no_countdown_the_word_paused_and_orders_wait(campaign, client):
    game, _ = campaign()
    start_campaign(game.id, game.gm)
    player = seat_user(game)
    services.pause(game.id, game.gm, reason="holidays")
    status = page(client, player, "game_status", game)
    assert "data-countdown" not in status and "countdown.js" in status  # nothing to count
    assert "<strong>paused</strong>" in status
    assert "orders wait until the GameMaster resumes it" in status
    assert "to go until the deadline" in status  # what the clock had left when it stopped
    assert OWE not in status
    assert "wait until the GameMaster resumes the campaign" in status
    # the Orders page says the same, and offers no form the service would refuse
    orders = page(client, player, "game_orders", game)
    assert "data-countdown" not in orders and "<strong>paused</strong>" in orders
    assert "Mark my orders final" not in orders and "Give an order" not in orders
    with pytest.raises(CampaignError, match="paused: orders wait until the GM resumes it"):
        order_intake.set_final(open_phase(game).id, player)
    # the lobby too
    lobby = page(client, player, "lobby", game)
    assert "<strong>paused</strong>" in lobby and "orders wait until the GameMaster" in lobby
    assert OWE not in lobby
    # resumed: the clock counts again
    services.resume(game.id, game.gm)
    status = page(client, player, "game_status", game)
    assert "data-countdown" in status and OWE in status and "paused" not in status


def test_a_paused_campaign_still_shows_the_orders_already_in(campaign, client):
    game, _ = campaign()
    start_campaign(game.id, game.gm)
    player = seat_user(game)
    order_intake.submit_orders(open_phase(game).id, player, [{"kind": "decline"}],
                          state_version=version(game), final=True)
    services.pause(game.id, game.gm)
    assert "Your orders are in and <strong>final</strong>" in page(
        client, player, "game_status", game)
    assert "Your orders for this phase are in and final." in page(client, player, "lobby", game)


def drafted(campaign) -> tuple[Game, Phase]:  # noqa: ANN001 - the fixture
    """A review-mode campaign whose nomination phase is adjudicated, its draft with the GM."""
    game, _ = campaign(review=True)
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED
    return game, phase


def test_a_draft_under_review_is_awaiting_the_review_never_you_owe_orders(campaign, client):
    game, _ = drafted(campaign)
    player = seat_user(game)
    status = page(client, player, "game_status", game)
    assert REVIEW in status
    assert OWE not in status and "data-countdown" not in status
    assert "Nominate a player for the Presidency" not in status  # no instruction to act
    orders = page(client, player, "game_orders", game)
    assert REVIEW in orders and OWE not in orders and "data-countdown" not in orders
    assert "Mark my orders final" not in orders
    lobby = page(client, player, "lobby", game)
    assert REVIEW in lobby and OWE not in lobby


def test_a_deadline_passed_but_not_yet_adjudicated_says_the_next_sweep(campaign, client):
    game, _ = campaign()
    start_campaign(game.id, game.gm)
    player = seat_user(game)
    phase = open_phase(game)
    phase.deadline = timezone.now() - timedelta(minutes=2)
    phase.save(update_fields=["deadline"])  # as if the sweep had not run yet
    status = page(client, player, "game_status", game)
    assert "has passed: the phase is adjudicated at the next sweep" in status
    assert "data-countdown" not in status and OWE not in status
    assert "missed orders take the defaults" in status
    assert "Nominate a player for the Presidency" not in status  # too late to act
    orders = page(client, player, "game_orders", game)
    assert "has passed" in orders and "Mark my orders final" not in orders
    with pytest.raises(CampaignError, match="deadline has passed"):
        order_intake.set_final(phase.id, player)
    lobby = page(client, player, "lobby", game)
    assert "The deadline has passed: the phase is adjudicated at the next sweep." in lobby
    assert OWE not in lobby


def test_everyone_final_says_the_results_come_at_the_next_sweep(campaign, client):
    game, _ = campaign(players=6)
    start_campaign(game.id, game.gm)
    phase = open_phase(game)
    for seat in range(6):
        assert "at the next sweep" not in page(client, seat_user(game), "game_status", game)
        order_intake.set_final(phase.id, seat_user(game, seat))
    status = page(client, seat_user(game), "game_status", game)
    assert "the results come at the next sweep" in status
    assert "at the next sweep" in page(client, seat_user(game), "game_orders", game)
    assert adjudication.due_phase_ids() == [phase.id]  # what the minute sweep will find


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the script")
def test_the_countdown_never_counts_below_zero():
    """static/js/countdown.js on a deadline a minute ago, then one ahead: "the deadline has
    passed", never a negative time; ahead, the days, hours and minutes left."""
    script = (REPO / "static/js/countdown.js").read_text()
    harness = """
const out = [];
function element(iso) {
  const text = {textContent: ""};
  const time = {getAttribute: () => iso, parentNode: {querySelector: () => text}};
  out.push(text);
  return time;
}
const els = [element(new Date(Date.now() - 60000).toISOString()),
             element(new Date(Date.now() + 90061000).toISOString())];
global.document = {querySelectorAll: () => els};
global.setInterval = () => 0;
""" + script + "\nconsole.log(JSON.stringify(out.map(t => t.textContent)));"
    result = subprocess.run(["node", "-e", harness], capture_output=True, text=True, timeout=30,
                            check=True)
    passed, ahead = __import__("json").loads(result.stdout)
    assert passed == "the deadline has passed"
    assert ahead.startswith("1 d 1 h 1 min") and "-" not in ahead
