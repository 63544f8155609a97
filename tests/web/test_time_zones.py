"""Times on pages in the viewer's own zone, the zone named in full: the GM's list of
players waiting for approval, the "deadline extended" message, the audit log, the speeches on
the Events page; the campaign's daily deadline stays a rule in the campaign's zone, with the
viewer's equivalent next to it."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from junta.games import speeches
from junta.games.campaigns import create_game, join_game, start_campaign
from junta.games.models import AuditEntry, Game, Phase, Player
from junta.games.templatetags.local_times import daily_deadline

pytestmark = pytest.mark.django_db

KOLKATA = "Asia/Kolkata"  # UTC+05:30 all year: its abbreviation would be a bare "IST"
NOON_UTC = datetime(2031, 5, 6, 12, 0, tzinfo=UTC)  # Tue 6 May 2031, 17:30 in Kolkata


def person(email: str, zone: str = "UTC"):
    user = get_user_model().objects.create_user(email=email, display_name=email.split("@")[0])
    user.time_zone = zone
    user.save()
    return user


def campaign(gm, *, players: int = 6, policy: str = Game.JoinPolicy.OPEN,
             zone: str = "Asia/Tokyo", name: str = "Mangos") -> tuple[Game, list]:
    game = create_game(gm, name, time_zone=zone, deadline_time=time(22, 0), join_policy=policy)
    users = [person(f"p{i}-{name.lower()}@example.org") for i in range(players)]
    for i, user in enumerate(users):
        join_game(game.id, user, f"Don {name} {i}")
    return Game.objects.get(pk=game.pk), users


def test_the_gm_sees_when_a_player_asked_to_join_in_his_own_zone(client):
    gm = person("gm@example.org", KOLKATA)
    game, users = campaign(gm, players=1, policy=Game.JoinPolicy.APPROVAL)
    Player.objects.filter(game=game, user=users[0]).update(joined_at=NOON_UTC)
    client.force_login(gm)
    page = client.get(reverse("gm_players", args=[game.id])).content.decode()
    assert "Tue 6 May, 17:30 (Asia/Kolkata)" in page


def test_the_extended_deadline_is_told_in_the_gms_zone_named(client):
    gm = person("gm@example.org", KOLKATA)
    game, _ = campaign(gm)
    phase = start_campaign(game.id, gm)
    client.force_login(gm)
    response = client.post(reverse("gm_extend", args=[game.id]), {
        "extend-phase": phase.number, "extend-hours": 5, "extend-reason": "late player",
    }, follow=True)
    page = response.content.decode().replace("&#x27;", "'")
    deadline = Phase.objects.get(pk=phase.pk).deadline.astimezone(ZoneInfo(KOLKATA))
    assert f"Phase {phase.number}'s deadline is now {deadline:%a} {deadline.day} " \
        f"{deadline:%b %Y, %H:%M} (Asia/Kolkata)." in page
    assert "UTC" not in page.split("deadline is now", 1)[1].split(".", 1)[0]


def test_the_audit_log_and_the_speeches_name_the_zone_in_full(client):
    gm = person("gm@example.org", KOLKATA)
    game, users = campaign(gm)
    start_campaign(game.id, gm)
    AuditEntry.objects.filter(game=game).update(created_at=NOON_UTC)
    speech = speeches.post_speech(game, users[0], "Bananas for everyone.")
    type(speech).objects.filter(pk=speech.pk).update(created_at=NOON_UTC)
    client.force_login(gm)
    audit = client.get(reverse("gm_audit", args=[game.id])).content.decode()
    assert "Tue 6 May 2031, 17:30 (Asia/Kolkata)" in audit and "17:30 IST" not in audit
    users[1].time_zone = "America/Sao_Paulo"  # UTC-3
    users[1].save()
    client.force_login(users[1])
    events = client.get(reverse("game_events", args=[game.id])).content.decode()
    assert "Tue 6 May 2031, 09:00 (America/Sao_Paulo)" in events


def test_the_daily_deadline_is_the_campaigns_rule_with_the_viewers_equivalent(client):
    gm = person("gm@example.org", "Asia/Tokyo")
    game, users = campaign(gm)  # 22:00 in Tokyo (UTC+9, no daylight saving time)
    users[0].time_zone = KOLKATA
    users[0].save()
    client.force_login(users[0])
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "22:00 Asia/Tokyo (18:30 in Asia/Kolkata)" in page
    client.force_login(gm)  # the campaign's own zone: nothing to add
    page = client.get(reverse("game_detail", args=[game.id])).content.decode()
    assert "22:00 Asia/Tokyo</dd>" in page
    start_campaign(game.id, gm)
    assert "22:00 Asia/Tokyo</dd>" in client.get(reverse("gm_time", args=[game.id])) \
        .content.decode()
    # another day on either side of the date line
    game.time_zone = "Pacific/Honolulu"  # UTC-10, no daylight saving time
    now = datetime(2031, 5, 6, 12, 0, tzinfo=UTC)
    with timezone.override(ZoneInfo(KOLKATA)):
        assert daily_deadline(game, now) == "22:00 Pacific/Honolulu (13:30 the next day in " \
            "Asia/Kolkata)"
    game.time_zone, game.deadline_time = "Asia/Tokyo", time(8, 0)
    with timezone.override(ZoneInfo("Pacific/Honolulu")):
        assert daily_deadline(game, now) == "08:00 Asia/Tokyo (13:00 the day before in " \
            "Pacific/Honolulu)"
