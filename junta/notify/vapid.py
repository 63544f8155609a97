"""The site's VAPID key pair (RFC 8292): it signs every push, and browsers subscribe with its
public half, so that only this site may push to them.

From the settings: `JUNTA_VAPID_PRIVATE_KEY` (the raw 32-byte P-256 key in base64url, or its DER
in base64), else the PEM file `JUNTA_VAPID_KEY_FILE`: var/vapid.pem in development mode, which
`manage.py serve` (`make run`) writes on its first start (`ensure_key_file`); in production only a
file the variable names, one every machine mounts, never one machine's var/. The public key is
derived from the private one. Neither: `keys()` is None and push is unavailable (the profile
page says so).
"""

from __future__ import annotations

import base64
import os
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


@dataclass(frozen=True)
class VapidKeys:
    private_key: ec.EllipticCurvePrivateKey
    public_key: str  # the uncompressed point, base64url without padding (applicationServerKey)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


BASE64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")


def b64url_decode(text: str) -> bytes:
    """Base64url with or without its padding; raises ValueError (binascii.Error) if not."""
    text = text.strip()
    if not BASE64URL.fullmatch(text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def public_of(private_key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(private_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


def _from_setting(value: str) -> ec.EllipticCurvePrivateKey:
    raw = b64url_decode(value.replace("+", "-").replace("/", "_"))
    if len(raw) == 32:
        return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    key = serialization.load_der_private_key(raw, password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError("JUNTA_VAPID_PRIVATE_KEY is not an elliptic-curve key")
    return key


def _from_file(path: Path) -> ec.EllipticCurvePrivateKey | None:
    if not path.is_file():
        return None
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{path} does not hold an elliptic-curve key")
    return key


def keys() -> VapidKeys | None:
    """The key pair from the settings, or None when none is configured."""
    private: ec.EllipticCurvePrivateKey | None
    if settings.JUNTA_VAPID_PRIVATE_KEY:
        private = _from_setting(settings.JUNTA_VAPID_PRIVATE_KEY)
    else:
        key_file = settings.JUNTA_VAPID_KEY_FILE
        private = _from_file(Path(key_file)) if key_file else None
    if private is None:
        return None
    return VapidKeys(private, public_of(private))


def public_key() -> str | None:
    """The public key browsers subscribe with (base64url), or None: push is unavailable."""
    pair = keys()
    return pair.public_key if pair else None


def ensure_key_file(path: Path | None = None) -> Path | None:
    """Write a new key pair to `path` (the settings' key file) unless there is one, or a key is
    set in the environment. The file's path when it was written now, else None."""
    named = path or settings.JUNTA_VAPID_KEY_FILE
    if named is None:  # production without a key file: the key comes from the environment
        return None
    target = Path(named)
    if settings.JUNTA_VAPID_PRIVATE_KEY or target.exists():
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # its owner's only
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)
    return target
