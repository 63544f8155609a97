"""Mail defaults: a seated player gets the deadline reminders and the phase results unless he
turns them off (one click on the link in each mail, or the campaign's notification settings);
the daily digest only if he asks. The GM's defaults are unchanged (news of absent players only).
The links in mails and calendars point at the address the app is served on: `make run
PORT=8101` serves on 8101 and links there, unless JUNTA_SITE_URL says otherwise."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from junta.games import adjudication, speeches
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, Player
from junta.gm import services
from junta.notify import notices
from junta.notify.models import Kind, Preferences
from junta.ops.management.commands.serve import served_site_url
from tests.conftest import REPO

pytestmark = pytest.mark.django_db


def seated(game: Game) -> list:
    return [p.user for p in Player.objects.filter(game=game, membership="active")
            .select_related("user").order_by("seat")]


def checked(page: str, name: str) -> bool:
    """Whether the form's checkbox `name` is ticked, as a browser shows it."""
    tag = re.search(rf'<input type="checkbox" name="{name}"[^>]*>', page)
    assert tag is not None, name
    return " checked" in tag.group(0)


def link_in(mail) -> str:  # noqa: ANN001 - a received mail
    """The one-click link of the mail's List-Unsubscribe header, as a path of this site."""
    link = mail.raw_header("List-Unsubscribe").decode("ascii").strip("<>")
    assert link in mail.text and link in mail.html
    return link.removeprefix("https://junta.test")


def test_the_settings_page_shows_reminders_and_results_on_and_the_digest_off(campaign, client):
    game, users = campaign()
    client.force_login(users[0])
    url = reverse("game_notifications", args=[game.id])
    page = client.get(url).content.decode()
    assert checked(page, "results") and checked(page, "reminder")
    assert not checked(page, "digest") and not checked(page, "campaign")
    assert "come unless you turn them off" in page
    # the GM's own defaults did not change: the news of absent players, nothing else
    client.force_login(game.gm)
    page = client.get(url).content.decode()
    assert checked(page, "absence") and not checked(page, "results")
    assert not checked(page, "reminder") and not checked(page, "digest")
    # turning them off in the form is a choice that stays
    client.force_login(users[0])
    assert client.post(url, {"reminder_hours": "6"}).status_code == 302
    prefs = Preferences.objects.get(user=users[0], game=game)
    assert not prefs.results and not prefs.reminder and not prefs.digest
    page = client.get(url).content.decode()
    assert not checked(page, "results") and not checked(page, "reminder")


def test_results_come_by_default_and_one_click_stops_them(
        campaign, mailbox, client, eager_celery, django_capture_on_commit_callbacks):
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    players = seated(game)
    assert not Preferences.objects.exists()  # nobody chose anything
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert sorted(m.to[0] for m in mailbox.received) == sorted(u.email for u in players)
    assert mailbox.to(game.gm.email) == []  # the GM asked for none
    [mail] = mailbox.to(players[0].email)
    assert "turn them off (one click)" in mail.text
    # one click (the form behind the link, as a mail client's one-click POST)
    path = link_in(mail)
    assert "Stop sending phase results" in client.get(path).content.decode()
    assert "gets no more mails" in client.post(path).content.decode()
    prefs = Preferences.objects.get(user=players[0], game=game)
    assert not prefs.results and prefs.reminder  # only that kind
    mailbox.clear()
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert mailbox.to(players[0].email) == []
    assert len(mailbox.to(players[1].email)) == 1


def test_reminders_come_by_default_and_one_click_stops_them(campaign, mailbox, client):
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    players = seated(game)
    phase.deadline = timezone.now() + timedelta(hours=3)  # inside the default six hours
    phase.save(update_fields=["deadline"])
    notices.sweep(timezone.now())
    # nominations: everyone owes orders, so every player is reminded; the GM is not
    assert sorted(m.to[0] for m in mailbox.received) == sorted(u.email for u in players)
    [mail] = mailbox.to(players[0].email)
    assert "your orders for Nominations" in mail.subject
    client.post(link_in(mail))
    assert not Preferences.objects.get(user=players[0], game=game).reminder
    mailbox.clear()
    services.extend_deadline(game.id, game.gm, 24)  # a new deadline: new reminders
    notices.sweep(timezone.now() + timedelta(hours=25))
    assert players[0].email not in [m.to[0] for m in mailbox.received]
    assert len(mailbox.received) == len(players) - 1


