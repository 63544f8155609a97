"""Campaigns that run themselves: start, orders, the exactly-once adjudication, review mode,
replay and simulation (docs/rules.md §timing)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from junta import engine
from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import CampaignError, create_game, join_game, start_campaign
from junta.games.models import Game, Order, Phase, PhaseResult
from junta.games.replay import replay_game
from junta.gm import services
from tests.web.campaigns import play_days, queries_for

pytestmark = pytest.mark.django_db(transaction=False)

def start(game: Game) -> Phase:
    return start_campaign(game.id, game.gm)


def test_starting_opens_the_nomination_phase_with_a_one_day_deadline(campaign):
    game, users = campaign()
    phase = start(game)
    game.refresh_from_db()
    assert game.status == Game.Status.NOMINATING
    assert phase.kind == "nomination" and phase.number == 1
    assert timedelta(hours=12) <= phase.deadline - phase.opens_at <= timedelta(hours=48)
    assert sorted(phase.owing_seats) == list(range(10))
    state = repository.state_before(phase)
    assert [p.name for p in state.players][:2] == ["Don Carlos", "Don Isabel"]


def test_only_the_gm_starts_and_only_with_six_players(campaign):
    game, users = campaign(players=6)
    with pytest.raises(CampaignError, match="Only the campaign's GameMaster"):
        start_campaign(game.id, users[0])
    game.players.filter(seat=5).update(membership="removed")
    with pytest.raises(CampaignError, match="at least 6 seated players"):
        start(game)


def test_a_rejected_change_keeps_the_earlier_orders(campaign):
    game, users = campaign()
    phase = start(game)
    version = Game.objects.get(pk=game.pk).state_version
    order_intake.submit_orders(phase.id, users[0], [{"kind": "nominate", "candidate": 1}],
                          state_version=version)
    with pytest.raises(order_intake.OrdersRejected) as exc:
        order_intake.submit_orders(phase.id, users[0], [{"kind": "appoint", "positions": {}}],
                              state_version=version)
    assert "Appoint the Cabinet is not an order of the Nominations phase" in exc.value.errors[0]
    row = Order.objects.get(phase=phase, player__user=users[0])
    assert row.payload == [{"kind": "nominate", "candidate": 1}] and row.revision == 1


def test_stale_forms_and_late_orders_are_refused(campaign):
    game, users = campaign()
    phase = start(game)
    with pytest.raises(CampaignError, match="has changed since this form was opened"):
        order_intake.submit_orders(phase.id, users[0], [], state_version=0)
    version = Game.objects.get(pk=game.pk).state_version
    with pytest.raises(CampaignError, match="deadline has passed"):
        order_intake.submit_orders(phase.id, users[0], [], state_version=version,
                              now=phase.deadline + timedelta(seconds=1))


def test_a_phase_is_adjudicated_once_and_the_next_one_opens(campaign):
    game, users = campaign()
    phase = start(game)
    assert adjudication.adjudicate_phase(phase.id) is None  # not due yet
    later = phase.deadline + timedelta(minutes=1)
    assert phase.id in adjudication.due_phase_ids(later)
    result = adjudication.adjudicate_phase(phase.id, now=later)
    assert result is not None
    assert adjudication.adjudicate_phase(phase.id, now=later) is None  # a second delivery
    assert PhaseResult.objects.filter(phase=phase).count() == 1
    nxt = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert nxt.kind == "election" and nxt.number == 2
    assert nxt.deadline - later >= timedelta(days=1, hours=12)  # "the election two days"


def test_everyone_final_closes_the_phase_early(campaign):
    game, users = campaign()
    phase = start(game)
    for user in users[:-1]:
        order_intake.set_final(phase.id, user)
    assert phase.id not in adjudication.due_phase_ids()
    order_intake.set_final(phase.id, users[-1])
    assert phase.id in adjudication.due_phase_ids()


def test_the_sweep_finds_due_phases_in_two_queries_however_many_campaigns(
        django_assert_num_queries):
    """The minute sweep asks this every minute: its cost must not grow with the campaigns."""
    def another(n: int) -> tuple[Game, list]:
        make = get_user_model().objects.create_user
        game = create_game(make(email=f"gm-{n}@example.org"), f"Papayas {n}", max_players=6,
                           join_policy=Game.JoinPolicy.OPEN)
        users = [make(email=f"p{n}-{i}@example.org") for i in range(6)]
        for i, user in enumerate(users):
            join_game(game.id, user, f"Don {n}-{i}")
        return game, users

    games = [another(n) for n in range(4)]
    phases = [start(game) for game, _ in games]
    for user in games[0][1]:  # the first: everyone final
        order_intake.set_final(phases[0].id, user)
    order_intake.set_final(phases[1].id, games[1][1][0])  # the second: one final
    Phase.objects.filter(pk=phases[2].pk).update(deadline=timezone.now())  # the third: late
    with django_assert_num_queries(2):
        due = adjudication.due_phase_ids(timezone.now() + timedelta(seconds=1))
    assert due == sorted([phases[0].id, phases[2].id])


def test_a_failed_adjudication_leaves_the_phase_open(campaign, monkeypatch):
    game, users = campaign()
    phase = start(game)

    def boom(*args, **kwargs):
        raise RuntimeError("engine crashed")

    monkeypatch.setattr(engine, "resolve", boom)
    with pytest.raises(RuntimeError):
        adjudication.adjudicate_phase(phase.id, force=True)
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN
    assert not PhaseResult.objects.filter(phase=phase).exists()
    assert Phase.objects.filter(game=game).count() == 1


def test_review_mode_drafts_and_the_gm_publishes(campaign):
    game, users = campaign(review=True)
    phase = start(game)
    later = phase.deadline + timedelta(minutes=1)
    adjudication.adjudicate_phase(phase.id, now=later)
    phase.refresh_from_db()
    assert phase.status == Phase.Status.DRAFTED
    assert not Phase.objects.filter(game=game, status=Phase.Status.OPEN).exists()
    with pytest.raises(PermissionError):
        adjudication.publish_draft(phase.id, users[0].id)
    nxt = adjudication.publish_draft(phase.id, game.gm_id, now=later)
    assert nxt.kind == "election"
    phase.refresh_from_db()
    assert phase.status == Phase.Status.PUBLISHED


def test_bot_orders_through_the_services_advance_the_campaign_and_replay(campaign):
    game, users = campaign()
    start(game)
    play_days(game, users, 12)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert PhaseResult.objects.filter(phase__game=game).count() == 12
    lines = replay_game(game)
    assert len(lines) == 12 and all(line.ok for line in lines)
    call_command("replay", str(game.id))
    # the board rows follow the published state
    state = engine.GameState.from_dict(
        PhaseResult.objects.filter(phase__game=game).order_by("-phase__number")[0].state_after)
    for player in game.players.filter(membership="active"):
        assert player.pocket == state.players[player.seat].pocket
        assert player.bank == state.players[player.seat].bank


def test_replay_notices_a_tampered_result(campaign):
    game, users = campaign()
    start(game)
    play_days(game, users, 3)
    result = PhaseResult.objects.filter(phase__game=game).order_by("phase__number")[1]
    result.digest = "0" * 64
    result.save()
    assert [line.ok for line in replay_game(game)] == [True, False, True]
    with pytest.raises(Exception, match="replay differently"):
        call_command("replay", str(game.id))


def test_pause_moves_the_deadline_by_the_length_of_the_pause(campaign):
    game, users = campaign()
    phase = start(game)
    t0 = timezone.now()
    services.pause(game.id, game.gm, now=t0)
    version = Game.objects.get(pk=game.pk).state_version
    with pytest.raises(CampaignError, match="paused"):
        order_intake.submit_orders(phase.id, users[0], [], state_version=version)
    assert phase.id not in adjudication.due_phase_ids(phase.deadline + timedelta(hours=1))
    services.resume(game.id, game.gm, now=t0 + timedelta(hours=5))
    moved = Phase.objects.get(pk=phase.id).deadline
    assert moved - phase.deadline == timedelta(hours=5)
    services.extend_deadline(game.id, game.gm, 24, reason="holiday")
    assert Phase.objects.get(pk=phase.id).deadline - moved == timedelta(hours=24)
    assert list(game.audit_entries.values_list("action", flat=True)) == [
        "extend", "resume", "pause", "start", "create"]


def test_simulate_leaves_a_campaign_in_mid_game_with_history(db):
    call_command("simulate", "--games", "1", "--players", "7", "--days", "14")
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING
    assert PhaseResult.objects.filter(phase__game=game).count() >= 6
    open_phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert open_phase.deadline > timezone.now()
    assert all(line.ok for line in replay_game(game))


def test_the_board_rows_follow_the_state(campaign):
    from junta.games.models import Bill, PoliticalCard, Position, Zone

    game, users = campaign()
    start(game)
    play_days(game, users, 3)  # nominations, election, first Cabinet
    game.refresh_from_db()
    state = repository.state_before(Phase.objects.get(game=game, status="open"))
    assert Zone.objects.count() == 28 and Zone.objects.get(number=8).name == "Central Bank"
    assert PoliticalCard.objects.filter(game=game).count() == 88
    for p in state.players:
        held = PoliticalCard.objects.filter(game=game, holder__seat=p.seat, pile="hand")
        assert sorted(held.values_list("card_id", flat=True)) == sorted(p.hand)
    assert list(Bill.objects.filter(game=game).values_list("denomination", flat=True)) == \
        list(reversed(state.money_deck))
    assert game.extra_bills == state.extra_bills
    president = Position.objects.get(game=game, key="president")
    assert president.holder.seat == state.positions["president"]


def test_page_queries_do_not_grow_with_the_phases_played(campaign, client):
    from django.urls import reverse

    game, users = campaign()
    start(game)
    client.force_login(users[0])
    urls = [reverse(name, args=[game.id]) for name in (
        "game_detail", "game_events", "game_status", "game_orders", "game_history", "game_map")]
    play_days(game, users, 2)
    # a report (History, Events) is drawn on its first view, reading what it needs of the
    # states in one query, and a coup's new maps in one more; then they come from the cache:
    # the counts compared are of the pages after that
    first = [queries_for(client, url) for url in urls]
    early = [queries_for(client, url) for url in urls]
    play_days(game, users, 8)
    assert all(a <= b + 2 for a, b in zip([queries_for(client, url) for url in urls], first,
                                            strict=True))
    assert [queries_for(client, url) for url in urls] == early


def test_the_drafts_command_lists_and_publishes_as_the_gm(campaign, capsys):
    """In review mode the result is stored as a draft for the GM (§timing: the GameMaster
    may "review a phase's result before it is published"), here through the service and a
    management command."""
    from django.core.management.base import CommandError

    game, users = campaign(review=True)
    phase = start(game)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline + timedelta(minutes=1))
    call_command("drafts", str(game.id))
    assert f"phase {phase.number} (nomination, turn 0): drafted" in capsys.readouterr().out
    with pytest.raises(CommandError, match="GameMaster"):
        call_command("drafts", str(game.id), "--publish", str(phase.number), "--as",
                     users[0].email)
    call_command("drafts", str(game.id), "--publish", str(phase.number), "--as",
                 game.gm.email)
    assert "is open" in capsys.readouterr().out
    phase.refresh_from_db()
    assert phase.status == Phase.Status.PUBLISHED
    assert Phase.objects.filter(game=game, status=Phase.Status.OPEN, kind="election").exists()


def rows_of(game: Game) -> dict:
    """The board rows of a campaign, in the engine's terms (seats, lists in the state's order:
    the top of a deck is its last element)."""
    from junta.games.models import Bill, PoliticalCard, Position, Unit

    game.refresh_from_db()
    seats = {p.pk: p.seat for p in game.players.filter(membership="active")}
    cards = list(PoliticalCard.objects.filter(game=game).order_by("order"))

    def pile(name: str, seat: int | None = None) -> list[int]:
        return [c.card_id for c in cards if c.pile == name and seats.get(c.holder_id) == seat]

    players = game.players.filter(membership="active").order_by("seat")
    return {
        "players": [(p.pocket, p.bank, p.state) for p in players],
        "positions": {row.key: -1 if row.brother_in_law else seats.get(row.holder_id)
                      for row in Position.objects.filter(game=game)},
        "deck": pile("deck"), "discard": pile("discard"),
        "hands": [pile("hand", seat) for seat in sorted(seats.values())],
        "influence": [pile("play", seat) for seat in sorted(seats.values())],
        "cards": len(cards),
        "money_deck": list(reversed(Bill.objects.filter(game=game).values_list(
            "denomination", flat=True))),  # the rows list the top first
        "extra_bills": game.extra_bills,
        "units": sorted((u.number, u.kind, u.armed, u.new_weapons, u.temporary,
                         seats.get(u.owner_id), u.zone_id, u.position)
                        for u in Unit.objects.filter(game=game)),
    }


def board_of(state) -> dict:
    """What the board rows must hold for `state`."""
    from junta.engine.units import has_new_weapons

    return {
        "players": [(p.pocket, p.bank, p.status) for p in state.players],
        "positions": dict(state.positions),
        "deck": list(state.political_deck), "discard": list(state.political_discard),
        "hands": [list(p.hand) for p in state.players],
        "influence": [list(p.influence) for p in state.players],
        "cards": len(state.political_deck) + len(state.political_discard) + sum(
            len(p.hand) + len(p.influence) for p in state.players),
        "money_deck": list(state.money_deck),
        "extra_bills": state.extra_bills,
        "units": sorted((u["id"], u["kind"], u["armed"], has_new_weapons(state, u),
                         u["temporary"], u["owner"], u["zone"], u["position"] or "")
                        for u in (state.coup or {}).get("units", [])),
    }


def test_the_board_rows_are_the_state_after_every_phase_through_a_coup(campaign):
    """The rows hold the current state (cards, positions, bills, units, pockets and banks)
    after every phase of a bot campaign played through the services, a coup and its end
    included: units are rows while the coup lasts and gone when it ends."""
    from junta.games.models import Unit

    game, users = campaign()
    start(game)
    assert rows_of(game) == board_of(repository.state_before(
        Phase.objects.get(game=game, status=Phase.Status.OPEN)))
    seen_coup = False
    for _ in range(120):
        play_days(game, users, 1)
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        state = repository.state_before(phase)
        assert rows_of(game) == board_of(state), phase
        assert rows_of(game)["cards"] == 88
        if state.coup is None:
            assert not Unit.objects.filter(game=game).exists()
            if seen_coup:
                break
            continue
        seen_coup = True
        assert phase.kind in ("coup", "coup_final", "aftermath")
        assert timedelta(hours=20) < phase.deadline - phase.opens_at <= timedelta(hours=25)
        assert Unit.objects.filter(game=game).exists()
    assert seen_coup and state.coup is None  # the coup came and went


BOARD_TABLES = ("games_player", "games_position", "games_politicalcard", "games_bill",
                "games_unit")


def board_queries(run) -> tuple[list[str], list[str]]:  # noqa: ANN001
    """The queries `run()` makes on the board's tables: (reads, writes)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        run()
    sqls = [q["sql"] for q in ctx.captured_queries]
    board = [q for q in sqls if any(f'"{table}"' in q for table in BOARD_TABLES)]
    return ([q for q in board if q.startswith("SELECT")],
            [q for q in board if not q.startswith("SELECT")])


