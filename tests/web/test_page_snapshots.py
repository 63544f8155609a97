"""`manage.py page_snapshots` (junta/ops/snapshots.py), in small: one campaign of six bots a few
phases in, a few of its pages as three viewers see them. Recorded twice, the recordings are
equal, file for file; after a change a person would see, the comparison names the page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from junta.games.simulation import simulate
from junta.games.speeches import post_speech
from junta.ops import snapshots

pytestmark = pytest.mark.django_db

PAGES = {"game_status", "game_events", "gm_overview", "api-v1:phases"}


def record(folder, randomness, viewers):
    """A small recording of the campaign's states and PAGES into `folder`, for `viewers`."""
    problems = snapshots.record_states(folder)
    recording = snapshots.record_pages(
        folder, randomness, only=lambda route: route.name in PAGES,
        who=lambda viewer: viewer.label in viewers, follow=False)
    (folder / snapshots.META).write_text('{"complete": true}\n')
    assert not problems and not recording.errors
    return recording


def test_two_recordings_are_equal_and_a_change_is_named(tmp_path, capsys):
    randomness = snapshots.Randomness()
    with snapshots.fixed_clock(), randomness.installed():
        User = get_user_model()
        gm = User.objects.create_user(email="snap-gm@example.org", display_name="GM")
        players = [User.objects.create_user(email=f"snap-{i}@example.org",
                                            display_name=f"Player {i}") for i in range(6)]
        game = simulate(gm=gm, players=players, name="Snapshots", days=3, seed="snapshots")
        viewers = {"anonymous", gm.email, players[0].email}
        first = record(tmp_path / "first", randomness, viewers)
        record(tmp_path / "second", randomness, viewers)
        assert game.phases.count() >= 3
        assert first.statuses[200] >= 5
        names = snapshots.files_of(tmp_path / "first")
        assert f"states/{game.pk}.txt" in names
        # a form's CSRF token, drawn anew for each request, is held still
        status = names[f"pages/{players[0].email}/games~{game.pk}~status.txt"].read_text()
        assert 'name="csrfmiddlewaretoken" value="«csrf»"' in status

        assert snapshots.compare(tmp_path / "first", tmp_path / "second") == []
        call_command("page_snapshots", "compare", str(tmp_path / "first"),
                     str(tmp_path / "second"))
        assert "all equal" in capsys.readouterr().out

        post_speech(game, players[0], "Long live the Republic!")
        record(tmp_path / "third", randomness, viewers)
    report = snapshots.compare(tmp_path / "first", tmp_path / "third")
    changed = [line for line in report if line.startswith("differs: ")]
    assert f"differs: pages/{gm.email}/games~{game.pk}~events.txt" in changed
    assert any("+" in line and "Long live the Republic!" in line for line in report)
    with pytest.raises(CommandError, match="files differ"):
        call_command("page_snapshots", "compare", str(tmp_path / "first"),
                     str(tmp_path / "third"))


def test_what_each_request_draws_is_written_as_a_placeholder():
    drawn = {"Zk3v9QmW_a1b2c3d4"}
    page = ('<script nonce="x1y2z3">go()</script><input name="csrfmiddlewaretoken" value="q9">'
            '<a href="/calendar/Zk3v9QmW_a1b2c3d4.ics">')
    assert snapshots.normalise(page, drawn) == (
        '<script nonce="«nonce»">go()</script><input name="csrfmiddlewaretoken" '
        'value="«csrf»"><a href="/calendar/«random».ics">')
