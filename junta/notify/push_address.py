"""Where a push may be sent. A subscription's endpoint is an address the server will post to,
given by whoever subscribed: it must never make the server reach its own network. So it is
accepted only as an `https` URL of a public host (no private, loopback, link-local, shared or
reserved address, whatever the name resolves to), checked when subscribing and again before each
push (a name may resolve elsewhere tomorrow); the push is then sent to the address checked
(`junta.notify.webpush`), and a redirect is never followed.

Only the test setting `JUNTA_PUSH_ALLOW_LOOPBACK` lets a receiver on 127.0.0.1 (or ::1) in,
over http too: the tests' push receiver.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

MAX_ENDPOINT = 1000


class UnsafeEndpoint(ValueError):
    """An endpoint the server will not post to, with the reason in words."""


@dataclass(frozen=True)
class Target:
    """Where to post a push: the URL's parts, and the address its host was checked at."""

    scheme: str
    host: str  # the name, for TLS (SNI, the certificate) and the Host header
    port: int
    path: str  # with its query
    address: str  # the IP address to connect to


IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def _plain(address: IP) -> IP:
    """An IPv4 address written as IPv6 (::ffff:10.0.0.1, 64:ff9b::a00:1...) as the IPv4 one."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
    return address


def is_public(address: IP) -> bool:
    plain = _plain(address)
    return plain.is_global and not plain.is_multicast


def allowed(address: IP) -> bool:
    """Whether a push may go to this address: a public one; a loopback one in the tests only."""
    if is_public(address):
        return True
    return bool(settings.JUNTA_PUSH_ALLOW_LOOPBACK and _plain(address).is_loopback)


def parse(endpoint: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an endpoint written as one may be; UnsafeEndpoint if not.
    Resolves nothing."""
    if len(endpoint) > MAX_ENDPOINT:
        raise UnsafeEndpoint(f"The endpoint is longer than {MAX_ENDPOINT} characters.")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError as error:
        raise UnsafeEndpoint("The endpoint is not a valid URL.") from error
    loopback = settings.JUNTA_PUSH_ALLOW_LOOPBACK
    if parts.scheme != "https" and not (loopback and parts.scheme == "http"):
        raise UnsafeEndpoint("The endpoint must be an https URL.")
    if not parts.hostname:
        raise UnsafeEndpoint("The endpoint names no host.")
    if parts.username is not None or parts.password is not None:
        raise UnsafeEndpoint("The endpoint may not hold a user name or password.")
    if parts.fragment:
        raise UnsafeEndpoint("The endpoint may not hold a fragment (#...).")
    if any(ord(c) < 33 or ord(c) > 126 for c in endpoint):
        raise UnsafeEndpoint("The endpoint holds spaces or characters a URL may not.")
    host = parts.hostname
    try:
        literal: IP | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
        if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
            raise UnsafeEndpoint("The endpoint's host is not a public one.") from None
    if literal is not None and not allowed(literal):
        raise UnsafeEndpoint("The endpoint's host is not a public address.")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def resolve(host: str, port: int) -> str:
    """The address to connect to for `host`: every address it resolves to must be allowed
    (a name with one private address among public ones is refused)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise UnsafeEndpoint(f"The endpoint's host {host} could not be found.") from error
    addresses = []
    for info in infos:
        try:
            addresses.append(ipaddress.ip_address(str(info[4][0]).partition("%")[0]))
        except ValueError as error:
            raise UnsafeEndpoint("The endpoint's host resolved to no IP address.") from error
    if not addresses:
        raise UnsafeEndpoint(f"The endpoint's host {host} could not be found.")
    if not all(allowed(address) for address in addresses):
        raise UnsafeEndpoint("The endpoint's host is not a public address.")
    return str(addresses[0])


def check(endpoint: str) -> Target:
    """Where to post to this endpoint now; UnsafeEndpoint if it may not be posted to."""
    scheme, host, port, path = parse(endpoint)
    return Target(scheme, host, port, path, resolve(host, port))
