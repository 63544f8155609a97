"""A person may hold 20 API tokens in use (junta/api/tokens.py, MAX_ACTIVE_TOKENS). The count is
read under a lock on the person's row: several tokens asked for at the same moment by one who
holds 19 give him one more and refuse the others, where each request counted 19 and all went
through before."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from junta.api import tokens
from junta.api.models import ApiToken
from tests.web.concurrency import WORKERS, in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def test_tokens_asked_for_at_once_never_pass_the_limit(postgres):
    user = get_user_model().objects.create_user(email="maker@example.org")
    for i in range(tokens.MAX_ACTIVE_TOKENS - 1):
        tokens.create(user, f"script {i}")

    def ask() -> str:
        try:
            tokens.create(user, "one more")
        except tokens.TokenError as refused:
            return str(refused)
        return "made"

    answers = in_threads(ask)
    assert len(answers) == WORKERS
    assert answers.count("made") == 1, answers
    assert all("20 tokens in use already" in a for a in answers if a != "made"), answers
    active = ApiToken.objects.filter(user=user, revoked_at__isnull=True).count()
    assert active == tokens.MAX_ACTIVE_TOKENS
