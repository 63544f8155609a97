"""Every order form the Orders page shows, posted with any offered choice exactly as a browser
sends it, is either stored (the saved list changes as described) or refused with a message next
to a field; "Saved." never appears.

States come from random bot campaigns at every phase kind, coups included (the same sample as
tests/engine/test_options_property.py). For each state a few seats open their Orders page; each
of its forms is posted as rendered (the first choice of every list) and with other offered
choices: each list's other values, each number box's bounds, a box ticked, each condition with
its details. Choices are sampled with a fixed seed so the run is repeatable and bounded.
"""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from junta.engine import GameState, describe_order, legal_options, parse_order
from junta.games.campaigns import start_campaign
from junta.games.models import Order as OrderRow
from tests.engine.bot_samples import PHASE_KINDS, sample_states
from tests.web.browser_forms import Form, forms_in
from tests.web.campaigns import install

VARIANTS = 5  # posts per form besides the form as rendered
SEATS = 2  # seats whose page is exercised in each state


def variants(form: Form, rng: random.Random) -> list[list[tuple[str, str]]]:
    """The form as rendered, then other offered choices, one control at a time."""
    base = form.submission()
    out = [base]
    options: list[list[tuple[str, str]]] = []
    for c in form.controls:
        if c.tag == "select" and c.name.endswith("-if"):
            continue  # conditions below
        if c.tag == "select":
            for value, _, _ in c.options[1:]:
                options.append(_replace(base, c.name, value))
        elif c.type == "number":
            for bound in ("min", "max"):
                if c.attrs.get(bound) not in (None, ""):
                    options.append(_replace(base, c.name, c.attrs[bound]))
        elif c.type == "checkbox":
            options.append(base + [(c.name, c.value)])
    conditions = [c for c in form.controls if c.tag == "select" and c.name.endswith("-if")]
    details = [c for c in form.controls if c.tag == "select" and "-if_" in c.name]
    for c in conditions:
        for kind, _, _ in c.options[1:]:
            chosen = _replace(base, c.name, kind)
            for detail in details:  # the player fills in the details; the page reads its kind's
                if len(detail.options) > 1:
                    chosen = _replace(chosen, detail.name, rng.choice(detail.options[1:])[0])
            options.append(chosen)
    rng.shuffle(options)
    return out + options[:VARIANTS]


def _replace(pairs: list[tuple[str, str]], name: str, value: str) -> list[tuple[str, str]]:
    out = [(n, v) for n, v in pairs if n != name]
    return out + [(name, value)]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", PHASE_KINDS)
def test_every_form_posted_as_a_browser_is_stored_or_refused_by_a_field(campaign, client,
                                                                       kind):
    from urllib.parse import urlencode



    state = GameState.from_dict(sample_states()[kind][0])
    game, users = campaign()
    start_campaign(game.id, game.gm)
    phase = install(game, state)
    by_seat = {p.seat: p.user for p in game.players.all()}
    url = reverse("game_orders", args=[game.id])
    rng = random.Random(f"orders-{kind}")
    seats = sorted(range(len(state.players)),
                   key=lambda s: -len(legal_options(state, s).orders))[:SEATS]
    posted = stored = refused = 0
    for seat in seats:
        client.force_login(by_seat[seat])
        page = client.get(url).content.decode()
        forms = [f for f in forms_in(page)
                 if any(c.name == "action" and c.value == "add" for c in f.controls)]
        assert len(forms) == len(legal_options(state, seat).orders)
        for form in forms:
            key = form.control("option").value
            for pairs in variants(form, rng):
                OrderRow.objects.filter(phase=phase).delete()
                response = client.post(url, urlencode(pairs),
                                       content_type="application/x-www-form-urlencoded")
                posted += 1
                row = OrderRow.objects.filter(phase=phase, player__user=by_seat[seat]).first()
                body = response.content.decode()
                assert "Saved." not in body
                if response.status_code == 302:
                    stored += 1
                    assert row is not None and len(row.payload) == 1, (key, pairs)
                    order = parse_order(dict(row.payload[0]))
                    assert order.kind == key.split(":")[0], (key, row.payload)
                    assert describe_order(state, order)
                    continue
                assert response.status_code == 400, (key, pairs, response.status_code)
                refused += 1
                assert row is None or row.payload == [], (key, pairs)
                prefix = form.control("option").value
                block = _form_block(body, prefix)
                assert block, (key, pairs)
                assert re.search(r'class="error" id="[^"]+-errors?"', block), (key, pairs, block)
    assert posted and stored, (posted, stored, refused)
    client.logout()


def _form_block(body: str, key: str) -> str:
    """The re-shown form of option `key` in a page."""
    marker = f'<input type="hidden" name="option" value="{key}">'
    start = body.find(marker)
    if start < 0:
        return ""
    end = body.find("</form>", start)
    return body[body.rfind("<details", 0, start):end]


def test_the_sweep_posts_what_a_browser_posts():
    """The browser helper the sweep relies on: hidden fields, the selected option (the first
    when none is marked), ticked boxes only, an empty number box."""
    form = forms_in('<form><input type="hidden" name="action" value="add">'
                    '<select name="a"><option value="1">x</option><option value="2" selected>'
                    'y</option></select><select name="d"><option value="5">z</option></select>'
                    '<input type="checkbox" name="b" value="3">'
                    '<input type="checkbox" name="b" value="4" checked>'
                    '<input type="number" name="c" min="1" max="5" value=""></form>')[0]
    assert form.submission() == [("action", "add"), ("a", "2"), ("d", "5"), ("b", "4"),
                                 ("c", "")]
    assert form.control("c").attrs["max"] == "5"
