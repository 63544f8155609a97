"""After a GM rollback: the phases it undid stay in the History under a banner and count for
nothing else (the Events page's latest results, results mails sent later, the Status page's
private lines), a player's pages show no GM-only information, and the families' lives follow
the restored state (a later death undone, a later heir back to the drafts)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from junta.engine import GameState
from junta.games import play, rollbacks
from junta.games.campaigns import start_campaign
from junta.games.models import AuditEntry, Character, Game, Phase, PhaseResult, Player
from junta.gm import services
from junta.lives.models import HeirDraft, Obituary
from junta.lives.services import prepare_heir
from junta.notify import notices
from tests.web import campaigns
from tests.web.campaigns import drawn_next, open_phase, play_days

pytestmark = pytest.mark.django_db

SECRET_REASON = "GM-ONLY-ROLLBACK-REASON-41c9"
BANNER = "Undone by the GameMaster's rollback on"


def kill_in_open_phase(game: Game, seat: int) -> None:
    campaigns.kill_in_open_phase(game, seat)
    # the board row too, as after the publication of a death (the heir may be prepared)
    Player.objects.filter(game=game, seat=seat, membership="active").update(state="dead")


def undone_section(page: str) -> str:
    sections = re.findall(r'<section class="undone-phases".*?</section>', page, re.S)
    assert len(sections) == 1, len(sections)
    return sections[0]


def phase_ids(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'<article class="report" id="phase-(\d+)"', html)}


def rolled_back_campaign(campaign):
    """Six phases published, Don Carlos dead in phase 2 and back as Doña Carla later; then the
    GM rolls back to phase 2 and one more phase is played."""
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 1)
    kill_in_open_phase(game, 0)
    prepare_heir(game.id, users[0], "Doña Carla", "Back from Paris.")
    play_days(game, users, 1)  # phase 2 published: Don Carlos is dead
    for _ in range(12):
        if Character.objects.filter(player__user=users[0], life=2).exists():
            break
        play_days(game, users, 1)
    assert Character.objects.filter(player__user=users[0], life=2).exists()
    play_days(game, users, 1)
    current = open_phase(game)
    published = set(PhaseResult.objects.filter(phase__game=game, published_at__isnull=False)
                    .values_list("phase__number", flat=True))
    new = services.rollback(game.id, game.gm, 1, reason=SECRET_REASON,
                            announcement="The GM rolls back to the nominations.",
                            current_phase=current.number)
    return game, users, published, new


def test_history_sets_the_undone_phases_apart_and_nothing_else_counts_them(campaign, client):
    game, users, published, new = rolled_back_campaign(campaign)
    assert published == set(range(1, new.number - 1))
    play_days(game, users, 1)  # the nominations again: this one counts
    client.force_login(users[2])
    page = client.get(reverse("game_history", args=[game.id]) + "?page=1").content.decode()
    # ten reports a page: the undone phases shown on this page are all under the banner
    section = undone_section(page)
    assert BANNER in section and "these phases no longer count" in section
    shown = phase_ids(page)
    assert new.number in shown and new.number not in phase_ids(section)
    assert phase_ids(section) == shown - {new.number}
    assert phase_ids(section) <= published
    every = set()
    for number in range(1, 4):
        html = client.get(reverse("game_history", args=[game.id]) + f"?page={number}")
        every |= phase_ids(html.content.decode())
    assert every == published | {new.number}
    assert SECRET_REASON not in page

    # Events: the latest results are the new phase's alone
    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    latest = events.split('<h2 id="latest-h">')[1]  # the reports come after the speeches
    assert phase_ids(latest) == {new.number}
    assert SECRET_REASON not in events
    assert [r.phase.number for r in play.current_turn_results(game)] == [new.number]
    assert not play.published_results(game).filter(phase__number__in=published).exists()

    # a results mail sent now for an undone phase goes to nobody
    undone_phase = Phase.objects.get(game=game, number=max(published))
    assert notices.send_results(undone_phase.id) == {}

    # no GM-only information on any of the player's pages
    for name in ("game_status", "game_orders", "game_history", "game_events", "game_detail",
                 "game_character"):
        body = client.get(reverse(name, args=[game.id])).content.decode()
        assert SECRET_REASON not in body, name


def test_the_rollback_brings_the_lives_back_in_line(campaign):
    game, users, published, new = rolled_back_campaign(campaign)
    carlos = Player.objects.get(game=game, user=users[0])
    assert carlos.state == Player.State.ALIVE
    lives = list(Character.objects.filter(player=carlos).order_by("life"))
    assert [c.life for c in lives] == [1]
    assert lives[0].name == "Don Carlos" and lives[0].died_at is None
    assert not Obituary.objects.filter(character__player=carlos).exists()
    draft = HeirDraft.objects.get(player=carlos)
    assert (draft.name, draft.bio) == ("Doña Carla", "Back from Paris.")
    state = GameState.from_dict(new.state_before)
    assert state.players[0].name == "Don Carlos" and state.players[0].life == 1
    entry = AuditEntry.objects.filter(game=game, action="rollback").get()
    assert entry.data["to_phase"] == 1 and entry.data["new_phase"] == new.number
    assert rollbacks.undone_phases(game) == {n: entry.created_at for n in range(1, new.number)}


def test_a_rollback_to_after_the_death_keeps_it_and_returns_the_heir_to_the_drafts(
        campaign):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 1)
    kill_in_open_phase(game, 0)
    prepare_heir(game.id, users[0], "Doña Carla")
    play_days(game, users, 1)
    for _ in range(12):
        if Character.objects.filter(player__user=users[0], life=2).exists():
            break
        play_days(game, users, 1)
    returned = PhaseResult.objects.filter(phase__game=game).order_by("-phase__number").first()
    services.rollback(game.id, game.gm, returned.phase.number, reason="x")
    carlos = Player.objects.get(game=game, user=users[0])
    assert carlos.state == Player.State.DEAD
    first = Character.objects.get(player=carlos)
    assert first.life == 1 and first.died_at is not None
    assert HeirDraft.objects.get(player=carlos).name == "Doña Carla"
    # the family comes back again, with the same heir
    play_days(game, users, 1)
    assert Character.objects.get(player=carlos, life=2).name == "Doña Carla"


def test_history_queries_do_not_grow_with_rollbacks(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 3)
    client.force_login(users[0])
    url = reverse("game_history", args=[game.id])
    events = reverse("game_events", args=[game.id])

    def count(address: str) -> int:
        """The queries of the page once its reports are drawn (the first view draws them)."""
        client.get(address)
        drawn_next(client)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(address).status_code == 200
        return len(ctx.captured_queries)

    early = count(url), count(events)
    services.rollback(game.id, game.gm, 2, reason="x")
    play_days(game, users, 2)
    services.rollback(game.id, game.gm, 3, reason="y")
    play_days(game, users, 1)
    assert client.get(url).content.decode().count(BANNER) == 2
    assert (count(url), count(events)) == early


def test_the_final_reveal_shows_no_orders_of_the_undone_phases(campaign):
    game, users, published, new = rolled_back_campaign(campaign)
    play_days(game, users, 1)
    game.status = Game.Status.FINISHED  # as at the end (reports only reveal then)
    results = list(play.history_results(game))
    shown = play.reports(game, "gm", results, reveal=True,
                         rolled_back=rollbacks.undone_phases(game))
    by_number = {r.phase.number: r for r in shown}
    assert by_number[new.number].orders and by_number[new.number].undone_on is None
    assert all(not by_number[n].orders and by_number[n].undone_on for n in published)
