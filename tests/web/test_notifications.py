"""E-mail notifications, received by a real SMTP server: phase results with only the
reader's own secrets, reminders, the daily digest, the start and end of a campaign, absences
for the GM; each mail once, whatever runs twice; unsubscribing by a signed link."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from junta.engine import GameState, digest
from junta.games import adjudication, order_intake, speeches
from junta.games.campaigns import start_campaign
from junta.games.models import Game, Phase, PhaseResult
from junta.gm import services
from junta.notify import notices, selectors, tasks
from junta.notify.models import Absence, Delivery, Kind, Preferences
from tests.web.active_markup import active
from tests.web.campaigns import play_days

pytestmark = pytest.mark.django_db


def opt_in(game: Game, users: list, **kinds) -> None:
    """`users` and the GM want exactly `kinds`; every other seated player has turned off what
    a player gets unless he does (reminders and results: see `test_mail_defaults`)."""
    off = {"results": False, "reminder": False, "digest": False, "campaign": False}
    for user in [*users, game.gm]:
        Preferences.objects.update_or_create(user=user, game=game, defaults={**off, **kinds})
    for player in game.players.filter(membership="active").exclude(user__in=users):
        Preferences.objects.update_or_create(user=player.user, game=game, defaults=off)


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def seat_users(game: Game) -> dict[int, object]:
    return {p.seat: p.user for p in game.players.filter(membership="active")}


POCKET, BANK, WHISPER = 48151600, 62342000, "WHISPER-MARKER-"


def mark_secrets(phase: Phase) -> None:
    """Give every seat a pocket and a bank no other number looks like."""
    state = GameState.from_dict(phase.state_before)
    for p in state.players:
        p.pocket, p.bank = POCKET + p.seat, BANK + p.seat
    phase.state_before = state.to_dict()
    phase.state_digest = digest(state)
    phase.save()


def whisper_to_each_seat(result: PhaseResult, seats: range) -> None:
    """A private line for each seat and one for the GM's eyes only, each with its own marker."""
    result.events = [*result.events,
                     *({"kind": "note", "text": f"{WHISPER}{s}-", "audience": [s], "data": {}}
                       for s in seats),
                     {"kind": "note", "text": f"{WHISPER}gm-", "audience": "gm", "data": {}}]
    result.save(update_fields=["events"])


def test_results_mails_hold_the_report_and_only_the_readers_own_secrets(
        campaign, mailbox, eager_celery, django_capture_on_commit_callbacks):
    game, users = campaign()
    opt_in(game, users, results=True)
    phase = start_campaign(game.id, game.gm)
    mark_secrets(phase)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert len(callbacks) == 1 and len(mailbox) == 0  # nothing before the commit
    whisper_to_each_seat(PhaseResult.objects.get(phase=phase), range(10))
    callbacks[0]()  # the commit happened: the task is queued (and runs eagerly here)

    seats = seat_users(game)
    assert len(mailbox) == 11  # ten players and the GM
    for seat, user in seats.items():
        [mail] = mailbox.to(user.email)
        assert "Papayas" in mail.subject and "Nominations" in mail.subject
        assert mail.text and mail.html  # plain text and HTML
        for body in (mail.text, mail.html):
            assert f"{WHISPER}{seat}-" in body  # his own private line
            assert str(POCKET + seat) in body and str(BANK + seat) in body
        for other in set(seats) - {seat}:
            assert f"{WHISPER}{other}-" not in mail.raw
            assert str(POCKET + other) not in mail.raw and str(BANK + other) not in mail.raw
        assert f"{WHISPER}gm-" not in mail.raw
        assert "Presidential Election" in mail.text  # what comes next, with its deadline
        assert "https://junta.test/games/" in mail.text
    [gm_mail] = mailbox.to(game.gm.email)
    assert all(f"{WHISPER}{s}-" in gm_mail.text for s in range(10))

    # any number of runs, by the task or the sweep, sends nothing twice
    tasks.phase_published(phase.id)
    tasks.phase_published.delay(phase.id)
    notices.sweep(timezone.now())
    assert len(mailbox) == 11
    assert Delivery.objects.filter(kind=Kind.RESULTS, status="sent").count() == 11


