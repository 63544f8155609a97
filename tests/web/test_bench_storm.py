"""The adjudication-storm benchmark measures real campaigns: its bulk copies of a campaign played
through the services hold the same rows (new ids, new players' accounts) and adjudicate to the
very same result, so the time it measures is the time of the campaigns it copied."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bench import adjudication_storm, deadline_storm
from junta.games import adjudication
from junta.games.models import Bill, Game, Order, Phase, PhaseResult, Player, PoliticalCard

pytestmark = pytest.mark.django_db



def test_a_copied_campaign_adjudicates_to_the_same_result(django_user_model):
    gm = django_user_model.objects.create_user(email="storm-gm@junta.test")
    _game_id, template, _users = deadline_storm.make_campaign((0, gm.pk))
    copies = adjudication_storm.clone([template], 2)
    assert len(copies) == 2 and template not in copies
    original = Phase.objects.get(pk=template).game
    for phase_id in copies:
        copy = Phase.objects.get(pk=phase_id).game
        assert copy.pk != original.pk and copy.status == original.status
        for model, field in ((Player, "game"), (PoliticalCard, "game"), (Bill, "game")):
            assert model.objects.filter(**{field: copy}).count() == \
                model.objects.filter(**{field: original}).count() > 0
        assert Order.objects.filter(phase_id=phase_id).count() == \
            Order.objects.filter(phase_id=template).count()
        assert not set(copy.players.values_list("user", flat=True)) & \
            set(original.players.values_list("user", flat=True))
    now = timezone.now() + timedelta(days=30)
    for phase_id in [template, *copies]:
        adjudication.adjudicate_phase(phase_id, now=now)
    digests = {PhaseResult.objects.get(phase_id=p).digest for p in [template, *copies]}
    assert len(digests) == 1
    assert Game.objects.count() == 3
