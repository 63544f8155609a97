"""The sweep's heartbeat: recorded by the task, visible to staff, 404 for everyone else."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from junta.ops.models import Heartbeat
from junta.ops.tasks import sweep


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user(email="staff@example.org", is_staff=True)


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user(email="player@example.org")


def test_sweep_records_a_heartbeat(db):
    sweep()
    sweep()
    beat = Heartbeat.objects.get(name=Heartbeat.SWEEP)
    assert beat.runs == 2
    assert timezone.now() - beat.last_seen < timedelta(seconds=5)


def test_staff_see_a_running_sweep(client, staff):
    sweep()
    client.force_login(staff)
    page = client.get(reverse("staff_health")).content.decode()
    assert "Running." in page and "Stalled" not in page


def test_staff_are_warned_on_every_page_when_the_sweep_stalls(client, staff):
    Heartbeat.objects.create(
        name=Heartbeat.SWEEP, last_seen=timezone.now() - timedelta(minutes=10), runs=3
    )
    client.force_login(staff)
    assert "Stalled." in client.get(reverse("staff_health")).content.decode()
    assert "The minute sweep has not run since" in client.get(reverse("home")).content.decode()


def test_players_and_strangers_get_404_and_no_warning(client, player):
    assert client.get(reverse("staff_health")).status_code == 404
    client.force_login(player)
    assert client.get(reverse("staff_health")).status_code == 404
    assert "minute sweep" not in client.get(reverse("home")).content.decode()


def test_liveness_probe(client, db):
    response = client.get(reverse("liveness"))
    assert response.status_code == 200 and response.content == b"ok"
