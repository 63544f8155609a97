"""A real SMTP server for the tests (aiosmtpd on 127.0.0.1, a free port), and the settings that
send the site's mail to it through Django's SMTP backend (the `mailbox` fixture of
tests/web/conftest.py)."""

from __future__ import annotations

import email
import email.policy
import re
import socket
from dataclasses import dataclass
from email.message import EmailMessage


@dataclass
class Received:
    to: list[str]
    message: EmailMessage
    data: bytes  # the message as it came over the wire, before any decoding

    def raw_header(self, name: str) -> bytes:
        """A header exactly as sent: its field body with any folding (CRLF and the whitespace
        that follows) left in, and any encoded-words left encoded."""
        head = self.data.split(b"\r\n\r\n", 1)[0]
        found = re.search(rb"^" + re.escape(name.encode()) + rb":[ \t]?(.*?)\r\n(?![ \t])",
                          head + b"\r\n", re.IGNORECASE | re.MULTILINE | re.DOTALL)
        assert found, f"no {name} header in the message"
        return found.group(1)

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    def part(self, subtype: str) -> str:
        body = self.message.get_body(preferencelist=(subtype,))
        return body.get_content() if body is not None else ""

    @property
    def text(self) -> str:
        return self.part("plain")

    @property
    def html(self) -> str:
        return self.part("html")

    @property
    def raw(self) -> str:
        """Everything a reader could see: headers, text and HTML."""
        return f"{self.message}\n{self.text}\n{self.html}"


class Mailbox:
    """What the SMTP server has received so far."""

    def __init__(self) -> None:
        self.received: list[Received] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append(Received(list(envelope.rcpt_tos), message, envelope.content))
        return "250 Message accepted"

    def to(self, address: str) -> list[Received]:
        return [m for m in self.received if address in m.to]

    def clear(self) -> None:
        self.received.clear()

    def __len__(self) -> int:
        return len(self.received)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
