"""The GameMaster's panel: its own URLs and permission, every action through the
services with an audit entry, rollback and replay, and no GM secret on a player's page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from junta.engine import Event, GameState, catalog
from junta.engine.bots import bot_orders
from junta.engine.rng import Rng
from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import AuditEntry, Game, Order, Phase, PhaseResult
from junta.games.order_forms import token
from junta.games.replay import replay_game
from junta.gm import services
from junta.gm.checks import check_campaign
from junta.gm.forms import gm_prefix
from junta.gm.services import GMError, GMOrderRefused
from tests.web.browser_forms import asked_and_confirmed, form_to, form_with, forms_in, submit

pytestmark = pytest.mark.django_db

NAMES = ["Carlos", "Isabel", "Miguel", "Lucia", "Rafael", "Elena", "Diego"]
SECRET_REASON = "GM-ONLY-REASON-7f3a"


# --- the cast -------------------------------------------------------------------------------

def make_user(email: str):
    return get_user_model().objects.create_user(email=email, display_name=email.split("@")[0])


def make_game(gm, players: int = 6, review: bool = False, name: str = "Papayas",
              start: bool = True) -> tuple[Game, list]:
    mode = Game.ReviewMode.REVIEW if review else Game.ReviewMode.AUTO
    game = create_game(gm, name, max_players=10, join_policy=Game.JoinPolicy.OPEN,
                       review_mode=mode)
    users = []
    for who in NAMES[:players]:
        user = make_user(f"{who.lower()}-{game.id}@example.org")
        join_game(game.id, user, f"Don {who}")
        users.append(user)
    Game.objects.filter(pk=game.pk).update(seed=f"gm-panel-{name}")  # the same deal each run
    if start:
        start_campaign(game.id, gm)
    return Game.objects.get(pk=game.pk), users


@pytest.fixture
def cast():
    gm = make_user("gm@example.org")
    game, users = make_game(gm)
    other_gm = make_user("other-gm@example.org")
    other_game, _ = make_game(other_gm, name="Bananas")
    stranger = make_user("stranger@example.org")
    return {"gm": gm, "game": game, "players": users, "other_gm": other_gm,
            "other_game": other_game, "stranger": stranger}


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).state_version


def by_seat(game: Game) -> dict:
    return {p.seat: p.user for p in game.players.filter(membership="active")}


def play(game: Game, phases: int = 1, until: str | None = None, seed: str = "gm-bots") -> Phase:
    """Bots order for every seat and each phase is adjudicated and published; stops early at
    the first open phase of kind `until`. Returns the open phase."""
    rng = Rng(seed)
    for _ in range(phases if until is None else 60):
        phase = open_phase(game)
        if until is not None and phase.kind == until:
            return phase
        state = repository.state_before(phase)
        users = by_seat(game)
        for seat in state.active_seats():
            orders = [o.to_dict() for o in bot_orders(state, seat, rng)]
            order_intake.submit_orders(phase.id, users[seat], orders, state_version=version(game),
                                  final=True, now=phase.opens_at + timedelta(minutes=1))
        adjudication.adjudicate_phase(phase.id, now=phase.deadline, force=True)
    if until is not None:
        raise AssertionError(f"no {until} phase came")
    return open_phase(game)


def state_of(phase: Phase):
    phase.refresh_from_db()
    return repository.state_before(phase)


def actions(game: Game) -> list[str]:
    return list(AuditEntry.objects.filter(game=game).order_by("id").values_list("action",
                                                                                 flat=True))


# --- every panel URL is the GM's alone -------------------------------------------------------

PAGES = ["gm_overview", "gm_players", "gm_time", "gm_review", "gm_rulings", "gm_everything",
         "gm_board", "gm_history", "gm_audit", "gm_settings", "gm_announce"]
ACTIONS = ["gm_start", "gm_pause", "gm_resume", "gm_extend", "gm_adjudicate", "gm_publish",
           "gm_redraft", "gm_annul", "gm_add_order", "gm_rollback", "gm_replay"]
PLAYER_ACTIONS = ["gm_approve", "gm_remove", "gm_replace"]
RULE_KINDS = ["money", "card", "location", "unit_add", "unit_remove", "fiat"]
ALL_URLS = PAGES + ACTIONS + PLAYER_ACTIONS + [f"gm_rule:{k}" for k in RULE_KINDS]


def url_for(name: str, game: Game) -> str:
    if name in PLAYER_ACTIONS:
        player = game.players.order_by("seat").first()
        return reverse(name, args=[game.id, player.id])
    if name.startswith("gm_rule:"):
        return reverse("gm_rule", args=[game.id, name.split(":")[1]])
    return reverse(name, args=[game.id])


def test_the_url_list_covers_every_panel_url():
    from junta.gm import urls

    assert {p.name for p in urls.urlpatterns} == {n.split(":")[0] for n in ALL_URLS}


@pytest.mark.parametrize("name", ALL_URLS)
@pytest.mark.parametrize("who", ["player", "other_gm", "stranger"])
def test_every_panel_url_is_404_to_anyone_but_the_gm(cast, client, name, who):
    game = cast["game"]
    user = cast["players"][0] if who == "player" else cast[who]
    client.force_login(user)
    url = url_for(name, game)
    before = (version(game), actions(game), game.status)
    assert client.get(url).status_code == 404
    assert client.post(url, {"reason": "x", "hours": 5}).status_code == 404
    game.refresh_from_db()
    assert (version(game), actions(game), game.status) == before


@pytest.mark.parametrize("name", ALL_URLS)
def test_the_gm_gets_the_pages_and_post_only_actions(cast, client, name):
    client.force_login(cast["gm"])
    response = client.get(url_for(name, cast["game"]))
    # the start asks first on a page of its own (here refused at once: the game has started)
    assert response.status_code == (200 if name in PAGES else 302 if name == "gm_start"
                                    else 405)


def test_a_missing_campaign_is_404_and_a_signed_out_visitor_is_sent_to_log_in(cast, client):
    client.force_login(cast["gm"])
    assert client.get(reverse("gm_overview", args=[999999])).status_code == 404
    client.logout()
    response = client.get(reverse("gm_overview", args=[cast["game"].id]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_services_refuse_anyone_but_the_gm(cast):
    game, player = cast["game"], cast["players"][0]
    with pytest.raises(services.NotTheGM):
        services.move_money(game.id, player, "bank:0", "bank:1", 1, reason="x")
    with pytest.raises(services.NotTheGM):
        services.rollback(game.id, cast["other_gm"], 1, reason="x")
    with pytest.raises(services.NotTheGM):
        services.replay_check(game.id, cast["stranger"])


def test_the_gm_link_is_on_the_gm_s_game_pages_only(cast, client):
    game = cast["game"]
    panel = reverse("gm_overview", args=[game.id])
    client.force_login(cast["gm"])
    assert panel in client.get(reverse("game_status", args=[game.id])).content.decode()
    client.force_login(cast["players"][0])
    assert panel not in client.get(reverse("game_status", args=[game.id])).content.decode()


# --- the pages ------------------------------------------------------------------------------

def test_overview_shows_status_deadline_sweep_and_who_owes_orders(cast, client):
    game = cast["game"]
    phase = open_phase(game)
    order_intake.set_final(phase.id, cast["players"][1])
    client.force_login(cast["gm"])
    page = client.get(reverse("gm_overview", args=[game.id])).content.decode()
    assert "Nominations and first election" in page
    assert "data-countdown" in page
    assert "has never run" in page  # no sweep heartbeat in tests
    assert "owes orders" in page and "final" in page
    assert "Don Isabel" in page and "Don Carlos" in page


def test_everything_shows_hands_money_deck_and_hidden_extra_bills(cast, client):
    game = cast["game"]
    play(game, until="cabinet")
    state = state_of(open_phase(game))
    client.force_login(cast["gm"])
    page = client.get(reverse("gm_everything", args=[game.id])).content.decode()
    assert f'data-gm="extra-bills">{state.extra_bills}<' in page
    for p in state.players:
        for cid in p.hand:
            assert escape(f"{catalog.card(cid).name} (#{cid})") in page
    assert f"{len(state.money_deck)} bills" in page


def board_cell(page: str, key: str) -> str:
    """The text of the Board page's cell marked data-gm=`key`."""
    return page.split(f'data-gm="{key}">')[1].split("</td>")[0].split("</dd>")[0]


def test_the_board_page_reads_the_rows_and_follows_every_ruling(cast, client):
    """Who holds which position and card, the money deck by denomination with the hidden
    extra bills, and every unit by zone during a coup: read from the board rows, which the
    GM's rulings keep up to date."""
    from collections import Counter

    from junta.engine.units import deploy

    game = cast["game"]
    phase = play(game, until="cabinet")
    state = state_of(phase)
    client.force_login(cast["gm"])
    url = reverse("gm_board", args=[game.id])
    page = client.get(url).content.decode()
    for p in state.players:
        hand = board_cell(page, f"hand-{p.seat}")
        assert hand.count("(#") == len(p.hand)
        for cid in p.hand:
            assert escape(f"{catalog.card(cid).name} (#{cid})") in hand
    assert board_cell(page, "position-president") == escape(state.name(state.president))
    assert board_cell(page, "board-extra-bills") == str(state.extra_bills)
    assert board_cell(page, "bills-left") == \
        f"{len(state.money_deck)} bills, {sum(state.money_deck)} MP"
    for denomination, count in Counter(state.money_deck).items():
        assert board_cell(page, f"bills-{denomination}") == str(count)
    assert "No coup is under way" in page

    card = state.players[1].hand[0]
    label = escape(f"{catalog.card(card).name} (#{card})")
    services.move_card(game.id, cast["gm"], card, "hand:0", reason="a gift lost in the mail")
    page = client.get(url).content.decode()
    assert label in board_cell(page, "hand-0") and label not in board_cell(page, "hand-1")

    state = state_of(phase)
    state.coup = deploy(state)  # a coup under way (set up directly for this test)
    repository.rewrite_state_before(phase, state)
    services.add_unit(game.id, cast["gm"], "Mercenary", 2, 5, reason="hired")
    units = state_of(phase).coup["units"]
    page = client.get(url).content.decode()
    table = page.split('data-gm="units"')[1].split("</table>")[0]
    assert table.count("<tr data-gm=\"unit-") == len(units)
    mercenary = table.split(f'data-gm="unit-{units[-1]["id"]}">')[1].split("</tr>")[0]
    assert "Mercenary" in mercenary and escape(state.name(2)) in mercenary
    in_zone_5 = table.split(f"{escape(catalog.zones()[5].name)} (zone 5)</th>")[1] \
        .split('scope="rowgroup"')[0]  # the rows of zone 5, up to the next zone's
    assert f"<td>{units[-1]['id']}</td>" in in_zone_5
    assert f"Mercenary {sum(u['kind'] == 'Mercenary' for u in units)}" in page


