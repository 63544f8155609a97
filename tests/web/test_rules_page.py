"""The Rules page (/rules/): docs/rules.md and docs/rulings.md as one page anyone may read, with
its contents, each heading's `§name` and id, the 88 political cards and the 28 zones; the site's
navigation links to it, and so does each instruction on the Status page (`/rules/#<section>`).

The expected cards and zones are read straight from the engine's data files, not through the
code that draws the page.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse

from junta.games.campaigns import start_campaign
from tests.web.page_scripts import every_page_scripts

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
DATA = REPO / "junta" / "engine" / "data"
HEADING = re.compile(r"^(#{1,6}) (.*?) \{#([a-z0-9-]+)\}\s*$", re.M)


def headings(name: str) -> list[tuple[int, str, str]]:
    """(level, title, id) of every heading of docs/<name>."""
    text = (DOCS / name).read_text(encoding="utf-8")
    return [(len(hashes), title, anchor) for hashes, title, anchor in HEADING.findall(text)]


def anchors() -> list[str]:
    return [a for name in ("rules.md", "rulings.md") for _, _, a in headings(name)]


@pytest.fixture
def page(client) -> str:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def between(page: str, start: str, end: str) -> str:
    head = page.index(start)
    return page[head:page.index(end, head)]


def test_the_page_is_public(client):
    """Logged out: the page, not the login form."""
    response = client.get("/rules/")
    assert response.status_code == 200
    assert "<title>Rules · Junta</title>" in response.content.decode()
    assert "The rules of Junta, as this site plays them" in response.content.decode()


def test_the_contents_list_every_section(page):
    """rules.md's sections and their subsections, rulings.md's, then the cards and the zones,
    each a link to its place on the page."""
    contents = between(page, '<nav class="rules-contents"', "</nav>")
    expected = [a for level, _, a in headings("rules.md") if level in (2, 3)]
    expected += [a for level, _, a in headings("rulings.md") if level in (1, 2)]
    expected += ["cards", "zones"]
    listed = re.findall(r'<a href="#([a-z0-9-]+)">', contents)
    assert listed == expected
    assert '<a href="#budget-vote">Budget Vote</a>' in contents


def test_each_heading_shows_its_name_and_has_an_id(page):
    for anchor in anchors():
        assert re.search(rf'<h([1-6]) id="{anchor}">[^\n]*?'
                         rf'<a class="section-link" href="#{anchor}">§{anchor}</a></h\1>',
                         page), anchor
    # ids are unique on the page
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert [i for i, n in ids.items() if n > 1] == []


def test_the_cards_list_shows_every_kind_with_its_copies(page):
    cards = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))["cards"]
    copies = Counter(c["name"] for c in cards)
    assert len(cards) == 88
    section = between(page, '<h2 id="cards">', "</section>")
    shown = {unescape(name): int(n or 1) for name, n in re.findall(
        r'<li class="card"><strong>([^<]+)</strong>(?: <span class="badge">×(\d+)</span>)?',
        section)}
    assert shown == dict(copies)
    assert sum(shown.values()) == 88
    assert f"The political deck holds 88 cards of {len(copies)} kinds" in section
    # each category has its own heading and §name
    for slug in ("vote", "influence", "assassin", "event"):
        assert f'<h3 id="cards-{slug}">' in section and f"§cards-{slug}</a>" in section


def test_the_zones_list_shows_the_28_zones(page):
    zones = json.loads((DATA / "map.json").read_text(encoding="utf-8"))["zones"]
    assert len(zones) == 28
    section = between(page, '<h2 id="zones">', "</section>")
    listed = re.findall(r'<li id="zone-(\d+)"><strong>(\d+) ([^<]+)</strong>', section)
    assert [(int(a), int(b), unescape(n)) for a, b, n in listed] == [
        (z["id"], z["id"], z["name"]) for z in sorted(zones, key=lambda z: z["id"])]
    assert "The capital has 28 zones" in section
    assert "Presidential Palace</strong>: the Palace, control point" in section


def test_the_rulings_are_on_the_page(page):
    for level, title, anchor in headings("rulings.md"):
        assert f'<h{level + 1} id="{anchor}">{title.replace("&", "&amp;")}' in \
            page.replace("&#x27;", "'"), anchor
    assert "From the third round a tie is settled by lot among the leaders" in \
        re.sub(r"\s+", " ", page)
    # the link from rules.md to rulings.md stays on the page
    assert 'href="#settled-rulings"' in page and 'href="rulings.md' not in page


def test_the_markdown_is_sanitised(client, settings, tmp_path):
    """Raw HTML in the files does not reach the page: no script, no handler, no javascript:
    link, no frame."""
    evil = "evil"  # a made-up section: not a citation of the rules
    (tmp_path / "rules.md").write_text(
        f"# Rules {{#rules}}\n\n## Evil {{#{evil}}}\n\n<script>alert('x')</script>\n\n"
        '<img src=x onerror="alert(1)"> [click](javascript:alert(2)) '
        '<iframe src="https://evil.example"></iframe> <a href="#evil" onclick="alert(3)">'
        "here</a>\n", encoding="utf-8")
    (tmp_path / "rulings.md").write_text("# Rulings {#settled-rulings}\n\nNone.\n",
                                         encoding="utf-8")
    settings.JUNTA_DOCS_DIR = tmp_path
    page = client.get(reverse("rules")).content.decode()
    article = between(page, '<article class="rulebook">', "</article>")
    assert f'<h2 id="{evil}">Evil <a class="section-link" href="#{evil}">§{evil}</a></h2>' \
        in article
    assert "here</a>" in article  # the text stays, the handler goes
    for bad in ("<script", "alert(", "onerror", "onclick", "javascript:", "<iframe", "<img"):
        assert bad not in article, bad
    # no script on the page but those on every page (the scripts' words, the installable app's)
    assert re.findall(r"<script[^>]*>", page) == every_page_scripts()


def test_the_site_nav_links_to_the_rules(client, django_user_model, db):
    for user in (None, django_user_model.objects.create_user(email="reader@example.org")):
        if user:
            client.force_login(user)
        home = client.get("/").content.decode()
        nav = between(home, '<nav class="site-nav"', "</nav>")
        assert '<a href="/rules/">Rules</a>' in nav


@pytest.mark.django_db
def test_a_status_instruction_links_to_its_section(campaign, client):
    game, users = campaign()
    start_campaign(game.id, game.gm)
    client.force_login(users[0])
    status = client.get(reverse("game_status", args=[game.id])).content.decode()
    links = re.findall(r'<a class="rules-link" href="/rules/#([a-z0-9-]+)">Rules §\1</a>', status)
    assert links == ["first-election"]  # "Nominate a player for the Presidency, ..."
    rules = client.get("/rules/").content.decode()
    for section in links:
        assert section in anchors()
        assert f'id="{section}"' in rules