def test_writing_the_board_writes_only_what_changed(campaign, django_assert_num_queries):
    """`write_board` reads each table once and writes only the differences: nothing when the
    board is unchanged (it used to delete and insert every row and update every player: 18
    queries each time); otherwise the rows that changed are deleted and inserted anew (two
    queries a table), the players updated in place (one query)."""
    game, users = campaign()
    start(game)
    play_days(game, users, 3)  # nominations, election, first Cabinet
    game.refresh_from_db()
    state = repository.state_before(Phase.objects.get(game=game, status=Phase.Status.OPEN))
    with django_assert_num_queries(5):  # players, positions, cards, bills, units: reads only
        repository.write_board(game, state)

    state.players[0].hand.append(state.political_deck.pop())  # a card drawn
    reads, writes = board_queries(lambda: repository.write_board(game, state))
    assert len(reads) == 5 and [w.split()[0:3] for w in writes] == [
        ["DELETE", "FROM", '"games_politicalcard"'], ["INSERT", "INTO", '"games_politicalcard"']]
    assert rows_of(game) == board_of(state)

    bills = [state.money_deck.pop() for _ in range(2)]  # two bills drawn into a pocket
    state.players[1].pocket += sum(bills)
    reads, writes = board_queries(lambda: repository.write_board(game, state))
    assert len(reads) == 5 and [w.split()[0:3] for w in writes] == [
        ["UPDATE", '"games_player"', "SET"], ["DELETE", "FROM", '"games_bill"']]
    assert rows_of(game) == board_of(state)