def test_the_board_page_before_the_start(client):
    gm = make_user("gm-board@example.org")
    game, _ = make_game(gm, start=False, name="Forming")
    client.force_login(gm)
    page = client.get(reverse("gm_board", args=[game.id])).content.decode()
    assert "The campaign has not started" in page


# --- settings -------------------------------------------------------------------------------

def test_settings_phase_lengths_review_mode_and_what_is_fixed_at_the_start(cast, client):
    game = cast["game"]
    client.force_login(cast["gm"])
    url = reverse("gm_settings", args=[game.id])
    page = client.get(url).content.decode()
    assert "Nominations (days)" in page and "Hidden extra bills" not in page
    form = next(f for f in forms_in(page) if "review_mode" in f.names())
    for name, value in (("review_mode", "review"), ("deadline_time", "20:30"),
                        ("time_zone", "Europe/Madrid"), ("nomination_days", "2"),
                        ("election_days", "3"), ("default_days", "1"), ("min_hours", "10")):
        form.set(name, value)
    response = submit(client, url, form)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.review_mode == "review" and game.time_zone == "Europe/Madrid"
    assert game.days_for("election") == 3 and game.deadline_time.hour == 20
    said = client.get(response["Location"]).content.decode().replace("&#x27;", "'")
    # each change by its label and new value
    assert ("Saved. Daily deadline: 20:30; Shortest phase (hours): 10; Phase lengths: "
            "nominations 2 days, first election 3 days, every other phase 1 day; Results: The "
            "GM reviews each result before it is published; Deadline time zone: "
            "Europe/Madrid.") in said
    entry = AuditEntry.objects.filter(game=game).latest("id")
    assert entry.action == "settings" and "phase_days" in entry.data["changes"]
    with pytest.raises(GMError, match="has started"):
        services.update_settings(game.id, cast["gm"], {"extra_bills_max": 3})
    with pytest.raises(GMError, match="1 to 7 days"):
        services.update_settings(game.id, cast["gm"], {"phase_days": {"default": 9}})


def test_a_settings_page_drawn_before_another_window_saved_changes_nothing(cast, client):
    """Two windows of the Settings page: A turns review on; B, drawn before, lengthens the
    first election. B is refused with a message and the current settings; review stays on."""
    game = cast["game"]
    client.force_login(cast["gm"])
    url = reverse("gm_settings", args=[game.id])
    window_a = next(f for f in forms_in(client.get(url).content.decode())
                    if "review_mode" in f.names())
    window_b = next(f for f in forms_in(client.get(url).content.decode())
                    if "review_mode" in f.names())
    assert submit(client, url, window_a.set("review_mode", "review")).status_code == 302
    refused = submit(client, url, window_b.set("election_days", "4"))
    assert refused.status_code == 409
    text = refused.content.decode().replace("&#x27;", "'")
    assert "The settings changed since this page was drawn" in text
    game.refresh_from_db()
    assert game.review_mode == "review" and game.days_for("election") != 4
    again = next(f for f in forms_in(text) if "review_mode" in f.names())  # drawn anew
    assert submit(client, url, again.set("election_days", "4")).status_code == 302
    game.refresh_from_db()
    assert game.review_mode == "review" and game.days_for("election") == 4


def test_forming_settings_change_until_the_start(client):
    gm = make_user("gm5@example.org")
    game, _ = make_game(gm, start=False)
    assert services.update_settings(game.id, gm, {"extra_bills_min": 2, "extra_bills_max": 5,
                                                  "max_players": 8}) == [
        "extra_bills_max", "extra_bills_min", "max_players"]
    with pytest.raises(GMError, match="6 players are seated"):
        services.update_settings(game.id, gm, {"max_players": 5})
    with pytest.raises(GMError):
        services.update_settings(game.id, gm, {"extra_bills_min": 9})  # above the maximum


# --- players --------------------------------------------------------------------------------

def test_approve_decline_and_remove_while_forming(client):
    gm = make_user("gm2@example.org")
    game = create_game(gm, "Mangos", join_policy=Game.JoinPolicy.APPROVAL)
    users = [make_user(f"p{i}@example.org") for i in range(3)]
    players = [join_game(game.id, u, f"Don {NAMES[i]}") for i, u in enumerate(users)]
    client.force_login(gm)
    page = reverse("gm_players", args=[game.id])
    client.post(reverse("gm_approve", args=[game.id, players[0].id]))
    asked_and_confirmed(client, page, reverse("gm_remove", args=[game.id, players[1].id]))
    players[0].refresh_from_db()
    players[1].refresh_from_db()
    assert players[0].membership == "active" and players[0].seat == 0
    assert players[1].membership == "removed"
    asked_and_confirmed(client, page, reverse("gm_remove", args=[game.id, players[0].id]))
    players[0].refresh_from_db()
    assert players[0].membership == "removed" and players[0].seat is None
    assert actions(game) == ["create", "approve", "decline", "remove"]
    with pytest.raises(GMError, match="not waiting for approval"):
        services.approve_player(game.id, gm, players[0].id)


def test_start_from_the_panel(client):
    gm = make_user("gm3@example.org")
    game, _ = make_game(gm, start=False)
    client.force_login(gm)
    page = client.get(reverse("gm_players", args=[game.id])).content.decode()
    assert "Start the campaign" in page and "6 of 10 players seated (6 at least)" in page
    seat = game.players.filter(membership="active").first()
    seat.membership = "removed"
    seat.save()  # five seated: no button, the reason instead
    for name in ("gm_players", "gm_overview"):
        page = client.get(reverse(name, args=[game.id])).content.decode()
        assert "Start the campaign" not in page
        assert "The campaign can start once 6 players are seated; 5 are seated now." in page
    seat.membership = "active"
    seat.save()
    asked_and_confirmed(client, reverse("gm_players", args=[game.id]),
                        reverse("gm_start", args=[game.id]))
    assert Game.objects.get(pk=game.pk).status == Game.Status.NOMINATING
    assert actions(game) == ["create", "start"]


def test_a_seated_player_is_replaced_keeping_the_seat_and_its_state(cast, client):
    game, users = cast["game"], cast["players"]
    play(game, until="cabinet")
    phase = open_phase(game)
    old = game.players.get(user=users[2])
    state = state_of(phase)
    hand = list(state.players[2].hand)
    order_intake.submit_orders(phase.id, users[2], [], state_version=version(game),
                          note_to_gm="my note")
    past_orders = Order.objects.filter(player=old).exclude(phase=phase).count()
    newcomer = make_user("newcomer@example.org")
    client.force_login(cast["gm"])
    asked_and_confirmed(client, reverse("gm_players", args=[game.id]),
                        reverse("gm_replace", args=[game.id, old.id]), {
        "email": "NEWCOMER@example.org", "character_name": "", "reason": "moved abroad",
        "announcement": "A new player takes over Don Miguel's family."})
    old.refresh_from_db()
    new = game.players.get(user=newcomer)
    assert old.membership == "replaced" and old.seat == 2
    assert new.membership == "active" and new.seat == 2 and new.character.name == "Don Miguel"
    assert Order.objects.filter(player=old).count() == past_orders  # their record stays theirs
    assert Order.objects.get(phase=phase, player=new).note_to_gm == "my note"
    assert sorted(new.cards.filter(pile="hand").values_list("card_id", flat=True)) == \
        sorted(hand)
    assert actions(game)[-1] == "replace"
    # the leaver no longer sees the seat's secrets; the newcomer does
    client.force_login(users[2])
    assert client.get(reverse("game_orders", args=[game.id])).status_code == 404
    client.force_login(newcomer)
    page = client.get(reverse("game_status", args=[game.id])).content.decode()
    assert catalog.card(hand[0]).name in page
    with pytest.raises(GMError, match="already in"):
        services.replace_player(game.id, cast["gm"], new.id, users[0].email, reason="x")
    with pytest.raises(GMError, match="Nobody has an account"):
        services.replace_player(game.id, cast["gm"], new.id, "nobody@example.org", reason="x")


def test_a_running_seat_cannot_be_removed(cast):
    game = cast["game"]
    player = game.players.get(seat=0, membership="active")
    with pytest.raises(GMError, match="Replace"):
        services.remove_player(game.id, cast["gm"], player.id)


# --- time -----------------------------------------------------------------------------------

def test_pause_resume_and_extend_from_the_panel(cast, client):
    game = cast["game"]
    phase = open_phase(game)
    client.force_login(cast["gm"])
    client.post(reverse("gm_pause", args=[game.id]), {
        "pause-reason": "holidays", "pause-announcement": "Paused until Monday."})
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    game.paused_at = timezone.now() - timedelta(hours=3)  # paused three hours ago
    game.save(update_fields=["paused_at"])
    client.post(reverse("gm_resume", args=[game.id]), {"resume-reason": "back"})
    moved = Phase.objects.get(pk=phase.pk).deadline - phase.deadline
    assert timedelta(hours=3) <= moved < timedelta(hours=3, minutes=1)
    client.post(reverse("gm_extend", args=[game.id]),
                {"extend-phase": phase.number, "extend-hours": 5, "extend-reason": "late player"})
    assert Phase.objects.get(pk=phase.pk).deadline - phase.deadline - moved == \
        timedelta(hours=5)
    assert actions(game)[-3:] == ["pause", "resume", "extend"]
    assert AuditEntry.objects.get(game=game, action="pause").announcement == \
        "Paused until Monday."


def test_adjudicate_now_publishes_in_auto_mode(cast, client):
    game = cast["game"]
    phase = open_phase(game)
    client.force_login(cast["gm"])
    asked_and_confirmed(client, reverse("gm_time", args=[game.id]),
                        reverse("gm_adjudicate", args=[game.id]))
    phase.refresh_from_db()
    assert phase.status == Phase.Status.PUBLISHED
    assert open_phase(game).kind == "election"
    assert actions(game)[-1] == "adjudicate"


