"""The API's counts of calls by address (junta.api.auth.CallerThrottle) live in the cache, which
on Redis outlasts a test: a test that makes many calls without a token forgets its count when it
ends, and a test that counts them starts from zero."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from junta.api.auth import throttle_key


def forget_address_counts(address: str = "127.0.0.1") -> None:
    """Every rate's count of the calls from `address` (the test client's) set back to none."""
    cache.delete_many([throttle_key(scope, f"ip-{address}") for scope in settings.JUNTA_API_RATES])
