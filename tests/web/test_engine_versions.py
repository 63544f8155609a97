"""A campaign running across a change of the rules (junta/engine/versions.py): its past phases
were adjudicated by the older engine, and one of them came out as that engine made it, a
deposit cut down to what the pocket held (docs/rulings.md §ruling-no-silent-orders: today's
engine fails such a deposit whole). The GM's replay check passes, saying in words which phases
an older engine adjudicated and that this one resolves otherwise today, with the changelog;
a backup of the campaign imports. The same difference stored as today's engine's fails both, and
a result of an older engine is held as strictly as any other: its state must match its digest,
the next phase must start from it, its version must be one the site knows and no older than an
earlier phase's."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from junta.engine import ENGINE_VERSION, GameState, digest
from junta.games import adjudication, order_intake, repository
from junta.games.campaigns import start_campaign
from junta.games.models import AuditEntry, Game, PhaseResult, Player
from junta.gm import services
from junta.gm.checks import check_campaign
from tests.web.browser_forms import csrf_browser, form_to, submit
from tests.web.campaigns import advance_until, open_phase, play_days, version

pytestmark = pytest.mark.django_db

OLD = "1.0"


def cut_down(state: GameState, seat: int, deposited: int) -> GameState:
    """The state as the older engine left it: the deposit cut down to what the pocket held."""
    state.players[seat].pocket -= deposited
    state.players[seat].bank += deposited
    return state


def adjudicated_by_the_older_engine(campaign) -> tuple[Game, int]:
    """A campaign whose phases up to a Locations phase were adjudicated by engine 1.0; in that
    phase a family deposited its whole pocket, the GM then took 1 MP of it by a ruling, and the
    older engine cut the deposit down to what was left, where today's fails it whole. Two more
    phases follow under today's engine. Returns the campaign and that phase's number."""
    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    phase = advance_until(game, users, lambda phase, state: phase.kind == "locations"
                          and state.bank_status == "open"
                          and max(state.players[s].pocket for s in state.active_seats()) >= 2)
    state = repository.state_before(phase)
    seat = max(state.active_seats(), key=lambda s: state.players[s].pocket)
    pocket, bank = state.players[seat].pocket, state.players[seat].bank
    other = next(s for s in state.active_seats() if s != seat)
    user = Player.objects.get(game=game, seat=seat, membership="active").user
    order_intake.submit_orders(phase.id, user, [{"kind": "location", "place": "bank"},
                                           {"kind": "bank", "action": "deposit",
                                            "amount": pocket}],
                          state_version=version(game), final=True)
    services.move_money(game.id, game.gm, f"pocket:{seat}", f"bank:{other}", 1,
                        reason="a fine the engine missed")
    adjudication.adjudicate_phase(phase.id, now=phase.deadline, force=True)

    result = PhaseResult.objects.get(phase=phase)
    after = GameState.from_dict(result.state_after)
    # today's engine: the deposit fails whole, the pocket keeps what the ruling left
    assert (after.players[seat].pocket, after.players[seat].bank) == (pocket - 1, bank)
    after = cut_down(after, seat, pocket - 1)
    result.state_after, result.digest, result.engine_version = after.to_dict(), digest(after), OLD
    result.save()
    PhaseResult.objects.filter(phase__game=game, phase__number__lt=phase.number).update(
        engine_version=OLD)
    following = open_phase(game)
    start = cut_down(repository.state_before(following), seat, pocket - 1)
    repository.rewrite_state_before(following, start)
    repository.write_board(game, start)
    play_days(game, users, 2)
    assert PhaseResult.objects.filter(phase__game=game, engine_version=ENGINE_VERSION).count() == 2
    return Game.objects.get(pk=game.pk), phase.number


def replay_page(game: Game) -> str:
    """The GM runs the replay check from the Rollback & replay page, as in a browser."""
    gm = csrf_browser(game.gm)
    history = reverse("gm_history", args=[game.id])
    form = form_to(gm.get(history).content.decode(), reverse("gm_replay", args=[game.id]))
    response = submit(gm, history, form)
    assert response.status_code == 200
    return response.content.decode().replace("&#x27;", "'")


def stored_as(game: Game, number: int, **fields) -> None:
    PhaseResult.objects.filter(phase__game=game, phase__number=number).update(**fields)


def exported(game: Game, path: Path) -> Path:
    call_command("export_campaign", game.id, "-o", str(path), stderr=StringIO())
    game.delete()
    return path


def imported(path: Path) -> str:
    out = StringIO()
    call_command("import_campaign", str(path), stdout=out)
    return out.getvalue()


def changed(path: Path, number: int, **fields) -> Path:
    """The file with the result of phase `number` changed."""
    data = json.loads(path.read_text())
    phase = next(p["id"] for p in data["phases"] if p["number"] == number)
    next(r for r in data["results"] if r["phase"] == phase).update(fields)
    target = path.with_name("changed.json")
    target.write_text(json.dumps(data))
    return target


STANDS = (f"adjudicated by engine {OLD}; resolved again by {ENGINE_VERSION}: differs: the "
          "rules changed since (see the changelog); the stored result stands")


def test_the_replay_check_passes_and_says_which_phases_an_older_engine_adjudicated(campaign):
    game, number = adjudicated_by_the_older_engine(campaign)
    page = replay_page(game)
    assert "The check found problems" not in page
    assert (f"The check passed: all {number + 2} adjudicated phases were resolved again and "
            "the chain of phases holds; 1 of them, adjudicated by an older engine, resolves "
            "otherwise today because the rules changed since, and its stored result stands"
            in page)
    assert f"<li>Phase {number} (locations): {STANDS}.</li>" in page
    assert (f"<li>{number - 1} phases adjudicated by engine {OLD}; resolved again by "
            f"{ENGINE_VERSION}: same result.</li>") in page
    changelog = page[page.index("The changelog: what the engine changed since"):]
    assert f"<dt>Engine {ENGINE_VERSION}</dt>" in changelog
    assert "§ruling-no-silent-orders" in changelog
    assert "cut down" in changelog
    entry = AuditEntry.objects.filter(game=game).latest("id")
    assert entry.action == "replay_check"
    assert entry.data["ok"] is True and entry.data["changed"] == [number]
    out = StringIO()
    call_command("replay", str(game.id), stdout=out)
    assert f"{STANDS}" in out.getvalue()
    assert f"{number + 1} of {number + 2} phases replay to the same digests" in out.getvalue()


def test_the_same_difference_from_today_s_engine_fails_the_check(campaign):
    game, number = adjudicated_by_the_older_engine(campaign)
    stored_as(game, number, engine_version=ENGINE_VERSION)
    page = replay_page(game)
    assert "The check found problems" in page
    assert (f"<li>Phase {number} (locations): resolved again by engine {ENGINE_VERSION}: "
            "differs: replayed digest ") in page
    assert "the stored result stands" not in page
    assert not check_campaign(game).ok


def test_a_backup_of_the_campaign_imports_and_reports_the_phase(campaign, tmp_path):
    game, number = adjudicated_by_the_older_engine(campaign)
    game_id = game.id
    path = exported(game, tmp_path / "campaign.json")

    output = imported(path)

    assert (f"replayed {number + 2} phases: {number + 1} digests equal; 1 phase adjudicated by "
            "an older engine differs, the rules having changed since: its stored result "
            "stands") in output
    assert f"Phase {number} (locations): {STANDS}." in output
    assert f"{number - 1} phases adjudicated by engine {OLD}; resolved again by" in output
    assert f"Engine {ENGINE_VERSION} changed: " in output
    restored = Game.objects.get(pk=game_id)
    assert PhaseResult.objects.get(phase__game=restored, phase__number=number
                                   ).engine_version == OLD
    assert check_campaign(restored).ok

    # the same difference from today's engine is refused
    restored.delete()
    with pytest.raises(CommandError, match=rf"^phase {number} \(locations\) differs: replayed "
                                           r"digest .*nothing was imported"):
        imported(changed(path, number, engine_version=ENGINE_VERSION))
    assert not Game.objects.filter(pk=game_id).exists()


def test_a_result_of_the_older_engine_is_held_as_strictly_as_any(campaign, tmp_path):
    game, number = adjudicated_by_the_older_engine(campaign)
    result = PhaseResult.objects.get(phase__game=game, phase__number=number)
    richer = GameState.from_dict(result.state_after)
    richer.players[0].bank += 5

    def failures() -> list[str]:
        report = check_campaign(game)
        return ([f"{line.phase_number}: {line.text}" for line in report.replay if not line.ok]
                + [f"{line.number}: {line.origin}" for line in report.chain if not line.ok])

    # its state changed, its digest not
    stored_as(game, number, state_after=richer.to_dict())
    assert failures() == [f"{number}: adjudicated by engine {OLD}; resolved again by "
                          f"{ENGINE_VERSION}: its stored result does not match its digest",
                          f"{number + 1}: continues from phase {number}, but its starting state "
                          "differs and no GM ruling explains it"]
    # both changed: the next phase no longer starts where it ended
    stored_as(game, number, digest=digest(richer))
    assert failures() == [f"{number + 1}: continues from phase {number}, but its starting state "
                          "differs and no GM ruling explains it"]
    stored_as(game, number, state_after=result.state_after, digest=result.digest)
    assert check_campaign(game).ok
    # an older engine after a newer one: no change of the rules explains the difference
    stored_as(game, 1, engine_version=ENGINE_VERSION)
    assert failures() == [f"{number}: adjudicated by engine {OLD}; resolved again by "
                          f"{ENGINE_VERSION}: differs: phase 1 before it was adjudicated by "
                          f"engine {ENGINE_VERSION} already, so no change of the rules since "
                          f"explains it; replayed digest {failures_digest(game, number)}"]
    stored_as(game, 1, engine_version=OLD)
    # an engine this site does not know
    stored_as(game, number, engine_version="0.9")
    assert failures()[0].startswith(
        f"{number}: adjudicated by engine 0.9; resolved again by {ENGINE_VERSION}: differs: "
        "engine 0.9 is not one this site knows; replayed digest ")
    # and an import refuses the tampered file
    stored_as(game, number, engine_version=OLD)
    path = exported(game, tmp_path / "campaign.json")
    with pytest.raises(CommandError, match=rf"^phase {number} \(locations\) differs: its stored "
                                           "result does not match its digest.*nothing was "
                                           "imported"):
        imported(changed(path, number, state_after=richer.to_dict()))


def failures_digest(game: Game, number: int) -> str:
    """The replayed and stored digests as a failing line names them."""
    line = next(line for line in check_campaign(game).replay if line.phase_number == number)
    return f"{line.replayed[:12]}, stored {line.stored[:12]}"