def test_review_adjudicate_read_change_orders_and_publish(client):
    gm = make_user("gm4@example.org")
    game, users = make_game(gm, review=True)
    phase = open_phase(game)
    v = version(game)
    order_intake.submit_orders(phase.id, users[0], [{"kind": "nominate", "candidate": 1}],
                          state_version=v, note_to_gm="please be fair")
    order_intake.submit_orders(phase.id, users[2], [{"kind": "nominate", "candidate": 3}],
                          state_version=v)
    client.force_login(gm)
    asked_and_confirmed(client, reverse("gm_time", args=[game.id]),
                        reverse("gm_adjudicate", args=[game.id]))
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED
    page = client.get(reverse("gm_review", args=[game.id])).content.decode()
    assert "nominated by Don Carlos" in page and "please be fair" in page
    first = phase.result.digest
    # annul Carlos's nomination: the phase is drafted again without it
    client.post(reverse("gm_annul", args=[game.id]), {
        "from": "review", "annul-seat": 0, "annul-index": 0, "annul-reason": "double post",
        "annul-state_version": version(game)})
    phase.refresh_from_db()
    result = PhaseResult.objects.get(phase=phase)
    assert result.digest != first and result.published_at is None
    assert "nominated by Don Carlos" not in " ".join(e["text"] for e in result.events)
    # give an order for a player through his own form: checked by the engine, drafted again
    url, page = give_page(client, game, 4, "gm_review")
    form = form_with(page, "option", "nominate")
    form.set(gm_prefix("nominate") + "-candidate", "5")
    form.set(gm_prefix("nominate") + "-ruling-reason", "lost in the mail")
    response = submit(client, url, form)
    assert response.status_code == 302
    assert response["Location"] == reverse("gm_review", args=[game.id]) + \
        "?order_for=4#give-order"
    result.refresh_from_db()
    assert "Don Elena, nominated by Don Rafael" in " ".join(e["text"] for e in result.events)
    with pytest.raises(GMError, match="no order of kind"):
        services.add_order(game.id, gm, 1, {"kind": "fly"}, reason="x")
    with pytest.raises(GMError, match="not as text"):
        services.add_order(game.id, gm, 1, '{"kind": "nominate", "candidate": 2}', reason="x")
    asked_and_confirmed(client, reverse("gm_review", args=[game.id]),
                        reverse("gm_publish", args=[game.id]),
                        {"announcement": "Nominations closed."})
    phase.refresh_from_db()
    assert phase.status == Phase.Status.PUBLISHED
    assert open_phase(game).kind == "election"
    assert actions(game) == ["create", "start", "adjudicate", "annul", "order", "publish"]
    assert all(line.ok for line in replay_game(game))


# --- rulings on the state -------------------------------------------------------------------

def test_money_moves_between_pockets_and_banks_conserving_it(cast, client):
    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    assert rich.pocket > 0
    poor = next(p for p in state.players if p.seat != rich.seat and p.status == "alive")
    total, v = state.bills_total(), version(game)
    client.force_login(cast["gm"])
    client.post(reverse("gm_rule", args=[game.id, "money"]), {
        "money-source": f"pocket:{rich.seat}", "money-target": f"bank:{poor.seat}",
        "money-amount": 1, "money-reason": "a bribe the engine missed",
        "money-state_version": v})
    after = state_of(phase)
    assert after.players[rich.seat].pocket == rich.pocket - 1
    assert after.players[poor.seat].bank == poor.bank + 1
    assert after.bills_total() == total
    assert version(game) == v + 1
    assert game.players.get(seat=poor.seat, membership="active").bank == poor.bank + 1
    entry = AuditEntry.objects.filter(game=game).latest("id")
    assert entry.action == "money" and entry.reason == "a bribe the engine missed"
    assert entry.data["digest_after"] == Phase.objects.get(pk=phase.pk).state_digest
    with pytest.raises(GMError, match=r"Amount \(MP\): give a whole number from 1 to "):
        services.move_money(game.id, cast["gm"], f"pocket:{rich.seat}", "out", 999,
                            reason="too much")
    with pytest.raises(GMError, match="Give a reason"):
        services.move_money(game.id, cast["gm"], f"pocket:{rich.seat}", "out", 1, reason="")
    # the stale form is refused
    with pytest.raises(order_intake.CampaignError, match="has changed"):
        order_intake.submit_orders(phase.id, by_seat(game)[0], [], state_version=v)


def test_a_ruling_that_leaves_an_order_impossible_is_told_to_the_gm_and_the_player(cast):
    """The rich family pays 1 MP to another on its Orders page; the GM moves all its pocket to
    its bank. Its order can no longer be carried out: the GM is told by the ruling's message,
    the player by his Orders page, which marks the order."""
    from tests.web.browser_forms import csrf_browser

    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    other = next(p for p in state.players if p.seat != rich.seat and p.status == "alive")
    player = csrf_browser(by_seat(game)[rich.seat])
    url = reverse("game_orders", args=[game.id])
    form = form_with(player.get(url).content.decode(), "option", "pay")
    form.set("order-pay-to", str(other.seat)).type_number("1")
    assert submit(player, url, form).status_code == 302
    page = player.get(url).content.decode()
    assert "Cannot be carried out" not in page
    gm = csrf_browser(cast["gm"])
    rulings = reverse("gm_rulings", args=[game.id])
    ruling = form_with(gm.get(rulings).content.decode(), "money-amount", "1")
    ruling.set("money-source", f"pocket:{rich.seat}").set("money-target", f"bank:{rich.seat}")
    ruling.type_text("money-amount", str(rich.pocket)).type_text("money-reason", "banked")
    response = submit(gm, reverse("gm_rule", args=[game.id, "money"]), ruling)
    assert response.status_code == 302
    told = gm.get(response["Location"]).content.decode().replace("&#x27;", "'")
    assert f"This ruling leaves orders given by {rich.name} impossible as they stand" in told
    page = player.get(url).content.decode().replace("&#x27;", "'")
    marked = re.sub(r"<[^>]+>", "", page[page.index('id="order-broken-0"'):])
    assert marked.startswith('id="order-broken-0">Error: Cannot be carried out as it stands: '
                             "You have 0 MP in your pocket; you cannot pay 1 MP. Change it or "
                             "remove it.")


def test_a_payment_a_ruling_made_impossible_fails_told_to_payer_and_payee(cast):
    """docs/rules.md §any-time: "A payment the payer cannot cover when it is carried out fails,
    and both are told"; docs/rulings.md §ruling-no-silent-orders. A family pays 1 MP on its
    Orders page; the GM moves its whole pocket to its bank through the GM panel; at the
    deadline the payment fails, and the payer and the payee each read why on their Events
    page; a third family reads nothing of it."""
    from tests.web.browser_forms import csrf_browser

    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    payee, third = [p for p in state.players if p.seat != rich.seat and p.status == "alive"][:2]
    users = by_seat(game)
    player = csrf_browser(users[rich.seat])
    url = reverse("game_orders", args=[game.id])
    form = form_with(player.get(url).content.decode(), "option", "pay")
    form.set("order-pay-to", str(payee.seat)).type_number("1")
    assert submit(player, url, form).status_code == 302
    gm = csrf_browser(cast["gm"])
    ruling = next(f for f in forms_in(gm.get(reverse("gm_rulings", args=[game.id]))
                                      .content.decode()) if "money-amount" in f.names())
    ruling.set("money-source", f"pocket:{rich.seat}").set("money-target", f"bank:{rich.seat}")
    ruling.type_text("money-amount", str(rich.pocket)).type_text("money-reason", "banked")
    assert submit(gm, reverse("gm_rule", args=[game.id, "money"]), ruling).status_code == 302
    adjudication.adjudicate_phase(phase.id, now=open_phase(game).deadline, force=True)
    line = f"{rich.name}'s payment of 1 MP to {payee.name} failed: {rich.name} had only 0 MP."
    events = reverse("game_events", args=[game.id])
    for seat in (rich.seat, payee.seat):
        page = csrf_browser(users[seat]).get(events).content.decode().replace("&#x27;", "'")
        assert line in page, seat
    page = csrf_browser(users[third.seat]).get(events).content.decode().replace("&#x27;", "'")
    assert "payment of 1 MP" not in page
    assert state_of(open_phase(game)).players[payee.seat].pocket == payee.pocket


def test_a_card_moves_and_stays_in_one_place(cast):
    game = cast["game"]
    phase = play(game, until="cabinet")
    state = state_of(phase)
    card = state.players[1].hand[0]
    services.move_card(game.id, cast["gm"], card, "hand:0", reason="a gift lost in the mail")
    after = state_of(phase)
    assert card in after.players[0].hand and card not in after.players[1].hand
    ids = list(after.political_deck) + list(after.political_discard)
    for p in after.players:
        ids += p.hand + p.influence
    assert sorted(ids) == list(range(88))
    services.move_card(game.id, cast["gm"], card, "deck_top", reason="back to the pile")
    assert state_of(phase).political_deck[-1] == card
    vote = next(c for c in state_of(phase).players[2].hand
                if catalog.card(c).category != "influence")
    with pytest.raises(GMError, match="Only Influence cards"):
        services.move_card(game.id, cast["gm"], vote, "influence:2", reason="x")
    # the hand limit holds
    full = state_of(phase)
    while full.cards_held(3) < catalog.HAND_LIMIT:
        services.move_card(game.id, cast["gm"], full.political_deck[-1], "hand:3", reason="x")
        full = state_of(phase)
    with pytest.raises(GMError, match="the limit"):
        services.move_card(game.id, cast["gm"], full.political_deck[-1], "hand:3", reason="x")
    assert actions(game).count("card") == 2 + catalog.HAND_LIMIT - state.cards_held(3)


def located(phase: Phase) -> None:
    """The phase's start state as after the turn's Locations step: every living player at
    Home (set up directly for a test)."""
    state = state_of(phase)
    for p in state.players:
        if p.status == "alive":
            p.location = "home"
    repository.rewrite_state_before(phase, state)


def test_set_a_location(cast):
    """docs/rules.md §location: a location is set once the turn's locations are chosen."""
    game = cast["game"]
    phase = play(game, until="cabinet")
    with pytest.raises(GMError, match="Nobody has a location yet this turn"):
        services.set_location(game.id, cast["gm"], 4, "club", reason="seen at the club")
    located(phase)
    services.set_location(game.id, cast["gm"], 4, "club", reason="seen at the club")
    assert state_of(phase).players[4].location == "club"
    with pytest.raises(GMError, match="Location: 'beach' is not among the options offered"):
        services.set_location(game.id, cast["gm"], 4, "beach", reason="x")


def test_units_are_added_and_removed_during_a_coup(cast):
    from junta.engine.units import deploy

    game = cast["game"]
    phase = play(game, until="cabinet")
    with pytest.raises(GMError, match="no coup"):
        services.add_unit(game.id, cast["gm"], "Mob", None, 5, reason="x")
    state = state_of(phase)
    state.coup = deploy(state)  # a coup under way (set up directly for this test)
    repository.rewrite_state_before(phase, state)
    count = len(state.coup["units"])
    entry = services.add_unit(game.id, cast["gm"], "Mercenary", 0, 5, reason="hired")
    after = state_of(phase)
    unit = after.coup["units"][-1]
    assert len(after.coup["units"]) == count + 1
    assert (unit["kind"], unit["owner"], unit["zone"], unit["temporary"]) == \
        ("Mercenary", 0, 5, True)
    services.remove_unit(game.id, cast["gm"], entry.data["unit"], reason="deserted")
    assert len(state_of(phase).coup["units"]) == count
    with pytest.raises(GMError, match="Zone: 99 is not among the options offered now."):
        services.add_unit(game.id, cast["gm"], "Mob", None, 99, reason="x")
    assert actions(game)[-2:] == ["unit_add", "unit_remove"]