def test_nobody_gets_mail_he_did_not_ask_for(campaign, mailbox, eager_celery,
                                             django_capture_on_commit_callbacks):
    game, users = campaign()
    opt_in(game, users[:2], results=True)
    Preferences.objects.filter(user=game.gm).update(results=False)
    phase = start_campaign(game.id, game.gm)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert sorted(m.to[0] for m in mailbox.received) == sorted(u.email for u in users[:2])


def test_a_review_mode_draft_is_mailed_when_the_gm_publishes_it(
        campaign, mailbox, eager_celery, django_capture_on_commit_callbacks):
    game, users = campaign(review=True)
    opt_in(game, users[:1], results=True)
    phase = start_campaign(game.id, game.gm)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    notices.sweep(phase.deadline)
    assert len(mailbox) == 0  # a draft is nobody's news yet
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.publish_draft(phase.id, game.gm.id)
    assert len(mailbox.to(users[0].email)) == 1


def test_a_lost_task_is_made_up_by_the_sweep(campaign, mailbox):
    game, users = campaign()
    opt_in(game, users[:3], results=True)
    phase = start_campaign(game.id, game.gm)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)  # its callback never runs
    assert len(mailbox) == 0
    notices.sweep()
    notices.sweep()
    assert len(mailbox) == 4


def test_a_failed_send_is_retried_later_and_then_sent_once(campaign, mailbox, settings):
    game, users = campaign()
    opt_in(game, users[:1], results=True)
    Preferences.objects.filter(user=game.gm).update(results=False)
    phase = start_campaign(game.id, game.gm)
    adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    working = settings.MAILERS
    settings.MAILERS = {"default": {**working["default"], "OPTIONS": {
        **working["default"]["OPTIONS"], "port": 1}}}  # nobody listens there
    assert notices.send_results(phase.id) == {"failed": 1}
    row = Delivery.objects.get(kind=Kind.RESULTS)
    assert row.status == "failed" and "Error" in row.error
    settings.MAILERS = working
    assert notices.send_results(phase.id) == {"skipped": 1}  # not yet: it waits a while
    later = timezone.now() + timedelta(minutes=3)
    assert notices.catch_up_results(later) == {"sent": 1}
    assert notices.catch_up_results(later) == {}
    assert len(mailbox) == 1 and Delivery.objects.get(kind=Kind.RESULTS).attempts == 2


def test_reminders_go_to_players_who_owe_orders_and_are_not_final(
        campaign, mailbox, eager_celery):
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    seats = seat_users(game)
    opt_in(game, [seats[0], seats[1], seats[2]], reminder=True, reminder_hours=6)
    Preferences.objects.filter(user=seats[2]).update(reminder_hours=2)
    order_intake.set_final(phase.id, seats[1])
    # the beat sweep, twice, when the deadline is three hours away
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() + timedelta(hours=3))
    from junta.ops.tasks import sweep

    sweep()
    sweep()
    assert [m.to[0] for m in mailbox.received] == [seats[0].email]
    mail = mailbox.received[0]
    assert "your orders for Nominations" in mail.subject
    assert "You have given no orders yet" in mail.text and "/orders/" in mail.text
    assert mail.html and "Give your orders" in mail.html
    # two hours before: the player who asked for two hours
    notices.sweep(timezone.now() + timedelta(hours=1, minutes=30))
    assert sorted(m.to[0] for m in mailbox.received) == sorted([seats[0].email, seats[2].email])
    # a moved deadline is a new deadline: a new reminder
    mailbox.clear()
    services.extend_deadline(game.id, game.gm, 24)
    notices.sweep(timezone.now() + timedelta(hours=25, minutes=30))
    notices.sweep(timezone.now() + timedelta(hours=25, minutes=30))
    assert sorted(m.to[0] for m in mailbox.received) == sorted([seats[0].email, seats[2].email])


