"""The Orders page's empty order forms are drawn once per seat and phase and read back from the
"drawings" cache (junta/games/fragments.py): drawn again, the page is the same, each form
carrying the page's own CSRF token, which the site accepts; another seat's page draws its own
forms (a seat's forms show its cards and its money: never another's); an order given, the
forms drawn before are read back."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from junta.games.campaigns import start_campaign
from junta.games.models import Game, Player
from junta.games.models import Order as OrderRow
from tests.engine.option_states import ADMIRAL, GENERAL_3, locations
from tests.web.browser_forms import csrf_browser, form_with, submit
from tests.web.campaigns import install
from tests.web.fragment_counts import drawn_page

pytestmark = pytest.mark.django_db


def orders_page(client: Client, game: Game) -> tuple[str, int]:
    """The page drawn anew for this client, and how many fragments were drawn for it."""
    return drawn_page(client, reverse("game_orders", args=[game.id]))


def without_tokens(text: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "TOKEN", text)


def test_the_empty_forms_are_drawn_once_per_seat_and_sent_with_the_page_token(campaign):
    game, _users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, locations())
    seats = {p.seat: p.user for p in Player.objects.filter(game=game).select_related("user")}
    general = csrf_browser(seats[GENERAL_3])
    first, drawn = orders_page(general, game)
    forms = first.count('<details class="builder')
    assert forms > 5 and drawn == forms
    again, drawn = orders_page(general, game)
    assert drawn == 0  # every form read back
    assert without_tokens(again) == without_tokens(first)
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', again))
    assert len(tokens) >= 1 and "placeholder" not in again

    # another seat: its own forms, none of the general's
    _admiral_page, drawn = orders_page(csrf_browser(seats[ADMIRAL]), game)
    assert drawn == _admiral_page.count('<details class="builder')

    # a form read from the cache is sent as the browser sends it, its token accepted
    url = reverse("game_orders", args=[game.id])
    form = form_with(again, "option", "location").set("order-location-place", "club")
    assert submit(general, url, form).status_code == 302
    assert OrderRow.objects.get(phase=phase, player__user=seats[GENERAL_3]).payload
    after, drawn = orders_page(general, game)
    assert "Orders in" in after and drawn < forms  # the forms unchanged were read back