def in_a_coup(phase: Phase) -> GameState:
    """The phase's start state with a coup under way (set up directly for a test)."""
    from junta.engine.units import deploy

    state = state_of(phase)
    state.coup = deploy(state)
    repository.rewrite_state_before(phase, state)
    return state_of(phase)


def ruling_form(html: str, kind: str):  # noqa: ANN201 - a browser_forms.Form
    """The Rulings page's form for the ruling `kind`, as the browser reads it."""
    return form_to(html, f"/games/{html_game_id(html)}/gm/rulings/{kind}/")


def html_game_id(html: str) -> str:
    return re.search(r"/games/(\d+)/gm/rulings/", html).group(1)


def test_the_ruling_forms_offer_the_engine_s_values_and_say_why_others_are_not_offered(cast):
    """The Rulings page's lists are `ruling_options`' values and labels: the kinds of unit are
    the rules' (a list, never a text box), the pots those holding money; a ruling not offered
    now says why, as the engine does."""
    from junta.engine import UNIT_KINDS, ruling_options
    from tests.web.browser_forms import csrf_browser

    game = cast["game"]
    phase = play(game, until="cabinet")
    gm = csrf_browser(cast["gm"])
    url = reverse("gm_rulings", args=[game.id])
    page = gm.get(url).content.decode().replace("&#x27;", "'")
    options = ruling_options(state_of(phase))
    for kind in ("unit_add", "unit_remove", "location", "fiat"):
        assert f"/gm/rulings/{kind}/" not in page
        why = options.why_not(kind)
        assert why and f'id="ruling-{kind}-not-now"' in page and why in page
    state = in_a_coup(phase)
    page = gm.get(url).content.decode()
    options = ruling_options(state)
    offered = [o for o in options.rulings if o.kind in services.PAGE_RULINGS]
    assert {o.kind for o in offered} >= {"card", "unit_add", "unit_remove"}
    for option in offered:
        kind, form = option.kind, ruling_form(page, option.kind)
        for arg in option.args:
            if arg.shape.value != "one":
                continue
            offered = [(v, t) for v, t, _ in form.control(f"{kind}-{arg.name}").options]
            blank = [("", arg.blank)] if arg.blank is not None else []
            assert offered == blank + [(token(c.value), c.label) for c in arg.choices], arg.name
    kinds = ruling_form(page, "unit_add").control("unit_add-kind")
    assert kinds.tag == "select" and [v for v, _, _ in kinds.options] == list(UNIT_KINDS)


def test_a_unit_is_added_through_the_form_and_a_tampered_kind_is_refused_by_its_field(cast):
    """The GM adds a unit as the browser sends the Rulings page's form; a kind that is not in
    the rules' unit table (a tampered form) comes back with the error next to "Kind of unit",
    what he typed kept, nothing changed."""
    from tests.web.browser_forms import csrf_browser

    game = cast["game"]
    phase = play(game, until="cabinet")
    before = in_a_coup(phase)
    gm = csrf_browser(cast["gm"])
    url = reverse("gm_rulings", args=[game.id])
    form = ruling_form(gm.get(url).content.decode(), "unit_add")
    with pytest.raises(ValueError, match="not among"):
        form.set("unit_add-kind", "Dragon")
    kind = form.control("unit_add-kind")
    kind.options = [(v, t, False) for v, t, _ in kind.options] + [("Dragon", "Dragon", True)]
    form.set("unit_add-owner", "2").set("unit_add-zone", "5")
    form.type_text("unit_add-reason", "TAMPERED-REASON-3")
    v, digest_before = version(game), Phase.objects.get(pk=phase.pk).state_digest
    response = submit(gm, url, form)
    assert response.status_code == 400
    page = gm_page(response)
    tag, sent = details_of(page, "Add a unit")
    assert " open" in tag and "TAMPERED-REASON-3" in sent
    kind_field = sent[sent.index('for="id_unit_add-kind"'):]
    error = kind_field.index("Kind of unit: Dragon is not among the options offered now.")
    assert error < field_end(kind_field)
    assert version(game) == v and Phase.objects.get(pk=phase.pk).state_digest == digest_before
    assert len(state_of(phase).coup["units"]) == len(before.coup["units"])
    assert "unit_add" not in actions(game)
    # the same form as the page offers it: a Mob, armed as the rules have it (unarmed)
    form = ruling_form(gm.get(url).content.decode(), "unit_add")
    form.set("unit_add-kind", "Mob").set("unit_add-owner", "2").set("unit_add-zone", "5")
    form.type_text("unit_add-reason", "a crowd gathers")
    assert submit(gm, url, form).status_code == 302
    unit = state_of(phase).coup["units"][-1]
    assert (unit["kind"], unit["owner"], unit["zone"], unit["armed"], unit["temporary"]) == \
        ("Mob", 2, 5, False, True)
    assert actions(game)[-1] == "unit_add"


def test_a_ruling_the_engine_refuses_comes_back_with_its_message_by_the_field(cast):
    """A card the engine will not put where the GM chose (a Vote card in play before a player,
    docs/rules.md §hand-limit): its message next to "Move it to", nothing changed."""
    from tests.web.browser_forms import csrf_browser

    game = cast["game"]
    phase = play(game, until="cabinet")
    state = state_of(phase)
    vote = next(c for p in state.players for c in p.hand
                if catalog.card(c).category != "influence")
    gm = csrf_browser(cast["gm"])
    url = reverse("gm_rulings", args=[game.id])
    form = ruling_form(gm.get(url).content.decode(), "card")
    form.set("card-card", str(vote)).set("card-target", "influence:0")
    form.type_text("card-reason", "x")
    v = version(game)
    response = submit(gm, url, form)
    assert response.status_code == 400
    _, sent = details_of(gm_page(response), "Move a card")
    target = sent[sent.index('for="id_card-target"'):]
    assert target.index("Only Influence cards lie in play before a player") < field_end(target)
    assert version(game) == v and "card" not in actions(game)


def test_a_ruling_no_longer_offered_is_refused_with_the_engine_s_reason(cast, client):
    """A unit form sent once the coup is over (another window): refused, nothing changed."""
    game = cast["game"]
    phase = play(game, until="cabinet")
    client.force_login(cast["gm"])
    response = client.post(reverse("gm_rule", args=[game.id, "unit_add"]), {
        "unit_add-kind": "Mob", "unit_add-zone": 5, "unit_add-reason": "x",
        "unit_add-state_version": version(game)})
    assert response.status_code == 400
    assert "Not done. Add a unit: There is no coup under way" in gm_page(response)
    assert state_of(phase).coup is None and "unit_add" not in actions(game)


def test_budget_by_fiat_in_the_budget_vote(cast, client):
    game = cast["game"]
    phase = play(game, until="budget_proposal")
    with pytest.raises(GMError, match="Budget Vote phase"):
        services.budget_by_fiat(game.id, cast["gm"], {0: 1}, reason="x")
    phase = play(game, until="budget_vote")
    state = state_of(phase)
    held = list(state.budget["held"])
    set_aside = state.budget.get("set_aside") or 0
    bills = held[:len(held) - set_aside] if set_aside else held
    total = state.bills_total()
    seats = [p.seat for p in state.players if p.status == "alive"]
    with pytest.raises(GMError, match="cannot pay"):
        services.budget_by_fiat(game.id, cast["gm"], {seats[0]: sum(bills), seats[1]: 1},
                                reason="x")
    client.force_login(cast["gm"])
    client.post(reverse("gm_rule", args=[game.id, "fiat"]), {
        f"fiat-allocations_{seats[0]}": bills[0], "fiat-reason": "no payable budget in time",
        "fiat-announcement": "The GM decrees the budget.", "fiat-state_version": version(game)})
    after = state_of(phase)
    assert after.budget["proposal"]["allocations"] == {str(seats[0]): bills[0]}
    assert after.budget["proposal"]["fiat"] is True
    assert after.bills_total() == total
    assert actions(game)[-1] == "fiat"


def test_a_ruling_on_a_drafted_phase_drafts_it_again(cast):
    game = cast["game"]
    phase = play(game, until="cabinet")
    Game.objects.filter(pk=game.pk).update(review_mode=Game.ReviewMode.REVIEW)
    services.adjudicate_now(game.id, cast["gm"])
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED
    first = phase.result.digest
    card = state_of(phase).players[1].hand[0]
    services.move_card(game.id, cast["gm"], card, "discard", reason="burned")
    phase.refresh_from_db()
    assert phase.result.digest != first
    after = GameState.from_dict(phase.result.state_after)
    assert card in after.political_discard
    services.publish(game.id, cast["gm"])
    assert all(line.ok for line in replay_game(game))
    assert check_campaign(game).ok


# --- rollback and replay --------------------------------------------------------------------

def test_rollback_then_replay_gives_equal_digests(cast, client):
    game = cast["game"]
    play(game, phases=4)
    target = Phase.objects.get(game=game, number=3)
    current = open_phase(game)
    phases_before = Phase.objects.filter(game=game).count()
    results_before = PhaseResult.objects.filter(phase__game=game).count()
    client.force_login(cast["gm"])
    # the GM is told whose orders for the current phase it leaves behind
    users = by_seat(game)
    state = repository.state_before(current)
    given = [seat for seat in state.active_seats() if bot_orders(state, seat, Rng("rb"))][:2]
    for seat in given:
        order_intake.submit_orders(current.id, users[seat],
                              [o.to_dict() for o in bot_orders(state, seat, Rng("rb"))],
                              state_version=version(game))
    history = client.get(reverse("gm_history", args=[game.id])).content.decode()
    assert f"{len(given)} players have given orders for phase {current.number}: they stay " \
        "with it, superseded, and must be given again in the new phase" in history
    asked_and_confirmed(client, reverse("gm_history", args=[game.id]),
                        reverse("gm_rollback", args=[game.id]), {
        "to_phase": "3", "reason": "the cabinet was appointed from a stale form",
        "announcement": "The GM rolls back to the cabinet appointment."})
    current.refresh_from_db()
    new = open_phase(game)
    assert current.status == Phase.Status.SUPERSEDED
    assert new.number == current.number + 1 and new.kind == target.kind
    assert new.state_digest == target.state_digest
    assert Phase.objects.filter(game=game).count() == phases_before + 1  # nothing deleted
    assert PhaseResult.objects.filter(phase__game=game).count() == results_before
    assert actions(game)[-1] == "rollback"
    play(game, phases=2, seed="after-rollback")
    lines = replay_game(game)
    assert len(lines) == results_before + 2 and all(line.ok for line in lines)
    report = check_campaign(game)
    assert report.ok, [line for line in report.chain if not line.ok]
    assert "rolled back to the start of phase 3" in {line.origin for line in report.chain}
    page = client.post(reverse("gm_replay", args=[game.id])).content.decode()
    assert "replay to their stored digests" in page
    assert actions(game)[-1] == "replay_check"