def test_no_reminder_for_players_who_owe_nothing(campaign, mailbox):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 2)  # nominations, the election: now the Cabinet (the President only)
    phase = open_phase(game)
    assert phase.kind == "cabinet"
    opt_in(game, users, reminder=True, reminder_hours=72)
    notices.sweep(phase.deadline - timedelta(hours=1))
    president = seat_users(game)[phase.owing_seats[0]]
    assert [m.to[0] for m in mailbox.received] == [president.email]


def test_the_reminder_sweep_does_not_rebuild_the_state_for_players_who_owe_nothing(
        campaign, mailbox, monkeypatch):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 2)  # the Cabinet: the President alone owes orders
    phase = open_phase(game)
    opt_in(game, users, reminder=True, reminder_hours=72)  # everyone inside his window
    rebuilt = []
    real = notices.state_before  # the name the sweep calls (games' public surface)
    monkeypatch.setattr(notices, "state_before",
                        lambda phase: rebuilt.append(phase.pk) or real(phase))
    now = phase.deadline - timedelta(hours=2)
    assert notices.reminders(now) == {"sent": 1}  # the President's reminder
    assert len(mailbox) == 1
    rebuilt.clear()
    for minute in range(1, 4):  # the following minutes: nine players still owe nothing
        assert notices.reminders(now + timedelta(minutes=minute)) == {}
    assert rebuilt == []
    # nor for a player who owes orders but has marked them final
    president = seat_users(game)[phase.owing_seats[0]]
    Delivery.objects.filter(kind=Kind.REMINDER).delete()
    order_intake.set_final(phase.id, president)
    rebuilt.clear()  # marking final reads the state (may he act?); the sweep must not
    assert notices.reminders(now) == {} and rebuilt == [] and len(mailbox) == 1


def test_the_digest_html_strips_scripts_and_javascript_links_from_speeches(
        campaign, mailbox):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    Preferences.objects.create(user=users[0], game=game, digest=True)
    speech = speeches.post_speech(
        game, users[1], "XSS-MARKER <script>alert('boom')</script> and "
        "[a prize](javascript:alert('boom')) and <a href=\"JavaScript:alert(1)\">another</a> "
        "<img src=x onerror=\"alert(1)\">")
    yesterday = timezone.now() - timedelta(days=1)
    type(speech).objects.filter(pk=speech.pk).update(created_at=yesterday)
    notices.digests(timezone.now())
    [mail] = mailbox.received
    assert "XSS-MARKER" in mail.html and "a prize" in mail.html
    assert active(mail.html[mail.html.index("XSS-MARKER"):]) == []  # the speech acts not
    assert "&lt;script&gt;alert('boom')" in mail.html  # it reads as written


def test_the_daily_digest_carries_the_speeches_of_the_day_before(
        campaign, mailbox):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    reader, speaker = users[0], users[1]
    reader.time_zone = "Asia/Tokyo"
    reader.save()
    Preferences.objects.create(user=reader, game=game, digest=True)
    zone = ZoneInfo("Asia/Tokyo")
    first = speeches.post_speech(game, speaker, "Viva la **Republica**! DIGEST-MARKER-1")
    second = speeches.post_speech(game, users[2], "Down with the *Junta*. DIGEST-MARKER-2")
    old = speeches.post_speech(game, users[3], "Old news. DIGEST-MARKER-OLD")
    day = datetime(2031, 5, 6, tzinfo=zone)
    type(first).objects.filter(pk=first.pk).update(created_at=day.replace(hour=10))
    type(first).objects.filter(pk=second.pk).update(created_at=day.replace(hour=23))
    type(first).objects.filter(pk=old.pk).update(created_at=day.replace(hour=7))
    next_morning = day + timedelta(days=1, hours=8, minutes=1)  # 08:01 Tokyo time
    notices.sweep(next_morning - timedelta(minutes=2))  # 07:59: the digest of the day before
    assert [m for m in mailbox.received if "DIGEST-MARKER-1" in m.text] == []
    mailbox.clear()
    notices.sweep(next_morning)
    notices.sweep(next_morning + timedelta(hours=3))
    [mail] = mailbox.received
    assert mail.to == [reader.email] and "2 new speeches" in mail.subject
    assert "DIGEST-MARKER-1" in mail.text and "DIGEST-MARKER-2" in mail.text
    assert "DIGEST-MARKER-OLD" not in mail.raw
    assert "<strong>Republica</strong>" in mail.html  # Markdown, sanitised
    assert "(Asia/Tokyo)" in mail.text and "Tue 6 May 2031, 10:00" in mail.text
    # a quiet day sends nothing, and is not looked at again
    notices.sweep(next_morning + timedelta(days=1))
    assert len(mailbox) == 1
    assert Delivery.objects.filter(kind=Kind.DIGEST, status="empty").count() == 1


