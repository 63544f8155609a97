"""A push service for the tests: an HTTP server on 127.0.0.1 (a thread, a random port) that
records every POST, answers what the test tells it, and a "browser" whose keys the pushes are
encrypted to, which decrypts them (RFC 8291, http_ece) and checks their VAPID signature."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt

from junta.notify.vapid import b64url


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """What it received, and the status (and Location) it answers each path with."""

    port: int = 0
    received: list[Received] = field(default_factory=list)
    answers: dict[str, tuple[int, str]] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def answer(self, name: str, status: int, location: str = "") -> None:
        self.answers[f"/push/{name}"] = (status, location)

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path == f"/push/{name}"]

    def clear(self) -> None:
        self.received.clear()


def start_receiver() -> tuple[Receiver, ThreadingHTTPServer]:
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            receiver.received.append(Received(self.path, dict(self.headers.items()), body))
            status, location = receiver.answers.get(self.path, (201, ""))
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # quiet

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver, server


@dataclass
class Browser:
    """A browser's push keys: its P-256 key pair and its 16-byte authentication secret."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, object]:
        """What `PushSubscription.toJSON()` gives, and the profile's script posts."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def decrypt(self, push: Received) -> dict[str, str]:
        plain = http_ece.decrypt(push.body, private_key=self.private_key,
                                 auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain.decode("utf-8"))


def vapid_claims(push: Received, public_key: str) -> dict[str, object]:
    """The claims of the push's `Authorization: vapid t=<JWT>, k=<key>`, its ES256 signature
    checked with `k`, which must be the site's public key."""
    scheme, _, rest = push.headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert parts["k"] == public_key
    header = json.loads(jwt.b64urldecode(parts["t"].split(".")[0].encode()))
    assert header == {"typ": "JWT", "alg": "ES256"}
    return jwt.decode(parts["t"], parts["k"])  # raises InvalidSignature when it does not verify


def check_push(push: Received, browser: Browser, public_key: str, origin: str,
               subject: str) -> dict[str, str]:
    """The push as a push service and the browser see it: its headers, its VAPID signature,
    then its payload decrypted."""
    assert push.headers["Content-Encoding"] == "aes128gcm"
    assert int(push.headers["TTL"]) > 0
    claims = vapid_claims(push, public_key)
    assert claims["aud"] == origin and claims["sub"] == subject
    assert time.time() < int(claims["exp"]) <= time.time() + 24 * 60 * 60
    payload = browser.decrypt(push)
    assert set(payload) == {"title", "body", "url", "tag"}
    assert payload["url"].startswith("/") and not payload["url"].startswith("//")
    return payload