def test_the_check_finds_a_start_state_changed_without_a_ruling(cast):
    game = cast["game"]
    play(game, phases=2)
    phase = open_phase(game)
    state = state_of(phase)
    state.players[0].bank += 5  # behind the GM's back: no audit entry
    repository.rewrite_state_before(phase, state)
    report = check_campaign(game)
    assert all(line.ok for line in report.replay)
    assert not report.ok
    assert "no GM ruling explains it" in report.chain[-1].origin


def test_a_tampered_start_state_is_refused_with_a_message(cast):
    game = cast["game"]
    phase = open_phase(game)
    Phase.objects.filter(pk=phase.pk).update(state_digest="0" * 64)
    with pytest.raises(GMError, match="does not match its digest"):
        services.set_location(game.id, cast["gm"], 0, "home", reason="x")


def test_rollback_refuses_the_current_or_a_missing_phase(cast):
    game = cast["game"]
    play(game, phases=1)
    with pytest.raises(GMError, match="earlier phase"):
        services.rollback(game.id, cast["gm"], 2, reason="x")
    with pytest.raises(GMError, match="no phase 9"):
        services.rollback(game.id, cast["gm"], 9, reason="x")


# --- players never see GM-only information ----------------------------------------------------

def test_player_pages_show_announcements_but_no_gm_secret_after_gm_actions(cast, client):
    game, users = cast["game"], cast["players"]
    phase = play(game, until="cabinet")
    state = state_of(phase)
    card = state.players[1].hand[0]
    services.move_card(game.id, cast["gm"], card, "hand:0", reason=SECRET_REASON,
                       announcement="The GM returns a lost card.")
    services.move_card(game.id, cast["gm"], state.players[3].hand[0], "discard",
                       reason=SECRET_REASON)
    state = state_of(phase)
    client.force_login(users[0])
    mine = {catalog.card(c).name for c in state.players[0].hand}
    visible = mine | {catalog.card(c).name for p in state.players for c in p.influence}
    told = " ".join(e["text"] for r in PhaseResult.objects.filter(phase__game=game)
                    for e in r.events if Event.from_dict(e).visible_to(0))
    others = {catalog.card(c).name for p in state.players[1:] for c in p.hand} - visible
    others = {n for n in others if n not in told}  # e.g. a card Carlos gave away himself
    assert others
    for name in ("game_status", "game_orders", "game_events", "game_history", "game_detail"):
        response = client.get(reverse(name, args=[game.id]))
        page = response.content.decode()
        assert response.status_code == 200
        assert SECRET_REASON not in page
        assert "GM panel" not in page and "/gm/" not in page
        assert "Hidden extra bills" not in page
        if name == "game_status":  # the Orders page names every card in its conditions
            shown = [n for n in others if f"<strong>{escape(n)}</strong>" in page]
            assert not shown, name  # a hand lists each card as <strong>name</strong>
        view = response.context.get("view") if response.context else None
        if view is not None:
            assert "extra_bills" not in view and "full" not in view
            assert "players_secret" not in view
    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "The GM returns a lost card." in events
    assert catalog.card(card).name in client.get(
        reverse("game_status", args=[game.id])).content.decode()


def test_the_audit_log_shows_every_action_to_the_gm(cast, client):
    game = cast["game"]
    services.extend_deadline(game.id, cast["gm"], 2, reason=SECRET_REASON)
    client.force_login(cast["gm"])
    page = client.get(reverse("gm_audit", args=[game.id])).content.decode()
    assert "Extended the deadline" in page and SECRET_REASON in page
    assert "Started the campaign" in page and "Created the campaign" in page


def test_panel_pages_render_in_every_phase_state(cast, client):
    game = cast["game"]
    client.force_login(cast["gm"])
    play(game, until="budget_vote")
    for name in PAGES:
        assert client.get(reverse(name, args=[game.id])).status_code == 200, name
    page = client.get(reverse("gm_rulings", args=[game.id])).content.decode()
    assert "Budget by fiat" in page and "Move money" in page