def test_the_start_and_the_end_of_a_campaign(campaign, mailbox, eager_celery,
                                             django_capture_on_commit_callbacks):
    game, users = campaign()
    opt_in(game, users, campaign=True)
    phase = start_campaign(game.id, game.gm)
    notices.sweep()
    notices.sweep()
    assert len(mailbox) == 11
    mail = mailbox.to(users[0].email)[0]
    assert mail.subject == "[Junta] Papayas has begun"
    assert "Don Carlos" in mail.text and "Nominations" in mail.text
    assert "You owe orders" in mail.text
    mailbox.clear()
    # the last phase: its result says the game is over
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    result = PhaseResult.objects.get(phase=phase)
    state = GameState.from_dict(result.state_after)
    state.finished, state.winners = True, [3]
    state.players[3].bank = 777
    result.state_after = state.to_dict()
    result.digest = digest(state)  # stored results are checked against their digest
    result.save()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    Phase.objects.filter(game=game, number=2).delete()
    callbacks[0]()
    callbacks[0]()
    assert len(mailbox) == 11
    mail = mailbox.to(users[0].email)[0]
    assert mail.subject == "[Junta] Papayas is over"
    assert "Winner: Don Lucia" in mail.text and "Don Lucia: 777 MP" in mail.text
    assert "The end report (each family's story, the charts, the awards): https://" \
        in mail.text and reverse("game_report", args=[game.id]) in mail.text


def test_the_gm_hears_of_a_player_away_while_he_owes_orders(
        campaign, mailbox, client):
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    away, final_and_away = users[0], users[1]
    order_intake.set_final(phase.id, final_and_away)
    for user in (away, final_and_away):
        today = selectors.local_today(user)  # days away are the player's own days
        client.force_login(user)
        response = client.post(reverse("game_absence_add", args=[game.id]), {
            "starts_on": today.isoformat(), "ends_on": (today + timedelta(days=3)).isoformat(),
            "note": "At my cousin's wedding"})
        assert response.status_code == 302
    assert Absence.objects.count() == 2
    notices.sweep()
    notices.sweep()
    [mail] = mailbox.received
    assert mail.to == [game.gm.email]
    assert "Don Carlos is away and owes orders for Nominations" in mail.subject
    assert "At my cousin's wedding" in mail.text and "Don Isabel" not in mail.raw
    # the GM sees absences on the campaign page; other players do not see the list
    client.force_login(game.gm)
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "Players away" in page and "Away now:" in page and "Don Carlos" in page
    panel = client.get(reverse("gm_overview", args=[game.id])).content.decode()
    assert "Players away" in panel and "cousin's wedding" in panel.replace("&#x27;", "'")
    client.force_login(users[5])
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "cousin" not in page and "Declare days away" in page
    # the GM may turn these mails off like any other
    Preferences.objects.filter(user=game.gm, game=game).update(absence=False)
    Absence.objects.create(player=game.players.get(user=users[2]), starts_on=today,
                           ends_on=today)
    notices.sweep()
    assert len(mailbox) == 1


