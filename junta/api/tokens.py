"""Making, finding and revoking personal API tokens. The secret is shown once, when it is
made; the database keeps its sha256 only, so a token is found by hashing what is sent.
Making and revoking are in the shape of every app's writes (README, Layout): `check_<verb>`
refuses with a `TokenError`, changing nothing, `do_<verb>` writes."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.public import User
from junta.api.models import ApiToken

SECRET_START = "junta_"
PREFIX_LENGTH = len(SECRET_START) + 6
# How stale "last used" may be: writing it on every request would cost a write per request.
LAST_USED_EVERY = timedelta(minutes=1)
MAX_ACTIVE_TOKENS = 20


class TokenError(Exception):
    """A refused change to one's tokens, in words for the person who asked."""


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # shown once, never stored


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@transaction.atomic
@transaction.atomic
def create(user: User, name: str) -> NewToken:
    """A new token, the person's row locked first: his tokens asked for at the same moment are
    counted one after the other, so that none goes past MAX_ACTIVE_TOKENS."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    return do_create(user, check_create(user, name))


def check_create(user: User, name: str) -> str:
    """Whether the person may make a token of that name now (`TokenError` if not): the name,
    its spaces tidied."""
    name = " ".join((name or "").split())
    if not name:
        raise TokenError("Give the token a name, so you know later what it is for.")
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
        raise TokenError(f"You have {MAX_ACTIVE_TOKENS} tokens in use already: revoke one "
                         "you no longer need first.")
    return name


@transaction.atomic
def do_create(user: User, name: str) -> NewToken:
    """The token, its secret kept as its hash only."""
    secret = SECRET_START + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, prefix=secret[:PREFIX_LENGTH],
                                    secret_hash=hash_secret(secret))
    return NewToken(token, secret)


def find(secret: str) -> ApiToken | None:
    """The token this secret belongs to, unless it is unknown or revoked (or its person can no
    longer sign in); its "last used" brought up to date."""
    if not secret or len(secret) > 200:
        return None
    token = (ApiToken.objects.select_related("user")
             .filter(secret_hash=hash_secret(secret), revoked_at__isnull=True).first())
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


@transaction.atomic
def revoke(user: User, token_id: int) -> ApiToken:
    token = ApiToken.objects.select_for_update(no_key=True).filter(pk=token_id, user=user).first()
    return do_revoke(check_revoke(token))


def check_revoke(token: ApiToken | None) -> ApiToken:
    """Whether the token (the person's, locked; None: not his) may be revoked (`TokenError`
    if not)."""
    if token is None:
        raise TokenError("That token is not one of yours.")
    return token


@transaction.atomic
def do_revoke(token: ApiToken) -> ApiToken:
    """The token revoked now, unless it was already."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token