def test_no_daily_digest_unless_asked(campaign, mailbox):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    speech = speeches.post_speech(game, users[1], "Viva la Republica! DIGEST-MARKER")
    type(speech).objects.filter(pk=speech.pk).update(
        created_at=timezone.now() - timedelta(days=1))
    assert notices.digests(timezone.now()) == {}
    assert notices.recipients(game, Kind.DIGEST) == []
    Preferences.objects.create(user=users[2], game=game, digest=True)  # he asks
    notices.digests(timezone.now())
    assert [m.to[0] for m in mailbox.received] == [users[2].email]


def test_an_existing_choice_is_left_alone(campaign, mailbox, eager_celery,
                                         django_capture_on_commit_callbacks):
    """A row is someone's own choice (saved from the settings or by unsubscribing): a player
    who said no results still gets none; those who never chose get the defaults."""
    game, users = campaign()
    Preferences.objects.create(user=users[0], game=game, results=False, reminder=False)
    phase = start_campaign(game.id, game.gm)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert mailbox.to(users[0].email) == [] and len(mailbox.to(users[1].email)) == 1
    prefs = Preferences.objects.get(user=users[0], game=game)
    assert not prefs.results and not prefs.reminder


def test_a_player_not_seated_gets_nothing(campaign, mailbox, eager_celery,
                                          django_capture_on_commit_callbacks):
    game, users = campaign(players=7)
    Player.objects.get(game=game, user=users[6]).delete()  # gone before the start
    phase = start_campaign(game.id, game.gm)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert mailbox.to(users[6].email) == [] and len(mailbox.received) == 6


# --- the address the links point at ------------------------------------------------------------


def make_run(*args: str, env: dict[str, str] | None = None) -> str:
    """What `make run` would run (make -n: printed, not run)."""
    import os

    environ = {k: v for k, v in os.environ.items() if k != "JUNTA_SITE_URL"}
    result = subprocess.run(["make", "-n", "run", *args], cwd=REPO, capture_output=True,
                            text=True, timeout=60, env={**environ, **(env or {})})
    return result.stdout + result.stderr


def test_make_run_links_mails_to_the_port_it_serves_on():
    out = make_run("PORT=8101")
    assert "JUNTA_SITE_URL='http://127.0.0.1:8101' .venv/bin/python manage.py serve " \
           "--port 8101" in out, out
    assert "JUNTA_SITE_URL='http://127.0.0.1:8000'" in make_run()


def test_make_run_keeps_a_site_url_the_user_set():
    assert "JUNTA_SITE_URL='https://junta.example.org'" in make_run(
        "PORT=8101", env={"JUNTA_SITE_URL": "https://junta.example.org"})
    assert "JUNTA_SITE_URL='https://junta.example.org'" in make_run(
        "PORT=8101", "JUNTA_SITE_URL=https://junta.example.org")


def test_the_serve_command_links_to_where_it_serves_unless_told():
    assert served_site_url("127.0.0.1", "8101", {}) == "http://127.0.0.1:8101"
    assert served_site_url("0.0.0.0", "8101", {}) == "http://127.0.0.1:8101"  # noqa: S104
    assert served_site_url("::1", "8101", {}) == "http://[::1]:8101"
    assert served_site_url("127.0.0.1", "8101", {"JUNTA_SITE_URL": "https://j.example"}) \
        == "https://j.example"


def test_a_mail_links_to_the_site_url(campaign, mailbox, eager_celery,
                                      django_capture_on_commit_callbacks):
    """What `make run PORT=8101` gives the worker: its results mails link to port 8101."""
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    with override_settings(SITE_URL="http://127.0.0.1:8101"), \
            django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    [mail] = mailbox.to(users[0].email)
    assert f"http://127.0.0.1:8101/games/{game.id}/" in mail.text
    assert "127.0.0.1:8000" not in mail.raw


def test_results_are_news_for_six_hours_only(campaign, mailbox):
    """A results task that runs long after the phase was published (a worker back after an
    outage, the phases a demo plays in the past) mails nothing: the next reminder is news."""
    from junta.games.models import PhaseResult
    from tests.web.campaigns import play_days

    game, users = campaign(players=6)
    start_campaign(game.id, game.gm)
    play_days(game, users, 1)
    result = PhaseResult.objects.get(phase__game=game)
    late = notices.send_results(result.phase_id, now=result.published_at + notices.CATCH_UP
                                + timedelta(minutes=1))
    assert not late and not mailbox.received
    fresh = notices.send_results(result.phase_id, now=result.published_at + timedelta(hours=1))
    assert fresh["sent"] == len(users) and len(mailbox.received) == len(users)
