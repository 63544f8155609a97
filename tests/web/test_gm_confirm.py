"""The GameMaster's actions that cannot be undone ask first (junta/gm/confirm.py): the button
of the panel's form leads to a page saying what will happen and to whom; only its Confirm button
acts, once; Cancel never does; a confirmation drawn before the campaign moved on is refused
with nothing done. Every form is read from the page and sent as a browser sends it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import escape

from junta.engine.bots import bot_orders
from junta.engine.rng import Rng
from junta.games import order_intake, repository
from junta.games.campaigns import join_game, start_campaign
from junta.games.models import AuditEntry, Game, Phase, Player
from junta.gm import services
from tests.web.browser_forms import asked, form_to, form_with, submit
from tests.web.campaigns import open_phase, play_days, version

pytestmark = pytest.mark.django_db


def actions(game: Game) -> list[str]:
    return list(AuditEntry.objects.filter(game=game).order_by("id")
                .values_list("action", flat=True))


def started(campaign, review: bool = False) -> tuple[Game, list]:  # noqa: ANN001 - fixture
    game, users = campaign(players=6, review=review)
    start_campaign(game.id, game.gm)
    return Game.objects.get(pk=game.pk), users


def family(game: Game, user) -> str:  # noqa: ANN001 - a user
    """"Don Carlos (carlosFalse)", as the confirmation names a seated player."""
    player = game.players.get(user=user, membership="active")
    return f"{player.character.name} ({user.public_name})"


def asks(html: str, question: str, cancel: str) -> None:
    """The page asks `question`: in its title and heading, the focus on it from the start,
    with a Confirm button and a Cancel link back to `cancel`."""
    assert f"<title>Confirm: {escape(question)} · " in html
    assert f'<h2 id="confirm-h">{escape(question)}</h2>' in html
    assert re.search(r'<section[^>]*id="confirm"[^>]*tabindex="-1" autofocus', html)
    assert form_with(html, "confirm", "yes")
    assert f'<a class="button button-secondary" href="{cancel}">Cancel</a>' in html
    assert "This cannot be undone." in html


def confirm(client, html: str) -> str:  # noqa: ANN001 - the test client
    """Confirm: the message on the page it leads to."""
    response = submit(client, "", form_with(html, "confirm", "yes"))
    assert response.status_code == 302
    return client.get(response["Location"]).content.decode()


def test_adjudicate_now_asks_first_naming_who_gave_no_orders(campaign, client):
    game, users = started(campaign)
    phase = open_phase(game)
    for seat in (0, 1, 2, 3):
        order_intake.submit_orders(phase.id, users[seat], [{"kind": "nominate", "candidate": 1}],
                              state_version=version(game), final=seat != 3)
    client.force_login(game.gm)
    time_page = reverse("gm_time", args=[game.id])
    before = (actions(game), version(game))
    html = asked(client, time_page, reverse("gm_adjudicate", args=[game.id]),
                 {"adjudicate-reason": "<everyone> is in"})
    # one click: the question, nothing done
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.OPEN
    assert (actions(game), version(game)) == before
    asks(html, "Adjudicate phase 1 (Nominations) now?", time_page)
    assert "4 players have given orders" in html
    assert (f"{escape(family(game, users[4]))} and {escape(family(game, users[5]))} have given "
            "none: the defaults apply to them") in html
    assert f'href="{reverse("rules")}#missed-orders"' in html
    assert f"{escape(family(game, users[3]))} has not marked his orders final" in html
    assert "published at once to every player" in html
    assert all(escape(family(game, u)) in html for u in users)
    assert "&lt;everyone&gt; is in" in html  # the reason as typed, never markup
    # Cancel: back to the Time page, nothing done
    client.get(time_page)
    assert (actions(game), version(game)) == before
    # Confirm: done once; the confirmation sent again is refused
    assert "Phase 1 is adjudicated and published." in confirm(client, html)
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.PUBLISHED
    assert "Phase 1 was already adjudicated: nothing was done." in confirm(client, html)
    assert actions(game).count("adjudicate") == 1
    assert open_phase(game).number == 2


def test_a_direct_post_without_the_confirmation_does_nothing(campaign, client):
    """An old page's one click (the form as it was before it asked) only asks."""
    game, _users = started(campaign)
    phase = open_phase(game)
    client.force_login(game.gm)
    before = (actions(game), version(game))
    for url, data in [
            (reverse("gm_adjudicate", args=[game.id]), {"adjudicate-phase": phase.number}),
            (reverse("gm_rollback", args=[game.id]), {"current_phase": phase.number,
                                                      "to_phase": 1, "reason": "x"}),
            (reverse("gm_start", args=[game.id]), {})]:
        response = client.post(url, data)
        assert response.status_code in (200, 302)  # the question, or why it cannot be asked
    assert (actions(game), version(game)) == before
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.OPEN