def test_absences_are_whole_days_in_the_players_own_zone(campaign, client,
                                                        monkeypatch):
    game, users = campaign()  # the campaign's zone: America/New_York
    start_campaign(game.id, game.gm)
    kiwi = users[0]
    kiwi.time_zone = "Pacific/Auckland"
    kiwi.save()
    # 13:00 UTC on Tuesday 6 May 2031: 09:00 that Tuesday in New York, but already 01:00 on
    # Wednesday 7 May in Auckland (New Zealand standard time, UTC+12)
    now = datetime(2031, 5, 6, 13, 0, tzinfo=ZoneInfo("UTC"))
    monkeypatch.setattr(timezone, "now", lambda: now)
    client.force_login(kiwi)
    add = reverse("game_absence_add", args=[game.id])
    # Tuesday is over in Auckland: too late to declare it
    client.post(add, {"starts_on": "2031-05-05", "ends_on": "2031-05-06"})
    assert not Absence.objects.exists()
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "That absence is already over." in page
    # Wednesday is today there
    client.post(add, {"starts_on": "2031-05-07", "ends_on": "2031-05-08", "note": "Tramping"})
    assert Absence.objects.filter(starts_on="2031-05-07").count() == 1
    player = game.players.get(user=kiwi)
    Absence.objects.create(player=player, starts_on="2031-05-04", ends_on="2031-05-06",
                           note="Over already")
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "Wed 7 May 2031 to Thu 8 May 2031" in page
    assert "Over already" not in page  # his own list: what is not over in his zone
    # the GM (in New York, where it is still Tuesday) sees him away now, and not the old one
    client.force_login(game.gm)
    panel = client.get(reverse("gm_overview", args=[game.id])).content.decode()
    assert "Away now:" in panel and "Tramping" in panel and "Over already" not in panel
    [row] = selectors.absences_for(game)
    assert row.current and row.absence.note == "Tramping"
    assert len(selectors.absences_for(game, include_past=True)) == 2


def test_an_absence_outside_the_phase_says_nothing(campaign, mailbox):
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    later = (phase.deadline + timedelta(days=3)).date()
    Absence.objects.create(player=game.players.get(user=users[0]), starts_on=later,
                           ends_on=later + timedelta(days=2))
    notices.sweep()
    assert len(mailbox) == 0


def unsubscribe_link(mail) -> str:
    """The link of the List-Unsubscribe header, read from the bytes the SMTP server received (a
    decoded header would hide encoded-words, which RFC 2369 and 8058 do not allow there)."""
    header = mail.raw_header("List-Unsubscribe")
    assert re.fullmatch(rb"<https://junta\.test/[!-~]+>", header), header  # one line, no =?
    link = header.decode("ascii").strip("<>")
    assert str(mail.message["List-Unsubscribe"]) == f"<{link}>"
    assert link in mail.text and link in mail.html
    return link.removeprefix("https://junta.test")


def test_unsubscribe_by_the_signed_link_without_logging_in(
        campaign, mailbox, client, django_capture_on_commit_callbacks, eager_celery):
    game, users = campaign()
    opt_in(game, users[:1], results=True, campaign=True)
    phase = start_campaign(game.id, game.gm)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    mail = mailbox.to(users[0].email)[0]
    assert mail.raw_header("List-Unsubscribe-Post") == b"List-Unsubscribe=One-Click"
    path = unsubscribe_link(mail)
    page = client.get(path)  # nobody is logged in
    assert page.status_code == 200 and "Stop sending phase results from Papayas" in \
        page.content.decode()
    assert Preferences.objects.get(user=users[0]).results  # looking changes nothing
    done = client.post(path)
    assert done.status_code == 200 and "gets no more mails" in done.content.decode()
    for answer in (page, done):  # whoever holds the link does not learn whose address it is
        assert users[0].email not in answer.content.decode()
        assert users[0].email.split("@")[0] not in answer.content.decode()
    prefs = Preferences.objects.get(user=users[0])
    assert not prefs.results and prefs.campaign  # only that kind
    # no more results mails for him
    mailbox.clear()
    phase = open_phase(game)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    assert mailbox.to(users[0].email) == []


