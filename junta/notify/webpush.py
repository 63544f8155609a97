"""One push, by the standard protocol: the payload encrypted to the browser's keys (RFC 8291,
`aes128gcm`, by http_ece), signed for its push service with the site's VAPID key (RFC 8292, by
py_vapid), and posted to the subscription's endpoint.

The post goes to the address `push_address.check` found allowed just now, not to whatever the
name resolves to a moment later (TLS still checks the certificate of the name), and a redirect
is an answer, never followed.
"""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from junta.notify import push_address
from junta.notify.vapid import VapidKeys, b64url_decode

TTL = 24 * 60 * 60  # seconds a push service keeps a push for a device that is off
TIMEOUT = 10  # seconds to connect, then for each read
VAPID_LIFETIME = 12 * 60 * 60  # a signature is good for 12 hours (RFC 8292 allows 24)


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str  # base64url
    auth: str  # base64url


def encrypt(payload: bytes, subscription: Subscription) -> bytes:
    """The body of the push: `payload` encrypted to the browser's keys (aes128gcm), a fresh
    sender key and salt each time."""
    sender = ec.generate_private_key(ec.SECP256R1())
    body = http_ece.encrypt(payload, salt=os.urandom(16), private_key=sender,
                            dh=b64url_decode(subscription.p256dh),
                            auth_secret=b64url_decode(subscription.auth),
                            version="aes128gcm")
    return bytes(body)


def origin(endpoint: str) -> str:
    """The push service's origin, the `aud` of the VAPID signature."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def authorization(endpoint: str, keys: VapidKeys, subject: str,
                  now: float | None = None) -> str:
    """The `Authorization: vapid t=<JWT>, k=<public key>` header for this endpoint."""
    claims = {"aud": origin(endpoint), "sub": subject,
              "exp": int((now or time.time()) + VAPID_LIFETIME)}
    signed = Vapid(keys.private_key).sign(claims)
    token = str(signed["Authorization"]).removeprefix("vapid t=").partition(",k=")[0]
    return f"vapid t={token}, k={keys.public_key}"


def headers(endpoint: str, body: bytes, keys: VapidKeys, subject: str,
            urgency: str = "normal") -> dict[str, str]:
    return {
        "TTL": str(TTL),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Content-Length": str(len(body)),
        "Urgency": urgency,
        "Authorization": authorization(endpoint, keys, subject),
    }


def _connection(target: push_address.Target) -> http.client.HTTPConnection:
    """A connection to the checked address, named as the host (SNI, certificate, Host)."""
    connection: http.client.HTTPConnection
    if target.scheme == "https":
        connection = http.client.HTTPSConnection(target.host, target.port, timeout=TIMEOUT,
                                                 context=ssl.create_default_context())
    else:  # the tests' receiver on the loopback only (push_address.parse allowed it)
        connection = http.client.HTTPConnection(target.host, target.port, timeout=TIMEOUT)

    def pinned(_address: tuple[str, int], timeout: float = TIMEOUT,
               source: tuple[str, int] | None = None) -> socket.socket:
        return socket.create_connection((target.address, target.port), timeout, source)

    # http.client opens its socket by this attribute: to the address checked, not the name
    connection._create_connection = pinned  # type: ignore[attr-defined]
    return connection


def post(subscription: Subscription, body: bytes, push_headers: dict[str, str]) -> int:
    """Post one push; the push service's status code (a 3xx is returned, not followed).
    Raises UnsafeEndpoint when the endpoint's host is not (or no longer) a public one, OSError
    (or http.client's errors) when it cannot be reached."""
    target = push_address.check(subscription.endpoint)
    connection = _connection(target)
    try:
        connection.request("POST", target.path, body=body, headers=push_headers)
        response = connection.getresponse()
        response.read(64 * 1024)  # the service's words, unread
        return response.status
    finally:
        connection.close()


def send(subscription: Subscription, payload: bytes, keys: VapidKeys, subject: str,
         urgency: str = "normal") -> int:
    body = encrypt(payload, subscription)
    return post(subscription, body,
                headers(subscription.endpoint, body, keys, subject, urgency))