def test_a_phase_that_leaves_the_board_alone_writes_no_board_row(campaign):
    """The nominations change who is a candidate, not the board: publishing them writes no
    board row (the phase's own rows and the next phase are written as ever)."""
    game, users = campaign()
    phase = start(game)
    before = board_of(repository.state_before(phase))
    reads, writes = board_queries(lambda: play_days(game, users, 1))
    after = repository.state_before(Phase.objects.get(game=game, status=Phase.Status.OPEN))
    assert board_of(after) == before
    assert reads and not writes


def test_simulate_prints_logins_that_open_the_campaign_as_its_players(db, client):
    """A newcomer logs in through the login form with a printed address and the demo password,
    and sees the simulated campaign as its player."""
    from io import StringIO

    from django.urls import reverse

    from junta.games.demo import DEMO_PASSWORD
    from tests.web.browser_forms import forms_in, submit

    out = StringIO()
    call_command("simulate", "--games", "1", "--players", "6", "--days", "2", "--seed", "s",
                 stdout=out)
    game = Game.objects.get()
    printed = out.getvalue()
    assert f"password for all: {DEMO_PASSWORD}" in printed
    assert f"GameMaster: {game.gm.email}" in printed
    emails = re.findall(r"player +(\S+@\S+)", printed)
    assert len(emails) == 6
    login_url = reverse("account_login")
    [form] = [f for f in forms_in(client.get(login_url).content.decode())
              if "password" in f.names()]
    response = submit(client, login_url, form.set("login", emails[0]).set(
        "password", DEMO_PASSWORD))
    assert response.status_code == 302, response.content.decode()[-2000:]
    status = client.get(reverse("game_status", args=[game.id]))
    assert status.status_code == 200
    assert client.session["_auth_user_id"] == str(
        game.players.get(user__email=emails[0]).user_id)