def test_publishing_a_draft_asks_first_and_is_done_once(campaign, client):
    game, _users = started(campaign, review=True)
    phase = open_phase(game)
    services.adjudicate_now(game.id, game.gm)
    client.force_login(game.gm)
    review = reverse("gm_review", args=[game.id])
    html = asked(client, review, reverse("gm_publish", args=[game.id]),
                 {"announcement": "Nominations <b>closed</b>."})
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.DRAFTED
    assert actions(game)[-1] == "adjudicate"
    asks(html, "Publish the result of phase 1 (Nominations)?", review)
    assert "is published to every player" in html and "Phase 2 (" in html
    assert "Nominations &lt;b&gt;closed&lt;/b&gt;." in html
    assert "Published" in confirm(client, html)
    assert Phase.objects.get(pk=phase.pk).status == Phase.Status.PUBLISHED
    assert AuditEntry.objects.get(game=game, action="publish").announcement == \
        "Nominations <b>closed</b>."
    services.adjudicate_now(game.id, game.gm)  # phase 2 drafted: the old question is stale
    assert "Phase 1 was already published: nothing was done." in confirm(client, html)
    assert actions(game).count("publish") == 1
    assert Phase.objects.get(game=game, number=2).status == Phase.Status.DRAFTED


def test_rollback_asks_first_naming_who_must_order_again(campaign, client):
    game, users = started(campaign)
    play_days(game, users, 2)
    current = open_phase(game)
    for seat in (1, 2):
        order_intake.submit_orders(current.id, users[seat], [], state_version=version(game))
    client.force_login(game.gm)
    history = reverse("gm_history", args=[game.id])
    html = asked(client, history, reverse("gm_rollback", args=[game.id]),
                 {"to_phase": "1", "reason": "a lost card"})
    assert open_phase(game).pk == current.pk and actions(game)[-1] != "rollback"
    asks(html, "Roll back to the start of phase 1 (Nominations)?", history)
    assert f"Phase {current.number + 1} opens for every player" in html
    assert f"The {current.number} phases are undone: Phase 1 (Nominations) to phase " \
        f"{current.number}" in html
    assert "Nobody has given orders" in html  # Isabel's and Miguel's lists are empty
    assert "Rolled back" in confirm(client, html)
    assert open_phase(game).number == current.number + 1
    assert "already rolled back: nothing was done." in confirm(client, html)
    assert actions(game).count("rollback") == 1


def test_rollback_names_the_players_whose_orders_are_left_behind(campaign, client):
    game, users = started(campaign)
    play_days(game, users, 1)
    current = open_phase(game)
    state = repository.state_before(current)
    for seat in (1, 2):
        orders = orders_for(state, seat)
        order_intake.submit_orders(current.id, users[seat], orders, state_version=version(game))
    client.force_login(game.gm)
    html = asked(client, reverse("gm_history", args=[game.id]),
                 reverse("gm_rollback", args=[game.id]), {"to_phase": "1", "reason": "x"})
    assert (f"{escape(family(game, users[1]))} and {escape(family(game, users[2]))} have "
            f"given orders for phase {current.number}: these 2 players must give them again"
            ) in html


def orders_for(state, seat: int) -> list[dict]:  # noqa: ANN001 - a GameState
    for attempt in range(20):
        orders = [o.to_dict() for o in bot_orders(state, seat, Rng(f"confirm-{attempt}"))]
        if orders:
            return orders
    raise AssertionError(f"no orders for seat {seat}")


def test_a_confirmation_drawn_before_the_phase_moved_on_is_refused(campaign, client):
    game, users = started(campaign)
    play_days(game, users, 1)
    current = open_phase(game)
    client.force_login(game.gm)
    html = asked(client, reverse("gm_history", args=[game.id]),
                 reverse("gm_rollback", args=[game.id]), {"to_phase": "1", "reason": "x"})
    play_days(game, users, 1)  # the deadline passes while the question is open
    page = confirm(client, html)
    assert f"Phase {current.number} was already adjudicated: nothing was done." in page
    assert "rollback" not in actions(game)
    assert Phase.objects.get(pk=current.pk).status == Phase.Status.PUBLISHED