def test_a_tampered_unsubscribe_link_is_refused(campaign, mailbox, client,
                                                 django_capture_on_commit_callbacks,
                                                 eager_celery):
    game, users = campaign()
    opt_in(game, users[:2], results=True)
    phase = start_campaign(game.id, game.gm)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.adjudicate_phase(phase.id, now=phase.deadline)
    path = unsubscribe_link(mailbox.to(users[0].email)[0])
    token = path.rstrip("/").rsplit("/", 1)[1]
    payload, signature = token.rsplit(":", 1)
    other_prefs = Preferences.objects.get(user=users[1])
    forged = [
        token[:-1] + ("A" if token[-1] != "A" else "B"),  # the signature changed
        f"{payload}x:{signature}",  # the payload changed
        re.sub(r"\d", "9", payload) + ":" + signature,
        f"{other_prefs.pk}:results",
        "garbage",
    ]
    for bad in forged:
        response = client.post(reverse("notify_unsubscribe", args=[bad]))
        assert response.status_code == 400, bad
        assert "This unsubscribe link is not valid" in response.content.decode()
    assert Preferences.objects.filter(results=True).count() == 3  # two players and the GM


def test_the_settings_page_chooses_what_to_receive(campaign, client):
    game, users = campaign()
    client.force_login(users[0])
    url = reverse("game_notifications", args=[game.id])
    page = client.get(url).content.decode()
    assert "Deadline reminders" in page and "Absent players" not in page
    detail = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert url in detail  # linked from the campaign page
    response = client.post(url, {"results": "on", "reminder": "on", "reminder_hours": "12"})
    assert response.status_code == 302
    prefs = Preferences.objects.get(user=users[0], game=game)
    assert prefs.results and prefs.reminder and prefs.reminder_hours == 12
    assert not prefs.digest and not prefs.campaign
    assert client.post(url, {"reminder_hours": "100"}).status_code == 400
    client.force_login(game.gm)
    assert "Absent players" in client.get(url).content.decode()
    stranger = type(users[0]).objects.create_user(email="nosy@example.org")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    overview = client.get(reverse("notify_overview"))
    assert overview.status_code == 200 and url not in overview.content.decode()


def test_players_who_asked_are_told_once_when_the_awards_open(campaign, mailbox):
    """docs/rules.md §polls: "when the campaign is finished, the GameMaster opens the awards";
    the players who asked for the start and end mails are told, once per opening, and the
    GameMaster, who does not vote, is not."""
    from junta.polls import services as polls

    game, users = campaign()
    opt_in(game, users[:3], campaign=True)
    start_campaign(game.id, game.gm)
    notices.sweep()  # the start mails
    mailbox.clear()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    notices.sweep()
    assert len(mailbox) == 0  # no awards yet
    polls.open_awards(game, game.gm, [])
    polls.vote(game.polls.get(question="Best speech").id, users[4],
               [game.polls.get(question="Best speech").choices.get(player__user=users[1]).pk])
    notices.sweep()
    notices.sweep()
    told = {address for mail in mailbox.received for address in mail.to}
    assert told == {u.email for u in users[:3]}  # not the GM, not those who did not ask
    mail = mailbox.to(users[0].email)[0]
    assert mail.subject == "[Junta] Papayas: vote the awards"
    assert "- Best speech\r\n" in mail.text and "- Most loyal\r\n" in mail.text
    assert reverse("polls_index", args=[game.id]) in mail.text
    assert "Don Isabel" not in mail.text and "Don Rafael" not in mail.text  # no vote told
    mailbox.clear()
    polls.open_awards(game, game.gm, ["Best coup"])  # more awards: told once more
    game.polls.filter(question="Best coup").update(
        created_at=timezone.now() + timedelta(seconds=1))
    notices.sweep()
    notices.sweep()
    assert len(mailbox) == 3 and "- Best coup\r\n" in mailbox.to(users[0].email)[0].text