def test_a_finished_game_takes_no_ruling(cast):
    game = cast["game"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(GMError, match="game is over"):
        services.set_location(game.id, cast["gm"], 0, "home", reason="x")



# --- the audit of the panel: resent forms, refused rulings, wording ---------------------------

def gm_page(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("review", [False, True])
def test_a_resent_adjudicate_now_leaves_the_next_phase_alone(client, review):
    gm = make_user("gm-resend@example.org")
    game, _ = make_game(gm, review=review)
    phase = open_phase(game)
    client.force_login(gm)
    url, time_page = reverse("gm_adjudicate", args=[game.id]), reverse("gm_time", args=[game.id])
    asked, _done = asked_and_confirmed(client, time_page, url,
                                       {"adjudicate-reason": "everyone is in"})
    if review:
        services.publish(game.id, gm)
    second = open_phase(game)
    assert second.number == phase.number + 1
    # the browser sends the confirmation again (back, resend), then the first form
    for form in (form_with(asked, "confirm", "yes"), form_with(asked, "confirm", "yes")
                 .set("confirm", "")):
        page = client.get(submit(client, time_page, form)["Location"]).content.decode()
        assert f"Phase {phase.number} was already adjudicated: nothing was done." in page
    second.refresh_from_db()
    assert second.status == Phase.Status.OPEN and not PhaseResult.objects.filter(
        phase=second).exists()
    assert actions(game).count("adjudicate") == 1


def test_a_resent_adjudicate_now_in_review_mode_keeps_the_draft(client):
    gm = make_user("gm-resend2@example.org")
    game, _ = make_game(gm, review=True)
    phase = open_phase(game)
    client.force_login(gm)
    asked, _done = asked_and_confirmed(client, reverse("gm_time", args=[game.id]),
                                       reverse("gm_adjudicate", args=[game.id]))
    again = submit(client, "", form_with(asked, "confirm", "yes"))
    page = client.get(again["Location"]).content.decode()
    assert f"Phase {phase.number} was already adjudicated" in page
    assert actions(game).count("adjudicate") == 1


def test_a_resent_publish_does_not_publish_the_next_draft(client):
    gm = make_user("gm-resend3@example.org")
    game, _ = make_game(gm, review=True)
    first = open_phase(game)
    services.adjudicate_now(game.id, gm)
    client.force_login(gm)
    asked, _done = asked_and_confirmed(client, reverse("gm_review", args=[game.id]),
                                       reverse("gm_publish", args=[game.id]))
    second = open_phase(game)
    services.adjudicate_now(game.id, gm)  # the next phase waits for review
    again = submit(client, "", form_with(asked, "confirm", "yes"))  # the confirmation resent
    page = client.get(again["Location"]).content.decode()
    assert f"Phase {first.number} was already published: nothing was done." in page
    second.refresh_from_db()
    assert second.status == Phase.Status.DRAFTED
    assert actions(game).count("publish") == 1


def test_a_resent_rollback_opens_no_second_phase(cast, client):
    game = cast["game"]
    play(game, phases=2)
    current = open_phase(game)
    client.force_login(cast["gm"])
    asked, _done = asked_and_confirmed(client, reverse("gm_history", args=[game.id]),
                                       reverse("gm_rollback", args=[game.id]),
                                       {"to_phase": "2", "reason": "a stale form"})
    new = open_phase(game)
    count = Phase.objects.filter(game=game).count()
    again = submit(client, "", form_with(asked, "confirm", "yes"))  # the confirmation resent
    page = client.get(again["Location"]).content.decode()
    assert f"Phase {current.number} was already rolled back: nothing was done." in page
    assert open_phase(game).pk == new.pk
    assert Phase.objects.filter(game=game).count() == count
    assert actions(game).count("rollback") == 1
    with pytest.raises(GMError, match="already rolled back"):
        services.rollback(game.id, cast["gm"], 1, reason="x", current_phase=current.number)


def test_a_resent_ruling_is_applied_once(cast, client):
    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    client.force_login(cast["gm"])
    url = reverse("gm_rule", args=[game.id, "money"])
    data = {"money-source": f"pocket:{rich.seat}", "money-target": "out", "money-amount": 1,
            "money-reason": "a fine", "money-state_version": version(game)}
    assert client.post(url, data).status_code == 302
    response = client.post(url, data)  # sent again
    assert response.status_code == 400
    assert "The campaign has changed since this form was opened" in gm_page(response)
    assert state_of(phase).players[rich.seat].pocket == rich.pocket - 1
    assert actions(game).count("money") == 1
    # the page shown again carries the current version: sending it now is deliberate
    [sent] = [r.form for r in response.context["rulings"] if r.kind == "money"]
    assert sent.data["money-state_version"] == str(version(game))


def test_a_resent_annulment_or_added_order_is_applied_once(cast, client):
    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    other = next(p.seat for p in state.players if p.seat != rich.seat and p.status == "alive")
    gm = cast["gm"]
    client.force_login(gm)
    url, page = give_page(client, game, rich.seat)
    form = form_with(page, "option", "pay")
    form.set(gm_prefix("pay") + "-to", str(other)).set(gm_prefix("pay") + "-amount", "1")
    form.set(gm_prefix("pay") + "-ruling-reason", "lost in the mail")
    assert submit(client, url, form).status_code == 302
    response = submit(client, url, form)  # sent again
    assert response.status_code == 400 and "has changed since" in gm_page(response)
    assert len(Order.objects.get(phase=phase, player__seat=rich.seat,
                                 player__membership="active").payload) == 1
    pay = {"kind": "pay", "to": other, "amount": 1}
    services.add_order(game.id, gm, rich.seat, pay, reason="a second payment")
    row = Order.objects.get(phase=phase, player__seat=rich.seat, player__membership="active")
    assert len(row.payload) == 2
    annul = {"from": "rulings", "annul-seat": rich.seat, "annul-index": 0,
             "annul-revision": row.revision, "annul-reason": "double post",
             "annul-state_version": version(game)}
    assert client.post(reverse("gm_annul", args=[game.id]), annul).status_code == 302
    response = client.post(reverse("gm_annul", args=[game.id]), annul)
    assert response.status_code == 400
    row.refresh_from_db()
    assert len(row.payload) == 1  # the second payment stays
    assert actions(game).count("annul") == 1


def test_an_annulment_from_a_page_older_than_the_player_s_orders_is_refused(cast):
    game = cast["game"]
    phase = open_phase(game)
    user = cast["players"][0]
    order_intake.submit_orders(phase.id, user, [{"kind": "nominate", "candidate": 1}],
                          state_version=version(game))
    row = Order.objects.get(phase=phase, player__user=user)
    seen = row.revision
    order_intake.submit_orders(phase.id, user, [{"kind": "nominate", "candidate": 2}],
                          state_version=version(game))
    with pytest.raises(GMError, match="changed since this page was opened"):
        services.annul_order(game.id, cast["gm"], 0, 0, reason="x", revision=seen)


def give_page(client, game: Game, seat: int, name: str = "gm_rulings") -> tuple[str, str]:  # noqa: ANN001
    """The GM's page (Rulings or Review) with seat `seat`'s order forms: its address and HTML."""
    url = reverse(name, args=[game.id]) + f"?order_for={seat}"
    response = client.get(url)
    assert response.status_code == 200
    return url, gm_page(response)


def give_details(page: str, key: str) -> str:
    """The GM's order form for option `key`: from its <details> tag to the end of its form."""
    start = page.rindex("<details", 0, page.index(f'id="{gm_prefix(key)}"'))
    return page[start:page.index("</form>", start)]


def details_of(page: str, summary: str) -> tuple[str, str]:
    """The opening tag of the <details> whose summary is `summary`, and its contents."""
    before, _, after = page.partition(f"<summary>{summary}</summary>")
    return before[before.rindex("<details"):], after.split("</details>")[0]


def field_end(html: str) -> int:
    """Where the field that `html` starts with ends: at the next field or the form's button."""
    ends = [i for i in (html.find('<div class="field', 1), html.find("<button")) if i >= 0]
    return min(ends) if ends else len(html)


def test_a_refused_ruling_comes_back_with_what_the_gm_typed(cast, client):
    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    poor = min((p for p in state.players if p.status == "alive" and p.pocket), key=lambda p:
               p.pocket)
    assert any(p.pocket > poor.pocket for p in state.players)  # more than it is offered
    client.force_login(cast["gm"])
    url = reverse("gm_rule", args=[game.id, "money"])
    data = {"money-source": f"pocket:{poor.seat}", "money-target": "out",
            "money-amount": poor.pocket + 1, "money-reason": "REASON-TYPED-7",
            "money-announcement": "ANNOUNCED-TYPED-7", "money-state_version": version(game)}
    v = version(game)
    response = client.post(url, data)  # the services refuse it: not that much money
    assert response.status_code == 400
    tag, form = details_of(gm_page(response), "Move money")
    assert " open" in tag
    assert "REASON-TYPED-7" in form and "ANNOUNCED-TYPED-7" in form
    assert f"holds {poor.pocket} MP" in form and 'class="error"' in form
    assert f'value="pocket:{poor.seat}" selected' in form
    assert version(game) == v and actions(game)[-1] != "money"
    # a form error: named by its label, next to its field
    response = client.post(url, {**data, "money-amount": 1, "money-reason": ""})
    assert response.status_code == 400
    page = gm_page(response)
    assert "Not done. Reason: This field is required." in page
    tag, form = details_of(page, "Move money")
    assert " open" in tag and "ANNOUNCED-TYPED-7" in form
    reason_field = form[form.index('for="id_money-reason"'):]
    assert reason_field.index("This field is required.") < field_end(reason_field)
    # an order the engine refuses: the message next to the field it is about
    rich = max(state.players, key=lambda p: p.pocket)
    url, page = give_page(client, game, rich.seat)
    sent = form_with(page, "option", "pay")
    sent.set(gm_prefix("pay") + "-amount", str(rich.pocket + 1))
    sent.set(gm_prefix("pay") + "-ruling-reason", "REASON-ORDER-7")
    response = submit(client, url, sent)
    assert response.status_code == 400
    form = give_details(gm_page(response), "pay")
    assert " open" in form.split(">")[0] and "REASON-ORDER-7" in form
    amount = form[form.index(f'for="{gm_prefix("pay")}-amount"'):]
    assert amount.index(f"you cannot pay {rich.pocket + 1} MP") < amount.index("</div>")
    assert not Order.objects.filter(phase=phase, player__seat=rich.seat).exists()
    # an annulment without a reason keeps the announcement, its <details> open
    services.add_order(game.id, cast["gm"], rich.seat,
                       {"kind": "pay", "to": poor.seat, "amount": 1}, reason="x")
    row = Order.objects.get(phase=phase, player__seat=rich.seat, player__membership="active")
    response = client.post(reverse("gm_annul", args=[game.id]), {
        "from": "rulings", "annul-seat": rich.seat, "annul-index": 0,
        "annul-revision": row.revision, "annul-reason": "",
        "annul-announcement": "ANNUL-TYPED-7", "annul-state_version": version(game)})
    assert response.status_code == 400
    tag, form = details_of(gm_page(response), "Annul this order")
    assert " open" in tag and "ANNUL-TYPED-7" in form and "This field is required." in form
    row.refresh_from_db()
    assert len(row.payload) == 1


@pytest.mark.parametrize("name", ALL_URLS)
def test_site_staff_who_are_not_the_campaign_s_gm_get_404(cast, client, name):
    staff = get_user_model().objects.create_user(
        email="staff@example.org", display_name="staff", is_staff=True, is_superuser=True)
    game = cast["game"]
    client.force_login(staff)
    before = (version(game), actions(game))
    url = url_for(name, game)
    assert client.get(url).status_code == 404
    assert client.post(url, {"reason": "x"}).status_code == 404
    assert (version(game), actions(game)) == before


BOARD_MODELS = ["game", "position", "politicalcard", "bill", "unit", "zone"]


def test_the_admin_lists_the_board_rows_to_staff_read_only(cast, client):
    """Site staff read the board rows in Django's admin, filtered by campaign, holder, pile,
    zone and kind, with the money deck's hidden extra bills; nothing there can be changed."""
    from junta.engine.units import deploy
    from junta.games.models import Bill, PoliticalCard

    game = cast["game"]
    phase = play(game, until="cabinet")
    state = state_of(phase)
    state.coup = deploy(state)
    repository.rewrite_state_before(phase, state)
    services.add_unit(game.id, cast["gm"], "Mercenary", 2, 5, reason="hired")
    staff = get_user_model().objects.create_user(
        email="staff@example.org", display_name="staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    for model in BOARD_MODELS:
        response = client.get(reverse(f"admin:games_{model}_changelist"))
        assert response.status_code == 200, model
        assert client.get(reverse(f"admin:games_{model}_add")).status_code == 403, model
    games = client.get(reverse("admin:games_game_changelist")).content.decode()
    left = Bill.objects.filter(game=game).count()
    assert re.search(rf'<td class="field-extra_bills">{game.extra_bills}</td>'
                     rf'<td class="field-bills_left">{left}</td>', games)
    detail = client.get(reverse("admin:games_game_change", args=[game.id])).content.decode()
    assert game.seed not in detail and game.invite_token not in detail
    holder = game.players.get(seat=1, membership="active")
    hand = client.get(reverse("admin:games_politicalcard_changelist"), {
        "game__id__exact": game.id, "pile__exact": "hand", "holder__id__exact": holder.id})
    assert hand.context["cl"].result_count == len(state.players[1].hand)
    units = client.get(reverse("admin:games_unit_changelist"), {
        "game__id__exact": game.id, "kind": "Mercenary", "zone__number__exact": 5})
    assert units.context["cl"].result_count == 1
    card = PoliticalCard.objects.filter(game=game, pile="hand").first()
    change = reverse("admin:games_politicalcard_change", args=[card.pk])
    assert client.get(change).status_code == 200  # a read-only view
    assert client.post(change, {"pile": "discard"}).status_code == 403
    delete = reverse("admin:games_politicalcard_delete", args=[card.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    card.refresh_from_db()
    assert card.pile == "hand" and PoliticalCard.objects.filter(game=game).count() == 88


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_admin_is_staff_only(cast, client, who):
    client.force_login(cast["gm"] if who == "gm" else cast["players"][0])
    for model in BOARD_MODELS:
        response = client.get(reverse(f"admin:games_{model}_changelist"))
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_draft_again_writes_an_audit_entry(client):
    gm = make_user("gm-redraft@example.org")
    game, _ = make_game(gm, review=True)
    phase = open_phase(game)
    services.adjudicate_now(game.id, gm)
    phase.refresh_from_db()
    digest = phase.result.digest
    client.force_login(gm)
    response = client.post(reverse("gm_redraft", args=[game.id]), {"reason": "check it"},
                           follow=True)
    assert "Drafted again" in response.content.decode()
    entry = AuditEntry.objects.filter(game=game).latest("id")
    assert (entry.action, entry.actor, entry.reason) == ("redraft", gm, "check it")
    assert entry.data["phase"] == phase.number
    assert entry.data["digest_before"] == entry.data["digest_after"] == digest
    page = client.get(reverse("gm_audit", args=[game.id])).content.decode()
    assert "Drafted again" in page and "the same result as before" in page


def test_the_time_page_forms_have_ids_of_their_own_and_a_paused_clock_stands(cast, client):
    game = cast["game"]
    client.force_login(cast["gm"])
    url = reverse("gm_time", args=[game.id])
    for _ in ("running", "paused"):
        page = client.get(url).content.decode()
        ids = re.findall(r'\bid="([^"]+)"', page)
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
        labels = re.findall(r'\bfor="([^"]+)"', page)
        assert set(labels) <= set(ids)
        if game.status != Game.Status.PAUSED:
            assert "data-countdown" in page
            services.pause(game.id, cast["gm"])
            game.refresh_from_db()
    assert "data-countdown" not in page  # no deadline counts down while paused
    assert 'data-gm="deadline-paused"' in page and "to go" in page
    overview = client.get(reverse("gm_overview", args=[game.id])).content.decode()
    assert "data-countdown" not in overview and 'data-gm="deadline-paused"' in overview


def test_pause_resume_extend_and_publish_honour_their_forms(client):
    gm = make_user("gm-long@example.org")
    game, _ = make_game(gm, review=True)
    client.force_login(gm)
    long = "x" * 4001
    too_long = "Announcement: Ensure this value has at most 4000 characters (it has 4001)."
    response = client.post(reverse("gm_pause", args=[game.id]), {
        "pause-reason": "holidays", "pause-announcement": long})
    assert response.status_code == 400 and too_long in response.content.decode()
    assert long in response.content.decode()  # the text comes back to be shortened
    assert Game.objects.get(pk=game.pk).status == Game.Status.NOMINATING
    services.pause(game.id, gm)
    response = client.post(reverse("gm_resume", args=[game.id]), {
        "resume-announcement": long})
    assert response.status_code == 400 and too_long in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED
    services.resume(game.id, gm)
    response = client.post(reverse("gm_extend", args=[game.id]),
                           {"extend-phase": open_phase(game).number, "extend-hours": 0})
    assert response.status_code == 400
    assert "Hours: Ensure this value is greater than or equal to 1." in \
        response.content.decode()
    phase = open_phase(game)
    services.adjudicate_now(game.id, gm)
    response = client.post(reverse("gm_publish", args=[game.id]), {
        "phase": phase.number, "announcement": long})
    assert response.status_code == 400 and too_long in response.content.decode()
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED
    assert actions(game) == ["create", "start", "pause", "resume", "adjudicate"]


def test_the_panel_s_wording(cast, client):
    game, users = cast["game"], cast["players"]
    phase = open_phase(game)
    v = version(game)
    order_intake.submit_orders(phase.id, users[0], [{"kind": "nominate", "candidate": 1}],
                          state_version=v)
    order_intake.submit_orders(phase.id, users[1], [{"kind": "nominate", "candidate": 2}],
                          state_version=v, final=True)
    client.force_login(cast["gm"])
    page = client.get(reverse("gm_rulings", args=[game.id])).content.decode()

    def card_of(seat: int) -> str:
        return page[page.index(f'id="orders-{seat}"'):].split("</p>")[0]

    assert "sent orders (not final)" in card_of(0) and "owes" not in card_of(0)
    assert "final" in card_of(1) and "owes" not in card_of(1)
    assert "owes orders" in card_of(2)
    # the overview's Deadline row says "Deadline" once
    overview = client.get(reverse("gm_overview", args=[game.id])).content.decode()
    assert overview.count("Deadline") == 1 and "data-countdown" in overview
    # review mode is in the Settings
    review = client.get(reverse("gm_review", args=[game.id])).content.decode()
    assert "when you create a campaign" not in review
    assert f'href="{reverse("gm_settings", args=[game.id])}"' in review
    # a/an
    phase = play(game, until="cabinet")
    state = state_of(phase)
    assassin = next(c for c in range(len(catalog.cards()))
                    if catalog.card(c).category == "assassin")
    with pytest.raises(GMError, match=f"{catalog.card(assassin).name} is an assassin card"):
        services.move_card(game.id, cast["gm"], assassin, f"influence:{state.players[0].seat}",
                           reason="x")


def test_everything_names_the_budget_and_the_units(cast, client):
    from junta.engine.units import deploy

    game = cast["game"]
    phase = play(game, until="budget_vote")
    state = state_of(phase)
    proposal = state.budget["proposal"]["allocations"]
    assert proposal
    client.force_login(cast["gm"])
    page = client.get(reverse("gm_everything", args=[game.id])).content.decode()
    shown = page.split('data-gm="proposal">')[1].split("</dd>")[0]
    for seat, amount in proposal.items():
        assert f"{escape(state.name(int(seat)))} {amount} MP" in shown
    assert "{" not in shown
    state.coup = deploy(state)  # a coup under way (set up directly for this test)
    repository.rewrite_state_before(phase, state)
    services.add_unit(game.id, cast["gm"], "Mercenary", 2, 5, reason="hired")
    page = client.get(reverse("gm_everything", args=[game.id])).content.decode()
    table = page.split("Units on the map")[1].split("</table>")[0]
    assert "seat " not in table
    name = catalog.zones()[5].name
    assert re.search(rf"<td>{re.escape(escape(state.name(2)))}</td><td>{name} \(zone 5\)</td>",
                     table)


def test_the_review_page_compares_before_and_after(cast, client):
    game = cast["game"]
    phase = play(game, until="cabinet")
    Game.objects.filter(pk=game.pk).update(review_mode=Game.ReviewMode.REVIEW)
    services.adjudicate_now(game.id, cast["gm"])
    phase.refresh_from_db()
    before = state_of(phase)
    after = repository.state_after(phase.result)
    client.force_login(cast["gm"])
    response = client.get(reverse("gm_review", args=[game.id]))
    table = response.content.decode().split('data-gm="changes"')[1].split("</table>")[0]
    for p in after.players:
        assert escape(p.name) in table
    changed = [r for r in response.context["changes"] if r["changed"]]
    assert changed  # the cabinet is appointed
    for row in changed:
        old, new = before.players[row["seat"]], after.players[row["seat"]]
        assert row["pocket"] == (old.pocket, new.pocket)
        assert row["bank"] == (old.bank, new.bank)
    assert "→" in table


def test_the_audit_log_says_what_each_action_did(cast, client):
    game = cast["game"]
    gm = cast["gm"]
    phase = open_phase(game)
    order_intake.submit_orders(phase.id, cast["players"][0], [{"kind": "nominate", "candidate": 1}],
                          state_version=version(game))
    services.annul_order(game.id, gm, 0, 0, reason="double post")
    services.extend_deadline(game.id, gm, 2)
    services.pause(game.id, gm)
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now() - timedelta(hours=3))
    services.resume(game.id, gm)
    client.force_login(gm)
    page = client.get(reverse("gm_audit", args=[game.id])).content.decode()
    assert "Annulled an order" in page and "Don Carlos&#x27;s order 1: " in page
    assert "Extended the deadline" in page and "phase 1&#x27;s deadline extended by 2 hours" \
        in page
    assert "Resumed the campaign" in page and "after a pause of 3 hours" in page
    assert "Paused the campaign" in page
    for entry in AuditEntry.objects.filter(game=game, action__in=["annul", "extend", "resume",
                                                                  "pause"]):
        assert entry.data["summary"]
    # every action in words, none as its slug
    from junta.gm.selectors import ACTION_NAMES

    for action, words in ACTION_NAMES.items():
        assert f">{action}<" not in page
        assert words != action and "_" not in words
    assert f'>{ACTION_NAMES["create"]}<' in page


def test_creating_a_campaign_is_in_its_audit_log(client):
    gm = make_user("gm-create@example.org")
    client.force_login(gm)
    response = client.post(reverse("game_create"), {
        "name": "Papayas Nine", "max_players": "8", "deadline_time": "21:30",
        "time_zone": "Europe/Madrid", "review_mode": "review", "join_policy": "open",
        "extra_bills_min": "3", "extra_bills_max": "9", "nomination_days": "2",
        "election_days": "3", "default_days": "1"})
    assert response.status_code == 302
    game = Game.objects.get(name="Papayas Nine")
    entry = AuditEntry.objects.get(game=game)
    assert (entry.action, entry.actor) == ("create", gm)
    assert entry.data["max_players"] == 8 and entry.data["review_mode"] == "review"
    assert entry.announcement == ""  # nothing for the players' Events page
    page = client.get(reverse("gm_audit", args=[game.id])).content.decode()
    assert "Created the campaign" in page and "Papayas Nine, 8 players" in page


# --- giving an order for a player: the player's own forms, orders in words -------------------

def gm_forms_for(page: str, seat: int) -> dict[str, object]:
    """The GM's order forms on a page, by option key: those posted for seat `seat`."""
    out = {}
    for form in forms_in(page):
        names = form.names()
        if "option" in names and "seat" in names and form.control("seat").value == str(seat):
            out[form.control("option").value] = form
    return out


@pytest.mark.parametrize("until", ["nomination", "locations"])
def test_the_gm_picks_a_player_and_gets_exactly_the_forms_that_player_sees(cast, client,
                                                                           until):
    from junta.engine import legal_options

    game = cast["game"]
    phase = open_phase(game) if until == "nomination" else play(game, until=until)
    state = state_of(phase)
    client.force_login(cast["gm"])
    rulings = reverse("gm_rulings", args=[game.id])
    page = gm_page(client.get(rulings))
    # first the choice of player: a GET form on the page itself, kept in the query string
    chooser = next(f for f in forms_in(page) if "order_for" in f.names())
    assert chooser.attrs.get("method") == "get" and chooser.attrs["action"] == "#give-order"
    assert [v for v, _, _ in chooser.control("order_for").options] == \
        [str(p.seat) for p in state.players]
    assert '<label for="give-order-for">' in page
    assert "Show the orders this player may give" in page
    assert not gm_forms_for(page, 0)  # no player chosen, no order form
    for seat in state.active_seats():
        options = legal_options(state, seat)
        url, page = give_page(client, game, seat)
        assert f'<option value="{seat}" selected>' in page
        shown = gm_forms_for(page, seat)
        assert list(shown) == [o.key for o in options.orders], seat
        for option in options.orders:
            form = shown[option.key]
            assert form.attrs["action"] == reverse("gm_add_order", args=[game.id])
            assert form.control("from").value == "rulings"
            # the player's fields under a prefix of the GM's own, then the GM's fields
            player_fields = [n for n in form.names() if n.startswith(gm_prefix(option.key))
                             and "-ruling-" not in n]
            assert player_fields or not option.args
            for name in ("reason", "announcement", "state_version"):
                assert f"{gm_prefix(option.key)}-ruling-{name}" in form.names()
            details = give_details(page, option.key)
            assert f"<summary>{escape(option.label)}</summary>" in details
        for note in options.notes:
            assert escape(note) in page
        # the same options as on the player's own Orders page
        client.force_login(by_seat(game)[seat])
        own = gm_page(client.get(reverse("game_orders", args=[game.id])))
        offered = [f.control("option").value for f in forms_in(own) if "option" in f.names()]
        assert offered == list(shown), seat
        client.force_login(cast["gm"])
    # every id on the page is unique (the forms of one option differ by prefix)
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    # a seat that is not in the game: the choice only
    page = gm_page(client.get(rulings + "?order_for=99"))
    assert not any("seat" in f.names() and "option" in f.names() for f in forms_in(page))


def test_the_gm_gives_an_order_through_the_player_s_form_and_it_reads_in_words(cast, client):
    from junta.engine import describe_order, parse_order

    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    other = next(p.seat for p in state.players if p.seat != rich.seat and p.status == "alive")
    v = version(game)
    client.force_login(cast["gm"])
    url, page = give_page(client, game, rich.seat)
    form = form_with(page, "option", "pay")
    form.set(gm_prefix("pay") + "-to", str(other)).set(gm_prefix("pay") + "-amount", "2")
    form.set(gm_prefix("pay") + "-ruling-reason", SECRET_REASON)
    form.set(gm_prefix("pay") + "-ruling-announcement", "The GM pays a lost debt.")
    response = submit(client, url, form)
    assert response.status_code == 302
    assert response["Location"] == reverse("gm_rulings", args=[game.id]) + \
        f"?order_for={rich.seat}#give-order"
    row = Order.objects.get(phase=phase, player__seat=rich.seat, player__membership="active")
    assert row.payload == [{"kind": "pay", "to": other, "amount": 2}]
    assert version(game) == v + 1
    words = describe_order(state, parse_order({"kind": "pay", "to": other, "amount": 2}))
    entry = AuditEntry.objects.filter(game=game).latest("id")
    assert (entry.action, entry.reason) == ("order", SECRET_REASON)
    assert entry.data["summary"] == f"for {state.name(rich.seat)}: {words}"
    page = gm_page(client.get(response["Location"]))
    assert f"Order given for {escape(state.name(rich.seat))}: {escape(words)}." in page
    # the order in words on the Rulings page and in the audit log, never as JSON
    card = page[page.index(f'id="orders-{rich.seat}"'):].split('class="gm-card"')[0]
    assert escape(words) in card
    audit = gm_page(client.get(reverse("gm_audit", args=[game.id])))
    assert "Gave an order for a player" in audit and escape(words) in audit
    for shown in (page, audit):
        assert '{"kind"' not in shown and "&quot;kind&quot;" not in shown
        assert "&#x27;kind&#x27;: &#x27;pay" not in shown and "gm-raw" not in shown
    # the player sees his order and the announcement, never the GM's reason
    client.force_login(by_seat(game)[rich.seat])
    orders = gm_page(client.get(reverse("game_orders", args=[game.id])))
    assert escape(words) in orders and SECRET_REASON not in orders
    events = gm_page(client.get(reverse("game_events", args=[game.id])))
    assert "The GM pays a lost debt." in events and SECRET_REASON not in events


def test_an_order_the_engine_refuses_comes_back_with_its_message_by_the_field(cast, client):
    game = cast["game"]
    phase = play(game, until="locations")
    state = state_of(phase)
    rich = max(state.players, key=lambda p: p.pocket)
    other = next(p.seat for p in state.players if p.seat != rich.seat and p.status == "alive")
    client.force_login(cast["gm"])
    before = (version(game), actions(game))
    pay = gm_prefix("pay")
    # more than the pocket: the message by the amount, linked to it, the form as sent
    url, page = give_page(client, game, rich.seat)
    form = form_with(page, "option", "pay")
    form.set(f"{pay}-to", str(other)).set(f"{pay}-amount", str(rich.pocket + 3))
    form.set(f"{pay}-ruling-reason", "TYPED-REASON-9")
    form.set(f"{pay}-ruling-announcement", "TYPED-ANNOUNCEMENT-9")
    response = submit(client, url, form)
    assert response.status_code == 400
    page = gm_page(response)
    details = give_details(page, "pay")
    assert details.startswith(f'<details class="builder builder-error" id="{pay}"')
    assert " open" in details.split(">")[0]
    message = f"you cannot pay {rich.pocket + 3} MP"
    error = re.search(rf'<p class="error" id="{pay}-amount-error">(.*?)</p>', details)
    assert error and message in error.group(1) and "Order 1:" not in error.group(1)
    assert re.search(rf'<input[^>]*name="{pay}-amount"[^>]*aria-describedby="[^"]*'
                     rf'{pay}-amount-error', details)
    assert f'value="{rich.pocket + 3}"' in details and f'value="{other}" selected' in details
    assert "TYPED-REASON-9" in details and "TYPED-ANNOUNCEMENT-9" in details
    assert "The engine refuses this order for" in page
    assert (version(game), actions(game)) == before
    assert not Order.objects.filter(phase=phase, player__seat=rich.seat).exists()
    # the form sent back carries the current version: sending it again (mended) is deliberate
    again = form_with(page, "option", "pay").set(f"{pay}-amount", "1")
    assert again.control(f"{pay}-ruling-state_version").value == str(version(game))
    # a set clash with the player's own orders: his payment leaves too little for the GM's
    user = by_seat(game)[rich.seat]
    order_intake.submit_orders(phase.id, user, [{"kind": "pay", "to": other,
                                            "amount": rich.pocket}],
                          state_version=version(game))
    before = (version(game), actions(game))
    url, page = give_page(client, game, rich.seat)
    form = form_with(page, "option", "pay")
    form.set(f"{pay}-to", str(other)).set(f"{pay}-amount", "1")
    form.set(f"{pay}-ruling-reason", "a second payment")
    response = submit(client, url, form)
    assert response.status_code == 400
    details = give_details(gm_page(response), "pay")
    clash = re.search(rf'<div class="error" id="{pay}-errors"[^>]*>(.*?)</div>', details, re.S)
    assert clash and "leaves your pocket short" in clash.group(1)
    assert f'aria-describedby="{pay}-errors"' in details
    assert (version(game), actions(game)) == before
    row = Order.objects.get(phase=phase, player__seat=rich.seat, player__membership="active")
    assert row.payload == [{"kind": "pay", "to": other, "amount": rich.pocket}]
    # the service says the same, keyed: the problems and where the new order stood
    with pytest.raises(GMOrderRefused) as refused:
        services.add_order(game.id, cast["gm"], rich.seat,
                           {"kind": "pay", "to": other, "amount": 1}, reason="x")
    assert refused.value.index == 1 and all(1 in p.orders for p in refused.value.problems)


def test_a_gm_order_form_without_a_reason_keeps_what_was_chosen(cast, client):
    game = cast["game"]
    phase = open_phase(game)
    client.force_login(cast["gm"])
    url, page = give_page(client, game, 2)
    nominate = gm_prefix("nominate")
    form = form_with(page, "option", "nominate").set(f"{nominate}-candidate", "4")
    response = submit(client, url, form)
    assert response.status_code == 400
    page = gm_page(response)
    assert "Not done. Reason: This field is required." in page
    details = give_details(page, "nominate")
    assert 'value="4" selected' in details
    reason = details[details.index(f'for="id_{nominate}-ruling-reason"'):]
    assert reason.index("This field is required.") < field_end(reason)
    assert re.search(rf'aria-describedby="[^"]*id_{nominate}-ruling-reason_error"', reason)
    assert f'id="id_{nominate}-ruling-reason_error"' in reason
    assert not Order.objects.filter(phase=phase).exists()
    # an option the player no longer has (another phase's form): the page again, nothing done
    response = client.post(reverse("gm_add_order", args=[game.id]), {
        "from": "rulings", "seat": 2, "option": "pay", "state_version": version(game)})
    assert response.status_code == 400
    assert "cannot be given for" in gm_page(response)
    assert not Order.objects.filter(phase=phase).exists()


@pytest.mark.parametrize("who", ["player", "other_gm", "stranger"])
def test_a_players_order_forms_are_the_gm_s_alone(cast, client, who):
    game = cast["game"]
    client.force_login(cast["gm"])
    url, page = give_page(client, game, 4)
    form = form_with(page, "option", "nominate")
    form.set(gm_prefix("nominate") + "-candidate", "5")
    form.set(gm_prefix("nominate") + "-ruling-reason", "x")
    before = (version(game), actions(game))
    client.force_login(cast["players"][0] if who == "player" else cast[who])
    for name in ("gm_rulings", "gm_review"):
        assert client.get(reverse(name, args=[game.id]) + "?order_for=4").status_code == 404
    assert submit(client, url, form).status_code == 404
    assert (version(game), actions(game)) == before
    assert not Order.objects.filter(phase=open_phase(game)).exists()


def test_the_rulings_and_review_pages_show_orders_in_words_never_json(client):
    from junta.engine import describe_order, parse_order

    gm = make_user("gm-words@example.org")
    game, users = make_game(gm, review=True)
    phase = open_phase(game)
    state = state_of(phase)
    orders = {0: {"kind": "nominate", "candidate": 1}, 2: {"kind": "nominate", "candidate": 3}}
    for seat, order in orders.items():
        order_intake.submit_orders(phase.id, users[seat], [order], state_version=version(game))
    words = {seat: describe_order(state, parse_order(o)) for seat, o in orders.items()}
    client.force_login(gm)
    pages = [gm_page(client.get(reverse("gm_rulings", args=[game.id]) + "?order_for=0"))]
    services.adjudicate_now(game.id, gm)
    services.add_order(game.id, gm, 4, {"kind": "nominate", "candidate": 5}, reason="lost")
    services.annul_order(game.id, gm, 0, 0, reason="double post")
    pages.append(gm_page(client.get(reverse("gm_review", args=[game.id]) + "?order_for=2")))
    pages.append(gm_page(client.get(reverse("gm_audit", args=[game.id]))))
    for page in pages:
        assert '{"kind"' not in page and "&quot;kind&quot;" not in page
        assert "&#x27;kind&#x27;: &#x27;nominate" not in page and "gm-raw" not in page
        assert "&#x27;candidate&#x27;" not in page
    rulings, review, audit = pages
    for seat, text in words.items():
        card = rulings[rulings.index(f'id="orders-{seat}"'):].split("</ol>")[0]
        assert f"<li>{escape(text)}" in card
    card = review[review.index('id="orders-2"'):].split("</ol>")[0]
    assert f"<li>{escape(words[2])}" in card
    added = describe_order(state, parse_order({"kind": "nominate", "candidate": 5}))
    assert escape(added) in review[review.index('id="orders-4"'):].split("</ol>")[0]
    assert escape(added) in audit and escape(words[0]) in audit


def test_an_extension_typed_for_a_phase_that_ended_meanwhile_moves_no_deadline(cast):
    """The Time page's form to extend names the phase whose deadline it showed: sent after that
    phase was adjudicated (its deadline passed while the GM typed), it is refused with a
    message, and the next phase's deadline stays where it was."""
    from tests.web.browser_forms import csrf_browser, form_with, submit

    game = cast["game"]
    phase = open_phase(game)
    gm = csrf_browser(cast["gm"])
    time_page = gm.get(reverse("gm_time", args=[game.id])).content.decode()
    form = form_with(time_page, "extend-phase", str(phase.number))
    form.set("extend-hours", "6").set("extend-announcement", "Six more hours.")
    services.adjudicate_now(game.id, cast["gm"])  # meanwhile, the deadline passed
    following = open_phase(game)
    assert following.number == phase.number + 1
    response = submit(gm, reverse("gm_extend", args=[game.id]), form)
    assert response.status_code in (302, 400)
    page = gm.get(reverse("gm_time", args=[game.id])).content.decode()
    assert f"Phase {phase.number} was already adjudicated: nothing was done." in page
    assert Phase.objects.get(pk=following.pk).deadline == following.deadline
    assert "extend" not in actions(game)
    # the form drawn for the phase now open extends it, and says which; sent twice (a second
    # click, another window drawn before), it extends once
    form = form_with(page, "extend-phase", str(following.number)).set("extend-hours", "6")
    submit(gm, reverse("gm_extend", args=[game.id]), form)
    assert Phase.objects.get(pk=following.pk).deadline - following.deadline == timedelta(hours=6)
    assert f"Phase {following.number}&#x27;s deadline is now" in gm.get(
        reverse("gm_time", args=[game.id])).content.decode()
    assert submit(gm, reverse("gm_extend", args=[game.id]), form).status_code in (302, 400)
    assert Phase.objects.get(pk=following.pk).deadline - following.deadline == timedelta(hours=6)
    assert "The deadline has moved since this page was drawn" in gm.get(
        reverse("gm_time", args=[game.id])).content.decode()