def test_declining_and_removing_ask_first_naming_the_player(campaign, client):
    game, users = campaign(players=6)
    Game.objects.filter(pk=game.pk).update(join_policy=Game.JoinPolicy.APPROVAL)
    asker = get_user_model().objects.create_user(email="asker@example.org",
                                                 display_name="Asker")
    pending = join_game(game.id, asker, "Don Asker")
    assert pending.membership == Player.Membership.PENDING
    client.force_login(game.gm)
    players_page = reverse("gm_players", args=[game.id])
    decline = reverse("gm_remove", args=[game.id, pending.id])
    html = asked(client, players_page, decline)
    asks(html, "Decline Asker's request to join?", players_page)
    assert "Don Asker (Asker, asker@example.org) does not join Papayas" in html
    assert Player.objects.get(pk=pending.pk).membership == Player.Membership.PENDING
    confirm(client, html)
    assert Player.objects.get(pk=pending.pk).membership == Player.Membership.REMOVED
    assert "is no longer in Papayas" in confirm(client, html)
    seated = game.players.get(user=users[1])
    html = asked(client, players_page, reverse("gm_remove", args=[game.id, seated.id]))
    asks(html, "Remove Don Isabel from Papayas?", players_page)
    assert "gives up seat 2" in html and users[1].email in html
    assert Player.objects.get(pk=seated.pk).membership == Player.Membership.ACTIVE
    confirm(client, html)
    assert Player.objects.get(pk=seated.pk).membership == Player.Membership.REMOVED
    assert actions(game) == ["create", "decline", "remove"]


def test_replacing_a_player_asks_first_naming_both(campaign, client):
    game, users = started(campaign)
    get_user_model().objects.create_user(email="new@example.org", display_name="Newcomer")
    old = game.players.get(user=users[2])
    client.force_login(game.gm)
    players_page = reverse("gm_players", args=[game.id])
    replace = reverse("gm_replace", args=[game.id, old.id])
    fill = {"email": "nobody@example.org", "reason": "moved abroad"}
    form = form_to(client.get(players_page).content.decode(), replace)
    for name, value in fill.items():
        form.set(name, value)
    page = client.get(submit(client, players_page, form)["Location"]).content.decode()
    assert "Nobody has an account with the e-mail address nobody@example.org" in page
    html = asked(client, players_page, replace, {**fill, "email": "new@example.org"})
    asks(html, f"Replace {users[2].public_name} by Newcomer?", players_page + f"#player-{old.id}")
    assert "leaves seat 3 for good" in html and "Newcomer (new@example.org) takes seat 3 as " \
        "Don Miguel" in html
    assert Player.objects.get(pk=old.pk).membership == Player.Membership.ACTIVE
    assert "takes seat 3" in confirm(client, html)
    assert Player.objects.get(pk=old.pk).membership == Player.Membership.REPLACED
    assert "Only a seated player" in confirm(client, html)
    assert actions(game).count("replace") == 1


def test_starting_asks_first_listing_the_seats(campaign, client):
    game, users = campaign(players=6)
    client.force_login(game.gm)
    overview = reverse("gm_overview", args=[game.id])
    removed = game.players.get(user=users[5])
    removed.membership = Player.Membership.REMOVED
    removed.save(update_fields=["membership"])
    page = client.get(reverse("gm_start", args=[game.id]), follow=True).content.decode()
    assert "Papayas needs at least 6 seated players to start; it has 5." in page
    removed.membership = Player.Membership.ACTIVE
    removed.save(update_fields=["membership"])
    html = asked(client, overview, reverse("gm_start", args=[game.id]))
    assert Game.objects.get(pk=game.pk).status == Game.Status.FORMING
    asks(html, "Start Papayas?", overview)
    assert "Papayas begins with 6 players, in this seat order: " + ", ".join(
        escape(family(game, u)) for u in users) in html
    assert "Nobody else can join" in html
    assert "has begun" in confirm(client, html)
    assert Game.objects.get(pk=game.pk).status == Game.Status.NOMINATING
    assert "has already started" in confirm(client, html)
    assert actions(game) == ["create", "start"]
