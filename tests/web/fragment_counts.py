"""A page drawn anew for a test client, with how many of its fragments were drawn for it (the
others read back from the "drawings" cache, junta/games/fragments.py)."""

from __future__ import annotations

from unittest import mock

from django.test import Client

from junta.games import fragments
from tests.web.campaigns import drawn_next


def drawn_page(client: Client, url: str) -> tuple[str, int]:
    """The page at `url` (it must answer 200), drawn anew for this client as a new browser's
    (its CSRF cookie forgotten), and how many fragments were drawn for it."""
    drawn_next(client)
    with mock.patch.object(fragments, "render_to_string",
                           wraps=fragments.render_to_string) as draw:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), draw.call_count
