"""The private calendar feed of my deadlines: iCalendar that parses, deadlines in UTC
with the campaign's zone named, a secret address that can be replaced."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from junta.games.campaigns import create_game, start_campaign
from junta.games.models import AuditEntry, Game, Phase
from junta.gm import services
from junta.notify.calendar import escape_text, fold
from junta.notify.models import CalendarFeed
from tests.web.campaigns import play_days

pytestmark = pytest.mark.django_db


def parse_ics(body: bytes) -> dict:
    """A small RFC 5545 reader: CRLF lines of at most 75 octets, unfolded, into nested
    components {"name", "props": [(name, params, value)], "children"}."""
    assert body.endswith(b"\r\n"), "the last line ends with CRLF"
    raw_lines = body.split(b"\r\n")[:-1]
    for raw in raw_lines:
        assert b"\n" not in raw and b"\r" not in raw, "every line ends with CRLF"
        assert len(raw) <= 75, f"a line longer than 75 octets: {raw!r}"
    text_lines = [raw.decode("utf-8") for raw in raw_lines]  # folding kept characters whole
    unfolded: list[str] = []
    for line in text_lines:
        if line.startswith((" ", "\t")):
            unfolded[-1] += line[1:]
        else:
            unfolded.append(line)
    root = {"name": None, "props": [], "children": []}
    stack = [root]
    for line in unfolded:
        name_params, _, value = line.partition(":")
        name, *params = name_params.split(";")
        if name == "BEGIN":
            component = {"name": value, "props": [], "children": []}
            stack[-1]["children"].append(component)
            stack.append(component)
        elif name == "END":
            assert stack.pop()["name"] == value, f"END:{value} closes another component"
        else:
            stack[-1]["props"].append((name, params, value))
    assert len(stack) == 1, "every component is closed"
    [calendar] = root["children"]
    assert calendar["name"] == "VCALENDAR"
    return calendar


def prop(component: dict, name: str) -> str:
    values = [v for n, _, v in component["props"] if n == name]
    assert len(values) == 1, f"{name} appears {len(values)} times"
    return values[0]


def unescape(value: str) -> str:
    return (value.replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";")
            .replace("\\\\", "\\"))


def test_the_feed_lists_my_deadlines_in_utc_with_the_zone_named(campaign, client,
                                                                 django_user_model):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    play_days(game, users, 2)
    # a second campaign of the same player, in another zone, and one he is not in
    other_gm = django_user_model.objects.create_user(email="othergm@example.org")
    madrid = create_game(other_gm, "Bananas; with a very long name, to fold the summary line",
                         time_zone="Europe/Madrid", join_policy=Game.JoinPolicy.OPEN)
    from junta.games.campaigns import join_game

    for i in range(6):
        user = users[0] if i == 0 else django_user_model.objects.create_user(
            email=f"m{i}@example.org")
        join_game(madrid.id, user, f"Señor Ñandú {i}")
    start_campaign(madrid.id, other_gm)
    stranger = create_game(other_gm, "Not mine")

    client.force_login(users[0])
    page = client.get(reverse("notify_overview")).content.decode()
    feed = CalendarFeed.objects.get(user=users[0])
    url = reverse("notify_calendar", args=[feed.token])
    assert url in page
    client.logout()  # calendar apps do not log in
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = parse_ics(response.content)
    assert prop(calendar, "VERSION") == "2.0" and prop(calendar, "PRODID")
    events = [c for c in calendar["children"] if c["name"] == "VEVENT"]
    phases = list(Phase.objects.filter(game__in=[game, madrid]).order_by("deadline", "id"))
    assert len(events) == len(phases) == 4
    uids = set()
    for event, phase in zip(events, phases, strict=True):
        uids.add(prop(event, "UID"))
        start = prop(event, "DTSTART")
        assert start.endswith("Z")  # UTC
        assert datetime.strptime(start, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC) == phase.deadline
        assert prop(event, "DTSTAMP").endswith("Z")
        summary, description = unescape(prop(event, "SUMMARY")), unescape(
            prop(event, "DESCRIPTION"))
        assert phase.game.name in summary and "deadline" in summary
        assert phase.game.time_zone in description  # the zone of the game's deadline
        local = phase.deadline.astimezone(__import__("zoneinfo").ZoneInfo(phase.game.time_zone))
        assert f"due at {local:%H:%M}" in description and local.hour == 22
    assert len(uids) == 4
    texts = response.content.decode()
    assert "Not mine" not in texts and stranger.name not in texts
    assert "Europe/Madrid" in texts.replace("\r\n ", "") and "America/New_York" in texts
    assert "Bananas\\; with a very long name\\, to fold" in texts.replace("\r\n ", "")
    assert "You owe orders in this phase." in unescape(texts.replace("\r\n ", ""))


def test_a_moved_deadline_keeps_its_uid_with_a_higher_sequence_and_a_later_modification(
        campaign, client):
    game, users = campaign()
    phase = start_campaign(game.id, game.gm)
    an_hour_ago = timezone.now() - timedelta(hours=1)  # the campaign began an hour ago
    Phase.objects.filter(pk=phase.pk).update(opens_at=an_hour_ago)
    AuditEntry.objects.filter(game=game).update(created_at=an_hour_ago)
    url = reverse("notify_calendar", args=[CalendarFeed.objects.create(user=users[0]).token])

    def event() -> dict:
        [only] = [c for c in parse_ics(client.get(url).content)["children"]
                  if c["name"] == "VEVENT"]
        return {name: prop(only, name)
                for name in ("UID", "SEQUENCE", "LAST-MODIFIED", "DTSTART", "DTSTAMP")}

    first = event()
    assert int(first["SEQUENCE"]) >= 0
    assert first["LAST-MODIFIED"] == an_hour_ago.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    again = event()  # fetched again, nothing moved: nothing changes but DTSTAMP
    assert {k: v for k, v in again.items() if k != "DTSTAMP"} == \
        {k: v for k, v in first.items() if k != "DTSTAMP"}
    services.extend_deadline(game.id, game.gm, 24)
    moved = event()
    assert moved["UID"] == first["UID"] and moved["DTSTART"] != first["DTSTART"]
    assert int(moved["SEQUENCE"]) > int(first["SEQUENCE"])
    assert moved["LAST-MODIFIED"] > first["LAST-MODIFIED"]  # the same format: compares as text
    assert moved["LAST-MODIFIED"].endswith("Z") and moved["LAST-MODIFIED"] <= moved["DTSTAMP"]
    # a pause moves it again, by the length of the pause
    services.pause(game.id, game.gm)
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now() - timedelta(minutes=30))
    services.resume(game.id, game.gm)
    resumed = event()
    assert int(resumed["SEQUENCE"]) > int(moved["SEQUENCE"])
    assert resumed["LAST-MODIFIED"] >= moved["LAST-MODIFIED"]


def test_resetting_the_address_revokes_the_old_one(client, django_user_model):
    user = django_user_model.objects.create_user(email="p@example.org")
    client.force_login(user)
    profile = client.get(reverse("profile")).content.decode()
    assert reverse("notify_overview") in profile  # reached from the profile page
    client.get(reverse("notify_overview"))
    old = CalendarFeed.objects.get(user=user).token
    assert client.get(reverse("notify_calendar", args=[old])).status_code == 200
    response = client.post(reverse("notify_calendar_reset"))
    assert response.status_code == 302
    new = CalendarFeed.objects.get(user=user).token
    assert new != old
    client.logout()
    assert client.get(reverse("notify_calendar", args=[old])).status_code == 404
    assert client.get(reverse("notify_calendar", args=[new])).status_code == 200
    assert client.get(reverse("notify_calendar", args=["guessed"])).status_code == 404


def test_folding_keeps_characters_whole_and_escaping_follows_the_rfc():
    line = "DESCRIPTION:" + "Ñ" * 100
    folded = fold(line)
    parts = folded.split("\r\n")
    assert all(len(p.encode()) <= 75 for p in parts)
    assert "".join([parts[0], *(p[1:] for p in parts[1:])]) == line
    assert escape_text('a,b;c\\d\ne') == "a\\,b\\;c\\\\d\\ne"
